"""The facade pages and the CLI talk to. Owns the heavy objects (embedder, Chroma, BM25,
ingest worker), built once per process and lazily, so a page renders before torch loads."""
from __future__ import annotations

import functools
import threading
import time
from functools import cached_property
from typing import Callable, Iterator

from .answer import NOT_FOUND_TEXT, NOT_IN_BOOKS_TEXT, make_backend
from .answer.base import is_follow_up
from .retrieve.answerability import probability as answerable
from .bm25 import BM25Cache
from .chunking.zones import ZONES
from .catalog import Catalog
from .errors import EmbeddingMismatchError, NotFoundError
from .citations import CitationPages
from .inspection import Inspection
from .books import Books
from .figselect import named_figure_hits
from .ingest import recover
from .settings import Settings
from .types import Answer, Book, Source

CLOSEST = 3  # passages shown with a "not in your books" answer


class AnswerStream:
    """Iterate for the answer's text pieces; ``answer`` holds sources at once and text/trace when done
    (then ``finish`` checks the quotes and settles the figures)."""

    def __init__(self, answer: Answer, pieces: Iterator[str], t0: float,
                 finish: Callable[[Answer], None] | None = None):
        self.answer, self._pieces, self._t0, self._finish = answer, pieces, t0, finish

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
        if self._finish:
            self._finish(self.answer)
        self.answer.trace["total"] = (time.perf_counter() - self._t0) * 1e3

    def consume(self) -> Answer:
        for _ in self:
            pass
        return self.answer


