"""Ingest one PDF: check → parse (text, figures) → chunk → link figures → embed → index, all-or-nothing.

The book row is ``indexing`` until vectors and chunks are written; ``commit_book`` then
makes it visible in one SQLite transaction. Any failure removes what was written; a crash
leaves an ``indexing`` row that ``recover`` cleans on the next start. Vector ids are
``book_id:chunk_index`` and old vectors of the book are deleted first, so a re-ingest never
duplicates chunks. Figures are PNGs under data/figures/<book>/ written just before the commit
and removed with the book (failure, delete, re-index).
"""
from __future__ import annotations

import hashlib
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .catalog import Catalog
from ..chunking import chunk_book
from ..chunking.base import embedding_texts
from ..context import guess_doc_type
from ..errors import BadDocumentError, RagError
from ..embed.cache import EmbeddingCache
from ..figures.links import link_figures
from ..parse import parse_pdf
from ..parse.formats import original_file, read_document, remove_originals, store_original
from ..parse.memory import give_back
from ..settings import Settings
from ..text.indexable import unindexable_reason
from .vectors import VectorStore

Progress = Callable[[str, float, str], None]  # (stage, fraction 0..1 of that stage, message)
STAGES = ("parsing", "chunking", "embedding", "indexing")


def book_id_for(data: bytes) -> str:
    """Content hash: the same file is the same book, whatever its name."""
    return hashlib.sha256(data).hexdigest()[:16]


@dataclass
class IngestResult:
    book_id: str
    title: str
    pages: int
    chunks: int
    seconds: float
    skipped: bool = False  # already in the library with the same settings
    stage_seconds: dict | None = None
    figures: dict | None = None  # figure report: found, raster, vector, captioned, skipped {reason: n}

    def summary(self) -> str:
        """"3 pages, 12 chunks, 2 figures (2 captioned, 4 decorations skipped), 1.0 s"."""
        f = self.figures or {}
        skipped = sum((f.get("skipped") or {}).values())
        figs = f"{f.get('found', 0)} figures ({f.get('captioned', 0)} captioned" + (
            f", {skipped} decorations skipped)" if skipped else ")")
        lost = f.get("unmapped_pages") or []
        warn = (f"; warning: {len(lost)} page(s) unreadable (fonts without a Unicode mapping; OCR them to "
                f"search them): {', '.join(map(str, lost[:10]))}{'…' if len(lost) > 10 else ''}") if lost else ""
        o = f.get("ocr") or {}
        if o:
            figs += (
                f", {o['pages']} scanned page(s) read by OCR ({o['language']}, mean confidence {o['confidence']:.0f}%)"
            )
        unread = f.get("scanned_unread") or {}
        if unread:
            pages = unread.get("pages") or []
            warn += (f"; warning: {len(pages)} scanned page(s) not read ({unread.get('why', '')}; install Tesseract "
                     f"to search them): {', '.join(map(str, pages[:10]))}{'…' if len(pages) > 10 else ''}")
        return f"{self.pages} pages, {self.chunks} chunks, {figs}, {self.seconds:.1f} s{warn}"


def _noop(stage: str, frac: float, msg: str) -> None:
    pass


