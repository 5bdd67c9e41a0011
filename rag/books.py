"""The library side of ``Folio`` (``Books``, mixed in): books, adding them (now or queued), re-indexing from
the stored originals, deleting, each book's BM25 index, figures, book types, and evaluation jobs."""
from __future__ import annotations

import json
import time
from pathlib import Path

from .errors import NotFoundError, RagError
from .ingest import IngestResult, ingest_pdf, original_path, remove_figures
from .settings import Settings
from .types import Book, Figure


class Books:
    """Needs ``self.settings``, ``self.catalog``, ``self.store``, ``self.embed``, ``self.queue``/``_queue`` and
    ``self._bm25`` (``Folio`` has them)."""

    def books(self) -> list[Book]:
        return self.catalog.books()

    def book(self, book_id: str) -> Book:
        b = self.catalog.book(book_id)
        if b is None:
            raise NotFoundError(f"No book with id {book_id}. Run `python -m rag books` to list them.")
        return b

    def chunking_settings(self, chunking: dict | None) -> Settings:
        """The settings with a book's own chunking choices (chunker, chunk_size, …) applied and checked."""
        from .settings import CHUNK_KEYS

        extra = {k: v for k, v in (chunking or {}).items() if k in CHUNK_KEYS}
        if not extra:
            return self.settings
        try:
            return Settings.model_validate({**self.settings.model_dump(), **extra})
        except ValueError as e:
            raise RagError(f"Chunking settings {extra} are not valid: {e}".splitlines()[0]) from e

    def ingest(self, data: bytes, filename: str, progress=None, force: bool = False,
               chunking: dict | None = None) -> IngestResult:
        """``chunking`` overrides the default chunking settings for this book (e.g. {"chunker": "semantic"})."""
        kw = {"progress": progress} if progress else {}
        r = ingest_pdf(data, filename, self.chunking_settings(chunking), self.catalog, self.store, self.embed,
                       force=force, **kw)
        if not r.skipped:  # the new book's BM25 index is built (and saved) now, not at the next question
            t = time.perf_counter()
            self.library_bm25(self.settings)
            r.stage_seconds = {**(r.stage_seconds or {}), "bm25": time.perf_counter() - t}
        return r

    def library_bm25(self, s: Settings, ready: list[Book] | None = None):
        """BM25 over the ready books: each book's index kept while the book is unchanged (``rag.bm25``)."""
        ready = self.catalog.books("ready") if ready is None else ready
        versions = {b.id: (b.added_at, b.chunks, json.dumps(b.chunking, sort_keys=True)) for b in ready}
        return self._bm25.get(versions, lambda bid: self.catalog.chunks(bid), s.language)

    def submit(self, data: bytes, filename: str, force: bool = False, chunking: dict | None = None):
        """Queue a file for background ingestion; returns the Job to poll."""
        self.chunking_settings(chunking)  # refuse bad settings now, not in the worker
        return self.queue.submit(data, filename, force, chunking)

    def submit_reindex(self, book_id: str, chunking: dict | None = None):
        """Queue a re-index (re-chunk, re-embed from the cache) of one book from its stored original;
        ``chunking`` changes its strategy/sizes, else it keeps its own."""
        b = self.book(book_id)
        cfg = {**{k: v for k, v in b.chunking.items() if k != "v"}, **(chunking or {})}
        self.chunking_settings(cfg)
        return self.queue.submit(self._original(b), b.filename, force=True, chunking=cfg)

    def jobs(self):
        return self._queue.jobs() if self._queue else []

    def clear_finished_jobs(self) -> None:
        if self._queue:
            self._queue.clear_finished()

    def delete_book(self, book_id: str) -> None:
        self.book(book_id)
        self.store.delete_book(book_id)
        self.catalog.delete_book(book_id)
        self._bm25.forget(book_id)
        remove_figures(self.settings, book_id)
        original_path(self.settings, book_id).unlink(missing_ok=True)

    def reindex(self, book_id: str | None = None, progress=None, chunking: dict | None = None) -> list[IngestResult]:
        """Re-chunk and re-embed books from their stored originals: with ``chunking`` when given, else
        with the current default settings."""
        targets = [self.book(book_id)] if book_id else self.books()
        out = []
        for b in targets:
            out.append(self.ingest(self._original(b), b.filename, progress, force=True, chunking=chunking))
        return out

    def _original(self, b: Book) -> bytes:
        """The stored original PDF of ``b`` (what re-indexing reads)."""
        path = original_path(self.settings, b.id)
        if not path.exists():
            raise RagError(f"The original of '{b.title}' is missing ({path}); delete the book and upload it again.")
        return path.read_bytes()

    # --- figures and pages as images ----------------------------------------------------------
    def figures(self, book_id: str) -> list[Figure]:
        self.book(book_id)
        return self.catalog.figures(book_id)

    def file(self, relative: str) -> Path:
        """Absolute path of a stored file (figure PNG) from its path relative to the data folder."""
        return self.settings.data_dir / relative

    # --- evaluation ---------------------------------------------------------------------------
    def question_sets(self) -> list[Path]:
        """Question sets shipped with the project (eval/*.jsonl)."""
        return sorted((Path(__file__).resolve().parents[1] / "eval").glob("*.jsonl"))

    def start_evaluation(self, items, pdf_dir: Path, configs: list[dict], name: str):
        """Run a book QA set in the background (its PDFs are added to the library); returns the job."""
        from .eval.jobs import start

        self._eval_job = start(self, items, Path(pdf_dir), configs, name)
        return self._eval_job

    def evaluation(self):
        """The latest evaluation job of this process, or None."""
        return getattr(self, "_eval_job", None)

    # --- book type (adaptive context) --------------------------------------------------------
    def doc_type(self, book: Book) -> str:
        """The book's type for adaptive context: the user's choice, else the guess made at ingest."""
        return book.doc_type or book.report.get("doc_type") or "narrative"

    def set_doc_type(self, book_id: str, doc_type: str) -> None:
        from .context import DOC_TYPES

        if doc_type and doc_type not in DOC_TYPES:
            raise RagError(f"Book type must be one of {', '.join(DOC_TYPES)} (or empty to guess).")
        self.book(book_id)
        self.catalog.set_doc_type(book_id, doc_type)
