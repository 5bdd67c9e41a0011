"""Page furniture: running headers, footers and page numbers, found per book.

A line is furniture when it sits in the page's top or bottom band and
- is a page number ("52", "xiv", "Page 3", "3 / 14"), or
- carries the page's own printed number at its start or end ("5.8. Recursion 53") on at least
  ``MIN_PAGES`` pages, or
- repeats on at least ``MIN_PAGES`` pages once digits are masked ("Chapter 5. Conditionals and recursion",
  "PLOS ONE | https://doi.org/…", "May 17, 2018"),
or, a little above the bottom band (``OUTER``), repeats at the very same height on ``PLACED_SHARE`` of the pages (a
footer set higher),
or shares its baseline with such a line on the same page (the two halves of one header), or is a page's first or
last line holding a bare number that keeps step with the pages (``_numbered_edges``: wide margins).
The page text keeps these lines (highlighting and page images stay exact); chunking reads the text
with them blanked out (``Page.chunk_text``), so they never reach chunk text, embeddings or BM25.
"""
from __future__ import annotations

import re
from collections import Counter

TOP, BOTTOM = 0.075, 0.93  # bands, as shares of the page height
FIRST_LINE_TOP = 0.085  # a page's first line is in the top band when its middle is this high (``headers``)
MIN_PAGES = 3
OUTER = 0.12  # a line this near the bottom, above its band, is furniture when it repeats at one height (a header
# set below the top band stays in the chunks' text: ``headers``) …
PLACED_SHARE = 0.3  # … on this share of the book's pages at least (gnuplot's "Syntax:" ends 10 of its 311 pages)
MAX_CHARS = 120
EDGE = 3.0  # points: lines whose top is this close to the page's first line's are on it
_PAGE_NO = re.compile(r"^(page|seite|trang|p\.)?\s*([0-9]+|[ivxlcdm]+)(\s*(/|of|von|trên)\s*[0-9]+)?$", re.I)


def _norm(text: str) -> str:
    return " ".join(re.sub(r"\d+", "#", text.lower()).split())


def _carries_number(text: str, label: str, number: int) -> bool:
    words = text.split()
    marks = {label.lower(), str(number)} - {""}
    return len(words) > 1 and (words[0].lower() in marks or words[-1].lower() in marks)


def find(pages: list[tuple[str, int, str, list[tuple], float]], first_line: bool = False) -> list[set[int]]:
    """``pages``: (label, number, text, line boxes, page height) each; returns per page the indices of
    its furniture lines (line boxes: start, end, x0, y0, x1, y1, kind). ``first_line``: the page's first line counts
    as in the top band when its middle is (see ``headers``)."""
    band: list[list[tuple[int, str, str, float]]] = []  # per page: (line index, text, where, y centre)
    outer: list[list[tuple[int, str, str, float]]] = []  # per page: the lines between the bottom band and ``OUTER``
    for label, number, text, lines, height in pages:
        here, near = [], []
        first = min((ln[3] for ln in lines if text[ln[0]:ln[1]].strip()), default=0.0)
        for i, ln in enumerate(lines):
            t = text[ln[0]:ln[1]].strip()
            if not t or len(t) > MAX_CHARS or height <= 0:
                continue
            top = ln[5] <= TOP * height or (first_line and (ln[3] + ln[5]) / 2 <= FIRST_LINE_TOP * height
                                             and ln[3] <= first + EDGE)
            where = "top" if top else "bottom" if ln[3] >= BOTTOM * height else ""
            y = (ln[3] + ln[5]) / 2
            if where:
                here.append((i, t, where, y))
            elif y >= (1 - OUTER) * height and (len(ln) < 7 or ln[6] == 0):  # text, not a listing's line
                near.append((i, t, "bottom", y))
        band.append(here)
        outer.append(near)
    placed = Counter()  # a line repeated at the very same height on several pages, a little inside a band: a footer
    for near in outer:  # set higher ("40 Gutenprint 5.2 User's Manual 06/01/2012" at 91–93 % of the page)
        placed.update({(w, _norm(t), round(y / 2)) for _, t, w, y in near})
    least = max(MIN_PAGES, PLACED_SHARE * len(pages))
    for here, near in zip(band, outer):
        ys = [y for _, t, w, y in near if placed[(w, _norm(t), round(y / 2))] >= least
              and sum(ch.isalpha() for ch in t) >= 3]
        here += [x for x in near if any(abs(x[3] - o) <= 3 for o in ys)]  # with its page number and date
    repeats = Counter()
    numbered = Counter()
    for (label, number, *_), here in zip(pages, band):
        repeats.update({(w, _norm(t)) for _, t, w, _ in here})
        numbered.update({w for _, t, w, _ in here if _carries_number(t, label, number)})
    out: list[set[int]] = []
    for (label, number, *_), here in zip(pages, band):
        found = {i for i, t, w, _ in here
                 if _PAGE_NO.match(t) and (t.lower() in {label.lower(), str(number)} or not t.isalpha())
                 or repeats[(w, _norm(t))] >= MIN_PAGES and sum(ch.isalpha() for ch in t) >= 3
                 or (_carries_number(t, label, number) and numbered[w] >= MIN_PAGES)}
        ys = [y for i, _, _, y in here if i in found]
        found |= {i for i, _, _, y in here if any(abs(y - o) <= 3 for o in ys)}
        out.append(found)
    for found, more in zip(out, _numbered_edges(pages)):
        found |= more
    return out


