"""The stages a question goes through, in order — each a function over a ``Run`` (what the stages read and write):

    reformulate → scope → retrieve → neighbourhood → sub_questions → definition → named_figures → editions
    → literal → admin → conclusion → overview → byline → decide → expand → focus → figures

``rag.pipeline.runner.Pipeline`` runs and times them (the ``Run`` they share is in ``rag.pipeline.run``); a stage that
has nothing to do for a question leaves the run as it is and returns False (such stages are left out of the trace).
"""
from __future__ import annotations

from typing import Callable

from ..chunking.zones import ZONES
from ..query.followup import continues_chat, is_follow_up, points_back
from ..query.kinds import EXAMPLE_LABEL, asks_example
from ..query.subjects import program_names, subject_scope
from ..types import Hit
from .run import Pipeline, Run

__all__ = ["Pipeline", "Run", "STAGES", "STAGE_NAMES"]  # the run's state is in ``run``, named here too

ADMIN_NEAREST = 5  # "Who paid for this research?" with no passage close enough: the books of this many closest
# candidates are asked for the paragraph that states it


# --- the stages ------------------------------------------------------------------------------------
def reformulate(p: "Pipeline", r: Run) -> bool | None:
    """A long question is searched for its asking part (``query.asking``); a follow-up becomes a standalone
    question (the backend's way: key terms folded in, or an LLM rewrite)."""
    from ..query.asking import asking_part
    from ..text.languages import fold_scripts

    # superscripts as the books' text layer writes them: "Rⁿ" is searched, embedded and matched as "Rn"
    r.query = fold_scripts(asking_part(r.question, r.settings.tuning.retrieve.long_question_words))
    if not r.history:
        return False if r.query == r.question else None
    r.query = r.backend.reformulate(r.query, r.history)


def scope(p: "Pipeline", r: Run) -> bool | None:
    """The books to search: those asked (default every ready book); a follow-up searches the books the last
    answer cited; so does, first, a short question that names no subject (``continues_chat``): when those books do
    not answer it, ``Pipeline.run`` asks the whole library."""
    r.books = p.library.ready(r.settings, r.book_ids)
    r.asked, r.titles = [b.id for b in r.books], {b.id: b.title for b in r.books}
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
        lib = p.bm25_for(r)()  # "in Octave" → "GNU Octave"; a name no picked title holds, no everyday word or
        about = subject_scope(r.query, {b.id: b.title for b in r.books},  # format ("LaTeX"): the books saying it often
                              program_names(r.query, set(lib.languages.values())),
                              lambda names: lib.subject_books(r.query, r.ids, names=names))
        r.books = [b for b in r.books if b.id in about] or r.books


def retrieve(p: "Pipeline", r: Run) -> bool | None:
    """Dense ∥ BM25 → fusion → relevance filter (``retrieve.hybrid``); its own steps are in the trace too."""
    from ..retrieve import HybridRetriever

    r.retriever = HybridRetriever(r.settings, p.res.store, p.res.embed, p.bm25_for(r), r.ids, r.asked, r.titles)
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
    back = points_back(r.question)  # "and why does that help?": about what was cited, not what else the words find
    best = sorted((cid for cid in sims if sims[cid] >= s.similarity_threshold),
                  key=lambda c: -sims[c])[:s.max_chunks if back else s.min_chunks]
    if not best:
        return False
    top = max(h.score for h in r.hits)
    first = [Hit(near[cid], top, sims[cid]) for cid in best]
    # a question that only points back is answered from there (tour 41: "and why does that help?" after the
    # stage-fright answer had quoted a passage on applause, 250 pages on, for its "helps" and "audience")
    r.hits = first if back else (first + [h for h in r.hits if h.chunk.id not in set(best)])[:s.max_chunks]
    # "Kannst du mir ein Beispiel geben?" after a definition: "Beispiel 1" beside it answers (tour 35: declined at 29 %)
    r.example_near = asks_example(r.question) and any(EXAMPLE_LABEL.search(near[cid].text) for cid in best)


def sub_questions(p: "Pipeline", r: Run) -> bool | None:
    """A two-part question: each part retrieved on its own, the rankings interleaved."""
    from ..query.decompose import decompose, interleave
    from ..retrieve import HybridRetriever

    parts = decompose(r.query, r.settings.tuning.retrieve.sub_question_min_words)
    if len(parts) < 2:
        return False
    each = [HybridRetriever(r.settings, p.res.store, p.res.embed, p.bm25_for(r), r.ids).hits(q) for q in parts]
    r.hits = interleave([r.hits] + each, r.settings.max_chunks)


