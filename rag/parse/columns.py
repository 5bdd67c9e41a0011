"""Reading order of multi-column pages, from block boxes alone (PyMuPDF's ``sort=True`` costs ~14 s on a
300-page book; this costs next to nothing).

A page is two-column when a vertical gutter exists that no narrow text block crosses, with at least two
blocks and a fifth of the text on each side. Then it is read band by band: blocks that span the gutter
(a title, a full-width figure caption or paragraph) separate the bands, and inside a band the left
column is read top to bottom before the right one. Any other page keeps the PDF's content order.
"""
from __future__ import annotations

NARROW = 0.55  # a column block is at most this share of the page width
MIN_SHARE = 0.2  # each column holds at least this share of the page's text characters


def _chars(block: dict) -> int:
    return sum(len(s["text"]) for ln in block["lines"] for s in ln["spans"])


def gutter(blocks: list[dict], width: float) -> float | None:
    """The x of a gutter between two columns, or None for a one-column page."""
    narrow = [b for b in blocks if b["bbox"][2] - b["bbox"][0] <= NARROW * width and _chars(b) > 0]
    if len(narrow) < 4:
        return None
    total = sum(_chars(b) for b in blocks) or 1
    for x in sorted({round(b["bbox"][2]) + 1 for b in narrow}):  # candidate: just right of a block
        if not 0.25 * width <= x <= 0.75 * width:
            continue
        if any(b["bbox"][0] < x < b["bbox"][2] for b in narrow):
            continue
        left = [b for b in narrow if b["bbox"][2] <= x]
        right = [b for b in narrow if b["bbox"][0] >= x]
        if (len(left) >= 2 and len(right) >= 2 and sum(map(_chars, left)) >= MIN_SHARE * total
                and sum(map(_chars, right)) >= MIN_SHARE * total):
            return float(x)
    return None


def reading_order(blocks: list[dict], width: float) -> list[dict]:
    """``blocks`` (PyMuPDF dict blocks) in reading order: column by column on a two-column page."""
    x = gutter(blocks, width)
    if x is None:
        return blocks
    out: list[dict] = []
    band: list[dict] = []

    def flush():
        out.extend(sorted((b for b in band if b["bbox"][2] <= x), key=lambda b: b["bbox"][1]))
        out.extend(sorted((b for b in band if b["bbox"][2] > x), key=lambda b: b["bbox"][1]))
        band.clear()

    for b in sorted(blocks, key=lambda b: (b["bbox"][1], b["bbox"][0])):
        if b["bbox"][0] < x < b["bbox"][2]:  # spans the gutter: ends the band above it
            flush()
            out.append(b)
        else:
            band.append(b)
    flush()
    return out
