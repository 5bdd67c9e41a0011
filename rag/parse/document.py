"""PDF → ParsedBook with PyMuPDF: text per page (1-based number + printed label), section paths.

Checks the file first (``checks``: not a PDF, damaged, password-protected, truncated, no pages, too large) and
refuses with a reason the user can act on; scanned pages go to ``ocr``, ruled tables to ``tables``, sections and title
to ``sections``.
A page's text, lines and their boxes come from ``lines`` (blocks in the PDF's content order, wrapped lines joined,
superscripts and accents); each line keeps its box (``Page.lines``) for highlighting; lines inside a figure are its
labels, not running text.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..errors import BadDocumentError
from ..types import LINE_FURNITURE, LINE_HEADER, PAGE_SEP, Figure, Page, ParsedBook
from . import furniture, ocr, tables
from .lines import page_text, text_blocks
from .checks import UNMAPPED_SHARE, mupdf_messages, open_pdf, check_pdf_bytes, unmapped_share
from .sections import (body_size, first_pages_end, good_title, sections_from_fonts, sections_from_toc,
                       title_from_first_pages)
from .figures import MAX_FIGURES_PER_BOOK, FigureReport, PageFigure, find_regions, render, repeated_images, resolve
from .memory import give_back

MIN_TEXT_CHARS = 20  # fewer extractable characters than this in the whole file = no text layer


PAGES_PER_STEP = 50  # progress every so many pages
TRIM_EVERY = 10  # freed memory handed back every so many pages (table finding frees ~100 MB on a busy page)


def _mark_furniture(pages: list[Page], heights: list[float]) -> list[Page]:
    """Running headers, footers and page numbers get line kind LINE_FURNITURE (kept in the page text, left out of
    the chunks' text); headers just below the top band LINE_HEADER (``furniture.headers``: in the chunks' text,
    never in an answer)."""
    boxes = [(p.label, p.number, p.text, p.lines, h) for p, h in zip(pages, heights)]
    found = furniture.find(boxes)
    low = furniture.headers(boxes, found)
    return [replace(p, lines=tuple((*ln[:6], LINE_FURNITURE) if i in f else (*ln[:6], LINE_HEADER) if i in h
                                   else ln for i, ln in enumerate(p.lines)))
            if f or h else p for p, f, h in zip(pages, found, low)]




def _near_text(text: str, block_at: dict, rect, skip: int, limit: int = 500) -> tuple[int, str]:
    """The page-local offset of the text block nearest below (else above) a figure, and the text
    of the (up to) two nearest blocks: what surrounds the figure on its page."""
    near = []
    for bi, (off, bb) in block_at.items():
        if bi == skip:
            continue
        gap = bb[1] - rect.y1 if bb[1] >= rect.y1 - 3 else rect.y0 - bb[3]
        if gap > -3:
            near.append((max(gap, 0.0), bb[1] < rect.y0, bi, off))
    near.sort()
    anchor = near[0][3] if near else 0
    ctx = []
    for _, _, bi, off in near[:2]:
        nxt = min((o for o, _ in block_at.values() if o > off), default=len(text))
        ctx.append(" ".join(text[off:nxt].split()))
    return anchor, " ".join(ctx)[:limit]


def _image_infos(page) -> list[dict]:
    try:
        return page.get_image_info(xrefs=True)
    except Exception:  # broken image resources: the page's text still counts
        return []


def _no_progress(done: int, total: int, note: str) -> None:
    pass


def parse_pdf(data: bytes, filename: str, max_mb: int = 200, extract_figures: bool = True, language: str = "",
              use_ocr: bool = True, progress=_no_progress, find_tables: bool = True,
              laid_out: bool = False) -> ParsedBook:
    """``language`` (a ``rag.text.languages`` code, empty = detect) picks the OCR language; ``use_ocr`` False leaves
    scanned pages unread; ``progress(page, pages, note)`` is called before each OCR'd page and every
    ``PAGES_PER_STEP`` pages; ``laid_out``: the PDF is Folio's layout of another format (no typesetter's hyphens)."""
    check_pdf_bytes(data, filename, max_mb)
    doc = open_pdf(data, filename)
    try:
        reader = ocr.BookReader(doc, language, use_ocr, progress)
        n_tables = 0
        pages: list[Page] = []
        candidates: list[tuple[int, str, float, bool, bool]] = []
        report = FigureReport()
        figures: list[Figure] = []
        images: list[bytes] = []
        infos = [_image_infos(page) for page in doc]
        last: tuple[PageFigure, Figure] | None = None  # the latest figure kept, and its draft
        repeated = repeated_images(infos)
        offset = 0
        heights: list[float] = []
        unmapped: list[int] = []  # pages whose fonts have no Unicode mapping
        for i, page in enumerate(doc):
            found: list[PageFigure] = []
            if i and i % TRIM_EVERY == 0:
                give_back()  # a long book's freed page data goes back to the system as it goes
            if i and i % PAGES_PER_STEP == 0:
                progress(i, doc.page_count, f"Read {i} of {doc.page_count} pages")
            try:
                blocks = text_blocks(page, laid_out)
                label = page.get_label() or str(i + 1)
                page_tables = tables.find(page) if find_tables else []
                if page_tables:
                    blocks = tables.into_blocks(blocks, page_tables)
                    n_tables += len(page_tables)
                if extract_figures and len(figures) < MAX_FIGURES_PER_BOOK:
                    prev = last if last and last[1].page == i and not last[1].caption else None
                    found = resolve(page, find_regions(page, infos[i], repeated, report), blocks, report,
                                    prev[0] if prev else None)
                    found = [f for f in found if not any(tables.covers(t.bbox, f.rect) for t in page_tables)]
                    if prev and prev[0].caption:  # its caption opens this page
                        prev[1].caption, prev[1].ref = prev[0].caption, prev[0].ref
                        report.captioned += 1
                exclude = set().union(*(f.label_lines for f in found if not f.text_kept))
                text, lines, boxes, block_at = page_text(blocks, exclude)
            except Exception:  # one damaged page must not lose the book
                text, lines, boxes, block_at, label, found = "", [], (), {}, str(i + 1), []
                report.skipped["unreadable page"] += 1
            bad_fonts = unmapped_share(text) >= UNMAPPED_SHARE
            if bad_fonts or (len(text.strip()) < MIN_TEXT_CHARS and ocr.scanned(page, infos[i])):
                # glyphs without Unicode, or a scanned image: read by OCR, else left empty (said in the report)
                text, lines, boxes, block_at, found = "", [], (), {}, []
                scanned = reader.read(page, i + 1, doc.page_count)
                if scanned is not None:  # OCR'd lines have no real font sizes: no heading candidates
                    text, _, boxes, block_at = page_text(scanned)
                elif bad_fonts:
                    unmapped.append(i + 1)
            pages.append(Page(number=i + 1, label=label, text=text, offset=offset, lines=boxes,
                              ocr=reader.confidence.get(i + 1, -1.0)))
            heights.append(page.rect.height)
            for f in found:
                if len(figures) >= MAX_FIGURES_PER_BOOK:
                    report.skipped["over the per-book limit"] += 1
                    continue
                if not render(page, f, report):
                    continue
                anchor, context = _near_text(text, block_at, f.rect, f.caption_block)
                if f.caption_block in block_at:
                    anchor = block_at[f.caption_block][0]
                figures.append(Figure(book_id="", index=len(figures), page=i + 1, page_label=label,
                                      bbox=tuple(round(v, 1) for v in f.rect), kind=f.kind, caption=f.caption,
                                      ref=f.ref, labels=f.labels, context=context, anchor=offset + anchor,
                                      width=f.width, height=f.height))
                images.append(f.png)
                last = (f, figures[-1])
                report.found += 1
                report.raster += f.kind == "raster"
                report.vector += f.kind == "vector"
                report.captioned += bool(f.caption)
            for off, t, size, bold, lead in lines:
                candidates.append((offset + off, t, size, bold, lead))
            offset += len(text) + len(PAGE_SEP)
        total_chars = sum(len(p.text.strip()) for p in pages)
        if total_chars < MIN_TEXT_CHARS and unmapped:
            raise BadDocumentError(filename, "the PDF's fonts have no Unicode mapping, so its text comes out as "
                                             f"unreadable symbols (�), and {reader.problem or 'OCR found no text'}. "
                                             f"To read it, "
                                             f"{ocr.INSTALL_HINT.replace('ocrmypdf in', 'ocrmypdf --force-ocr in')}.")
        if total_chars < MIN_TEXT_CHARS:
            if reader.missed:
                raise BadDocumentError(filename, f"the PDF has no text layer (its pages are scanned images) and "
                                                 f"{reader.problem}. To read it, {ocr.INSTALL_HINT}.")
            if reader.confidence:
                raise BadDocumentError(filename, "the PDF has no text layer and OCR found no readable text on its "
                                                 f"{len(reader.confidence)} scanned page(s).")
            if any(doc[i].get_images() for i in range(min(doc.page_count, 20))):
                raise BadDocumentError(filename, "the PDF has no text layer: its pages hold only pictures, without "
                                                 "text to read.")
            raise BadDocumentError(filename, "the PDF contains no extractable text.")
        pages = _mark_furniture(pages, heights)
        total = offset - len(PAGE_SEP)
        toc = doc.get_toc(simple=True)
        meta_title = (doc.metadata or {}).get("title", "").strip()
        title = meta_title if good_title(meta_title) else title_from_first_pages(candidates, pages, filename)
        if len(toc) >= 2:
            sections = sections_from_toc(toc, pages, total)
        else:
            sections = sections_from_fonts(candidates, body_size(doc), total, title, min(first_pages_end(pages), total))
        n_messages, sample = mupdf_messages()
        fig_report = report.to_dict()
        if unmapped:  # kept as empty pages; the ingest summary names them
            fig_report["unmapped_pages"] = unmapped
        if n_tables:
            fig_report["tables"] = n_tables
        if reader.confidence:
            fig_report["ocr"] = {"pages": len(reader.confidence), "language": reader.language or "en",
                                 "confidence": round(sum(reader.confidence.values()) / len(reader.confidence), 1)}
        missed = [n for n in reader.missed if n not in unmapped]
        if missed:  # scanned pages left unread
            fig_report["scanned_unread"] = {"pages": missed, "why": reader.problem}
        if n_messages:  # the file needed fixing up somewhere: said in the ingest report and by the CLI
            fig_report.update(mupdf_messages=n_messages, mupdf_sample=sample)
        return ParsedBook(title=title, pages=pages, sections=sections, page_count=doc.page_count, figures=figures,
                          figure_images=images, figure_report=fig_report)
    finally:
        doc.close()


def parse_file(path: str | Path, max_mb: int = 200, extract_figures: bool = True, **kw) -> ParsedBook:
    p = Path(path)
    return parse_pdf(p.read_bytes(), p.name, max_mb, extract_figures, **kw)