def definition(p: "Pipeline", r: Run) -> bool | None:
    """A definition question: the passage that defines the term first (``retrieve.definition``)."""
    from ..retrieve.definition import definition_first, defines

    t = r.settings.tuning.retrieve
    hits, _how = definition_first(r.query, r.hits, p.bm25_for(r), p.res.store.similarities, r.query_vector, r.ids,
                                  t.definition_lead, t.definition_hop_k)
    r.hits = hits[:r.settings.max_chunks]
    r.defined = any(defines(r.query, h.chunk.text) for h in r.hits[:t.definition_lead])


def named_figures(p: "Pipeline", r: Run) -> bool | None:
    """A question naming a figure or table ("What does Figure 2.1 show?"): its caption's chunk first."""
    from ..figures.choose import named_figure_hits

    named = named_figure_hits(p.res.catalog, p.res.store, r.query, r.query_vector, r.ids)
    r.retriever.evidence["named_figure"] = 1.0 if named else 0.0
    if named:
        taken = {h.chunk.id for h in named}
        r.hits = (named + [h for h in r.hits if h.chunk.id not in taken])[:r.settings.max_chunks]


def editions(p: "Pipeline", r: Run) -> bool | None:
    """The same passage in two books (two editions, or two language editions of one book) is one source, from the
    book in the question's language."""
    from ..retrieve.editions import in_language, one_per_passage
    from ..retrieve.translations import in_question_language
    from ..text.languages import detect

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


def literal(p: "Pipeline", r: Run) -> bool | None:
    """'What does the // operator do?', 'What does --no-gui do?', 'Why is (0,1) not compact?', 'Can I use fancyhdr
    with yathesis?': the searched books' chunks that write the symbol, option, path, interval or rare coinage join
    the hits (``retrieve.literals``)."""
    from ..retrieve.literals import rare_coinages, unwritten, with_literals
    from ..text.literals import coined, spellings, written_out
    from ..text.languages import detect

    if not r.hits or not (written_out(r.query) or coined(r.query, detect(r.query))):
        return False
    found: dict[str, list] = {}  # each written-out token looked up once, for both uses

    def find(ids: list[str], token: str) -> list:
        if token not in found:  # each way a book may write it ("(0,1)", "(0, 1)")
            found[token] = list({c.id: c for w in spellings(token)
                                 for c in p.res.catalog.chunks_holding(ids, w)}.values())
        return found[token]

    r.unwritten = unwritten(r.query, r.ids, find)  # operators no searched book writes
    r.hits = with_literals(r.query, r.hits, r.ids, find, lambda ids: p.res.store.similarities(r.query_vector, ids),
                           extra=rare_coinages(r.query, r.ids, find))[:r.settings.max_chunks + 2]


def admin(p: "Pipeline", r: Run) -> bool | None:
    """'Who funded the study?': the best books' 'Funding: …' paragraphs join the hits (``retrieve.admin``)."""
    from ..query.admin import labels_asked, states
    from ..retrieve.admin import library_statements, labelled_paragraphs, stating_paragraphs

    labels = labels_asked(r.query)
    if not labels:
        return False
    sims = lambda ids: p.res.store.similarities(r.query_vector, ids)  # noqa: E731
    if r.hits:
        r.hits = labelled_paragraphs(r.query, r.hits, p.res.catalog.chunks_stating, sims)[:r.settings.max_chunks + 3]
        if continues_chat(r.query) and not any(states(h.chunk.text, labels) for h in r.hits):  # names no subject:
            found = library_statements(r.query, r.ids, p.res.catalog.chunks_stating, sims)  # the books that state it
            if found:
                r.hits, r.stating = (found + r.hits)[:r.settings.max_chunks], True
        return
    # "Who paid for this research?": no passage is close enough to its few everyday words, but the paper the
    # closest candidates are from states it in its "Funding: …" paragraph — that paragraph is the answer (tour 39)
    near = [h for h in r.retriever.candidates if h.chunk.kind not in ZONES][:ADMIN_NEAREST] if r.retriever else []
    r.hits = stating_paragraphs(r.query, near, p.res.catalog.chunks_stating, sims)[:r.settings.max_chunks]
    r.stating = bool(r.hits)


