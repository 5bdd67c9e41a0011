"""The stages a question goes through, in order, each a function timed by the pipeline:

    reformulate → scope → retrieve → neighbourhood → sub_questions → definition → named_figures → editions
    → admin → decide → expand → focus → figures  |  answer (streamed) → check

``Pipeline.run`` runs them over a ``Run`` (what each stage reads and writes) up to a stage; ``Folio.ask`` streams
the answer from a full run, ``Folio.evidence`` stops after ``decide``, and the inspector's probe shows a full run —
so what the probe shows is what the chat does. A stage that has nothing to do for a question leaves the run as it
is and returns False (a one-part question has no sub-questions); such stages are left out of the trace.
"""
from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator

from .answer import NO_WORD_KNOWN_TEXT, NOT_FOUND_TEXT, NOT_IN_BOOKS_TEXT, AnswerBackend, make_backend
from .chunking.zones import ZONES
from .library.books import Library
from .library.resources import Resources
from .query.followup import continues_chat, is_follow_up
from .settings import Settings
from .types import Answer, Book, FigureHit, Hit, Source

EMPTY_LIBRARY = "The library is empty: add a PDF on the Library page first."
NO_WORDS = "Ask a question in words (this one has no letters or digits to search for)."


@dataclass
class Run:
    """One question on its way through the stages."""

    question: str
    settings: Settings
    history: list[tuple[str, str]] = field(default_factory=list)
    book_ids: list[str] | None = None  # the books asked (None: the whole library)
    follow_books: list[str] | None = None  # the books the last answer cited
    follow_chunks: list[str] | None = None  # the chunks ("book:index") the last answer cited
    backend: AnswerBackend | None = None
    query: str = ""  # the standalone question retrieval uses
    books: list[Book] = field(default_factory=list)
    asked: list[str] = field(default_factory=list)  # the books asked, before a subject narrowed the search
    retriever: object = None  # the HybridRetriever of the whole question (candidates, query vector, evidence)
    hits: list[Hit] = field(default_factory=list)
    probability: float = 0.0  # P(the books answer it)
    answerable: bool = False  # an answer is given: outcome "answer" or "likely"
    outcome: str = ""  # "answer" | "likely" | "not_found"
    sources: list[Source] = field(default_factory=list)
    figures: list[FigureHit] = field(default_factory=list)
    figure_vector: Callable | None = None
    trace: dict[str, float] = field(default_factory=dict)
    done: bool = False  # a stage decided there is nothing more to do (an empty library)
    continued: bool = False  # a short nameless question searched in the chat's books first (``scope``)
    bm25: Callable | None = field(default=None, repr=False)  # the library's BM25, built when first needed

    @property
    def ids(self) -> list[str]:
        return [b.id for b in self.books]

    @property
    def query_vector(self):
        return self.retriever.query_vector if self.retriever is not None else None

    @property
    def evidence(self) -> dict[str, float]:
        return self.retriever.evidence if self.retriever is not None else {}


# --- the stages ------------------------------------------------------------------------------------
def reformulate(p: "Pipeline", r: Run) -> bool | None:
    """A long question is searched for its asking part (``query.asking``); a follow-up becomes a standalone
    question (the backend's way: key terms folded in, or an LLM rewrite)."""
    from .query.asking import asking_part

    r.query = asking_part(r.question, r.settings.tuning.retrieve.long_question_words)
    if not r.history:
        return False if r.query == r.question else None
    r.query = r.backend.reformulate(r.query, r.history)