def ingest_pdf(data: bytes, filename: str, settings: Settings, catalog: Catalog, store: VectorStore, embed,
               progress: Progress = _noop, force: bool = False) -> IngestResult:
    t0 = time.perf_counter()
    timings: dict[str, float] = {}
    doc = read_document(data, filename, settings.max_upload_mb)  # a PDF as is; EPUB, DOCX, HTML, MD, text laid out
    book_id = book_id_for(data)
    existing = catalog.book(book_id)
    if (existing and existing.status == "ready" and not force and existing.embed_model == settings.embed_model
            and settings.same_chunking(existing.chunking)):
        progress("indexing", 1.0, f"{filename} is already in the library as '{existing.title}'.")
        return IngestResult(book_id, existing.title, existing.pages, existing.chunks, 0.0, skipped=True)

    progress("parsing", 0.0, f"Reading {filename}")
    t = time.perf_counter()
    try:
        book = parse_pdf(doc.pdf, filename, settings.max_upload_mb, language=settings.language, use_ocr=settings.ocr,
                         progress=lambda page, pages, note: progress("parsing", page / pages, note),
                         laid_out=doc.converted)
    except Exception as e:
        raise damaged(e, filename) or e
    book = doc.finish(book)  # a converted book: its own table of contents, captions, format and language
    give_back()  # the parse's freed memory, before embedding adds its own
    timings["parsing"] = time.perf_counter() - t
    fig_report = book.figure_report
    why = unindexable_reason(book.chunk_text, settings.language)  # refused before anything is written (issue 21)
    if why:
        raise BadDocumentError(filename, why)
    progress("parsing", 1.0, f"{book.page_count} pages, {len(book.sections)} sections, "
                             f"{fig_report.get('found', 0)} figures")

    store_original(settings.uploads_dir, book_id, data, doc)

    keep_doc_type = existing.doc_type if existing else ""  # a user's choice survives re-indexing
    catalog.begin_book(book_id, book.title, filename, settings.embed_model, settings.chunking_config(),
                       reindexing=existing is not None)
    try:
        store.delete_book(book_id)
        remove_figures(settings, book_id)
        if not getattr(embed, "loaded", True):  # the first book on a new machine also waits for the model's export
            progress("chunking", 0.0, "Loading the embedding model (the first time on this machine it is exported "
                                      "and measured: about a minute)")
        cache = EmbeddingCache(settings.embed_cache_path, embed.cache_id)
        progress("chunking", 0.0, f"Splitting into chunks ({settings.chunker})")
        t = time.perf_counter()
        chunks = chunk_book(book, book_id, settings, lambda texts: cache.embed(
            texts, embed.get_text_embedding_batch, max(settings.embed_batch_size, 64)))
        timings["chunking"] = time.perf_counter() - t
        give_back()
        fig_report = {**fig_report, "doc_type": guess_doc_type(chunks)}
        if not chunks:
            raise BadDocumentError(filename, "no text chunks could be made from this PDF.")
        figures = book.figures
        for f in figures:
            f.book_id = book_id
        links = link_figures(figures, chunks)
        progress("chunking", 1.0, f"{len(chunks)} chunks")
        if settings.figure_vision_model and figures:
            from ..figures.describe import describe_all

            fig_report = {**fig_report, "descriptions": describe_all(
                figures, book.figure_images, settings,
                lambda i, n: progress("chunking", 1.0, f"Describing figures with {settings.figure_vision_model}: "
                                                       f"{i}/{n}"))}

        t = time.perf_counter()
        texts = embedding_texts(book, chunks, settings.embed_context, settings.embed_headings) + [
            f.index_text() or f.title for f in figures
        ]
        vectors = cache.embed_array(texts, getattr(embed, "background_batch", embed.get_text_embedding_batch),
                              max(settings.embed_batch_size, 256),
                              lambda done, n: progress("embedding", done / n, f"Embedded {done}/{n} chunks and figures "
                                                                               f"({cache.hits} from the cache)"))
        vectors, figure_vectors = vectors[:len(chunks)], vectors[len(chunks):]
        timings["embedding"] = time.perf_counter() - t
        give_back()

        t = time.perf_counter()
        progress("indexing", 0.0, "Writing vectors, figures and catalog")
        save_figures(settings, figures, book.figure_images)
        store.add(chunks, vectors)
        give_back()
        seconds = time.perf_counter() - t0
        catalog.commit_book(
            book_id,
            book.title,
            book.pages,
            chunks,
            seconds,
            figures,
            figure_vectors,
            links,
            fig_report,
            book.sections,
            keep_doc_type,
        )
        timings["indexing"] = time.perf_counter() - t
        progress("indexing", 1.0, f"Ready: {len(chunks)} chunks, {len(figures)} figures in {seconds:.1f} s")
    except BaseException as e:
        try:
            store.delete_book(book_id)
            remove_figures(settings, book_id)
        finally:
            if existing is not None and isinstance(e, Exception):  # a book re-indexed: listed, failed, with why
                catalog.mark_failed(book_id, f"re-indexing failed: {failure_reason(e)}")
            else:  # a new book: nothing of it is left
                catalog.delete_book(book_id)
        raise
    return IngestResult(book_id, book.title, book.page_count, len(chunks), seconds, stage_seconds=timings,
                        figures=fig_report)


