"""Reading order of multi-column pages, from block boxes alone (PyMuPDF's ``sort=True`` costs ~14 s on a
300-page book; this costs next to nothing).

A page is two-column when a vertical gutter exists that no narrow text block crosses, with at least two
blocks and a fifth of the text on each side. Then it is read band by band: blocks that span the gutter
(a title, a full-width figure caption or paragraph) separate the bands, and inside a band the left
column is read top to bottom before the right one.

A page with a side column (``side_column``: a journal's first page with the citation, dates, licence and funding in
a narrow column beside the abstract) is read side column first, then the main column: the main column's last
sentence goes on at the top of the next page, and read in the PDF's order the side column stood between the two
halves ("… showed that" + "Citation: …" + "Funding: …" + "the CC and PG essential oils significantly reduced …").
When the main column itself begins by finishing the previous page's sentence, the side column comes after that
sentence. Any other page keeps the PDF's content order.
"""
from __future__ import annotations

from ..text.sentences import ends_sentence

NARROW = 0.55  # a column block is at most this share of the page width
MIN_SHARE = 0.2  # each column holds at least this share of the page's text characters
SIDE = 0.35  # a side column is at most this share of the page width …
MAIN = 0.45  # … beside a main column at least this wide
SIDE_BLOCKS = 3  # a side column has at least this many text blocks
LEVEL = 2.0  # points: a side block that starts level with a main block ("--help" beside its description) …
LEVEL_SHARE = 1 / 3  # … and when more than this share of them do, the page is a two-column list, not a side column
BODY = (0.075, 0.93)  # the page's running header and footer bands (rag.parse.furniture) may span both


def _text(block: dict) -> str:
    return " ".join("".join(s["text"] for s in ln["spans"]) for ln in block["lines"]).strip()


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


def side_column(blocks: list[dict], width: float, height: float) -> tuple[float, bool] | None:
    """(x, whether the side column is on the left) of a page whose body is a narrow side column beside a main column
    that no body block crosses; None for any other page."""
    if height <= 0:
        return None
    body = [b for b in blocks
            if _chars(b) > 0 and b["bbox"][1] >= BODY[0] * height and b["bbox"][3] <= BODY[1] * height]
    if len(body) < SIDE_BLOCKS + 1:
        return None
    for left in (True, False):
        edges = {round(b["bbox"][2]) + 1 if left else round(b["bbox"][0]) - 1 for b in body
                 if b["bbox"][2] - b["bbox"][0] <= SIDE * width}
        for x in sorted(edges, reverse=not left):
            if not (0.1 * width <= x <= (SIDE + 0.05) * width if left else (0.95 - SIDE) * width <= x <= 0.9 * width):
                continue
            side = [b for b in body if (b["bbox"][2] <= x if left else b["bbox"][0] >= x)]
            main = [b for b in body if (b["bbox"][0] >= x if left else b["bbox"][2] <= x)]
            if len(side) + len(main) != len(body) or len(side) < SIDE_BLOCKS or not main:
                continue  # a body block crosses x
            if max(b["bbox"][2] - b["bbox"][0] for b in main) < MAIN * width:
                continue
            level = sum(any(abs(b["bbox"][1] - m["bbox"][1]) <= LEVEL for m in main) for b in side)
            if level <= LEVEL_SHARE * len(side):
                return float(x), left
    return None


def reading_order(blocks: list[dict], width: float, height: float = 0.0) -> list[dict]:
    """``blocks`` (PyMuPDF dict blocks) in reading order: column by column on a two-column page, the side column
    before the main one on a page with a side column (``height``: the page's, to know its header and footer)."""
    x = gutter(blocks, width)
    if x is None:
        side = side_column(blocks, width, height)
        if side is None:
            return blocks
        at, left = side
        top = [b for b in blocks if b["bbox"][1] < BODY[0] * height]
        bottom = [b for b in blocks if b not in top and b["bbox"][3] > BODY[1] * height]
        body = [b for b in blocks if b not in top and b not in bottom]
        aside = sorted((b for b in body if (b["bbox"][2] <= at if left else b["bbox"][0] >= at)),
                       key=lambda b: b["bbox"][1])
        main = [b for b in body if b not in aside]
        cut = 0  # the side column goes before the main column; when the main column's first words go on with the
        if main and _text(main[0])[:1].islower():  # previous page's sentence, after its first finished sentence
            cut = next((k + 1 for k, b in enumerate(main) if ends_sentence(_text(b))), len(main))
        return top + main[:cut] + aside + main[cut:] + bottom
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