def scope(p: "Pipeline", r: Run) -> bool | None:
    """The books to search: those asked (default every ready book); a follow-up searches the books the last
    answer cited; so does, first, a short question that names no subject (``continues_chat``): when those books do
    not answer it, ``Pipeline.run`` asks the whole library."""
    r.books = p.library.ready(r.settings, r.book_ids)
    r.asked = [b.id for b in r.books]
    if not r.books:
        r.done = True
        return
    if r.follow_books and not r.book_ids and r.history and is_follow_up(r.question, r.history):
        r.books = [b for b in r.books if b.id in r.follow_books] or r.books
    elif r.follow_books and not r.book_ids and r.history and continues_chat(r.question):
        chat = [b for b in r.books if b.id in r.follow_books]
        r.continued = bool(chat) and len(chat) < len(r.books)
        r.books = chat or r.books
    elif not r.book_ids and r.settings.prefer_subject_books:  # "a Python function" → the books about Python
        about = set(p.bm25_for(r)().subject_books(r.query, r.ids))
        r.books = [b for b in r.books if b.id in about] or r.books


def retrieve(p: "Pipeline", r: Run) -> bool | None:
    """Dense ∥ BM25 → fusion → relevance filter (``retrieve.hybrid``); its own steps are in the trace too."""
    from .retrieve import HybridRetriever

    r.retriever = HybridRetriever(r.settings, p.res.store, p.res.embed, p.bm25_for(r), r.ids, r.asked)
    r.hits = r.retriever.hits(r.query)
    r.trace.update(r.retriever.timings)


def neighbourhood(p: "Pipeline", r: Run) -> bool | None:
    """A follow-up ("and why?") looks first around the passage the last answer cited: the chunks near it that are
    similar enough to the (folded) question go first."""
    if not (r.follow_chunks and r.history and r.hits and is_follow_up(r.question, r.history)):
        return False
    reach = r.settings.tuning.retrieve.follow_reach
    near: dict[str, object] = {}
    for cid in r.follow_chunks:
        book, _, idx = cid.rpartition(":")
        if book in r.ids:
            for c in p.res.catalog.chunk_range(book, int(idx) - reach, int(idx) + reach):
                if c.kind not in ZONES:
                    near[c.id] = c
    sims = p.res.store.similarities(r.query_vector, list(near)) if near else {}
    s = r.settings
    best = sorted((cid for cid in sims if sims[cid] >= s.similarity_threshold), key=lambda c: -sims[c])[:s.min_chunks]
    if not best:
        return False
    top = max(h.score for h in r.hits)
    first = [Hit(near[cid], top, sims[cid]) for cid in best]
    r.hits = (first + [h for h in r.hits if h.chunk.id not in set(best)])[:s.max_chunks]


def sub_questions(p: "Pipeline", r: Run) -> bool | None:
    """A two-part question: each part retrieved on its own, the rankings interleaved."""
    from .query.decompose import decompose, interleave
    from .retrieve import HybridRetriever

    parts = decompose(r.query, r.settings.tuning.retrieve.sub_question_min_words)
    if len(parts) < 2:
        return False
    each = [HybridRetriever(r.settings, p.res.store, p.res.embed, p.bm25_for(r), r.ids).hits(q) for q in parts]
    r.hits = interleave([r.hits] + each, r.settings.max_chunks)


def definition(p: "Pipeline", r: Run) -> bool | None:
    """A definition question: the passage that defines the term first (``retrieve.definition``)."""
    from .retrieve.definition import definition_first

    t = r.settings.tuning.retrieve
    hits, _how = definition_first(r.query, r.hits, p.bm25_for(r), p.res.store.similarities, r.query_vector, r.ids,
                                  t.definition_lead, t.definition_hop_k)
    r.hits = hits[:r.settings.max_chunks]


def named_figures(p: "Pipeline", r: Run) -> bool | None:
    """A question naming a figure or table ("What does Figure 2.1 show?"): its caption's chunk first."""
    from .figures.choose import named_figure_hits

    named = named_figure_hits(p.res.catalog, p.res.store, r.query, r.query_vector, r.ids)
    r.retriever.evidence["named_figure"] = 1.0 if named else 0.0
    if named:
        taken = {h.chunk.id for h in named}
        r.hits = (named + [h for h in r.hits if h.chunk.id not in taken])[:r.settings.max_chunks]


