"""Pages as evidence (``CitationPages``, ``Folio.reader``): a book page rendered with a passage highlighted, for a
cited source the pages on which the sentences the answer quotes from it lie, and the reader view: what a citation
or a figure opens (``open_source``, ``open_figure``), one page of it large (``read``), the original file whole
(opening at that page) or as that one page."""
from __future__ import annotations

import logging
import re
from pathlib import Path

from ..errors import NotFoundError, RagError
from ..library.ingest import original_path, source_path
from ..library.resources import Resources
from ..text.sentences import join_abbreviations
from ..text.split import split_sentences
from ..types import Chunk, Source
from .blocks import Block, chunk_layout, source_blocks, upto_citation
from .reader import READER_ZOOM, ReaderPage, ReaderTarget, png_size

log = logging.getLogger(__name__)



def quoted_span(answer_text: str, source: Source, chunk_range, page_of=None) -> tuple[Chunk | None, str, str]:
    """What names ``source`` in a citation, read in one pass (``chunk_range(book_id, lo, hi)``: the book's chunks
    lo..hi): the chunk of its window holding the first sentence the answer quotes from it, when that is not the
    matching chunk (else None), the printed page the last quoted sentence lies on, when that is a later page than
    the first's ("" otherwise: a passage that runs onto the next page is cited "pp. 94–95"; tour 42 had the
    Gauß-curvature answer's items a) and b), on p. 95, under "p. 94"), and — given ``page_of(book_id, n)``, the
    book's stored pages — the printed page the first quoted sentence lies on ("" when none is found). The pages are
    where the quotes are placed on the source's pages (``render.place``): tour 47 saw "p. 100" over a quote that
    begins on p. 99, and "pp. 32–33" over one that ends on p. 32."""
    quotes = quoted_sentences(answer_text, source)
    on = _quoted_pages(source, quotes, page_of) if quotes and page_of is not None else []
    first_label, last_label = (on[0].label, on[-1].label if on[-1].number > on[0].number else "") if on else ("", "")
    if not quotes or len(source.chunk_indices) < 2:
        return None, last_label, first_label
    chunks = _window(source, chunk_range)

    def holder(sentence: str) -> Chunk | None:
        return next((c for c in chunks if _holds(c, sentence)), None)

    first, last = holder(quotes[0]), holder(quotes[-1]) if len(quotes) > 1 else None
    quoted = first if first is not None and first.chunk_index != source.hit.chunk_index else None
    start = first or source.hit
    to = (last.label_end or str(last.page_end)) if last is not None and last.page_end > start.page_end else ""
    return quoted, (last_label if on else to), first_label


def _quoted_pages(source: Source, quotes: list[str], page_of) -> list:
    """The stored pages of ``source`` on which ``quotes`` are placed, in the book's order."""
    hit = source.hit
    pages = held_pages(page_of, source.book_id, (source.page_start, source.page_end))
    placed = placed_quotes(pages, quotes, [(hit.char_start, hit.char_end)])
    return [pg for pg in pages if placed.get(pg.number)]


def held_pages(page_of, book_id: str, pages: tuple[int, int]) -> list:
    """The stored pages ``pages`` (first, last) of ``book_id`` (``page_of(book_id, n)``), those there are."""
    return [pg for n in range(pages[0], pages[1] + 1) if (pg := page_of(book_id, n)) is not None]


def placed_quotes(pages: list, quotes: list[str], spans) -> dict[int, list[str]]:
    """Page number → the ``quotes`` to mark on it, of a source on the stored ``pages`` whose cited chunk has the
    book-text ``spans`` (``render.place``: each quote on one page, in the book's order)."""
    from .render import place

    return place(pages, list(quotes), {pg.number: pg.local(spans) for pg in pages})


def quoted_chunks(answer_text: str, source: Source, chunk_range, most: int = 4) -> list[Chunk]:
    """The chunks of ``source``'s window from the first to the last that holds a sentence the answer quotes from it
    (at most ``most``): what the source's passage shows, so that a source quoted twice shows both passages (tour 43:
    the second [1], on p. 133, was not in the passage shown under [1], p. 132). [] when none holds one."""
    quotes = quoted_sentences(answer_text, source)
    if not quotes:
        return []
    chunks = _window(source, chunk_range)
    held = [i for i, c in enumerate(chunks) if any(_holds(c, q) for q in quotes)]
    return chunks[held[0]:held[-1] + 1][:most] if held else []


