"""Book text as a reader sees it: a passage cut into paragraphs, lists, code and ruled tables, and an answer cut
into its prose (with its ``[n]`` citations) and the fenced code and table blocks the answerer writes.

Everything stays text: nothing here makes Markdown or HTML. The pages draw a paragraph or list with ``st.text``
(or the citation component, which sets text nodes), code with ``st.code`` and a table's rows as a dataframe.

Where a line came from is known from its page (``chunk_layout``: [start, end, kind, indent] per line, kinds as the
parser records them: 0 text, 1 code — a monospaced line —, 2 table, 3 running header/footer); without it (a
deleted book's passage) Markdown-style rows ("| a | b |", "|---|") are still a table and an interpreter session
(">>> ") still code.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..text.sentences import glyphs_inside, glyphs_only

from ..types import LINE_CODE as CODE, LINE_TABLE as TABLE, LINE_TEXT as TEXT, UNSHOWN  # line kinds (Source.layout)

# a list item: a bullet, "1." / "1)" / "(1)", "a)" / "(a)" — then text
ITEM = re.compile(r"^\s*(?:[•●▪◦‣·∙■□➢►\-–—*]|\(?\d{1,3}[.)]|\(?[a-zA-Z][)])\s+\S")
SEPARATOR = re.compile(r"^\|?(?:\s*:?-{3,}:?\s*\|)+\s*$")  # "|---|---|"
FENCE = re.compile(r"^```([A-Za-z]*)[ \t]*$")
CITATION = re.compile(r"\[(\d{1,3}(?:\s*[,;]\s*\d{1,3})*)\]")  # [1], [1, 2]
PROMPT = re.compile(r"^\s*(?:>>>|\.\.\.|\$|In \[\d+\]:)(?:\s|$)")  # an interpreter or shell session line


@dataclass(frozen=True)
class Block:
    """One piece of a passage: ``kind`` "para" (text, reflowed), "list" (one item a line), "code" (lines as in
    the book) or "table" (``rows``, the first the header)."""

    kind: str
    text: str = ""
    rows: tuple[tuple[str, ...], ...] = ()


def is_table_line(line: str) -> bool:
    s = line.strip()
    return len(s) >= 3 and s.startswith("|") and s.endswith("|")


def table_rows(lines: list[str]) -> list[list[str]]:
    """Markdown-style rows ("| a | b |"; separator lines dropped) → cells; every row as long as the widest.
    The parser writes a cell's own "|" as "/", so "|" only separates cells."""
    rows = []
    for ln in lines:
        s = ln.strip()
        if not s or SEPARATOR.match(s):
            continue
        s = s[1:] if s.startswith("|") else s
        s = s[:-1] if s.endswith("|") else s
        rows.append([c.strip() for c in s.split("|")])
    width = max((len(r) for r in rows), default=0)
    return [r + [""] * (width - len(r)) for r in rows]


def _reflow(lines: list[str]) -> str:
    """A paragraph's lines as one line: PDF line ends become spaces; a word broken by a hyphen at a line end
    stays one word ("exam-" "ple" → "exam-ple")."""
    out = ""
    for ln in lines:
        s = " ".join(ln.split())
        if not s:
            continue
        if not out:
            out = s
        elif out.endswith("-") and s[:1].islower() and not out.endswith(" -"):
            out += s
        else:
            out += " " + s
    return out


def chunk_layout(chunk, pages) -> list[list]:
    """``context.layout.source_layout`` of ``chunk`` (a ``Chunk``) alone, from ``pages`` (its ``Page``s, with their
    line boxes): [start, end, kind, indent, blank before, x0] for its lines that lie whole inside it, in offsets of
    the chunk's text; a code line's indentation in characters is restored from its position on the page (PDF text
    loses leading spaces)."""
    from ..context.layout import source_layout

    by_number = {pg.number: pg for pg in pages}
    return source_layout([(0, chunk)], lambda book, n: by_number.get(n))


def _kinds(text: str, layout: list | tuple) -> list[tuple[str, int, int]]:
    """(line, kind, indent) for each line of ``text``: the layout's kind where a line starts at a layout line's
    start; else a Markdown-style row is a table line, and, without a layout, an interpreter session (">>> ",
    "... ", "$ " and the output lines up to the next blank line) is code."""
    from ..context.layout import line_kinds

    marks = line_kinds(layout or ())
    out, pos, session = [], 0, False
    for raw in text.split("\n"):
        kind, indent = marks.get(pos, (TEXT, 0))
        if kind == TEXT and is_table_line(raw):
            kind = TABLE
        elif not marks:
            session = bool(raw.strip()) and (session or bool(PROMPT.match(raw)))
            kind = CODE if session else kind
        out.append((raw, kind, indent))
        pos += len(raw) + 1
    return out