def editions(p: "Pipeline", r: Run) -> bool | None:
    """The same passage in two books (two editions, or two language editions of one book) is one source, from the
    book in the question's language."""
    from .retrieve.editions import in_language, one_per_passage
    from .retrieve.translations import in_question_language
    from .text.languages import detect

    if len(r.books) < 2 or not r.hits:
        return False
    lang = detect(r.query)
    t = r.settings.tuning.retrieve
    hits = in_language(r.hits, r.books, lang, p.res.catalog.same_text)
    if detect(r.query, default=""):  # a translated passage only for a question whose language is clear
        hits = in_question_language(hits, r.books, lang, p.res.catalog.numbered_section,
                                    lambda ids: p.res.store.similarities(r.query_vector, ids),
                                    t.edition_min_sections, t.edition_min_overlap, t.edition_page_ratio)
    kept = one_per_passage(hits, r.books, lang)
    if [h.chunk.id for h in kept] == [h.chunk.id for h in r.hits]:
        return False
    r.hits = kept


def admin(p: "Pipeline", r: Run) -> bool | None:
    """'Who funded the study?': the best books' 'Funding: …' paragraphs join the hits (``retrieve.admin``)."""
    from .retrieve.admin import labelled_paragraphs, labels_asked

    if not r.hits or not labels_asked(r.query):
        return False
    r.hits = labelled_paragraphs(r.query, r.hits, p.res.catalog.chunks_stating,
                                 lambda ids: p.res.store.similarities(r.query_vector, ids))[:r.settings.max_chunks + 3]


def decide(p: "Pipeline", r: Run) -> bool | None:
    """Does the library answer it? The calibrated probability (``retrieve.answerability``) against the setting."""
    from .retrieve.answerability import probability

    s = r.settings
    r.probability = (probability(r.evidence, s.tuning.retrieve.named_figure_probability, s.answerability_model)
                     if r.hits else 0.0)
    if r.hits and r.probability >= s.answerable_min:
        r.outcome = "answer"
    elif r.hits and r.probability >= s.likely_min:
        r.outcome = "likely"
    else:
        r.outcome = "not_found"
    k = s.tuning.retrieve.wants_hits
    if r.outcome != "not_found" and k:
        from .query.wants import holds, wants

        want = wants(r.query)
        if want and not any(holds(want, f"{h.chunk.section}\n{h.chunk.text}", r.query) for h in r.hits[:k]):
            r.outcome = "not_found"  # "In what year…" of passages without a year
    r.answerable = r.outcome != "not_found"


def expand(p: "Pipeline", r: Run) -> bool | None:
    """Each hit widened to its window or parent and numbered (``context``); a question the books do not answer
    gets its closest passages, labelled as such."""
    hits = r.hits
    if not r.answerable:
        closest = r.settings.tuning.retrieve.closest
        hits = (r.hits or [h for h in r.retriever.candidates if h.chunk.kind not in ZONES])[:closest]
    r.sources = p.expand(r.query, r.query_vector, hits, r.settings, r.books)


def focus(p: "Pipeline", r: Run) -> bool | None:
    """An LLM reads only the sources that hold an answer (``answer.focus``); the extractive answerer reads all."""
    if not (r.answerable and r.settings.answer_backend != "extractive" and r.settings.llm_focus):
        return False
    from .answer.focus import focus as keep_answering

    r.sources = keep_answering(r.query, r.sources, p.res.embed, r.settings.tuning)


def figures(p: "Pipeline", r: Run) -> bool | None:
    """The book's figures that belong to the sources or match the question (``figures.choose``)."""
    if not r.answerable:
        return False
    from .figures.choose import candidates

    figs, vecs = p.res.catalog.figure_vectors(r.ids)
    rows = {f.id: i for i, f in enumerate(figs)}
    s = r.settings
    r.figures = candidates(r.query, r.query_vector, r.sources, (figs, vecs), p.res.catalog.figure_links,
                           {b.id: b.title for b in r.books}, s.figure_min_similarity, s.max_figures, s.tuning.figures)
    r.figure_vector = lambda fid: vecs[rows[fid]] if fid in rows else None


