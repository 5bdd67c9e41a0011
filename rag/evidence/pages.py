"""Pages as evidence (``CitationPages``, ``Folio.reader``): a book page rendered with a passage highlighted, and
for a cited source the pages on which the sentences the answer quotes from it lie."""
from __future__ import annotations

from pathlib import Path

from ..errors import NotFoundError, RagError
from ..library.ingest import original_path
from ..library.resources import Resources
from ..types import Source


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
        from .render import locate, render_page

        pg = self.catalog.page(book_id, page)
        pdf = original_path(self.settings, book_id)
        if pg is None or not pdf.exists():
            raise NotFoundError(f"Page {page} of book {book_id} is not available (the book or its original is gone).")
        local = [(max(0, a - pg.offset), min(len(pg.text), b - pg.offset)) for a, b in spans]
        local = [(a, b) for a, b in local if b > a]
        found = [locate(pg, q) for q in quotes]
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
        from ..answer.quotecheck import attributed, normalise

        quotes = [sent for sent, ns in attributed(answer_text, [normalise(source.text)]) if source.n in ns]
        hit = source.hit
        labels = {hit.page_start: hit.label_start, hit.page_end: hit.label_end}
        span = [(hit.char_start, hit.char_end)]
        pages = sorted(set(range(hit.page_start, hit.page_end + 1)) | set(self._pages_holding(source, quotes)))
        return [(p, labels.get(p) or self._page_label(hit.book_id, p),
                 self.page_image(hit.book_id, p, span, quotes, crop=crop)) for p in pages]

    def quote_pages(self, source: Source, answer_text: str) -> list[int]:
        """PDF pages of the source's context (its window or parent, not only the matching chunk) on
        which the sentences the answer attributes to it are found: where a reader checks the claim."""
        from ..answer.quotecheck import attributed, normalise

        quotes = [sent for sent, ns in attributed(answer_text, [normalise(source.text)]) if source.n in ns]
        return self._pages_holding(source, quotes)

    def _pages_holding(self, source: Source, quotes: list[str]) -> list[int]:
        from .render import locate

        found: list[int] = []
        for p in range(source.page_start, source.page_end + 1):
            pg = self.catalog.page(source.book_id, p)
            if pg is not None and any(locate(pg, q) for q in quotes):
                found.append(p)
        return found

    def _page_label(self, book_id: str, page: int) -> str:
        pg = self.catalog.page(book_id, page)
        return pg.label if pg is not None else str(page)
