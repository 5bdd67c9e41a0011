"""Ruled tables → Markdown rows, with PyMuPDF's ``find_tables``, only where a page draws a grid.

``find_tables`` costs 0.1–1.5 s a page, so it runs only on pages with three or more horizontal rules of
the same width at different heights (a cheap look at the page's drawings; code boxes and figure frames
are rectangles, not rules), clipped to the area of those rules. What it finds is kept only when it
reads like a table: two rows and two columns or more of short cells, not a diagram of single letters or a
box of running prose. Merged cells are shown once.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

MIN_H_RULES = 3
MAX_RULE_GAP = 200  # points between two rules of one table
# a page drawn with more paths than this is a plot or a diagram, not a ruled table (a table needs a rule per row
# and column, or a box per cell: a 60 × 60 grid of boxed cells is 3,600); looking for tables in the Octave
# manual's 52,652-path plot cost 150 MB and 0.3 s for none
MAX_TABLE_PATHS = 5_000
MAX_CELL_CHARS = 200  # mean characters of a non-empty cell above this: prose in a box, not a table


@dataclass
class Table:
    bbox: tuple[float, float, float, float]
    rows: list[list[str]]  # cleaned cells, the first row the header
    row_boxes: list[tuple[float, float, float, float]] = field(default_factory=list)

    def markdown(self) -> list[str]:
        """One Markdown line per row, a separator line after the header."""
        lines = ["| " + " | ".join(_cell(c) for c in row) + " |" for row in self.rows]
        return lines[:1] + ["|" + "---|" * len(self.rows[0])] + lines[1:]


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "/").split())


def _rules(page) -> list:
    import pymupdf

    out = []
    try:
        drawings = page.get_cdrawings()
    except Exception:  # broken content stream: no tables
        return out
    if len(drawings) > MAX_TABLE_PATHS:
        return out
    for d in drawings:
        for item in d.get("items", ()):
            if item[0] == "l":
                (x0, y0), (x1, y1) = item[1], item[2]
                r = pymupdf.Rect(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
            elif item[0] == "re":
                r = pymupdf.Rect(item[1])
            else:
                continue
            if (r.height < 2 and r.width > 15) or (r.width < 2 and r.height > 8):
                out.append(r)
    return out


def grid_area(page):
    """The area of a page's table rules — three or more horizontal rules of the same width at different
    heights (ruled grids and booktabs-style tables alike; a diagram's lines rarely line up so) — or None."""
    import pymupdf

    rules = _rules(page)
    groups: dict[tuple[int, int], list] = {}
    for r in rules:
        if r.height < 2:
            groups.setdefault((round(r.x0 / 4), round(r.x1 / 4)), []).append(r)
    ruled = []
    for g in groups.values():  # runs of rules no more than MAX_RULE_GAP apart (not a header and a footer rule)
        g.sort(key=lambda r: r.y0)
        run = [g[0]]
        for r in g[1:] + [None]:
            if r is not None and r.y0 - run[-1].y0 <= MAX_RULE_GAP:
                run.append(r)
                continue
            if len({round(x.y0) for x in run}) >= MIN_H_RULES:
                ruled += run
            run = [r]
    if not ruled:
        return None
    # from coordinates: a line's rect has no height, and an empty rect adds nothing to a union
    return pymupdf.Rect(min(r.x0 for r in ruled) - 2, min(r.y0 for r in ruled) - 2, max(r.x1 for r in ruled) + 2,
                        max(r.y1 for r in ruled) + 2)


def clean(rows: list[list]) -> list[list[str]]:
    """Cells as text (a merged cell is given once, the columns it spans are None); empty rows and
    columns dropped."""
    out = [[_cell(c or "") for c in row] for row in rows]
    out = [r for r in out if any(r)]
    if not out:
        return []
    width = max(len(r) for r in out)
    out = [r + [""] * (width - len(r)) for r in out]
    cols = [[r[j] for r in out] for j in range(width) if any(r[j] for r in out)]
    merged: list[list[str]] = []
    for col in cols:  # a column that never has text beside its left neighbour's is part of it (merged cells)
        if merged and not any(a and b for a, b in zip(merged[-1], col)):
            merged[-1] = [a or b for a, b in zip(merged[-1], col)]
        else:
            merged.append(col)
    return [list(r) for r in zip(*merged)]


def looks_like_table(rows: list[list[str]]) -> bool:
    if len(rows) < 2 or len(rows[0]) < 2:
        return False
    cells = [c for r in rows for c in r if c]
    if len(cells) < 4:
        return False
    mean = sum(len(c) for c in cells) / len(cells)
    letters = sum(1 for c in cells if len(re.sub(r"\W", "", c)) <= 1)
    full_rows = sum(1 for r in rows if sum(1 for c in r if c) >= 2)
    filled = len(cells) / (len(rows) * len(rows[0]))  # a plot's grid is mostly empty cells
    return 2 <= mean <= MAX_CELL_CHARS and letters <= len(cells) / 2 and full_rows >= 2 and filled >= 0.5


def find(page) -> list[Table]:
    """The page's ruled tables, top to bottom."""
    area = grid_area(page)
    if area is None:
        return []
    try:
        found = page.find_tables(clip=area).tables
    except Exception:  # find_tables on odd drawings: the page keeps its plain text
        return []
    tables = []
    for t in found:
        try:
            raw = t.extract()
        except Exception:
            continue
        rows = clean(raw)
        if not looks_like_table(rows):
            continue
        boxes = [tuple(r.bbox) for r, cells in zip(t.rows, raw) if any(_cell(c or "") for c in cells)]
        tables.append(Table(bbox=tuple(t.bbox), rows=rows, row_boxes=boxes if len(boxes) == len(rows) else []))
    return sorted(tables, key=lambda t: (t.bbox[1], t.bbox[0]))


# --- into the page's blocks -------------------------------------------------------------------

TABLE_CAPTION = re.compile(r"^\s*(table|tab\.|tabelle|tableau|tabla|tabella|bảng)\s*[\dIVX]", re.I)


def into_blocks(blocks: list[dict], found: list) -> list[dict]:
    """Blocks with each table's lines replaced by one block of Markdown rows (``"table": True``) where
    the table began; a caption line right above the table ("Table 3 …") moves into that block."""
    def inside(bbox, t) -> bool:
        cx, cy = (bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2
        return t.bbox[0] - 1 <= cx <= t.bbox[2] + 1 and t.bbox[1] - 1 <= cy <= t.bbox[3] + 1

    out: list[dict] = []
    placed: dict[int, dict] = {}
    for block in blocks:
        kept = []
        for line in block["lines"]:
            t = next((k for k, t in enumerate(found) if inside(line["bbox"], t)), None)
            if t is None:
                kept.append(line)
            elif t not in placed:
                placed[t] = table_block(found[t])
                out.append(placed[t])
        if kept:
            out.append({**block, "lines": kept})
    for k, tb in placed.items():  # the caption just above the table, when it is the last line of its block
        i = out.index(tb)
        prev = out[i - 1] if i else None
        if prev and not prev.get("table") and TABLE_CAPTION.match(line_text(prev["lines"][0])) \
                and 0 <= found[k].bbox[1] - prev["bbox"][3] <= 40:
            tb["lines"] = prev["lines"] + tb["lines"]
            del out[i - 1]
    return out


def line_text(line: dict) -> str:
    return "".join(s["text"] for s in line["spans"])


def table_block(t) -> dict:
    rows = t.markdown()
    boxes = t.row_boxes or [t.bbox] * len(t.rows)
    boxes = boxes[:1] + boxes[:1] + boxes[1:]  # the separator line under the header sits on the header row
    lines = [{"bbox": tuple(b), "spans": [{"text": r, "size": 0.0, "flags": 0, "font": "table"}]}
             for r, b in zip(rows, boxes)]
    return {"type": 0, "bbox": tuple(t.bbox), "lines": lines, "table": True}


def covers(bbox, rect) -> bool:
    """Half or more of ``rect`` lies in ``bbox`` (a table's rules are not a figure)."""
    import pymupdf

    r = pymupdf.Rect(rect)
    return abs(r & pymupdf.Rect(bbox)) >= 0.5 * (abs(r) or 1)