def damaged(e: Exception, filename: str) -> BadDocumentError | None:
    """MuPDF failing on the file's structure (a cycle in the page tree, a broken object the repair could not
    rebuild) while it is read: the file is damaged, said as such. None for any other error."""
    import pymupdf

    if isinstance(e, RagError) or not isinstance(e, (pymupdf.mupdf.FzErrorBase, pymupdf.FileDataError)):
        return None
    what = str(e).split(":", 1)[-1].strip() if "code=" in str(e) else str(e)
    return BadDocumentError(filename, f"the PDF is damaged: its structure cannot be read ({what[:120]}). Re-export "
                                      "or repair it (e.g. qpdf in.pdf out.pdf, or print it to PDF) and add the copy.")


def failure_reason(e: Exception) -> str:
    """What to tell the user about a failed ingest: a RagError's own message, else what went wrong."""
    if isinstance(e, BadDocumentError):
        return e.reason
    if isinstance(e, RagError):
        return str(e)
    if isinstance(e, OSError):
        return (f"a file of the library could not be written or read ({type(e).__name__}: {e}). Check that the "
                "data folder (RAG_DATA_DIR) is writable and has free space, then try again.")
    return (f"an unexpected error stopped it ({type(e).__name__}: {str(e)[:300]}). The library is unchanged; "
            "the details are in the log. Try again, or re-export the file and add the copy.")


def figures_dir(settings: Settings, book_id: str) -> Path:
    return settings.figures_dir / book_id


def save_figures(settings: Settings, figures, images: list[bytes]) -> None:
    """Each figure once as PNG under data/figures/<book>/; sets ``path`` (relative to the data folder)."""
    for f, png in zip(figures, images, strict=True):
        d = figures_dir(settings, f.book_id)
        d.mkdir(parents=True, exist_ok=True)
        path = d / f"{f.index}.png"
        path.write_bytes(png)
        f.path = str(path.relative_to(settings.data_dir))


def remove_figures(settings: Settings, book_id: str) -> None:
    shutil.rmtree(figures_dir(settings, book_id), ignore_errors=True)
    shutil.rmtree(settings.page_cache_dir / book_id, ignore_errors=True)


INTERRUPTED = ("re-indexing was interrupted (the app or the machine stopped before it finished). The original is "
               "kept: re-index it again (or delete it).")


def recover(catalog: Catalog, store: VectorStore, settings: Settings | None = None) -> list[str]:
    """Remove books a crash left half-indexed; returns their ids (they can be ingested again). A book that was
    being *re-indexed* was the user's before: it stays, listed as failed with ``INTERRUPTED``, its original kept."""
    from .catalog import REINDEXING

    removed = []
    for b in catalog.stale_books():
        store.delete_book(b.id)
        if b.error == REINDEXING and (settings is None or original_file(settings.uploads_dir, b.id).exists()):
            if settings is not None:
                remove_figures(settings, b.id)
            catalog.mark_failed(b.id, INTERRUPTED)
            continue
        catalog.delete_book(b.id)
        if settings is not None:
            remove_figures(settings, b.id)
            remove_originals(settings.uploads_dir, b.id)
        removed.append(b.id)
    return removed


def original_path(settings: Settings, book_id: str) -> Path:
    """The PDF pages are rendered from (the laid-out PDF for a converted book)."""
    return settings.uploads_dir / f"{book_id}.pdf"


def source_path(settings: Settings, book_id: str) -> Path:
    """The file as uploaded (EPUB, DOCX, …, or the PDF itself): what re-indexing reads."""
    return original_file(settings.uploads_dir, book_id)