def conclusion(p: "Pipeline", r: Run) -> bool | None:
    """'What do the authors conclude?': the best books' concluding sections join the hits
    (``retrieve.conclusions``)."""
    from ..query.conclusions import asks_conclusion
    from ..retrieve.conclusions import concluding_sections

    if not asks_conclusion(r.query) or not (r.hits or len(r.ids) == 1):
        return False
    sims = lambda ids: p.res.store.similarities(r.query_vector, ids)  # noqa: E731
    if r.hits:
        r.hits = concluding_sections(r.hits, p.res.catalog.chunks_under, sims)[:r.settings.max_chunks + 2]
        return
    # "What do the authors conclude?" of the one book asked, whose words it does not share: its concluding section
    r.hits = concluding_sections([], p.res.catalog.chunks_under, sims, book_ids=r.ids)
    r.concluding = bool(r.hits)


def overview(p: "Pipeline", r: Run) -> bool | None:
    """'What is this book about?': the named book's (or the book being read's) abstract, preface or introduction
    leads the hits, and the question is answered from it (``retrieve.overview``)."""
    from ..query.authors import named_books
    from ..query.overview import ASKING, asks_overview
    from ..retrieve.overview import overview_chunks

    if not asks_overview(r.query):
        return False
    books = named_books(r.query, {b.id: b.title for b in r.books}, r.reading, asking=ASKING)[:1]
    first = [c for b in books for c in overview_chunks(b, p.res.catalog.chunks_under, p.res.catalog.chunk_range)]
    if not first:
        return False
    _lead(p, r, first)
    r.overview = True


def byline(p: "Pipeline", r: Run) -> bool | None:
    """'Who wrote Think Python?': the title page (first chunk) of the book the question names leads the hits, and
    the question is answered from it (``query.authors``) — when it names people; else (a manual whose authors are
    a chapter of it) the question is searched as any other."""
    from ..query.authors import SECTION_MARKS, asks_authors, heading_words, lists_authors, named_books
    from ..text.bylines import has_byline
    from ..text.languages import detect

    if not asks_authors(r.query):
        return False
    by_id = {b.id: b for b in r.books}
    books = named_books(r.query, {b.id: b.title for b in r.books}, r.reading,
                        {b.id: b.report.get("language", "") for b in r.books}, detect(r.query, default=""))
    firsts = [c for b in books for c in p.res.catalog.chunks_at(b, [0])
              if has_byline(c.text, by_id[b].title, heading_words(by_id[b].sections))]
    if not firsts:  # no names on the title page: the book's own section on its authors ("1.3 Authors"), if any
        firsts = [c for b in books for c in p.res.catalog.chunks_under(b, SECTION_MARKS)
                  if lists_authors(c.section) and c.kind not in ZONES][:2]
        r.authors_section = bool(firsts)
    if not firsts:
        return False
    _lead(p, r, firsts)
    r.byline = not r.authors_section


def _lead(p: "Pipeline", r: Run, chunks: list) -> None:
    """``chunks`` (a book's own page for a question about the book) first among the hits, scored as the best."""
    sims = p.res.store.similarities(r.query_vector, [c.id for c in chunks])
    top = max((h.score for h in r.hits), default=1.0)
    ids = {c.id for c in chunks}
    r.hits = ([Hit(c, top, sims.get(c.id, 0.0)) for c in chunks]
              + [h for h in r.hits if h.chunk.id not in ids])[:r.settings.max_chunks]


def decide(p: "Pipeline", r: Run) -> bool | None:
    """Does the library answer it? The calibrated probability (``retrieve.answerability``) against the setting."""
    from ..retrieve.answerability import probability

    s = r.settings
    r.probability = (probability(r.evidence, s.tuning.retrieve.named_figure_probability, s.answerability_model)
                     if r.hits else 0.0)
    if r.hits and (r.probability >= s.answerable_min or r.basis):  # a title page, a preface, the paper's own
        r.outcome = "answer"  # "Funding: …" paragraph (tour 40: "likely · low confidence" was too timid for that)
    elif r.hits and (r.probability >= s.likely_min or r.concluding or r.defined or r.example_near):  # the page that
        r.outcome = "likely"  # concludes, defines what was asked, or holds its example: to check
    else:
        r.outcome = "not_found"
    k = s.tuning.retrieve.wants_hits
    if r.outcome != "not_found" and k and not r.basis:  # a title page names its authors without "wrote"
        from ..query.wants import holds, wanted

        for want in wanted(r.query):  # "In what year…" of passages without a year; "Who … and in what year?" needs
            if not any(holds(want, f"{h.chunk.section}\n{h.chunk.text}", r.query) for h in r.hits[:k]):  # both
                r.outcome, r.unsaid = "not_found", want
                break
    if r.hits and r.evidence.get("name_missing", 0.0) >= s.tuning.retrieve.names_missing_decline \
            and not (r.basis or r.unsaid):  # "… als Docker-Container?": none of the three best passages names Docker,
        from ..retrieve.answerability import compound_mentioned, unnamed  # and no searched book does (a name that

        said = lambda w: p.res.catalog.mentions(r.ids, w)  # noqa: E731 (only sets the scene, "compiled with
        r.unnamed = [w for w in unnamed(r.query, r.hits) if not said(w) and not compound_mentioned(w, r.query, said)]
        if r.unnamed:  # pdfLaTeX", is elsewhere in the book; "Startoption" is "Start" and "Optionen")
            r.outcome, r.unsaid = "not_found", "name"  # (declined or not by the model: the answer says which name)
    if r.outcome != "not_found" and r.unwritten and not r.basis:  # "How does |> work?" of books that never write
        r.outcome, r.unsaid = "not_found", "operator"  # "|>": whatever else they say of pipes, not that
    r.answerable = r.outcome != "not_found"