STAGES: tuple[tuple[str, Callable[["Pipeline", Run], bool | None]], ...] = (
    ("reformulate", reformulate), ("scope", scope), ("retrieve", retrieve), ("neighbourhood", neighbourhood),
    ("sub_questions", sub_questions),
    ("definition", definition), ("named_figures", named_figures), ("editions", editions),
    ("admin", admin), ("decide", decide), ("expand", expand),
    ("focus", focus), ("figures", figures))
STAGE_NAMES = tuple(name for name, _ in STAGES)


class Pipeline:
    def __init__(self, res: Resources, library: Library):
        self.res, self.library = res, library

    def run(self, question: str, settings: Settings | None = None, history: list[tuple[str, str]] | None = None,
            book_ids: list[str] | None = None, follow_books: list[str] | None = None, until: str = "figures",
            backend: AnswerBackend | None = None, follow_chunks: list[str] | None = None) -> Run:
        """The stages up to and including ``until`` (a name in ``STAGE_NAMES``)."""
        s = settings or self.res.settings
        history = (history or [])[-s.history_turns:] if s.history_turns else []
        r = Run(question, s, history, book_ids, follow_books, follow_chunks,
                backend or make_backend(s, self.res.embed))
        if not any(ch.isalnum() for ch in question):
            r.done = True  # nothing to search for
            return r
        for name, stage in STAGES:
            t = time.perf_counter()
            if stage(self, r) is not False:
                r.trace[name] = (time.perf_counter() - t) * 1e3
            if r.done or name == until:
                break
        if r.continued and r.outcome == "not_found":  # the chat's books do not answer it: the whole library does?
            wide = self.run(question, s, history, book_ids, follow_books=None, until=until, backend=backend,
                            follow_chunks=None)
            wide.trace = {**{f"chat_books_{k}": v for k, v in r.trace.items()}, **wide.trace}
            return wide
        return r

    def bm25_for(self, r: Run) -> Callable:
        """The library's BM25 for this run, built at most once and only when a stage needs it."""
        if r.bm25 is None:
            ready = self.res.catalog.books("ready")
            r.bm25 = functools.cache(lambda: self.library.bm25(r.settings, ready))
        return r.bm25

    def expand(self, query: str, qvec, hits: list[Hit], s: Settings, books: list[Book],
               query_type: str = "") -> list[Source]:
        """Each hit widened to its window or parent (fixed or adaptive, see ``rag.context``), numbered."""
        from .context import ContextBuilder
        from .query.kinds import classify

        store = self.res.store
        known: dict[str, float] = {}
        if qvec is not None and s.context_mode == "adaptive":  # every hit's possible neighbours, in one read
            span = 2 * s.window + 1
            near = {f"{h.chunk.book_id}:{i}" for h in hits for i in range(h.chunk.chunk_index - span,
                                                                         h.chunk.chunk_index + span + 1) if i >= 0}
            known = store.similarities(qvec, sorted(near))

        def sims(book_id: str, indices: list[int]) -> dict[int, float]:
            if qvec is None:
                return {}
            ids = [f"{book_id}:{i}" for i in indices]
            missing = [i for i in ids if i not in known]
            got = {**{i: known[i] for i in ids if i in known}, **(store.similarities(qvec, missing) if missing else {})}
            return {int(k.rsplit(":", 1)[1]): v for k, v in got.items()}

        builder = ContextBuilder(s.context_mode, s.window, s.context_budget_tokens, self.res.catalog.chunk_range,
                                 {b.id: b.title for b in books}, query_type or classify(query),
                                 {b.id: self.library.doc_type(b) for b in books}, sims, s.neighbour_min_similarity,
                                 s.embed_model, s.tuning.windows, self.res.catalog.page)
        return builder.build(hits)

    def answer(self, r: Run, t0: float) -> "AnswerStream":
        """The answer stage: a stream of the answer's text over a full run."""
        s = r.settings
        answer = Answer(question=r.question, query=r.query, trace=r.trace, backend=r.backend.name,
                        sources=r.sources)
        if r.done:
            answer.not_found, answer.outcome = True, "not_found"
            answer.context = {"searched": False}  # nothing was looked for: no confidence to show
            words = any(ch.isalnum() for ch in r.question)
            return AnswerStream(answer, iter([EMPTY_LIBRARY if words else NO_WORDS]), t0)
        answer.context = {**context_report(r.query, r.sources, s),
                          "answerability": {**r.evidence, "probability": round(r.probability, 3),
                                            "min": s.answerable_min}}
        answer.confidence = round(r.probability, 4)
        answer.outcome = r.outcome
        if not r.answerable:
            answer.not_found = True
            text = NOT_FOUND_TEXT if not r.hits else NOT_IN_BOOKS_TEXT.format(p=r.probability)
            from .text.languages import detect

            if r.evidence.get("unknown", 0.0) >= 0.999 and not detect(r.query, default=""):
                text += NO_WORD_KNOWN_TEXT  # "再帰とは何ですか？": no word in any book, no language Folio reads
            return AnswerStream(answer, iter([text]), t0)
        answer.figures = r.figures
        asked = r.question
        if r.backend.name == "extractive":  # it picks sentences by their likeness to the question: its asking part
            from .query.asking import asking_part

            asked = asking_part(r.question, s.tuning.retrieve.long_question_words)
        return AnswerStream(answer, r.backend.stream(asked, r.sources, figures=r.figures), t0,
                            finish=lambda a: self.check(a, r))

    def check(self, answer: Answer, r: Run) -> None:
        """Once the text is complete: the quote check, then the figures of the sources it cites."""
        from .answer.quotecheck import check_quotes
        from .figures.choose import finalise

        t = time.perf_counter()
        answer.checks = check_quotes(answer.text, answer.sources, r.settings.tuning.answer.supported_share)
        answer.trace["quote_check_failed"] = float(sum(not c.ok for c in answer.checks))
        if answer.figures:
            cited = list(dict.fromkeys(c.n for c in answer.checks))
            avec = self.res.embed.get_query_embedding(answer.text[:2000]) if answer.text.strip() else None
            answer.figures = finalise(answer.figures, cited, avec, r.figure_vector, r.settings.max_figures,
                                      r.settings.tuning.figures)
        answer.trace["check"] = (time.perf_counter() - t) * 1e3


