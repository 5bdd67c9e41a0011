"""Music notation on a page: a music example is staff lines and note glyphs without Unicode (a music font's), with
its lyrics set a syllable a line under the notes. ``with_marks`` grows a drawing over the glyphs that touch it,
``lyrics`` finds the syllables around it (the example's words, not the page's), ``one_per_example`` makes two
staves of one example found apart one figure."""
from __future__ import annotations

import re

from .figure_labels import line_text
from .joins import mono_line

NOTATION_GLYPHS = 3  # lines of glyphs without Unicode that make a region notation (music), not a box of text
MARK_REACH = 8.0  # points: glyphs without Unicode this close to a drawing are part of it


def ink(bbox) -> tuple:
    """The middle half of a glyph line's box: a music font's line box is far taller than its notes, and would reach
    into the code above and the paragraph below."""
    x0, y0, x1, y1 = bbox
    q = (y1 - y0) / 4
    return (x0, y0 + q, x1, y1 - q)


def with_marks(rect, marks: list[tuple]):
    """The drawing's rectangle grown over the glyphs without Unicode that touch it or lie within ``MARK_REACH``
    (a music example's brace, clef and the notes above its staff lines), and over those touching them."""
    import pymupdf

    grown = pymupdf.Rect(rect)
    for _ in range(3):
        near = grown + (-MARK_REACH, -MARK_REACH, MARK_REACH, MARK_REACH)
        more = [m for m in marks if pymupdf.Rect(m).intersects(near) and pymupdf.Rect(m) not in grown]
        if not more:
            break
        for m in more:
            grown |= pymupdf.Rect(m)
    return grown


def one_per_example(figs: list, notation: list[bool]) -> list:
    """Music examples that now overlap by half the smaller one (a staff's two systems found apart, each grown over
    the lyrics and notes between them) are one figure: their union, captioned as the first caption says."""
    out: list[tuple] = []  # (figure.PageFigure, whether it is music)
    for f, music in zip(figs, notation):
        same = next((g for g, m in out if m and music and abs(g.rect & f.rect) >= 0.5 * min(abs(g.rect), abs(f.rect))),
                    None)
        if same is None:
            out.append((f, music))
            continue
        same.rect |= f.rect
        same.label_lines |= f.label_lines
        same.caption, same.ref = same.caption or f.caption, same.ref or f.ref
        same.labels = max(same.labels, f.labels, key=len)  # both grew over the same lines
    return [f for f, _ in out]


LYRIC_REACH = 14.0  # points: a lyric line this close to a music example (or to its lyrics) is the example's
LYRIC_WORDS = 2  # a lyric line's most words ("laid", "am laid", "shine"): the syllables under the notes
LYRIC_WIDTH = 0.25  # of the page's width: a lyric line is short; a paragraph's line is not


def lyrics(rect, blocks: list[dict], caption_block: int, taken: set, page_width: float) -> set:
    """The lines of a music example's lyrics that lie around its rectangle, not inside (``taken``): text blocks
    whose every line is at most ``LYRIC_WORDS`` words and ``LYRIC_WIDTH`` of the page wide, not typewriter (code) nor
    bold (a heading: LilyPond's "See also" under an example, tour 41), within ``LYRIC_REACH`` of the example or of a
    lyric line already found."""
    import pymupdf

    short = {}
    for bi, b in enumerate(blocks):
        lines = [(li, ln) for li, ln in enumerate(b["lines"]) if line_text(ln)]
        if bi == caption_block or not lines:
            continue
        if all(len(line_text(ln).split()) <= LYRIC_WORDS and ln["bbox"][2] - ln["bbox"][0] <= LYRIC_WIDTH * page_width
               and not mono_line(ln) and not bold(ln) for _, ln in lines):
            short.update({(bi, li): pymupdf.Rect(ln["bbox"]) for li, ln in lines if (bi, li) not in taken})
    found: set = set()
    grown = pymupdf.Rect(rect)
    for _ in range(4):
        near = grown + (-LYRIC_REACH, -LYRIC_REACH, LYRIC_REACH, LYRIC_REACH)
        more = {k for k, r in short.items() if k not in found and r.intersects(near)}
        if not more:
            break
        found |= more
        for k in more:
            grown |= short[k]
    return found


def bold(line: dict) -> bool:
    """A line set in a bold face (the font's flag, or its name: "CMBX12", "Helvetica-Bold")."""
    return any(s.get("flags", 0) & 16 or re.search(r"bold|black|heavy|demi|cmbx", s.get("font", ""), re.I)
               for s in line["spans"])