def _window(source: Source, chunk_range) -> list[Chunk]:
    """The chunks of ``source``'s window, in the book's order."""
    lo, hi = min(source.chunk_indices), max(source.chunk_indices)
    return [c for c in chunk_range(source.book_id, lo, hi) if c.chunk_index in source.chunk_indices]


def _holds(chunk: Chunk, sentence: str) -> bool:
    """Whether ``chunk`` holds the quoted ``sentence`` (its first 80 characters, whitespace aside)."""
    return " ".join(sentence.split())[:80] in " ".join(chunk.text.split())


def quoted_sentences(answer_text: str, source: Source) -> list[str]:
    """The sentences of ``answer_text`` quoted from ``source``: each one its citation [n] closes, and the
    sentences of the same passage before it (a passage answer cites once, at its end) that the source holds."""
    from ..answer.quotecheck import attributed, mark_book_brackets, normalise, unmark, without_fences

    book = normalise(source.text)
    text = without_fences(answer_text)  # the book's own "[3]" still marked: no citation
    out: list[str] = []
    for sent, ns in attributed(answer_text, [book]):
        if source.n not in ns:
            continue
        marked = mark_book_brackets(sent)
        at = text.find(marked)
        cites = [m.end() for m in re.finditer(r"\[\d+\]", text[:max(at, 0)])]  # the citation before it (not
        start = max(cites[-1] if cites else -1, text.rfind("\n\n", 0, at) + 1) if at > 0 else 0  # a bracket of maths)
        # the passage up to the citation, sentence by sentence as the book's text was split (no break after an
        # initial or "e.g."): the cited sentence is read from the answer whole, "… wie z. B. [0, 1)." (``attributed``
        # gives what follows its last bracket, "0, 1).")
        parts = [unmark(x).strip() for x in _sentences(text[start:at + len(marked)]) if x.strip()] \
            if at >= 0 else [sent]
        for i, x in enumerate(parts):
            x = re.sub(r"^\s*(?:[-–—*•]+\s+)?", "", x)  # a bullet, not AMC's "**" that opens a question
            if len(x) < CODE_LINE_CHARS:  # "⇒", "ans": found anywhere on a page, it would mark what was not quoted
                continue
            if x not in out and (i == len(parts) - 1 or (normalise(x) in book and len(x.split()) >= 3)):
                # (not a piece an abbreviation cut off, "h." of "d. h.": it would mark any "h." of the page)
                out.append(x)
    # a listing line the answer quotes twice (">>> fin.readline()" before 'aa' and before 'aah') is marked twice
    out += [line for line in quoted_code(answer_text, source.n) if normalise(line) in book]
    flat = " ".join(answer_text.split())
    at, last = [], {}  # in the answer's order (a listing between its sentences), a repeated line at its next place
    for x in out:
        found = flat.find(" ".join(x.split()), last.get(x, -1) + 1)
        last[x] = found if found >= 0 else last.get(x, -1)
        at.append(found if found >= 0 else len(flat))
    return [x for _, _, x in sorted(zip(at, range(len(out)), out))]


def _sentences(passage: str) -> list[str]:
    """``passage`` split into sentences by the rules its book's chunks were split by (``text.split``, then
    ``join_abbreviations``): "… wie z. B. [0, 1)." and "… drawn in Fig. 2 …" stay whole."""
    return join_abbreviations(passage, [x.strip() for x in split_sentences(passage) if x.strip()])


CODE_LINE_CHARS = 8  # a quoted code line this long is highlighted on the page: "done" is in "abandoned"


def quoted_code(answer_text: str, n: int) -> list[str]:
    """The lines of the code listings the answer quotes after a passage citing [n] (a listing follows its passage's
    citation), each stripped of its indentation, a line the listings repeat as often as they do; short ones ("done",
    "EOF", "}") are left out, as they are found anywhere on a page."""
    from ..answer.quotecheck import FENCE

    out: list[str] = []
    for m in FENCE.finditer(answer_text):
        if m.group(0).startswith("```table"):
            continue
        cites = re.findall(r"\[(\d+)\]", FENCE.sub("", answer_text[:m.start()]))
        if not cites or int(cites[-1]) != n:
            continue
        body = m.group(0).split("\n")[1:-1]
        out += [ln.strip() for ln in body if len(ln.strip()) >= CODE_LINE_CHARS]
    return out


