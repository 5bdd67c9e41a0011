"""Where a source's lines came from on the page: for each line of a source's text that is a whole chunk's line, its
kind (text, code — a monospaced line —, table, furniture) and, for code, its indentation in characters restored from
the line's position on the page (PDF text loses leading spaces). The answerer keeps a code listing a passage
introduces whole and in its layout; the reader sees code as code and tables as tables."""
from __future__ import annotations

import statistics
from typing import Callable

from ..types import LINE_CODE as CODE, LINE_TABLE as TABLE, LINE_TEXT as TEXT, UNSHOWN, Chunk, Page  # noqa: F401


def source_layout(parts: list[tuple[int, Chunk]], page: Callable[[str, int], Page | None]) -> list[list]:
    """``parts``: (offset in the source text, chunk) for each part that is a whole chunk's text. Returns
    [start, end, kind, indent, blank before, x0 on the page] per line, in source-text offsets."""
    out: list[list] = []
    cache: dict[tuple[str, int], Page | None] = {}
    for at, c in parts:
        for n in range(c.page_start, c.page_end + 1):
            key = (c.book_id, n)
            if key not in cache:
                cache[key] = page(c.book_id, n)
            pg = cache[key]
            if pg is None:
                continue
            for ln in pg.lines:
                a, b = pg.offset + ln[0], pg.offset + ln[1]
                if a >= c.char_start and b <= c.char_end:
                    kind = ln[6] if len(ln) > 6 else TEXT
                    out.append([at + a - c.char_start, at + b - c.char_start, kind, float(ln[2]), float(ln[4]),
                                float(ln[3]), float(ln[5])])
    return _indents(out)


BLANK_LINE = 0.7  # a gap of this share of a line's height between two code lines is a blank line of the listing


def _indents(lines: list[list]) -> list[list]:
    """[start, end, kind, indent, blank before, x0] per line: x0 → indentation in characters for runs of code lines (the
    run's leftmost line is at 0); a code line set a blank line's height below the one before it on the same page
    has a blank line before it (1) — a listing split into several text blocks is not (the page's blank lines between
    blocks are no evidence)."""
    result: list[list] = []
    run: list[list] = []

    def flush() -> None:
        if run:
            widths = [(x1 - x0) / max(1, e - s) for s, e, _, x0, x1, *_ in run if e > s]
            cw = statistics.median(widths) if widths else 6.0
            left = min(ln[3] for ln in run)
            height = statistics.median(ln[6] - ln[5] for ln in run)
            for i, (s, e, k, x0, _, y0, _) in enumerate(run):
                gap = y0 - run[i - 1][6] if i else 0.0
                result.append([s, e, k, int(round((x0 - left) / cw)) if cw > 0 else 0,
                               int(height > 0 and gap >= BLANK_LINE * height), x0])
            run.clear()

    for ln in sorted(lines):
        if ln[2] == CODE:
            run.append(ln)
            continue
        flush()
        result.append([ln[0], ln[1], ln[2], 0, 0, ln[3]])
    flush()
    return sorted(result)


def line_kinds(layout: list) -> dict[int, tuple[int, int]]:
    """Line start (in the source text) → (kind, indent) for the lines ``layout`` knows."""
    return {ln[0]: (int(ln[2]), int(ln[3]) if len(ln) > 3 else 0) for ln in layout}


def blank_before(layout: list) -> set[int]:
    """Starts of the code lines the page sets a blank line below the line before them."""
    return {ln[0] for ln in layout if len(ln) > 4 and ln[4]}


def lefts(layout: list) -> dict[int, float]:
    """Line start (in the source text) → the line's left edge on its page, for the lines ``layout`` knows."""
    return {ln[0]: float(ln[5]) for ln in layout if len(ln) > 5}


def structured_text(text: str, layout: list) -> str:
    """``text`` with its code lines (as the layout marks them) in fenced blocks, indented as on the page, and its
    running headers/footers left out: what an LLM reads of a source, and how a reader sees code in it."""
    kinds, blank = line_kinds(layout), blank_before(layout)
    out: list[str] = []
    code: list[str] = []
    pos = 0
    for raw in text.split("\n"):
        kind, indent = kinds.get(pos, (TEXT, 0))
        if kind == CODE and raw.strip():
            code += [""] * (bool(code) and pos in blank) + [" " * indent + raw.strip()]
            pos += len(raw) + 1
            continue
        pos += len(raw) + 1
        if kind in UNSHOWN:
            continue
        if code and raw.strip():
            out.append("```\n" + "\n".join(code) + "\n```")
            code = []
        if raw.strip() or not code:
            out.append(raw)
    if code:
        out.append("```\n" + "\n".join(code) + "\n```")
    return "\n".join(out)
