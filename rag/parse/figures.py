"""Figures on a PDF page: raster images and vector diagrams, decorations skipped, rendered to PNG.

Candidates are image rectangles (``get_image_info``) and clusters of drawings
(``cluster_drawings``); near ones are merged (a diagram drawn as several boxes and arrows, an
image with vector labels on top). Skipped, and counted by reason: tiny pieces, rules, page
backgrounds and frames, images repeated on many pages (logos, ornaments), boxes of rectangles
only (code listings, frames) and boxes full of running text, unless a caption names them.
A caption is a text block matching ``captions.CAPTION`` just below or above the figure; a
figure without one is kept when it is large. Text lines inside a kept figure are its labels, and so are short label
lines set just beside it (``figure_labels``, so its crop keeps them):
they leave the running text (unless the figure is mostly text, like a captioned table).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..text.captions import caption_key, clean_caption
from .checks import unmapped_line
from .figure_labels import line_text, take_side_labels
from .joins import mono_line
from .lines import reads
from .notation import NOTATION_GLYPHS, ink, lyrics, one_per_example, with_marks

MAX_CANDIDATES_PER_PAGE = 60
MAX_FIGURES_PER_BOOK = 400
MAX_PNG_SIDE = 1400  # pixels
MAX_ZOOM = 2.5
BACKGROUND_SHARE = 0.85  # of the page area
MERGE_GAP = 8.0  # points between pieces of one figure
ROW_GAP = 24.0  # points between pieces of one figure side by side
CAPTION_GAP = 72.0  # points between a figure and its caption
TEXT_BOX_SHARE = 0.35  # a box this much covered by text lines is a text box (theorem, footnotes), not a figure
CODE_LINES = 3  # a region with this many typewriter lines, and hardly any others, holds a code listing:
CODE_SHARE = 0.8  # its lines are the book's text (searched, quoted), not the figure's own words
CODE_INDENT = 40.0  # points a listing's next line may start right or left of the one before (its indentation)
REPEATED_PAGES = 3  # the same image on this many pages is decoration


@dataclass
class FigureReport:
    found: int = 0
    raster: int = 0
    vector: int = 0
    captioned: int = 0
    skipped: Counter = field(default_factory=Counter)  # reason -> count

    def to_dict(self) -> dict:
        return {"found": self.found, "raster": self.raster, "vector": self.vector, "captioned": self.captioned,
                "skipped": dict(self.skipped.most_common())}

    def summary(self) -> str:
        s = f"{self.found} figures ({self.raster} raster, {self.vector} vector, {self.captioned} with captions)"
        n = sum(self.skipped.values())
        return s + (f", {n} decorations skipped" if n else "")


@dataclass
class Region:
    rect: object  # pymupdf.Rect
    raster_area: float = 0.0
    kinds: set = field(default_factory=set)  # drawing item kinds: "l", "c", "re", "qu"
    paths: int = 0  # drawing paths inside
    shaped: bool = False  # has curves or slanted lines (a drawing, not just rules and boxes)


@dataclass
class PageFigure:
    """A figure found on one page, before the book numbers it."""

    rect: object
    kind: str
    caption: str = ""
    ref: str = ""
    caption_block: int = -1  # index of the caption's text block on the page
    label_lines: set = field(default_factory=set)  # (block, line) indices of the text inside it
    labels: str = ""
    text_kept: bool = False  # its words stay in the running text too (tables, text boxes)
    png: bytes = b""
    width: int = 0
    height: int = 0


def image_key(info: dict) -> tuple:
    """Identity of an image across pages: its xref, or size and position for inline images."""
    if info.get("xref"):
        return ("x", info["xref"])
    b = info["bbox"]
    return ("i", info.get("width"), info.get("height"), round(b[0]), round(b[1]), round(b[2]), round(b[3]))


def repeated_images(image_infos: list[list[dict]]) -> set:
    pages: Counter = Counter()
    for infos in image_infos:
        for k in {image_key(i) for i in infos}:
            pages[k] += 1
    return {k for k, n in pages.items() if n >= REPEATED_PAGES}


def _slanted(item: tuple) -> bool:
    """A curve or a line that is neither horizontal nor vertical."""
    if item[0] == "c":
        return True
    if item[0] == "l":
        return abs(item[1].x - item[2].x) > 1 and abs(item[1].y - item[2].y) > 1
    return False


def _items_rect(items: list[tuple]):
    """Bounding box of drawing items (lines, curves, rectangles, quads)."""
    import pymupdf

    xs, ys = [], []
    for it in items:
        for v in it[1:]:
            if isinstance(v, pymupdf.Quad):
                v = v.rect
            if isinstance(v, pymupdf.Point):
                xs.append(v.x), ys.append(v.y)
            elif isinstance(v, pymupdf.Rect):
                xs += [v.x0, v.x1]
                ys += [v.y0, v.y1]
    return pymupdf.Rect(min(xs), min(ys), max(xs), max(ys)) if xs else pymupdf.Rect()


def _same_row(a, b) -> bool:
    """Pieces side by side (a row of small drawings under one caption)."""
    v = min(a.y1, b.y1) - max(a.y0, b.y0)
    h_gap = max(a.x0, b.x0) - min(a.x1, b.x1)
    return v >= 0.6 * min(a.height, b.height) and 0 <= h_gap <= ROW_GAP


def _merge(regions: list[Region]) -> list[Region]:
    import pymupdf

    merged = True
    while merged:
        merged = False
        out: list[Region] = []
        for r in regions:
            grow = pymupdf.Rect(r.rect) + (-MERGE_GAP, -MERGE_GAP, MERGE_GAP, MERGE_GAP)
            target = next((o for o in out if grow.intersects(o.rect) or _same_row(r.rect, o.rect)), None)
            if target is None:
                out.append(Region(pymupdf.Rect(r.rect), r.raster_area, set(r.kinds), r.paths, r.shaped))
            else:
                target.rect |= r.rect
                target.raster_area += r.raster_area
                target.kinds |= r.kinds
                target.paths += r.paths
                target.shaped |= r.shaped
                merged = True
        regions = out
    return regions


def find_regions(page, infos: list[dict], repeated: set, report: FigureReport) -> list[Region]:
    """Candidate figure regions on ``page`` (decorations counted in ``report.skipped``)."""
    import pymupdf

    area = abs(page.rect)
    cands: list[Region] = []
    for info in infos:
        r = pymupdf.Rect(info["bbox"]) & page.rect
        if r.is_empty or r.width < 8 or r.height < 8:
            report.skipped["tiny image"] += 1
        elif abs(r) >= BACKGROUND_SHARE * area:
            report.skipped["page background"] += 1
        elif image_key(info) in repeated:
            report.skipped["image repeated on many pages"] += 1
        else:
            cands.append(Region(r, abs(r)))
    try:
        drawings = page.get_drawings()
        clusters = page.cluster_drawings(drawings=drawings) if drawings else []
    except Exception:  # a broken content stream: its drawings are lost, the page is not
        report.skipped["unreadable drawings"] += 1
        drawings, clusters = [], []
    rects = [pymupdf.Rect(d["rect"]) & page.rect for d in drawings]
    for c in clusters:
        r = pymupdf.Rect(c) & page.rect
        if r.is_empty or r.width < 6 or r.height < 6:
            report.skipped["rule or line"] += 1
            continue
        if abs(r) >= BACKGROUND_SHARE * area:
            report.skipped["page frame or background"] += 1
            continue
        inside = [d for d, dr in zip(drawings, rects) if r.contains(dr)]
        items = [it for d in inside for it in d["items"]]
        bounds = _items_rect(items)
        if not bounds.is_empty:
            r = (r | bounds) & page.rect  # a path's reported rect can miss its first segments
        cands.append(Region(r, 0.0, {it[0] for it in items}, len(inside), any(map(_slanted, items))))
    if len(cands) > MAX_CANDIDATES_PER_PAGE:
        report.skipped["too many on one page"] += len(cands) - MAX_CANDIDATES_PER_PAGE
        cands = sorted(cands, key=lambda x: -abs(x.rect))[:MAX_CANDIDATES_PER_PAGE]
    out = []
    for reg in _merge(cands):
        r = reg.rect
        if r.width < 16 or r.height < 16:
            report.skipped["tiny"] += 1
        elif abs(r) >= BACKGROUND_SHARE * area:
            report.skipped["page frame or background"] += 1
        else:
            out.append(reg)
    return out


def _center_in(bbox, rect) -> bool:
    x, y = (bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2
    return rect.x0 <= x <= rect.x1 and rect.y0 <= y <= rect.y1


def _caption_gap(rect, cap, prefer_below: bool) -> float | None:
    """Vertical gap between a figure and a caption block (with a penalty for the less usual side)."""
    ov = min(rect.x1, cap[2]) - max(rect.x0, cap[0])
    if ov < 0.3 * min(rect.width, cap[2] - cap[0]):
        return None
    if _center_in(cap, rect):
        return 0.0
    if rect.y1 <= cap[1] + 3:  # caption under the figure
        gap = cap[1] - rect.y1
        return gap + (0 if prefer_below else 20)
    if rect.y0 >= cap[3] - 3:  # caption over the figure (tables)
        gap = rect.y0 - cap[3]
        return gap + (20 if prefer_below else 0)
    return None


def _boxy(reg: Region) -> bool:
    """Only rules and rectangles: code boxes, frames, ruled tables."""
    return not reg.raster_area and not reg.shaped


def resolve(page, regions: list[Region], blocks: list[dict], report: FigureReport,
            previous: PageFigure | None = None) -> list[PageFigure]:
    """Captions, labels and the keep/skip decision for the regions of one page. A caption at the top
    of the page that names no figure here goes to ``previous`` (an uncaptioned figure that ended
    the page before)."""
    caps = []
    for bi, b in enumerate(blocks):
        text = "\n".join(reads(ln) for ln in b["lines"])
        key = caption_key(text)
        if key:
            caps.append((bi, b["bbox"], key, clean_caption(text)))
    figs = [PageFigure(r.rect, "raster" if r.raster_area >= 0.5 * abs(r.rect) else "vector") for r in regions]
    for bi, bbox, key, text in caps:
        best, best_gap = None, CAPTION_GAP
        for reg, f in zip(regions, figs):
            if f.caption:
                continue
            gap = _caption_gap(f.rect, bbox, prefer_below=key.startswith("figure"))
            if gap is not None and _boxy(reg):
                gap += 30  # a drawing or image beats a code box or frame next to the same caption
            if gap is not None and gap <= best_gap:
                best, best_gap = f, gap
        if best is not None:
            best.caption, best.ref, best.caption_block = text, key, bi
        elif previous is not None and not previous.caption and bbox[1] < 0.25 * page.rect.height:
            previous.caption, previous.ref = text, key
    area = abs(page.rect)
    kept, scores = [], []  # the figures, and whether each is music notation
    glyph_lines = {(bi, li) for bi, b in enumerate(blocks) for li, ln in enumerate(b["lines"])
                   if unmapped_line(line_text(ln))}  # a note head, a clef: part of a drawing, not words
    marks = [ink(blocks[bi]["lines"][li]["bbox"]) for bi, li in glyph_lines]
    for reg, f in zip(regions, figs):
        f.rect = with_marks(f.rect, marks)
        if not f.caption and (f.rect.width < 36 or f.rect.height < 24 or abs(f.rect) < 2000):
            report.skipped["tiny"] += 1  # small pieces count only when a caption names them
            continue
        words, long_lines, text_area, glyphs, mono = [], 0, 0.0, 0, []
        for bi, b in enumerate(blocks):
            if bi == f.caption_block:
                continue
            for li, ln in enumerate(b["lines"]):
                if _center_in(ln["bbox"], f.rect):
                    if (bi, li) in glyph_lines:
                        f.label_lines.add((bi, li))
                        glyphs += 1
                        continue
                    t = line_text(ln)
                    if t:
                        f.label_lines.add((bi, li))
                        words.append(t)
                        long_lines += len(t.split()) >= 7
                        if mono_line(ln):
                            mono.append(ln["bbox"])
                        x0, y0, x1, y1 = ln["bbox"]
                        text_area += max(0.0, min(x1, f.rect.x1) - max(x0, f.rect.x0)) * max(
                            0.0, min(y1, f.rect.y1) - max(y0, f.rect.y0)
                        )
        # music notation and the like: staff lines and symbols set as glyphs without Unicode, more of them than
        # lines of words; a picture however small (one staff is 30 pt tall) and however plain its lines
        notation = glyphs >= NOTATION_GLYPHS and glyphs > len(words)
        sung = lyrics(f.rect, blocks, f.caption_block, f.label_lines, page.rect.width) if notation else set()
        for bi, li in sorted(sung):  # a music example's lyrics, a syllable a line under its notes: the figure's
            f.rect |= blocks[bi]["lines"][li]["bbox"]  # words, not the running text's (tour 39: "… am None of the
            f.label_lines.add((bi, li))  # examples so far …")
        boxy = _boxy(reg) and not notation
        texty = (long_lines >= 3 or sum(len(w.split()) for w in words) > 150
                 or text_area > TEXT_BOX_SHARE * abs(f.rect))
        if (boxy or texty) and not f.caption:
            report.skipped["box of text or code" if words else "empty box"] += 1
            continue
        if not f.caption and not notation and (abs(f.rect) < 0.05 * area or min(f.rect.width, f.rect.height) < 60):
            report.skipped["small, no caption"] += 1
            continue
        # a code listing in the region (beside an icon, or a drawing's TikZ source) stays in the running text: AMC's
        # "\\begin{question}{01} \\wrongchoice{A }% …" beside a crossed box had left the searched text, and as the
        # figure's own words had matched many questions about questions (tour 35: shown under three answers)
        code = len(mono) >= CODE_SHARE * len(words) and _stacked(mono) >= CODE_LINES
        f.text_kept = boxy or texty or code or len(" ".join(words).split()) > 40  # tables keep their words in the text
        if code and not f.caption:  # (a captioned listing keeps them: "Abbildung 3.2: Hauptmenü" and its menu)
            words = []
        if not f.text_kept:  # labels set beside the drawing belong to its crop (and leave the running text)
            f.rect, side = take_side_labels(f.rect, blocks, f.caption_block)
            f.label_lines |= side
            words += [line_text(blocks[bi]["lines"][li]) for bi, li in sorted(side)]
        words += [line_text(blocks[bi]["lines"][li]) for bi, li in sorted(sung)]
        f.labels = " ".join(" ".join(words).split())[:1000]
        kept.append(f)
        scores.append(notation)
    return one_per_example(kept, scores)


def _stacked(boxes: list[tuple]) -> int:
    """The most typewriter lines set one under the other as a listing is: each at most a line and a half below the
    one before, starting within ``CODE_INDENT`` of it (a diagram's labels in Courier are scattered over it)."""
    best = run = 0
    prev = None
    for b in sorted(boxes, key=lambda b: (b[1], b[0])):
        height = max(1.0, b[3] - b[1])
        if prev is not None and 0 <= b[1] - prev[1] <= 1.6 * height and abs(b[0] - prev[0]) <= CODE_INDENT:
            run += 1
        else:
            run = 1
        best, prev = max(best, run), b
    return best


def render(page, f: PageFigure, report: FigureReport) -> bool:
    """Render the figure's region to PNG (``f.png``); False (counted) when it cannot be drawn."""
    import pymupdf

    clip = (pymupdf.Rect(f.rect) + (-3, -3, 3, 3)) & page.rect
    zoom = max(0.5, min(MAX_ZOOM, MAX_PNG_SIDE / max(clip.width, clip.height, 1)))
    try:
        pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), clip=clip, alpha=False)
        f.png, f.width, f.height = pix.tobytes("png"), pix.width, pix.height
    except Exception:
        report.skipped["could not be rendered"] += 1
        return False
    return True
