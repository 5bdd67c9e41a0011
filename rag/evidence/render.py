"""A book page rendered to PNG (PyMuPDF pixmap) with passages highlighted, cached under data/pages/.

Highlights come from the line boxes stored with each page (``Page.lines``): a span of the page
text maps to the boxes of its lines, so what is highlighted is exactly the chunk's text. A
quoted sentence is located in the page text (whitespace-insensitive) and highlighted stronger.
"""
from __future__ import annotations

import hashlib
import re
from difflib import SequenceMatcher
from pathlib import Path

from ..types import UNSHOWN, Page

CHUNK_COLOUR = (1.0, 0.93, 0.35)  # soft yellow: the matching chunk
QUOTE_COLOUR = (1.0, 0.62, 0.1)  # orange: the sentence the answer quotes
CROP_MARGIN = 48.0  # points above and below the highlighted lines in a cropped view


SPLIT_MIN_WORDS = 4  # the shortest part of a sentence a page break cut that is taken to be it
PAGE_EDGE = 60  # characters a cut sentence may leave after (or before) it on its page: a page number, a footer
QUOTE_REACH = 400  # characters after the sentence quoted before it within which a quoted sentence is its next one


def locate_all(page: Page, quotes: list[str], near: list[tuple[int, int]] = ()) -> list[tuple[int, int] | None]:
    """``locate`` for the sentences an answer quotes from one source, in the answer's order: a passage is quoted as
    the book has it, so each sentence is looked for just after the one before it first ("In this example:" in Think
    Python's aliasing section, quoted after "For immutable objects …", had been marked on the "In this example,
    there are two references" the section holds earlier; tour 36). A line quoted twice is marked at two of its places
    (tour 48: Think Python's second ">>> fin.readline()" had taken the first one's place)."""
    out, after = [], -1
    for k, q in enumerate(quotes):
        at = locate(page, q, near, after)
        if at is not None and k + 1 < len(quotes):
            at = _followed(page, q, quotes[k + 1], at)
        if at is not None and at in out:  # taken by the same line quoted before: its next free place, if any
            free = [(m.start(), m.end()) for m in re.finditer(_words(q.split()), page.text)
                    if (m.start(), m.end()) not in out]
            at = next((f for f in free if f[0] >= after), free[0] if free else None)
        out.append(at)
        if at:
            after = at[1]
    return out


def _followed(page: Page, quote: str, following: str, at: tuple[int, int]) -> tuple[int, int]:
    """Of a ``quote`` the page has more than once, the place ``at`` unless the quote after it (``following``) comes
    next after another of its places and not after that one: a passage's lines follow one another (tour 49: Think
    Python's listing that a page break cuts, ">>> fin.readline()" + "'aa\\r\\n'" atop p. 100, had its first line marked
    at the copy further down, in the cited passage, before "'aah\\r\\n'")."""
    places = [(m.start(), m.end()) for m in re.finditer(_words(quote.split()), page.text)]
    if len(places) < 2:
        return at
    nxt = re.compile(_words(following.split())) if following.split() else None

    def leads(p: tuple[int, int]) -> bool:
        m = nxt.search(page.text, p[1]) if nxt else None  # the next quote, with no other place of this between
        return bool(m) and m.start() - p[1] <= QUOTE_REACH and not any(p[1] <= o[0] < m.start() for o in places)

    return at if leads(at) else next((p for p in places if leads(p)), at)


def place(pages: list[Page], quotes: list[str],
          near: dict[int, list[tuple[int, int]]] | None = None) -> dict[int, list[str]]:
    """Which of a source's ``quotes`` (in the answer's order) to mark on which of its ``pages`` (in the book's
    order; ``near``: page number → the cited passage's page-local spans), each quote on one page: a passage's
    sentences and listing lines follow one another in the book, so each is looked for from where the one before it
    lies, on that page or a later one (tour 45: the listing lines quoted from p. 32 were marked again in another
    listing on p. 33), and only when it is not found so, on any of the pages or before the last one on its page (a
    passage quoted out of the book's order). A sentence a page break cuts is on both pages."""
    near = near or {}
    out: dict[int, list[str]] = {pg.number: [] for pg in pages}
    at, after = 0, -1  # the page the last placed quote lies on (index) and where on it it ends
    for q in quotes:
        found = before = None  # before: on the last quote's page, but before it (a passage quoted out of order)
        for i in [*range(at, len(pages)), *range(at)]:
            pg = pages[i]
            span = locate(pg, q, near.get(pg.number, ()), after if i == at else -1)
            if span and i == at and span[0] < after:  # an occurrence before the last quote: the one after it, if any
                before = i, span
                m = re.compile(_words(q.split())).search(pg.text, after)
                span = (m.start(), m.end()) if m else None
            if span:
                found = i, span
                break
        found = found or before
        if found is None:
            continue
        i, (a, b) = found
        out[pages[i].number].append(q)
        at, after = i, b
        whole = re.fullmatch(_words(q.split()), pages[i].text[a:b])
        if not whole and i + 1 < len(pages) and b >= len(pages[i].text.rstrip()) - PAGE_EDGE:
            rest = locate(pages[i + 1], q)  # its beginning ends this page: its end starts the next
            if rest:
                out[pages[i + 1].number].append(q)
                at, after = i + 1, rest[1]
    return out