class Folio(Books, CitationPages, Inspection):
    def __init__(self, settings: Settings | None = None):
        self.settings = settings or Settings()
        self.settings.data_dir.mkdir(parents=True, exist_ok=True)
        self.catalog = Catalog(self.settings.catalog_path)
        self._bm25 = BM25Cache(self.settings.data_dir / "bm25")
        self._lock = threading.Lock()
        self._queue = None
        self.warm_seconds: float | None = None  # set by warm_up once the models are loaded
        self.warm_error = ""
        if self.catalog.stale_books():
            recover(self.catalog, self.store, self.settings)

    # --- heavy parts, built on first use (or by warm_up, in the background after start) ----------
    def warm_up(self) -> None:
        """Load what the first question needs (embedding model — exported to ONNX the first time —, the
        vector store, the library's BM25 indexes), so that question does not wait for them."""
        t = time.perf_counter()
        try:
            self.embed.warm_up()
            from llama_index.core.node_parser.text.utils import split_by_sentence_tokenizer

            split_by_sentence_tokenizer()("Chunkers split sentences with NLTK's punkt. Importing it takes seconds.")
            self.store.count()
            ready = self.catalog.books("ready")
            if ready:
                self._retrieve("warm up", self.settings, [b.id for b in ready], {})
            self.warm_seconds = time.perf_counter() - t
        except Exception as e:  # noqa: BLE001 - the first question will meet (and report) the same error
            self.warm_error = f"{type(e).__name__}: {e}"

    def start_warm_up(self) -> threading.Thread:
        th = threading.Thread(target=self.warm_up, name="folio-warm-up", daemon=True)
        th.start()
        return th

    @cached_property
    def embed(self):
        from .embed import make_embedder

        return make_embedder(self.settings)

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
                from .embed import FOREGROUND
                from .jobs import IngestQueue

                self._queue = IngestQueue(lambda data, name, progress, force, chunking:
                                          self.ingest(data, name, progress, force, chunking), FOREGROUND.wait_idle)
            return self._queue

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
            follow_books: list[str] | None = None, **overrides) -> AnswerStream:
        """``follow_books``: the books the last answer cited; a follow-up ("Why that one?") searches only them."""
        from .embed import FOREGROUND

        with FOREGROUND:  # an ingest running beside it pauses its embedding until the question is retrieved
            return self._ask(question, history, book_id, follow_books, **overrides)

    def _ask(self, question: str, history: list[tuple[str, str]] | None = None, book_id: str | None = None,
             follow_books: list[str] | None = None, **overrides) -> AnswerStream:
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
        if follow_books and not book_id and history and is_follow_up(question, history):
            books = [b for b in books if b.id in follow_books] or books  # the books the last answer came from

        ids = [b.id for b in books]
        retriever, hits = self._retrieve(query, s, ids, trace)
        t = time.perf_counter()
        answer.sources = self._context(query, retriever.query_vector, hits, s, books)
        trace["expand"] = (time.perf_counter() - t) * 1e3
        answer.context = self._context_report(query, answer.sources, s)
        titles = {b.id: b.title for b in books}
        p = answerable(retriever.evidence) if hits else 0.0
        answer.context["answerability"] = {**retriever.evidence, "probability": round(p, 3), "min": s.answerable_min}
        answer.confidence = round(p, 4)
        if not hits or p < s.answerable_min:  # not in the books: say so, and show the closest passages as such
            answer.not_found = True
            closest = hits or [h for h in retriever.candidates if h.chunk.kind not in ZONES]
            answer.sources = self._context(query, retriever.query_vector, closest[:CLOSEST], s, books)
            text = NOT_FOUND_TEXT if not hits else NOT_IN_BOOKS_TEXT.format(p=p)
            return AnswerStream(answer, iter([text]), t0)
        if backend.name != "extractive" and s.llm_focus:  # the LLM reads the sources that hold an answer
            from .answer.focus import focus

            t = time.perf_counter()
            answer.sources = focus(query, answer.sources, self.embed)
            trace["focus"] = (time.perf_counter() - t) * 1e3
            answer.context = {**self._context_report(query, answer.sources, s), "answerability": answer.context["answerability"]}
        t = time.perf_counter()
        figures, figure_vec = self._figure_candidates(query, retriever.query_vector, answer.sources, ids, titles, s)
        trace["figures"] = (time.perf_counter() - t) * 1e3
        answer.figures = figures
        return AnswerStream(answer, backend.stream(question, answer.sources, figures=figures), t0,
                            finish=lambda a: self._finish(a, s, figure_vec))

    def evidence(self, question: str, book_ids: list[str] | None = None, **overrides) -> dict[str, float]:
        """Retrieval only: the answerability features of ``question`` over ``book_ids`` (default: every
        ready book) and the model's probability, as ``ask`` would decide."""
        s = self.settings.model_copy(update=overrides) if overrides else self.settings
        ids = book_ids or [b.id for b in self._ready_books(s, None)]
        retriever, hits = self._retrieve(question, s, ids, {})
        return {**retriever.evidence, "probability": answerable(retriever.evidence) if hits else 0.0,
                "passes_threshold": bool(hits)}

    # --- the stages ask and probe share ------------------------------------------------------
    def _retrieve(self, query: str, s: Settings, ids: list[str], trace: dict):
        """Retrieve (dense ∥ BM25 → fusion → relevance filter), then put chunks of figures the
        question names first. Returns the retriever (its ``candidates`` and ``query_vector``) and hits."""
        from .retrieve.decompose import decompose, interleave
        from .retrieve import HybridRetriever
        from .retrieve.definition import definition_first

        ready = self.catalog.books("ready")

        @functools.cache
        def bm25():
            return self.library_bm25(s, ready)

        retriever = HybridRetriever(s, self.store, self.embed, bm25, ids)
        hits = retriever.hits(query)
        trace.update(retriever.timings)
        parts = decompose(query)
        if len(parts) > 1:  # a second hop per part, so each part's passage has its place
            t = time.perf_counter()
            each = [HybridRetriever(s, self.store, self.embed, bm25, ids).hits(p) for p in parts]
            hits = interleave([hits] + each, s.max_chunks)
            trace["sub_questions"] = (time.perf_counter() - t) * 1e3
        t = time.perf_counter()
        hits, _how = definition_first(query, hits, bm25, self.store.similarities, retriever.query_vector, ids)
        hits = hits[:s.max_chunks]
        trace["definition"] = (time.perf_counter() - t) * 1e3
        t = time.perf_counter()
        named = named_figure_hits(self.catalog, self.store, query, retriever.query_vector, ids)
        retriever.evidence["named_figure"] = 1.0 if named else 0.0
        if named:
            taken = {h.chunk.id for h in named}
            hits = (named + [h for h in hits if h.chunk.id not in taken])[:s.max_chunks]
        trace["named_figures"] = (time.perf_counter() - t) * 1e3
        return retriever, hits

    def _context(self, query: str, qvec, hits, s: Settings, books: list[Book], query_type: str = "") -> list[Source]:
        """Each hit widened to its window or parent (fixed or adaptive, see ``rag.context``), numbered."""
        from .context import ContextBuilder, classify_question

        known: dict[str, float] = {}
        if qvec is not None and s.context_mode == "adaptive":  # every hit's possible neighbours, in one read
            span = 2 * s.window + 1
            near = {f"{h.chunk.book_id}:{i}" for h in hits for i in range(h.chunk.chunk_index - span,
                                                                         h.chunk.chunk_index + span + 1) if i >= 0}
            known = self.store.similarities(qvec, sorted(near))

        def sims(book_id: str, indices: list[int]) -> dict[int, float]:
            if qvec is None:
                return {}
            ids = [f"{book_id}:{i}" for i in indices]
            missing = [i for i in ids if i not in known]
            got = {**{i: known[i] for i in ids if i in known}, **(self.store.similarities(qvec, missing) if missing else {})}
            return {int(k.rsplit(":", 1)[1]): v for k, v in got.items()}

        builder = ContextBuilder(s.context_mode, s.window, s.context_budget_tokens, self.catalog.chunk_range,
                                 {b.id: b.title for b in books}, query_type or classify_question(query),
                                 {b.id: self.doc_type(b) for b in books}, sims, s.neighbour_min_similarity,
                                 s.embed_model)
        return builder.build(hits)

    @staticmethod
    def _context_report(query: str, sources: list[Source], s: Settings) -> dict:
        from .context import classify_question
        from .lang import detect

        return {"mode": s.context_mode, "query_type": classify_question(query), "language": detect(query),
                "windows": [f"[{src.n}] {src.plan.get('summary', '')}" for src in sources]}

    def _figure_candidates(self, query: str, qvec, sources: list[Source], book_ids: list[str], titles: dict,
                           s: Settings):
        from .figselect import candidates

        figs, vecs = self.catalog.figure_vectors(book_ids)
        rows = {f.id: i for i, f in enumerate(figs)}
        hits = candidates(query, qvec, sources, (figs, vecs), self.catalog.figure_links, titles,
                          s.figure_min_similarity, s.max_figures)
        return hits, (lambda fid: vecs[rows[fid]] if fid in rows else None)

    def save_answer(self, session_id: int, answer: Answer) -> int:
        """Store an answered turn in its chat session with its metrics; returns the message id."""
        from .answer_metrics import answer_metrics

        mid = self.catalog.add_message(session_id, "assistant", answer.text, answer.to_dict())
        m = answer_metrics(answer, self.settings.slow_answer_ms, self.settings.low_similarity)
        self.catalog.add_metrics(mid, session_id, answer.question, m)
        return mid

    def feedback(self, message_id: int, score: int | None, comment: str = "") -> None:
        """Thumbs (1 up, 0 down, None cleared) and an optional comment on one answer."""
        self.catalog.set_feedback(message_id, score, comment)

    def metrics(self) -> list[dict]:
        """Every answered question's metrics (oldest first), for the Metrics page."""
        return self.catalog.metrics()

    def _finish(self, answer: Answer, s: Settings, figure_vec) -> None:
        """Once the text is complete: quote check, then the figures of the sources it cites."""
        from .answer.quotecheck import check_quotes
        from .figselect import finalise

        t = time.perf_counter()
        answer.checks = check_quotes(answer.text, answer.sources)
        answer.trace["quote_check"] = (time.perf_counter() - t) * 1e3
        answer.trace["quote_check_failed"] = float(sum(not c.ok for c in answer.checks))
        if answer.figures:
            t = time.perf_counter()
            cited = list(dict.fromkeys(c.n for c in answer.checks))
            avec = self.embed.get_query_embedding(answer.text[:2000]) if answer.text.strip() else None
            answer.figures = finalise(answer.figures, cited, avec, figure_vec, s.max_figures)
            answer.trace["figures_rank"] = (time.perf_counter() - t) * 1e3
