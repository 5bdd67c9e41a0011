"""Plain text → laid-out PDF, with the structure a text file shows: headings underlined with ``===``/``---``
or standing alone as short numbered or capitalised lines, indented blocks as code, blank lines between
paragraphs. Every character is escaped: the text is never read as markup."""
from __future__ import annotations

import html
import re

from .builder import BookBuilder
from .converted import Converted
from .webpage import title_or_heading

_UNDERLINE = re.compile(r"^(={3,}|-{3,}|~{3,}|\*{3,})\s*$")
_NUMBERED = re.compile(r"^(chapter|part|section|appendix|kapitel|teil|chapitre|partie|annexe)\b|^\d+(\.\d+)*\.?\s+\S",
                       re.I)
_LIST = re.compile(r"^\s*([-*•+]|\d+[.)]|[a-z][.)])\s+")
MAX_HEADING = 80


def _heading_level(lines: list[str]) -> int:
    """1–3 when a paragraph (its lines) is a heading, else 0."""
    if len(lines) == 2 and _UNDERLINE.match(lines[1]) and 0 < len(lines[0].strip()) <= MAX_HEADING:
        return 1 if lines[1].lstrip()[0] in "=*" else 2
    if len(lines) != 1:
        return 0
    t = lines[0].strip()
    if not (2 < len(t) <= MAX_HEADING) or t[-1] in ".,;:!?" or lines[0][:1].isspace():
        return 0
    m = re.match(r"^(\d+(?:\.\d+)*)\.?\s", t)
    if m:
        return min(m.group(1).count(".") + 1, 3)
    if _NUMBERED.match(t):
        return 1
    letters = [c for c in t if c.isalpha()]
    if len(letters) >= 3 and all(c.isupper() for c in letters):
        return 1
    return 0


def to_html(text: str) -> str:
    """The text's paragraphs, headings, lists and indented code as escaped HTML."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").expandtabs(4)
    out: list[str] = []
    for para in re.split(r"\n[ \t]*\n", text):
        lines = [ln for ln in para.split("\n")]
        while lines and not lines[0].strip():
            lines.pop(0)
        if not lines:
            continue
        esc = html.escape
        level = _heading_level(lines)
        if not out and not level and len(lines) == 1 and 2 < len(lines[0].strip()) <= MAX_HEADING \
                and lines[0].strip()[-1] not in ".,;:!?":
            level = 1  # a short first line standing alone is the title
        if level:
            out.append(f"<h{level}>{esc(lines[0].strip())}</h{level}>")
        elif all(ln.startswith("    ") or not ln.strip() for ln in lines):
            out.append("<pre>" + esc("\n".join(ln[4:] for ln in lines)) + "</pre>")
        elif len(lines) > 1 and (sum(bool(_LIST.match(ln)) for ln in lines) >= len(lines) / 2
                                 or max(len(ln) for ln in lines) < 45):
            out.append("<p>" + "<br/>".join(esc(ln.strip()) for ln in lines) + "</p>")  # lists, verse, addresses
        else:
            out.append("<p>" + esc(" ".join(ln.strip() for ln in lines)) + "</p>")
    return "\n".join(out)


def read_text(text: str, filename: str) -> Converted:
    b = BookBuilder(filename, "text file")
    b.add(to_html(text), b.doc(image=lambda src: None))
    return b.build("text", "txt", title_or_heading("", b, filename), "")