def locate(page: Page, sentence: str, near: list[tuple[int, int]] = (), after: int = -1) -> tuple[int, int] | None:
    """Page-local span of ``sentence`` in the page text, ignoring whitespace differences — of a sentence the page
    has more than once ("Syntax:", "For example:"), the one inside the cited passage's page-local spans ``near``;
    for a sentence a page break cuts, the part of it on this page (its beginning at the page's end, or its end at the
    page's start) when that part is at least half of it: a few words alike ("For more information, see") are not
    the sentence. Of several, the first within ``QUOTE_REACH`` after ``after`` (where the sentence quoted before it
    ends), if any."""
    words = sentence.split()
    if not words:
        return None
    found = list(re.finditer(_words(words), page.text))
    if found:
        inside = [m for m in found if any(a <= m.start() and m.end() <= b for a, b in near)]
        later = [m for m in inside or found if 0 <= after <= m.start() <= after + QUOTE_REACH]
        m = (later or inside or found)[0]
        return m.start(), m.end()
    reach = len(sentence) + PAGE_EDGE  # only so near the page's end (start) can a cut sentence begin (end)
    end_at = max(0, len(page.text) - reach)
    end, start = page.text[end_at:], page.text[:reach]
    for n in range(len(words) - 1, max(SPLIT_MIN_WORDS, (len(words) + 1) // 2) - 1, -1):  # its larger part
        # the part ends its line (the page's last text line) or starts its line (the page's first)
        head = [m for m in re.finditer(_words(words[:n]), end)
                if len(end) - m.end() <= PAGE_EDGE and end[m.end():m.end() + 1] in ("", "\n")]
        if head:
            return end_at + head[-1].start(), end_at + head[-1].end()
        tail = re.search(_words(words[-n:]), start)
        if tail and tail.start() <= PAGE_EDGE and (tail.start() == 0 or start[tail.start() - 1] == "\n"):
            return tail.start(), tail.end()
    return None


def _words(words: list[str]) -> str:
    return r"\s+".join(re.escape(w) for w in words)


def drawn_boxes(pdf_page, page: Page, start: int, end: int) -> list[tuple[float, float, float, float]]:
    """``page.text_boxes`` with the first and last line cut where the span starts and ends, at the characters' own
    positions on the PDF page ``pdf_page``: a quote that begins mid-line is marked from its first word, not over
    the line's other sentence (tour 43). A stored line may be several printed lines (a reflowed paragraph); a cut
    one is marked printed line by printed line. Where the page's characters cannot be matched with the line's
    text, the whole line is marked, as before."""
    out = []
    for ln in page.lines:
        ls, le, x0, y0, x1, y1 = ln[:6]
        if ls >= end or le <= start or (len(ln) > 6 and ln[6] in UNSHOWN):
            continue
        if start <= ls and le <= end:
            out.append((x0, y0, x1, y1))
            continue
        text = page.text[ls:le]
        first = len("".join(text[:max(0, start - ls)].split()))  # the line's letters before the span, and up to its
        last = len("".join(text[:min(le, end) - ls].split()))  # end (spaces not counted)
        if last > first:  # else the span holds only spaces of this line
            out += _printed(pdf_page, text, (x0, y0, x1, y1), first, last) or [(x0, y0, x1, y1)]
    return out


MATCHED_SHARE = 0.9  # of a line's letters found among the page's characters there, for it to be cut by them


def _printed(pdf_page, text: str, box: tuple[float, float, float, float], first: int, last: int):
    """Boxes, one per printed line, of the characters ``first``…``last - 1`` (spaces not counted) of the stored line
    ``text`` inside ``box``, as the PDF page draws them; None when too few of them are found there (a hyphen a line
    break added, a ligature or a drop cap are skipped over)."""
    x0, y0, x1, y1 = box
    chars = []  # (letter, printed line, bbox)
    d = pdf_page.get_text("rawdict", clip=(x0 - 1, y0 - 1, x1 + 1, y1 + 1))
    for b, block in enumerate(d["blocks"]):
        for k, line in enumerate(block.get("lines", ())):
            for span in line["spans"]:
                for ch in span["chars"]:
                    if not ch["c"].isspace() and y0 - 1 <= (ch["bbox"][1] + ch["bbox"][3]) / 2 <= y1 + 1:
                        chars.append((ch["c"], (b, k), ch["bbox"]))
    want = "".join(text.split())
    at: dict[int, int] = {}  # letter of the line → character of the page
    for i, j, n in SequenceMatcher(None, want, "".join(c for c, _, _ in chars), autojunk=False).get_matching_blocks():
        at.update((i + m, j + m) for m in range(n))
    if len(at) < MATCHED_SHARE * len(want):
        return None
    rows: dict[tuple[int, int], list[tuple[float, float, float, float]]] = {}
    for i in range(first, last):
        if i in at:
            _, row, bbox = chars[at[i]]
            rows.setdefault(row, []).append(bbox)
    return [(min(r[0] for r in bs), min(r[1] for r in bs), max(r[2] for r in bs), max(r[3] for r in bs))
            for bs in rows.values()] or None


def render_page(pdf: Path, page: Page, spans: list[tuple[int, int]], quotes: list[tuple[int, int]], out_dir: Path,
                zoom: float = 1.5, crop: bool = True, rects: list[tuple[float, float, float, float]] = ()) -> Path:
    """PNG of ``page`` with page-local ``spans`` (chunk) and ``quotes`` (sentences) highlighted and ``rects``
    (a figure's box, PDF points) framed; ``crop`` keeps the band around the highlights (full width). Cached by its
    inputs."""
    rects = [tuple(float(v) for v in r) for r in rects]
    key = hashlib.sha1(repr(("cut", page.number, spans, quotes, zoom, crop) + ((rects,) if rects else ())).encode()
                       ).hexdigest()[:16]
    out = out_dir / f"p{page.number}-{key}.png"
    if out.exists():
        return out
    import pymupdf

    out_dir.mkdir(parents=True, exist_ok=True)
    doc = pymupdf.open(pdf)
    try:
        p = doc[page.number - 1]
        boxes = [(b, CHUNK_COLOUR) for s, e in spans for b in drawn_boxes(p, page, s, e)]
        boxes += [(b, QUOTE_COLOUR) for s, e in quotes for b in drawn_boxes(p, page, s, e)]
        for box, colour in boxes:
            p.draw_rect(pymupdf.Rect(box) + (-1, -1, 1, 1), color=None, fill=colour, fill_opacity=0.35, overlay=True)
        for r in rects:
            p.draw_rect(pymupdf.Rect(r) + (-3, -3, 3, 3), color=QUOTE_COLOUR, width=2.5, overlay=True)
        clip = p.rect
        if crop and boxes:  # line boxes are in unrotated page space; the clip is in the page as shown
            shown = [pymupdf.Rect(b) * p.rotation_matrix for b, _ in boxes]
            y0 = min(r.y0 for r in shown) - CROP_MARGIN
            y1 = max(r.y1 for r in shown) + CROP_MARGIN
            clip = pymupdf.Rect(p.rect.x0, max(p.rect.y0, y0), p.rect.x1, min(p.rect.y1, y1))
        pix = p.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), clip=clip, alpha=False)
        tmp = out.with_suffix(".tmp")
        pix.save(str(tmp), output="png")
        tmp.replace(out)
    finally:
        doc.close()
    return out