def source_blocks(text: str, layout: list | tuple = ()) -> list[Block]:
    """A passage of book text as blocks; ``layout``: its lines' layout, in offsets of ``text`` (``chunk_layout``;
    without one, Markdown-style tables and interpreter sessions are still found). Paragraph lines are joined (PDF
    line ends are not the author's); list items separated by blank lines stay one list; a table the parser could
    not rule (cells one per line) keeps its lines."""
    blocks: list[Block] = []
    para: list[str] = []
    items: list[list[str]] = []
    code: list[str] = []
    table: list[str] = []
    gap = False  # a blank line since the last list item's text

    def flush_text() -> None:
        nonlocal gap
        if para:
            blocks.append(Block("para", _reflow(para)))
            para.clear()
        if items:
            blocks.append(Block("list", "\n".join(_reflow(i) for i in items)))
            items.clear()
        gap = False

    def flush_code() -> None:
        if code:
            blocks.append(Block("code", "\n".join(code).rstrip()))
            code.clear()

    def flush_table() -> None:
        """Runs of Markdown-style rows become tables; the other lines of a table (its caption, or the cells of
        a table the parser could not rule, one per line) are kept line by line."""
        runs: list[tuple[bool, list[str]]] = []
        for t in table:
            row = is_table_line(t)
            if runs and runs[-1][0] == row:
                runs[-1][1].append(t)
            else:
                runs.append((row, [t]))
        for row, lines in runs:
            rows = table_rows(lines) if row else []
            if row and (len(rows) >= 2 or any(SEPARATOR.match(t.strip()) for t in lines)):
                blocks.append(Block("table", rows=tuple(tuple(r) for r in rows)))
            else:
                blocks.append(Block("para", "\n".join(" ".join(t.split()) for t in lines)))
        table.clear()

    lines = _kinds(text, layout)
    # a blank line inside a listing is kept where the page sets one (a listing the PDF split into text blocks has
    # blank lines in its text that the page does not show: tour 50 saw one before "word = line.strip()"); without
    # that knowledge (an older layout, none at all), every one is kept
    from ..context.layout import blank_before

    known, blank = any(len(ln) > 4 for ln in layout or ()), blank_before(layout or ())
    starts = [0]
    for raw, _, _ in lines:
        starts.append(starts[-1] + len(raw) + 1)
    for i, (raw, k, indent) in enumerate(lines):
        if k in UNSHOWN:
            continue
        if k != CODE and glyphs_only(raw) and not glyphs_inside(
                next((r for r, kk, _ in reversed(lines[:i]) if kk == TEXT and r.strip() and not glyphs_only(r)), ""),
                next((r for r, _, _ in lines[i + 1:] if r.strip() and not glyphs_only(r)), "")):
            raw = ""  # note icons and the like the PDF gives no characters for: a blank line, not a line of "�"
        if k == CODE and raw.strip():
            flush_text()
            flush_table()
            lead = len(raw) - len(raw.lstrip(" "))
            while known and code and code[-1] == "" and starts[i] not in blank:
                code.pop()
            code.append(" " * (indent + lead) + raw.strip())
            continue
        if k == TABLE and raw.strip():
            flush_text()
            flush_code()
            table.append(raw)
            continue
        if not raw.strip():
            if code:  # a blank line in a listing stays in it (until text follows)
                code.append("")
                continue
            if table:
                continue
            if items:
                gap = True
            else:
                flush_text()
            continue
        flush_code()
        flush_table()
        if ITEM.match(raw):
            if para:
                flush_text()
            items.append([raw.strip()])
            gap = False
        elif items and not gap:
            items[-1].append(raw)
        else:
            if items:
                flush_text()
            para.append(raw)
    flush_code()
    flush_table()
    flush_text()
    return blocks


def answer_blocks(text: str) -> list[Block]:
    """An answer's text: prose ("para", its lines kept: list items stand on their own lines) and the fenced
    blocks the answerer writes (```: "code", ```table: "table"). An unclosed fence runs to the end."""
    blocks: list[Block] = []
    prose: list[str] = []
    fence: list[str] | None = None
    fence_kind = ""

    def flush_prose() -> None:
        for part in re.split(r"\n\s*\n", "\n".join(prose)):
            if part.strip():
                blocks.append(Block("para", part.strip("\n")))
        prose.clear()

    def flush_fence() -> None:
        body = fence or []
        if fence_kind == "table":
            rows = table_rows(body)
            if rows:
                blocks.append(Block("table", rows=tuple(tuple(r) for r in rows)))
        elif any(ln.strip() for ln in body):
            blocks.append(Block("code", "\n".join(body).strip("\n")))

    for line in text.split("\n"):
        m = FENCE.match(line.strip())
        if fence is None and m:
            flush_prose()
            fence, fence_kind = [], m.group(1).lower()
        elif fence is not None and line.strip() == "```":
            flush_fence()
            fence = None
        elif fence is not None:
            fence.append(line)
        else:
            prose.append(line)
    if fence is not None:
        flush_fence()
    flush_prose()
    return blocks


def cite_segments(text: str, known: set[int] | None = None) -> list[tuple[str, str | int]]:
    """Prose as ("text", words) and ("cite", n) segments; "[1, 2]" gives two citations. A bracketed number that
    names no source in ``known`` stays text."""
    out: list[tuple[str, str | int]] = []
    pos = 0
    for m in CITATION.finditer(text):
        ns = [int(x) for x in re.split(r"\s*[,;]\s*", m.group(1))]
        if known is not None and not all(n in known for n in ns):
            continue
        if m.start() > pos:
            out.append(("text", text[pos:m.start()]))
        out.extend(("cite", n) for n in ns)
        pos = m.end()
    if pos < len(text):
        out.append(("text", text[pos:]))
    return out


def upto_citation(text: str, n: int, k: int) -> str:
    """An answer's ``text`` as the reader sees it (``answer_blocks``: prose and fenced listings, in order) up to and
    including its ``k``-th (from 0) citation of source ``n`` in prose; "" for k < 0. A source cited twice has two
    passages: what each [n] closes is told apart by cutting the answer after it."""
    if k < 0:
        return ""
    out: list[str] = []
    seen = 0
    for b in answer_blocks(text):
        if b.kind == "code":
            out.append("```\n" + b.text + "\n```")
            continue
        if b.kind != "para":
            continue
        words: list[str] = []
        for kind, value in cite_segments(b.text):
            words.append(value if kind == "text" else f"[{value}]")
            if kind == "cite" and value == n:
                if seen == k:
                    return "\n\n".join([*out, "".join(words)])
                seen += 1
        out.append("".join(words))
    return "\n\n".join(out)
