"""Pieces of the chunk inspector a reader can take in at a glance: settings in words, the page to open on,
and two contexts side by side with their differences marked (document text escaped, never interpreted)."""
from __future__ import annotations

import difflib
import html

from rag.chunking.zones import ZONES

_WORDS = {  # setting → how it reads
    "chunker": "chunker {}",
    "chunk_size": "chunk size {} word-pieces",
    "chunk_overlap": "overlap {} word-pieces",
    "sentence_overlap": "sentence overlap {}",
    "semantic_percentile": "semantic breaks above the {}th percentile",
    "parent_size": "parents of {} word-pieces",
    "embed_context": "embedded with {} neighbouring sentences",
    "embed_headings": "headings embedded: {}",
}


def settings_label(cfg: dict) -> str:
    """'chunker paragraph · chunk size 200 word-pieces · …' from a book's chunking settings."""
    out = []
    for k, v in cfg.items():
        if k == "v":
            continue
        if k == "embed_headings":
            v = "yes" if v else "no"
        out.append(_WORDS.get(k, k.replace("_", " ") + " {}").format(v))
    return " · ".join(out)


def first_text_page(chunks) -> int:
    """The first page with ordinary text in a chunk (not a cover, contents or copyright page); 1 if none."""
    pages = [c.page_start for c in chunks if c.kind not in ZONES and len(c.text.split()) >= 20]
    return min(pages) if pages else min((c.page_start for c in chunks), default=1)


_STYLE = ("<style>.sbs{display:flex;gap:8px;max-height:420px;overflow:auto;font:12px/1.45 monospace}"
          ".sbs>div{flex:1;min-width:0}.sbs p{margin:0;padding:1px 4px;white-space:pre-wrap;word-break:break-word}"
          ".sbs .del{background:#fde2e1}.sbs .ins{background:#dff5e1}.sbs .chg{background:#fff3c4}"
          ".sbs h5{margin:0 0 4px;font:600 12px sans-serif}@media(max-width:640px){.sbs{flex-direction:column}}"
          "</style>")


def side_by_side_html(a: str, b: str, names: tuple[str, str] = ("A", "B")) -> str:
    """Two texts in two columns, line by line: lines only in A red, only in B green, changed lines yellow.
    Every line is HTML-escaped (document text is data)."""
    la, lb = a.splitlines(), b.splitlines()
    left, right = [], []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, la, lb, autojunk=False).get_opcodes():
        cls_a, cls_b = {"equal": ("", ""), "delete": ("del", ""), "insert": ("", "ins"),
                        "replace": ("chg", "chg")}[tag]
        left += [f'<p class="{cls_a}">{html.escape(x) or "&nbsp;"}</p>' for x in la[i1:i2]]
        right += [f'<p class="{cls_b}">{html.escape(x) or "&nbsp;"}</p>' for x in lb[j1:j2]]
    return (f'{_STYLE}<div class="sbs"><div><h5>{html.escape(names[0])}</h5>{"".join(left)}</div>'
            f'<div><h5>{html.escape(names[1])}</h5>{"".join(right)}</div></div>')