PALETTE = [(0.95, 0.45, 0.45), (0.35, 0.65, 0.95), (0.45, 0.8, 0.45), (0.95, 0.7, 0.3), (0.7, 0.5, 0.9),
           (0.3, 0.8, 0.8), (0.9, 0.5, 0.75), (0.65, 0.65, 0.35)]


def palette_hex(i: int) -> str:
    r, g, b = PALETTE[i % len(PALETTE)]
    return f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"


def render_chunk_map(pdf: Path, page: Page, spans: list[tuple[int, int, int]], parents: list[tuple[int, int]],
                     out_dir: Path, zoom: float = 1.2) -> Path:
    """PNG of ``page`` with each chunk's page-local span (start, end, colour index) filled in its colour
    (where two overlap, the colours mix) and each parent span (start, end) outlined. Cached by inputs."""
    key = hashlib.sha1(repr(("map-cut", page.number, spans, parents, zoom)).encode()).hexdigest()[:16]
    out = out_dir / f"map{page.number}-{key}.png"
    if out.exists():
        return out
    import pymupdf

    out_dir.mkdir(parents=True, exist_ok=True)
    doc = pymupdf.open(pdf)
    try:
        p = doc[page.number - 1]
        for s, e, colour in spans:
            for box in drawn_boxes(p, page, s, e):
                p.draw_rect(pymupdf.Rect(box) + (0, -1, 0, 1), color=None, fill=PALETTE[colour % len(PALETTE)],
                            fill_opacity=0.35, overlay=True)
        for k, (s, e) in enumerate(parents):
            bs = page.boxes(s, e)
            if bs:
                r = pymupdf.Rect(
                    min(b[0] for b in bs), min(b[1] for b in bs), max(b[2] for b in bs), max(b[3] for b in bs)
                )
                p.draw_rect(r + (-4, -3, 4, 3), color=(0.25, 0.25, 0.25), width=1.5, dashes="[4 2] 0", overlay=True)
        pix = p.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
        tmp = out.with_suffix(".tmp")
        pix.save(str(tmp), output="png")
        tmp.replace(out)
    finally:
        doc.close()
    return out
