"""Runs the stages of ``rag.pipeline.stages`` in order, each timed, up to a stage; streams the answer."""
from __future__ import annotations

import functools
import time
from typing import Callable, Iterator

from ..answer import AnswerBackend, make_backend
from ..answer.declines import joined, other_language, texts
from ..library.books import Library
from ..library.resources import Resources
from ..query.followup import is_follow_up
from ..settings import Settings
from .run import Run
from .stages import STAGES
from ..types import Answer, Book, Hit, Source

EMPTY_LIBRARY = "The library is empty: add a PDF on the Library page first."
NO_WORDS = "Ask a question in words (this one has no letters or digits to search for)."

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

    def _languages(self, r: Run, books: list[Book]) -> list[str]:
        """The languages of ``books``: each book's as its text reads (most of the German Live Handbuch is in
        English) and as the book says it is ("de-DE"), so "the books are in English" only when neither is the
        question's language."""
        langs = self.bm25_for(r)().languages
        declared = {str(b.report.get("language") or "").split("-")[0].lower() for b in books}
        return sorted({langs.get(b.id, "en") for b in books} | (declared - {""}))

    def _declined(self, r: Run, s: Settings) -> str:
        """What a declined question is told, in its language (``answer.declines``): why, when a plain reason declined
        it (an operator no book writes, a name none mentions); that only the chosen books were searched; which
        language would find it."""
        from ..text.languages import detect

        asked = detect(r.query, default="")
        t = texts(asked)
        text = t["not_relevant"] + t["try"] if not r.hits else t["not_in_books"]
        if r.unsaid == "operator":  # "|>" asked of books that never write it: say so
            text = t["unwritten"].format(symbols=joined([f"“{x}”" for x in r.unwritten], asked, "or"))
        elif r.unsaid == "name":  # "… als Docker-Container?": say which name no searched book mentions
            text = t["unnamed"].format(names=joined(r.unnamed, asked, "or"))
        if r.evidence.get("unknown", 0.0) >= 0.999 and not asked:  # "再帰とは何ですか？": no word in any book, no
            # language Folio reads: a lower threshold would not help (tour 30)
            text = (t["not_relevant"] if not r.hits else text) + t["no_word_known"]
        mine = self.library.ready(s, r.book_ids)  # the books asked, before a subject narrowed the search
        every = self.res.catalog.books("ready")
        scoped = bool(r.book_ids) and len(every) > len(mine)  # the user chose the books: say so first (tour 32)
        if scoped:
            text += t["scope_one" if len(mine) == 1 else "scope_many"].format(
                books=", ".join(f"“{b.title}”" for b in mine[:3]))
        if asked:  # "¿Cómo se riegan los tomates?" of English books: say which language would find it (not when
            theirs = self._languages(r, mine)  # a book outside the chosen ones is in the question's language)
            if theirs and asked not in theirs and not (scoped and asked in self._languages(r, every)):
                text += other_language(asked, theirs)
        return text

    def bm25_for(self, r: Run) -> Callable:
        """The library's BM25 for this run, built at most once and only when a stage needs it."""
        if r.bm25 is None:
            ready = self.res.catalog.books("ready")
            r.bm25 = functools.cache(lambda: self.library.bm25(r.settings, ready))
        return r.bm25

    def expand(self, query: str, qvec, hits: list[Hit], s: Settings, books: list[Book],
               query_type: str = "") -> list[Source]:
        """Each hit widened to its window or parent (fixed or adaptive, see ``rag.context``), numbered."""
        from ..context import ContextBuilder
        from ..query.kinds import classify

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
            words = any(ch.isalnum() for ch in r.question)  # nothing was looked for: no confidence to show, and
            answer.context = {"searched": False, "basis": "empty_library" if words else "no_words"}  # Metrics says why
            return AnswerStream(answer, iter([EMPTY_LIBRARY if words else NO_WORDS]), t0)
        answer.context = {**context_report(r.query, r.sources, s),
                          "answerability": {**r.evidence, "probability": round(r.probability, 3),
                                            "min": s.answerable_min}}
        if r.basis and r.outcome == "answer":  # answered from the book's own title page or preface, not the model
            answer.context["basis"] = r.basis
        elif r.unsaid and r.outcome == "not_found":  # declined because no passage says the year or who made it,
            answer.context["basis"] = f"no_{r.unsaid}"  # whatever the model's probability
        answer.confidence = round(r.probability, 4)
        answer.outcome = r.outcome
        if not r.answerable:
            answer.not_found = True
            return AnswerStream(answer, iter([self._declined(r, s)]), t0)
        answer.figures = r.figures
        asked, more = r.question, {}
        if r.backend.name == "extractive":  # it picks sentences by their likeness to the question: its asking part
            from ..query.asking import asking_part
            from ..text.languages import fold_scripts

            asked = fold_scripts(asking_part(r.question, s.tuning.retrieve.long_question_words))
            bridge = getattr(r.retriever, "bridge", None)
            if bridge and r.sources:  # asked in another language than the best source's book: its sentences are
                from ..query.decompose import decompose  # compared with the words' translations too (not for a
                from ..retrieve.crosslingual import extra_text  # two-part question: each part is answered alone)

                from ..query.authors import asks_authors
                from ..query.overview import asks_overview

                lang = self.bm25_for(r)().languages.get(r.sources[0].book_id)
                if lang in bridge and len(decompose(asked)) == 1 and not (asks_authors(asked) or asks_overview(asked)):
                    # (not for "Wer ist der Autor von Think Python?": a book's title page or opening answers it, which
                    # the question's own words name — the translations would name no book)
                    asked = f"{asked} ({extra_text(bridge)[lang]})"
            if r.history and is_follow_up(r.question, r.history):  # "and why?": what the last answer did not say
                more["last_answer"] = r.history[-1][1]
        return AnswerStream(answer, r.backend.stream(asked, r.sources, figures=r.figures, **more), t0,
                            finish=lambda a: self.check(a, r))

    def check(self, answer: Answer, r: Run) -> None:
        """Once the text is complete: the quote check, then the figures of the sources it cites."""
        from ..answer.quotecheck import check_quotes
        from ..figures.choose import finalise

        t = time.perf_counter()
        if "windows" in answer.context:  # the answerer may have renumbered its sources (rag.answer.citations)
            answer.context["windows"] = windows(answer.sources)
        answer.checks = check_quotes(answer.text, answer.sources, r.settings.tuning.answer.supported_share)
        answer.trace["quote_check_failed"] = float(sum(not c.ok for c in answer.checks))
        from ..evidence.pages import quoted_span

        for src in answer.sources:  # a source is named by the chunk its quote comes from (rag.types.Source.quoted),
            if any(c.n == src.n for c in answer.checks):  # to the page its quote ends on
                src.quoted, src.quoted_to, src.quoted_from = quoted_span(answer.text, src, self.res.catalog.chunk_range,
                                                                         self.res.catalog.page)
        if answer.figures:
            cited = list(dict.fromkeys(c.n for c in answer.checks))
            avec = self.res.embed.get_query_embedding(answer.text[:2000]) if answer.text.strip() else None
            answer.figures = finalise(answer.figures, cited, avec, r.figure_vector, r.settings.max_figures,
                                      r.settings.tuning.figures, {s.book_id for s in answer.sources if s.n in cited},
                                      r.settings.figure_min_similarity)
        answer.trace["check"] = (time.perf_counter() - t) * 1e3


def context_report(query: str, sources: list[Source], s: Settings) -> dict:
    """How the context was made: mode, question type and language, each source's window decision."""
    from ..query.kinds import classify
    from ..text.languages import detect, surely

    lang = detect(query)  # a question whose other language is a guess ("man page mount options") is not translated
    shown = lang if lang == "en" or surely(query, lang) else f"{lang} (unsure, not translated)"
    return {"mode": s.context_mode, "query_type": classify(query), "language": shown,
            "windows": windows(sources)}


def windows(sources: list[Source]) -> list[str]:
    """Each source's window decision, under its number."""
    return [f"[{src.n}] {src.plan.get('summary', '')}" for src in sources]


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
