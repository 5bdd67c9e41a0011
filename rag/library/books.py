"""``Library``: the books — listing them, adding them (now or queued, each job owned by the browser session that
started it), re-indexing from the stored originals, deleting, each book's BM25 index, figures and book types, and
the books that failed (status 'failed' with the reason; one book's failure never stops the others)."""
from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path

from ..errors import BadDocumentError, EmbeddingMismatchError, NotFoundError, RagError
from ..settings import CHUNK_KEYS, Settings
from ..types import Book, Chunk, Figure, Page
from ..parse.formats import remove_originals
from .ingest import IngestResult, book_id_for, failure_reason, ingest_pdf, remove_figures, source_path
from .resources import Resources

log = logging.getLogger("folio.library")


class Library:
    def __init__(self, res: Resources):
        self.res = res
        self._queue = None
        self._lock = threading.Lock()

    @property
    def settings(self) -> Settings:
        return self.res.settings

    # --- what is in it -----------------------------------------------------------------------
    def books(self) -> list[Book]:
        return self.res.catalog.books()

    def book(self, book_id: str) -> Book:
        b = self.res.catalog.book(book_id)
        if b is None:
            raise NotFoundError(f"No book with id {book_id}. Run `python -m rag books` to list them.")
        return b

    def ready(self, s: Settings, book_ids: list[str] | None = None) -> list[Book]:
        """The ready books among ``book_ids`` (all when None), refusing books whose vectors another model made."""
        self._flush_store_problems()
        books = [b for b in self.res.catalog.books("ready") if book_ids is None or b.id in book_ids]
        if book_ids and not books:
            raise NotFoundError(f"Book {book_ids[0]} is not in the library (or not ready yet).")
        wrong = [b for b in books if b.embed_model != s.embed_model]
        if wrong:
            raise EmbeddingMismatchError(
                f"'{wrong[0].title}' was indexed with {wrong[0].embed_model}, but RAG_EMBED_MODEL is "
                f"{s.embed_model}. Re-index it (Library page, or `python -m rag reindex`) or set the model back.")
        return books

    def chunks(self, book_id: str) -> list[Chunk]:
        return self.res.catalog.chunks(book_id)

    def pages(self, book_id: str) -> list[Page]:
        return self.res.catalog.pages(book_id)

    def figures(self, book_id: str) -> list[Figure]:
        self.book(book_id)
        return self.res.catalog.figures(book_id)

    def file(self, relative: str) -> Path:
        """Absolute path of a stored file (figure PNG) from its path relative to the data folder."""
        return self.settings.data_dir / relative

    # --- adding and changing books -------------------------------------------------------------
    def chunking_settings(self, chunking: dict | None) -> Settings:
        """The settings with a book's own chunking choices (chunker, chunk_size, …) applied and checked."""
        extra = {k: v for k, v in (chunking or {}).items() if k in CHUNK_KEYS}
        if not extra:
            return self.settings
        try:
            return Settings.model_validate({**self.settings.model_dump(), **extra})
        except ValueError as e:
            raise RagError(f"Chunking settings {extra} are not valid: {e}".splitlines()[0]) from e

    def ingest(self, data: bytes, filename: str, progress=None, force: bool = False,
               chunking: dict | None = None) -> IngestResult:
        """``chunking`` overrides the default chunking settings for this book (e.g. {"chunker": "semantic"}).
        Either the book is in the library, ready and searchable, or a ``RagError`` (``BadDocumentError``) says
        why not — whatever the file holds; other books, later ingests and questions are not affected."""
        kw = {"progress": progress} if progress else {}
        settings = self.chunking_settings(chunking)
        book_id = book_id_for(data)
        before = self.res.catalog.book(book_id)
        try:
            r = ingest_pdf(data, filename, settings, self.res.catalog, self.res.store, self.res.embed, force=force,
                           **kw)
        except RagError:
            raise
        except Exception as e:  # a bug or a file no check foresaw: this file fails, with what happened
            log.exception("ingest of %s failed", filename)
            raise BadDocumentError(filename, failure_reason(e)) from e
        if not r.skipped:  # the new book's BM25 index is built (and saved) now, not at the next question
            t = time.perf_counter()
            self.bm25(self.settings)
            r.stage_seconds = {**(r.stage_seconds or {}), "bm25": time.perf_counter() - t}
            now = self.res.catalog.book(r.book_id)
            if now is None or now.status != "ready":  # its index failed: a new book leaves nothing behind
                reason = now.error if now is not None else "it was removed while it was being indexed."
                if now is not None and before is None:
                    self.delete_book(r.book_id)
                raise BadDocumentError(filename, reason)
        return r

    def bm25(self, s: Settings, ready: list[Book] | None = None):
        """BM25 over the ready books: each book's index kept while the book is unchanged (``library.bm25``); a
        book whose index cannot be built is marked failed (with the reason) and left out."""
        ready = self.res.catalog.books("ready") if ready is None else ready
        from .bm25 import TOKENS_VERSION

        versions = {b.id: (b.added_at, b.chunks, json.dumps(b.chunking, sort_keys=True), TOKENS_VERSION)
                    for b in ready}
        return self.res.bm25.get(versions, lambda bid: self.res.catalog.chunks(bid), s.language, self.mark_failed,
                                 sizes={b.id: b.chunks for b in ready}, fetch=self.res.catalog.chunks_at)

    # --- books that failed -----------------------------------------------------------------------
    def mark_failed(self, book_id: str, reason: str) -> None:
        """Take one book out of the searched books, listed with ``reason`` (``Book.status`` 'failed',
        ``Book.error``) until it is re-indexed (``submit_reindex``) or deleted; nothing else changes."""
        log.warning("book %s marked failed: %s", book_id, reason)
        self.res.catalog.mark_failed(book_id, reason)

    def failed(self) -> list[Book]:
        """The books that failed (each with ``error``, the reason), to re-index or delete."""
        return self.res.catalog.books("failed")

    def _flush_store_problems(self) -> None:
        """Books whose vectors the store could not read (``VectorStore.problems``) are marked failed."""
        store = self.res._store
        for book_id, reason in (store.take_problems() if store is not None else {}).items():
            self.mark_failed(book_id, reason)

    @property
    def queue(self):
        """The background ingest queue (started on first use)."""
        with self._lock:
            if self._queue is None:
                from ..embed import FOREGROUND
                from .jobs import IngestQueue

                self._queue = IngestQueue(lambda data, name, progress, force, chunking:
                                          self.ingest(data, name, progress, force, chunking), FOREGROUND.wait_idle)
            return self._queue

    def submit(self, data: bytes, filename: str, force: bool = False, chunking: dict | None = None,
               owner: str = ""):
        """Queue a file for background ingestion; returns the Job to poll. ``owner``: who submitted it (a
        browser session's id): only that owner's ``jobs(owner)`` list it; everyone sees the book once it is in."""
        from ..errors import BadDocumentError
        from ..parse.formats.read import precheck

        self.chunking_settings(chunking)  # refuse bad settings now, not in the worker
        try:  # an empty file, one too large or no book file at all is refused now, not after the queue ahead of it
            precheck(data, filename, self.settings.max_upload_mb)
        except BadDocumentError as e:
            return self.queue.refused(filename, str(e), owner=owner)
        return self.queue.submit(data, filename, force, chunking, owner=owner)

    def submit_reindex(self, book_id: str, chunking: dict | None = None, owner: str = ""):
        """Queue a re-index (re-chunk, re-embed from the cache) of one book from its stored original;
        ``chunking`` changes its strategy/sizes, else it keeps its own. A failed book is re-indexed the same way."""
        b = self.book(book_id)
        cfg = {**{k: v for k, v in b.chunking.items() if k != "v"}, **(chunking or {})}
        self.chunking_settings(cfg)
        return self.queue.submit(self.original(b), b.filename, force=True, chunking=cfg, owner=owner)

    def jobs(self, owner: str | None = None):
        """The upload and re-index jobs of ``owner`` (a browser session), oldest first; None: every job (the CLI,
        tests)."""
        return self._queue.jobs(owner) if self._queue else []

    def clear_finished_jobs(self, owner: str | None = None) -> None:
        """Forget ``owner``'s finished jobs (None: everyone's); running and queued ones stay."""
        if self._queue:
            self._queue.clear_finished(owner)

    def delete_book(self, book_id: str) -> None:
        self.book(book_id)
        self.res.store.delete_book(book_id)
        self.res.catalog.delete_book(book_id)
        self.res.bm25.forget(book_id)
        remove_figures(self.settings, book_id)
        remove_originals(self.settings.uploads_dir, book_id)

    def reindex(self, book_id: str | None = None, progress=None, chunking: dict | None = None) -> list[IngestResult]:
        """Re-chunk and re-embed books from their stored originals: with ``chunking`` when given, else
        with the current default settings."""
        targets = [self.book(book_id)] if book_id else self.books()
        return [self.ingest(self.original(b), b.filename, progress, force=True, chunking=chunking) for b in targets]

    def original(self, b: Book) -> bytes:
        """The stored original file of ``b`` (what re-indexing reads)."""
        path = source_path(self.settings, b.id)
        if not path.exists():
            raise RagError(f"The original of '{b.title}' is missing ({path}); delete the book and upload it again.")
        return path.read_bytes()

    # --- book type (adaptive context) --------------------------------------------------------
    @staticmethod
    def doc_type(book: Book) -> str:
        """The book's type for adaptive context: the user's choice, else the guess made at ingest."""
        return book.doc_type or book.report.get("doc_type") or "narrative"

    def set_doc_type(self, book_id: str, doc_type: str) -> None:
        from ..context import DOC_TYPES

        if doc_type and doc_type not in DOC_TYPES:
            raise RagError(f"Book type must be one of {', '.join(DOC_TYPES)} (or empty to guess).")
        self.book(book_id)
        self.res.catalog.set_doc_type(book_id, doc_type)