EDGE_BAND = 0.15  # a page number outside the bands above: its page's first or last line, this far from the edge


def _numbered_edges(pages: list[tuple[str, int, str, list[tuple], float]]) -> list[set[int]]:
    """Per page, its first or last line when that is a bare number that goes up with the pages: the number minus the
    page's place in the file is the same on at least ``MIN_PAGES`` pages. A book with wide margins sets its numbers
    outside the bands (the TIPA manual's "66" at 88 % of the height; tour 42: "Allerdings 66 ist es …" was quoted
    across the page break); a count that keeps step with the pages is their numbering wherever it stands. (A number
    beside a header's title, yathesis's "4.8. Liste d’acronymes …  35" at 10 %, is left alone: taking it, or the
    title with it, out of the chunks cost held-out pages.)"""
    edges: list[list[tuple[int, int]]] = []  # per page: (line index, printed number minus place)
    steps: Counter = Counter()
    for label, number, text, lines, height in pages:
        shown = sorted((ln[3], i) for i, ln in enumerate(lines) if text[ln[0]:ln[1]].strip())
        here = []
        if height > 0 and shown:
            for y, i in {shown[0], shown[-1]}:
                t = text[lines[i][0]:lines[i][1]].strip()
                outer = lines[i][5] <= EDGE_BAND * height or y >= (1 - EDGE_BAND) * height
                if outer and t.isdigit() and len(t) <= 4:
                    here.append((i, int(t) - number))
        steps.update({step for _, step in here})
        edges.append(here)
    return [{i for i, step in here if steps[step] >= MIN_PAGES} for here in edges]


def headers(pages: list[tuple[str, int, str, list[tuple], float]], found: list[set[int]]) -> list[set[int]]:
    """Per page, the running headers set just below the top band, as the page's first line: GNU Octave's "Chapter
    5: Strings  85" and "GNU Octave (version 7.3.0)", 50–61 pt down a 792-pt page past the band's 59.4 pt, gnuplot's
    "gnuplot 5.4  65" at 56–66 pt (its middle within ``FIRST_LINE_TOP``; a listing's line under such a header is not
    one). ``found``: ``find``'s furniture, left out. They are never quoted
    nor shown in an answer, but stay in the text a chunk is searched by: taking them out of it cost three held-out
    Octave questions their page (the chapter's title in every chunk of it helps the search)."""
    return [wider - hard for wider, hard in zip(find(pages, first_line=True), found)]
