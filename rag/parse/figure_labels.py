"""Labels beside a figure: short text lines just outside its drawn region belong to its crop.

A diagram's drawing often ends where its labels begin: the frame names left of a stack diagram, an axis title
under a plot, the names beside the arrows of a flow chart. Those are text lines in the PDF, outside the
rectangle the drawings cover, so a crop of the drawings alone cuts them off. A line joins the figure when it is
short (a label, not a sentence), its whole text block is made of such short lines (so the last line of a
paragraph never does), and it touches the figure: beside it within ``SIDE_GAP`` points and level with it, or
above or below it within ``SIDE_GAP`` points and no wider than it. This holds for any book because running
text is set in blocks of long lines, while labels are set as separate short lines next to the drawing.
"""
from __future__ import annotations

SIDE_GAP = 12.0  # points between a figure's drawing and a label beside it
LABEL_WORDS = 4  # a label line has at most this many words
LABEL_CHARS = 32  # ... and at most this many characters


def line_text(ln: dict) -> str:
    """A text line's words (its spans joined, stripped)."""
    return "".join(s["text"] for s in ln["spans"]).strip()


def _labelish(block: dict) -> bool:
    texts = [line_text(ln) for ln in block["lines"]]
    return bool(texts) and all(len(t.split()) <= LABEL_WORDS and len(t) <= LABEL_CHARS for t in texts)


def _touches(rect, bbox) -> bool:
    x0, y0, x1, y1 = bbox
    mid_y = (y0 + y1) / 2
    beside = rect.y0 <= mid_y <= rect.y1 and (0 <= rect.x0 - x1 <= SIDE_GAP or 0 <= x0 - rect.x1 <= SIDE_GAP)
    within_x = x0 >= rect.x0 - SIDE_GAP and x1 <= rect.x1 + SIDE_GAP
    over_under = within_x and (0 <= rect.y0 - y1 <= SIDE_GAP or 0 <= y0 - rect.y1 <= SIDE_GAP)
    return beside or over_under


def take_side_labels(rect, blocks: list[dict], skip_block: int = -1) -> tuple[object, set]:
    """The figure's rectangle grown to hold the label lines that touch it, and those lines' (block, line)
    indices. Only lines touching the drawn region itself are taken (no chains of short lines)."""
    import pymupdf

    drawn = pymupdf.Rect(rect)
    grown = pymupdf.Rect(drawn)
    taken: set = set()
    for bi, b in enumerate(blocks):
        if bi == skip_block or not _labelish(b):
            continue
        for li, ln in enumerate(b["lines"]):
            if line_text(ln) and not drawn.contains(pymupdf.Rect(ln["bbox"])) and _touches(drawn, ln["bbox"]):
                grown |= pymupdf.Rect(ln["bbox"])
                taken.add((bi, li))
    return grown, taken