class CitationPages:
    def __init__(self, res: Resources):
        self.res = res

    @property
    def catalog(self):
        return self.res.catalog

    @property
    def settings(self):
        return self.res.settings

    def ocr_confidence(self, book_id: str, number: int) -> float | None:
        """Mean OCR word confidence (0–100) of a page read by Tesseract; None for a text-layer page."""
        page = self.catalog.page(book_id, number)
        return page.ocr if page and page.ocr >= 0 else None

    def page_image(self, book_id: str, page: int, spans: list[tuple[int, int]] = (), quotes: list[str] = (),
                   crop: bool = False) -> Path:
        """PNG of a book page with book-text ``spans`` highlighted (and ``quotes`` located on it stronger)."""
        from .render import locate_all, render_page

        pg = self.catalog.page(book_id, page)
        pdf = original_path(self.settings, book_id)
        if pg is None or not pdf.exists():
            raise NotFoundError(f"Page {page} of book {book_id} is not available (the book or its original is gone).")
        local = pg.local(spans)
        found = locate_all(pg, list(quotes), local)
        try:
            return render_page(pdf, pg, local, [q for q in found if q], self.settings.page_cache_dir / book_id,
                               self.settings.page_image_zoom, crop)
        except Exception as e:  # noqa: BLE001 - one page image failing leaves the answer and other pages alone
            raise RagError(f"Page {page} of this book could not be drawn ({type(e).__name__}: {str(e)[:200]}). "
                           "Re-index the book from the Library page; its text and answers are not affected.") from e

    def citation_pages(self, source: Source, answer_text: str = "", crop: bool = True) -> list[tuple[int, str, Path]]:
        """For a source: (pdf page, printed label, PNG) for each page its matching chunk lies on, the chunk
        highlighted and the sentences the answer quotes from it highlighted stronger; ``crop`` keeps the
        band around the passage, else the whole page. Rendered on first request, then cached."""
        quotes = quoted_sentences(answer_text, source)
        hit = source.hit
        labels = {hit.page_start: hit.label_start, hit.page_end: hit.label_end}
        span = [(hit.char_start, hit.char_end)]
        placed = self._placed(hit.book_id, (source.page_start, source.page_end), quotes, span)
        pages = sorted(set(range(hit.page_start, hit.page_end + 1)) | {p for p, on in placed.items() if on})
        return [(p, labels.get(p) or self._page_label(hit.book_id, p),
                 self.page_image(hit.book_id, p, span, placed.get(p, []), crop=crop)) for p in pages]

    def quote_pages(self, source: Source, answer_text: str) -> list[int]:
        """PDF pages of the source's context (its window or parent, not only the matching chunk) on
        which the sentences the answer attributes to it are found: where a reader checks the claim."""
        quotes = quoted_sentences(answer_text, source)
        return self._pages_holding(source, quotes)

    def _pages_holding(self, source: Source, quotes: list[str]) -> list[int]:
        hit = source.hit
        placed = self._placed(source.book_id, (source.page_start, source.page_end), quotes,
                              [(hit.char_start, hit.char_end)])
        return [p for p, on in placed.items() if on]

    def _placed(self, book_id: str, pages: tuple[int, int], quotes, spans) -> dict[int, list[str]]:
        """``placed_quotes`` for a source on ``pages`` (first, last) of ``book_id``."""
        return placed_quotes(held_pages(self.catalog.page, book_id, pages), quotes, spans)

    def _page_label(self, book_id: str, page: int) -> str:
        pg = self.catalog.page(book_id, page)
        return pg.label if pg is not None else str(page)

    def quoted_passage(self, source: Source, answer_text: str) -> list[Block]:
        """What a source shows as its passage: the chunks its quotes lie in (``quoted_chunks``), else the chunk the
        answer quotes, else the matching one (a book no longer in the library: that chunk as stored)."""
        chunks = quoted_chunks(answer_text, source, self.catalog.chunk_range) or [source.quoted or source.hit]
        return [b for c in chunks for b in self.passage(c)]

    def passage(self, chunk: Chunk) -> list[Block]:
        """The chunk's text as a reader sees it: paragraphs, lists, code (with its indentation) and tables, the
        line kinds taken from its pages (a deleted book's chunk: found from the text alone)."""
        pages = [pg for n in range(chunk.page_start, chunk.page_end + 1)
                 if (pg := self.catalog.page(chunk.book_id, n)) is not None]
        return source_blocks(chunk.text, chunk_layout(chunk, pages))

    # --- the reader view -------------------------------------------------------------------------
    def open_source(self, source: Source, answer_text: str = "", occurrence: int = 0) -> ReaderTarget:
        """What citation [n] opens: the page holding the first sentence of the passage it closes (its
        ``occurrence``-th [n] in the answer, from 0: a source quoted twice is opened at each passage; tour 42's
        second [1] had opened the first one's page), else the first page holding any sentence the answer quotes
        from the source, else the matching chunk's first page; the chunk highlighted and the quoted sentences
        stronger."""
        quotes = quoted_sentences(answer_text, source)
        own, upto = quotes, quotes
        if occurrence > 0:
            before = set(quoted_sentences(upto_citation(answer_text, source.n, occurrence - 1), source))
            upto = quoted_sentences(upto_citation(answer_text, source.n, occurrence), source)
            own = [q for q in upto if q not in before] or quotes
        hit = source.hit
        # the first sentence of the passage, placed after those before it (each on one page, in the book's order): a
        # line the source has twice ("\relative {") is the one after them (tour 51: the second [1] opened p. 17)
        later = own is not quotes  # a later passage's: placed after the quotes before it
        placed = self._placed(source.book_id, (source.page_start, source.page_end), upto if later else quotes,
                              [(hit.char_start, hit.char_end)]) if own else {}
        at = upto.index(own[0]) if later else 0
        after = max((p for p, on in placed.items() if at and upto[at - 1] in on), default=0)  # where the one before
        first = sorted(p for p, on in placed.items() if own[0] in on and p >= after)[:1]  # ends (a cut one: 2 pages)
        holding = first or (self._pages_holding(source, quotes) if quotes else [])
        page = holding[0] if holding else hit.page_start
        # yellow: the passage the source shows (the chunks its quotes lie in, as under the answer), not only the
        # matching chunk (tour 50: quotes before it on p. 99 had no yellow under their orange)
        shown = quoted_chunks(answer_text, source, self.catalog.chunk_range) or [hit]
        spans: list[tuple[int, int]] = []  # merged where chunks overlap (an overlap drawn twice looks darker)
        for a, b in sorted({(c.char_start, c.char_end) for c in shown} | {(hit.char_start, hit.char_end)}):
            if spans and a <= spans[-1][1]:
                spans[-1] = (spans[-1][0], max(b, spans[-1][1]))
            else:
                spans.append((a, b))
        return ReaderTarget(hit.book_id, page, tuple(spans), tuple(quotes),
                            pages=(source.page_start, source.page_end),
                            title=f"[{source.n}] {source.label}", book_title=source.book_title)

    def open_figure(self, book_id: str, figure_id: str, page: int, title: str = "") -> ReaderTarget:
        """What a figure's "open page" opens: its page, the figure framed (when the book still has it)."""
        rects: tuple = ()
        idx = figure_id.rsplit(":fig", 1)[-1]
        if idx.isdigit():
            fig = next((f for f in self.catalog.figures(book_id) if f.index == int(idx)), None)
            if fig is not None and fig.page == page:
                rects = ((page, *fig.bbox),)
        book = self.catalog.book(book_id)
        return ReaderTarget(book_id, page, rects=rects, title=title, book_title=book.title if book else "")

    def read(self, target: ReaderTarget, number: int | None = None) -> ReaderPage:
        """Page ``number`` (default the target's) as the reader shows it. A book no longer in the library raises
        ``NotFoundError``; a page whose image cannot be drawn comes back with ``problem`` and its text."""
        book = self.catalog.book(target.book_id)
        if book is None or book.status != "ready":
            name = f"'{target.book_title}'" if target.book_title else "The book this points to"
            raise NotFoundError(f"{name} is no longer in your library (it was deleted or is being re-indexed), so "
                                "its pages cannot be opened. The passage is still shown as it was quoted; add the "
                                "book again on the Library page to read it.")
        labels = self.catalog.page_labels(target.book_id)
        count = len(labels)
        if count == 0:
            raise NotFoundError(f"'{book.title}' has no pages stored; re-index it on the Library page.")
        n = min(max(1, int(number if number is not None else target.page)), count)
        pg = self.catalog.page(target.book_id, n)
        out = ReaderPage(book.id, book.title, n, labels[n - 1], count, text=pg.text if pg else "", labels=labels,
                         filename=book.filename)
        from .render import locate_all

        rects = [tuple(r[1:5]) for r in target.rects if r[0] == n]
        spans = pg.local(target.spans) if pg else []
        quotes = list(target.quotes)
        if target.pages and quotes:  # each quote on the one page of the source where it lies
            quotes = self._placed(target.book_id, target.pages, quotes, target.spans).get(n, [])
        quoted = [q for q in locate_all(pg, quotes, spans) if q] if pg else []
        out.highlighted = bool(rects) or bool(quoted) or any(b > a for a, b in spans)
        pdf = original_path(self.settings, book.id)
        if pg is None or not pdf.exists():
            out.problem = (f"The image of p. {out.label} cannot be drawn: the book's original file is missing. "
                           "Delete the book and upload it again to see its pages; the page's text follows.")
            return out
        try:
            out.image = self._reader_image(pdf, pg, spans, quoted, rects, book.id)
            # the view opens on the answer's quote when the page has one, else on the cited passage or figure
            boxes = [b for a, z in quoted for b in pg.text_boxes(a, z)] or \
                [b for a, z in spans if z > a for b in pg.text_boxes(a, z)] + list(rects)
            width, height = png_size(out.image)
            if boxes and width and height:
                out.focus = (min(1.0, max(0.0, min(b[0] for b in boxes) * READER_ZOOM / width)),
                             min(1.0, max(0.0, min(b[1] for b in boxes) * READER_ZOOM / height)))
        except Exception as e:  # noqa: BLE001 - a damaged page: say so, show the text
            log.warning("page %s of %s could not be rendered: %s", n, book.id, e)
            out.problem = (f"The image of p. {out.label} could not be drawn ({type(e).__name__}: the page is damaged "
                           "in the stored file). Its text follows; the original may still open in a PDF viewer.")
        return out

    def _reader_image(self, pdf: Path, pg, spans, quoted, rects, book_id: str) -> Path:
        """``quoted``: the answer's sentences as located on the page (page-text spans)."""
        from .render import render_page

        return render_page(pdf, pg, spans, quoted, self.settings.page_cache_dir / book_id, READER_ZOOM, crop=False,
                           rects=rects)

    def page_pdf(self, book_id: str, number: int) -> bytes:
        """Page ``number`` of the original as a one-page PDF (what "Download this page" gives)."""
        import pymupdf

        with pymupdf.open(self._original(book_id)) as src, pymupdf.open() as one:
            if not 1 <= number <= src.page_count:
                raise NotFoundError(f"The file has no page {number} (it has {src.page_count}).")
            one.insert_pdf(src, from_page=number - 1, to_page=number - 1)
            return one.tobytes(garbage=1, deflate=True)

    def book_pdf(self, book_id: str, number: int) -> bytes:
        """The whole original, set to open at page ``number`` (the PDF's OpenAction; viewers that honour it —
        Firefox, Acrobat, most phone viewers — show that page first)."""
        import pymupdf

        with pymupdf.open(self._original(book_id)) as doc:
            if not 1 <= number <= doc.page_count:
                raise NotFoundError(f"The file has no page {number} (it has {doc.page_count}).")
            doc.xref_set_key(doc.pdf_catalog(), "OpenAction", f"[{doc[number - 1].xref} 0 R /XYZ null null null]")
            return doc.tobytes(garbage=0)

    def uploaded_file(self, book_id: str) -> Path | None:
        """The file as it was uploaded when it is not the PDF the pages come from (an EPUB, a Word file, …
        laid out as that PDF); None for a PDF book or when it is gone."""
        path = source_path(self.settings, book_id)
        return path if path.exists() and path != original_path(self.settings, book_id) else None

    def _original(self, book_id: str) -> Path:
        path = original_path(self.settings, book_id)
        if not path.exists():
            raise RagError("The book's original file is missing; delete the book and upload it again.")
        return path