def expand(p: "Pipeline", r: Run) -> bool | None:
    """Each hit widened to its window or parent and numbered (``context``); a question the books do not answer
    gets its closest passages, labelled as such."""
    hits = r.hits
    if not r.answerable:
        closest = r.settings.tuning.retrieve.closest
        hits = (r.hits or [h for h in r.retriever.candidates if h.chunk.kind not in ZONES])[:closest]
    r.sources = p.expand(r.query, r.query_vector, hits, r.settings, r.books)


def enumeration(p: "Pipeline", r: Run) -> bool | None:
    """A source that introduces numbered items ("… four results:" "1. Pause Enables …") whose next item no source
    holds: the book's following chunks, a few pages on, that hold the next items join the sources
    (``answer.enumeration``), so the answer can quote them all."""
    if not r.answerable or not r.sources:
        return False
    from dataclasses import replace

    from ..answer.enumeration import ENUMERATION_CHUNKS, ENUMERATION_PAGES, OPENS_LIST, awaited, item_line
    from ..answer.units import units

    if not any(OPENS_LIST.search(s.text) for s in r.sources[:3]):  # a look at the text first: most have none
        return False
    us = {s.n: units(s) for s in r.sources}
    held = [" ".join(u.text.split()) for v in us.values() for u in v if u.prose]  # a source's window may stop short
    found = []  # of its last chunk's end: the chunks that hold the next items
    for src, last, want, asks in awaited(r.sources, us):
        after = max(src.chunk_indices or [src.hit.chunk_index])
        following = p.res.catalog.chunk_range(src.book_id, after + 1, after + ENUMERATION_CHUNKS)
        for c in following:
            if c.page_start - src.page_start > ENUMERATION_PAGES or (want and last >= want):
                break
            lines = []
            while line := item_line(c.text, last + 1, asks):
                lines.append(line)
                last += 1
            if lines and not all(any(h.startswith(x) for h in held) for x in lines):  # else a source quotes them
                found.append(c)
    if not found:
        return False
    sims = p.res.store.similarities(r.query_vector, [c.id for c in found]) if r.query_vector is not None else {}
    more = p.expand(r.query, r.query_vector, [Hit(c, 0.0, sims.get(c.id, 0.0)) for c in found], r.settings, r.books)
    r.sources = r.sources + [replace(s, n=len(r.sources) + k + 1) for k, s in enumerate(more)]


def focus(p: "Pipeline", r: Run) -> bool | None:
    """An LLM reads only the sources that hold an answer (``answer.focus``); the extractive answerer reads all."""
    if not (r.answerable and r.settings.answer_backend != "extractive" and r.settings.llm_focus):
        return False
    from ..answer.focus import focus as keep_answering

    r.sources = keep_answering(r.query, r.sources, p.res.embed, r.settings.tuning)


def figures(p: "Pipeline", r: Run) -> bool | None:
    """The book's figures that belong to the sources or match the question (``figures.choose``); none under an
    author list."""
    if not r.answerable or r.basis in ("byline", "authors"):
        return False
    from ..figures.choose import candidates

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
    ("literal", literal), ("admin", admin), ("conclusion", conclusion), ("overview", overview), ("byline", byline),
    ("decide", decide), ("expand", expand), ("enumeration", enumeration),
    ("focus", focus), ("figures", figures))
STAGE_NAMES = tuple(name for name, _ in STAGES)
