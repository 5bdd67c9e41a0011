"""The facade pages and the CLI talk to. Owns the heavy objects (embedder, Chroma, BM25,
ingest worker), built once per process and lazily, so a page renders before torch loads."""
from __future__ import annotations

import threading
import time
from functools import cached_property
from typing import Iterator

from .answer import NOT_FOUND_TEXT, make_backend
from .bm25 import BM25Cache
from .catalog import Catalog
from .context import build_sources
from .errors import EmbeddingMismatchError, NotFoundError, RagError
from .ingest import IngestResult, ingest_pdf, original_path, recover
from .settings import Settings
from .types import Answer, Book, Chunk


class AnswerStream:
    """Iterate for the answer's text pieces; ``answer`` holds sources at once and text/trace when done."""

    def __init__(self, answer: Answer, pieces: Iterator[str], t0: float):
        self.answer, self._pieces, self._t0 = answer, pieces, t0

    def __iter__(self) -> Iterator[str]:
        parts: list[str] = []
        t_gen = time.perf_counter()
        for p in self._pieces:
            if not parts:
                self.answer.trace["first_token"] = (time.perf_counter() - self._t0) * 1e3
            parts.append(p)
            yield p
        self.answer.text = "".join(parts)
        self.answer.trace["generate"] = (time.perf_counter() - t_gen) * 1e3
        self.answer.trace["total"] = (time.perf_counter() - self._t0) * 1e3

    def consume(self) -> Answer:
        for _ in self:
            pass
        return self.answer


class Folio:
    def __init__(self, settings: Settings | None = None):
        self.settings = settings or Settings()
        self.settings.data_dir.mkdir(parents=True, exist_ok=True)
        self.catalog = Catalog(self.settings.catalog_path)
        self._bm25 = BM25Cache()
        self._lock = threading.Lock()
        self._queue = None
        if self.catalog.stale_books():
            recover(self.catalog, self.store)

    # --- heavy parts, built on first use ----------------------------------------------
    @cached_property
    def embed(self):
        from .embed import LocalSentenceEmbedding

        return LocalSentenceEmbedding(model_name=self.settings.embed_model, embed_batch_size=self.settings.embed_batch_size)

    @cached_property
    def store(self):
        from .embed import EMBED_DIMS
        from .store import VectorStore

        dim = EMBED_DIMS.get(self.settings.embed_model) or self.embed.dimension
        return VectorStore(self.settings, self.settings.embed_model, dim)

    @property
    def queue(self):
        with self._lock:
            if self._queue is None:
                from .jobs import IngestQueue

                self._queue = IngestQueue(lambda data, name, progress, force: self.ingest(data, name, progress, force))
            return self._queue

    # --- library ---------------------------------------------------------------------------
    def books(self) -> list[Book]:
        return self.catalog.books()

    def book(self, book_id: str) -> Book:
        b = self.catalog.book(book_id)
        if b is None:
            raise NotFoundError(f"No book with id {book_id}. Run `python -m rag books` to list them.")
        return b

    def ingest(self, data: bytes, filename: str, progress=None, force: bool = False) -> IngestResult:
        kw = {"progress": progress} if progress else {}
        return ingest_pdf(data, filename, self.settings, self.catalog, self.store, self.embed, force=force, **kw)

    def submit(self, data: bytes, filename: str, force: bool = False):
        """Queue a file for background ingestion; returns the Job to poll."""
        return self.queue.submit(data, filename, force)

    def submit_reindex(self, book_id: str):
        """Queue a re-index of one book from its stored original."""
        b = self.book(book_id)
        path = original_path(self.settings, b.id)
        if not path.exists():
            raise RagError(f"The original of '{b.title}' is missing ({path}); delete the book and upload it again.")
        return self.queue.submit(path.read_bytes(), b.filename, force=True)

    def jobs(self):
        return self._queue.jobs() if self._queue else []

    def clear_finished_jobs(self) -> None:
        if self._queue:
            self._queue.clear_finished()

    def delete_book(self, book_id: str) -> None:
        self.book(book_id)
        self.store.delete_book(book_id)
        self.catalog.delete_book(book_id)
        original_path(self.settings, book_id).unlink(missing_ok=True)

    def reindex(self, book_id: str | None = None, progress=None) -> list[IngestResult]:
        """Re-chunk and re-embed books from their stored originals with the current settings."""
        targets = [self.book(book_id)] if book_id else self.books()
        out = []
        for b in targets:
            path = original_path(self.settings, b.id)
            if not path.exists():
                raise RagError(f"The original of '{b.title}' is missing ({path}); delete the book and upload it again.")
            out.append(self.ingest(path.read_bytes(), b.filename, progress, force=True))
        return out

    # --- inspection -----------------------------------------------------------------------
    def chunks(self, book_id: str) -> list[Chunk]:
        return self.catalog.chunks(book_id)

    def window(self, book_id: str, chunk_index: int, size: int) -> list[Chunk]:
        return self.catalog.chunk_range(book_id, chunk_index - size, chunk_index + size)

    def pages(self, book_id: str):
        return self.catalog.pages(book_id)

    # --- chat -----------------------------------------------------------------------------------
    def _ready_books(self, settings: Settings, book_id: str | None) -> list[Book]:
        books = [b for b in self.catalog.books("ready") if book_id in (None, b.id)]
        if book_id and not books:
            raise NotFoundError(f"Book {book_id} is not in the library (or not ready yet).")
        wrong = [b for b in books if b.embed_model != settings.embed_model]
        if wrong:
            raise EmbeddingMismatchError(
                f"'{wrong[0].title}' was indexed with {wrong[0].embed_model}, but RAG_EMBED_MODEL is "
                f"{settings.embed_model}. Re-index it (Library page, or `python -m rag reindex`) or set the model back.")
        return books

    def ask(self, question: str, history: list[tuple[str, str]] | None = None, book_id: str | None = None,
            **overrides) -> AnswerStream:
        t0 = time.perf_counter()
        s = self.settings.model_copy(update=overrides) if overrides else self.settings
        backend = make_backend(s, self.embed)
        history = (history or [])[-s.history_turns:] if s.history_turns else []
        trace: dict[str, float] = {}
        t = time.perf_counter()
        query = backend.reformulate(question, history) if history else question
        trace["reformulate"] = (time.perf_counter() - t) * 1e3
        answer = Answer(question=question, query=query, trace=trace, backend=backend.name)
        books = self._ready_books(s, book_id)
        if not books:
            answer.not_found = True
            return AnswerStream(answer, iter(["The library is empty: add a PDF on the Library page first."]), t0)

        from .retrieve import HybridRetriever

        ids = [b.id for b in books]
        retriever = HybridRetriever(s, self.store, self.embed,
                                    lambda: self._bm25.get(self.catalog.generation(), self.catalog.chunks), ids)
        hits = retriever.hits(query)
        trace.update(retriever.timings)
        t = time.perf_counter()
        answer.sources = build_sources(hits, s.window, s.context_budget_tokens, self.catalog.chunk_range,
                                       {b.id: b.title for b in books})
        trace["expand"] = (time.perf_counter() - t) * 1e3
        answer.confidence = max((h.similarity for h in hits), default=0.0)
        if not answer.sources:
            answer.not_found = True
            return AnswerStream(answer, iter([NOT_FOUND_TEXT]), t0)
        return AnswerStream(answer, backend.stream(question, answer.sources), t0)