def context_report(query: str, sources: list[Source], s: Settings) -> dict:
    """How the context was made: mode, question type and language, each source's window decision."""
    from .query.kinds import classify
    from .text.languages import detect

    return {"mode": s.context_mode, "query_type": classify(query), "language": detect(query),
            "windows": [f"[{src.n}] {src.plan.get('summary', '')}" for src in sources]}


class AnswerStream:
    """Iterate for the answer's text pieces; ``answer`` holds sources at once and text/trace when done
    (then ``finish`` checks the quotes and settles the figures)."""

    def __init__(self, answer: Answer, pieces: Iterator[str], t0: float,
                 finish: Callable[[Answer], None] | None = None):
        self.answer, self._pieces, self._t0, self._finish = answer, pieces, t0, finish

    def __iter__(self) -> Iterator[str]:
        parts: list[str] = []
        t_gen = time.perf_counter()
        for piece in self._pieces:
            if not parts:
                self.answer.trace["first_token"] = (time.perf_counter() - self._t0) * 1e3
            parts.append(piece)
            yield piece
        self.answer.text = "".join(parts)
        self.answer.trace["generate"] = (time.perf_counter() - t_gen) * 1e3
        if self._finish:
            self._finish(self.answer)
        self.answer.trace["total"] = (time.perf_counter() - self._t0) * 1e3

    def consume(self) -> Answer:
        for _ in self:
            pass
        return self.answer
