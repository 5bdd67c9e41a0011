"""``Converted``: the PDF the pipeline parses, plus what the original said that a PDF parse cannot know.

``finish`` applies that to the parsed book: sections from the book's own table of contents at the exact
places its entries landed, captions of images that the book marked as such (``<figcaption>``, caption
paragraphs) but that carry no "Figure n" words, and the source format, language and what was left out
(scripts, remote images, …) in the book's report.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...text.captions import caption_key
from ...types import PAGE_SEP, ParsedBook
from ..sections import sections_from_marks


@dataclass
class Converted:
    pdf: bytes  # what the PDF pipeline parses and what pages are rendered from
    source_format: str  # "pdf" | "epub" | "docx" | "html" | "markdown" | "text"
    extension: str  # of the stored original: "pdf", "epub", "docx", "html", "md", "txt"
    title: str = ""
    language: str = ""  # as the book declares it (dc:language, <html lang>), "" when it does not
    outline: list[tuple[int, str, int, float]] = field(default_factory=list)  # (level, title, page, y)
    captions: list[tuple[int, tuple, str]] = field(default_factory=list)  # (page, image box, caption)
    left_out: dict = field(default_factory=dict)  # what was not rendered, by reason -> count
    pages: int = 0

    @property
    def converted(self) -> bool:
        return self.source_format != "pdf"

    def finish(self, book: ParsedBook) -> ParsedBook:
        if not self.converted:
            return book
        if self.outline:
            book.sections = sections_from_marks([(_offset(book, page, y), level, title)
                                                 for level, title, page, y in self.outline], len(book.text))
        for f in book.figures:
            if f.caption:
                continue
            cap = _caption_at(self.captions, f.page, f.bbox)
            if cap:
                f.caption, f.ref = cap, caption_key(cap) or ""
                book.figure_report["captioned"] = book.figure_report.get("captioned", 0) + 1
        book.figure_report.update(source_format=self.source_format, language=self.language,
                                  laid_out_pages=self.pages)
        if self.left_out:
            book.figure_report["left_out"] = self.left_out
        return book


def _offset(book: ParsedBook, page: int, y: float) -> int:
    """Book-text offset of the first line at or below ``y`` on ``page`` (the next page's start if none)."""
    if not (1 <= page <= len(book.pages)):
        return len(book.text)
    p = book.pages[page - 1]
    starts = [ln[0] for ln in p.lines if ln[3] >= y - 2.0]
    if starts:
        return p.offset + min(starts)
    return p.offset + len(p.text) + (len(PAGE_SEP) if page < len(book.pages) else 0)


NEAR = 12.0  # points between an image element's box (MuPDF reports its line box) and the figure's


def _caption_at(captions, page: int, bbox) -> str:
    """The caption of the image element placed on ``page`` nearest the figure's box (within ``NEAR``)."""
    best, best_gap = "", NEAR
    for pno, rect, text in captions:
        if pno != page:
            continue
        dx = max(bbox[0] - rect[2], rect[0] - bbox[2], 0.0)
        dy = max(bbox[1] - rect[3], rect[1] - bbox[3], 0.0)
        if max(dx, dy) <= best_gap:
            best, best_gap = text, max(dx, dy)
    return best
