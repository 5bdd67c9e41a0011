"""``Folio``, the facade the pages and the CLI talk to. It composes the parts — the heavy ``Resources``
(embedder, Chroma, catalog, BM25; built once per process and lazily, so a page renders before the model
loads, or passed in), the ``Library`` of books, the question ``Pipeline``, the ``reader`` (pages as
evidence), the ``inspector``, the ``chats`` and the ``evaluations`` — and answers questions."""
from __future__ import annotations

import threading
import time

from .eval.runs import Evaluations
from .evidence.pages import CitationPages
from .inspector.inspector import Inspector
from .library.books import Library
from .library.chats import Chats
from .library.repair import repair
from .library.resources import Resources
from .pipeline import AnswerStream, Pipeline
from .settings import Settings, with_overrides


class Folio:
    def __init__(self, settings: Settings | None = None, *, embed=None, store=None, catalog=None, bm25=None):
        """``embed``, ``store``, ``catalog``, ``bm25``: parts to use instead of making them (a test's loaded
        model, a second library sharing this one's embedder)."""
        self.settings = settings or Settings()
        self.res = Resources(self.settings, embed=embed, store=store, catalog=catalog, bm25=bm25)
        self.library = Library(self.res)
        self.pipeline = Pipeline(self.res, self.library)
        self.reader = CitationPages(self.res)
        self.inspector = Inspector(self.res, self.library, self.pipeline)
        self.chats = Chats(self.res)
        self.evaluations = Evaluations(self)
        self.warm_seconds: float | None = None  # set by warm_up once the models are loaded
        self.warm_error = ""
        self._warm_thread: threading.Thread | None = None
        self._warm_lock = threading.Lock()
        # what a crash or an older version left behind: half-indexed books, half-written files, orphans
        self.repairs = repair(self.catalog, self.settings, lambda: self.store)

    # --- the parts ------------------------------------------------------------------------------
    @property
    def catalog(self):
        return self.res.catalog

    @property
    def store(self):
        return self.res.store

    @property
    def embed(self):
        return self.res.embed

    def sibling(self, **update) -> "Folio":
        """Another library (e.g. ``data_dir=…``, chunk settings) sharing this one's loaded embedder."""
        return Folio(self.settings.model_copy(update=update), embed=self.embed)

    # --- start-up -------------------------------------------------------------------------------
    def warm_up(self) -> None:
        """Load what the first question needs (embedding model — exported to ONNX the first time —, the
        vector store, the library's BM25 indexes), so that question does not wait for them."""
        t = time.perf_counter()
        try:
            self.embed.warm_up()
            self.store.open()
            if self.catalog.books("ready"):
                self.pipeline.run("warm up", until="retrieve")
            self.warm_seconds = time.perf_counter() - t
        except Exception as e:  # noqa: BLE001 - the first question will meet (and report) the same error
            self.warm_error = f"{type(e).__name__}: {e}"

    def embed_status(self):
        """What the embedder runs on (``rag.embed.status.EmbedStatus``) once it is loaded — the warm-up or the first
        book loads it —, else None (never loads it). ``status.fast`` false: a slower path runs, ``message`` says
        why and what it costs."""
        e = self.res.loaded_embed
        if e is None or not getattr(e, "loaded", False):
            return None
        return e.status

    def start_warm_up(self) -> threading.Thread:
        """``warm_up`` in a background thread, once per service."""
        with self._warm_lock:
            if self._warm_thread is None:
                self._warm_thread = threading.Thread(target=self.warm_up, name="folio-warm-up", daemon=True)
                self._warm_thread.start()
            return self._warm_thread

    # --- questions ------------------------------------------------------------------------------
    def ask(self, question: str, history: list[tuple[str, str]] | None = None, book_id: str | None = None,
            follow_books: list[str] | None = None, follow_chunks: list[str] | None = None,
            **overrides) -> AnswerStream:
        """The answer to ``question`` as a stream (sources at once, text as it comes). ``history``: the last
        (question, answer) turns; ``book_id``: one book, else the whole library; ``follow_books``: the books the
        last answer cited (a follow-up, "Why that one?", searches only them); ``follow_chunks``: the chunks it cited
        (a follow-up looks around them first); ``overrides``: settings for this question."""
        from .embed import FOREGROUND

        with FOREGROUND:  # an ingest running beside it pauses its embedding until the question is retrieved
            t0 = time.perf_counter()
            s = with_overrides(self.settings, overrides)
            r = self.pipeline.run(question, s, history, [book_id] if book_id else None, follow_books,
                                  follow_chunks=follow_chunks)
            return self.pipeline.answer(r, t0)

    def evidence(self, question: str, book_ids: list[str] | None = None, **overrides) -> dict[str, float]:
        """Retrieval only: the answerability features of ``question`` over ``book_ids`` (default: every
        ready book) and the model's probability, as ``ask`` would decide."""
        r = self.pipeline.run(question, with_overrides(self.settings, overrides), book_ids=book_ids, until="decide")
        return {**r.evidence, "probability": r.probability, "passes_threshold": bool(r.hits)}
