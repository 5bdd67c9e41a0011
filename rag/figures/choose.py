"""Which figures to show under an answer, decided at query time (and the figures a question names).

Candidates: the figures on the chunks of each source's window ("on") and those the chunks refer
to ("see Figure 3.2", "ref"), plus any figure of the books asked whose indexed text (caption,
labels, context) is close to the question on its own and that has words of its own (a caption, labels or a
description: a cover picture "matches" every question on the book's topic through its title page). Ranked by
similarity to the question (and, once it is written, to the answer) with a bonus for belonging to the matching chunk;
after the answer, figures tied only to sources it does not cite are dropped.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..text.captions import named_figures, reference_keys, same_word
from ..settings import FigureTuning
from ..types import FigureHit, Hit, Source



def candidates(question: str, qvec, sources: list[Source], figures_in_scope: tuple[list, np.ndarray],
               links: Callable[[str, list[int]], list[tuple[int, int, str]]], titles: dict[str, str],
               min_similarity: float, limit: int, tuning: FigureTuning | None = None) -> list[FigureHit]:
    """Figures for the question and its sources, best first (a short list for ``finalise``).
    A figure the question names ("what does Fig 2 show?") is a candidate in any book asked."""
    t = tuning or FigureTuning()
    bonuses = {("on", True): t.on_hit, ("ref", True): t.ref_hit, ("on", False): t.on_window,
               ("ref", False): t.ref_window}
    figs, vecs = figures_in_scope
    if not figs or limit <= 0:
        return []
    sims = vecs @ np.asarray(qvec, dtype=np.float32)
    named = set(reference_keys(question))
    source_books = {s.book_id for s in sources}
    where = {(f.book_id, f.index): i for i, f in enumerate(figs)}
    best: dict[int, tuple[float, str, list[int]]] = {}  # row -> (bonus, why, sources)
    ties: dict[int, dict[int, tuple[float, str]]] = {}  # row -> source n -> (bonus, why)
    for s in sources:
        hit_chunks = {s.hit.chunk_index}
        for ci, fi, rel in links(s.book_id, s.chunk_indices):
            row = where.get((s.book_id, fi))
            if row is None:
                continue
            bonus = bonuses[(rel, ci in hit_chunks)]
            # a page of the source's window, not of its matching chunk: tour 43 saw "Figure on p. 71 · on the page of
            # [1]" under a source labelled p. 70
            why = (f"referred to by [{s.n}]" if rel != "on" else f"on the page of [{s.n}]" if ci in hit_chunks
                   else f"on a page of [{s.n}]'s passage")
            if bonus > ties.setdefault(row, {}).get(s.n, (-1.0, ""))[0]:
                ties[row][s.n] = (bonus, why)
            old = best.get(row)
            ns = sorted(set((old[2] if old else []) + [s.n]))
            if old is None or bonus > old[0]:
                best[row] = (bonus, why, ns)
            else:
                best[row] = (old[0], old[1], ns)
    hits = []
    asked = _words(question)  # (once, not for every figure close to the question)
    for row, f in enumerate(figs):
        sim = float(sims[row])
        if f.ref and f.ref in named:
            bonus, why, ns = t.named_bonus + (0.1 if f.book_id in source_books else 0.0), "named in the question", []
        elif row in best and sim >= t.linked_min_similarity:
            bonus, why, ns = best[row]
        elif sim >= min_similarity and (f.caption or f.labels or f.description) and speaks_of(asked, f):
            # on its own only by words of its own: a bare picture (a cover, a photo) matches through the text
            # around it, which is about the book's topic, not about what the picture shows
            bonus, why, ns = 0.0, MATCHES, []
        else:
            continue
        hits.append(FigureHit(id=f.id, book_id=f.book_id, book_title=titles.get(f.book_id, f.book_id), page=f.page,
                              page_label=f.page_label, caption=f.caption, kind=f.kind, path=f.path,
                              score=round(sim + bonus, 4), why=why, sources=ns,
                              ties={n: w for n, (_, w) in ties.get(row, {}).items()}))
    hits.sort(key=lambda h: -h.score)
    return hits[:max(12, 4 * limit)]


MATCHES = "matches the question"  # the ``why`` of a figure tied to no source, close to the question on its own
SAME_START = 5  # letters two words must begin with alike to be one word in other forms ("topologischer", "Topologie")


def _words(text: str) -> set[str]:
    from bm25s.stopwords import STOPWORDS_FRENCH, STOPWORDS_GERMAN

    from ..text.terms import key_terms

    return {w for t in key_terms(text) for w in t.split("-") if len(w) > 2} - set(STOPWORDS_FRENCH) \
        - set(STOPWORDS_GERMAN)


def speaks_of(asked: set[str], figure) -> bool:
    """Whether the figure's own words (caption, labels, description) hold a word of the question (``asked``: its
    ``_words``) in any of its forms (the first ``SAME_START`` letters alike): closeness by the embedding alone is not
    enough, least of all for a question in another language than English, where the English embedder finds unrelated
    texts close (yathesis's "Figure 4.4 – Page de dédicaces" was shown as matching a question about the French
    summary of a thesis written in English, tours 42 and 43)."""
    own = _words(" ".join((figure.caption, figure.labels, figure.description)))
    return any(a == o or (min(len(a), len(o)) >= SAME_START and a[:SAME_START] == o[:SAME_START])
               for a in asked for o in own)


def finalise(hits: list[FigureHit], cited_order: list[int], answer_vec, figure_vec: Callable[[str], np.ndarray | None],
             limit: int, tuning: FigureTuning | None = None, cited_books: set[str] | None = None,
             min_similarity: float | None = None) -> list[FigureHit]:
    """After the answer: keep figures of cited sources (or matching the question by themselves),
    re-rank with the answer's own similarity and the order the answer cites its sources, at most ``limit``.
    A figure that only matches the question stays when it is in a book the answer cites (``cited_books``) and as
    similar to the answer as it had to be to the question (``min_similarity``): a screenshot of a slide theme
    matched "Ma bibliographie … table des matières" by its book's words, not what the answer says."""
    t = tuning or FigureTuning()
    cited = set(cited_order)
    a = np.asarray(answer_vec, dtype=np.float32) if answer_vec is not None else None

    def belongs(h: FigureHit) -> bool:
        if h.sources:
            return bool(set(h.sources) & cited)
        if h.why != MATCHES:  # named in the question
            return True
        if cited_books is not None and h.book_id not in cited_books:
            return False
        v = figure_vec(h.id) if a is not None and min_similarity is not None else None
        return v is None or float(v @ a) >= min_similarity

    kept = [h for h in hits if belongs(h)]
    for h in kept:  # "referred to by [7]" under an answer that cites [3] only: say how it belongs to a cited one
        shown = [n for n in cited_order if n in h.ties]
        if shown and not any(f"[{n}]" in h.why for n in cited):
            h.why = h.ties[shown[0]]
    for h in kept:
        v = figure_vec(h.id) if a is not None else None
        score = (1 - t.answer_weight) * h.score + t.answer_weight * float(v @ a) if v is not None else h.score
        # the answer leads with its best source: that source's figures come first
        lead = min((cited_order.index(n) for n in h.sources if n in cited_order), default=None)
        h.score = round(score + (t.lead_bonus[lead] if lead is not None and lead < len(t.lead_bonus) else 0.0), 4)
    kept.sort(key=lambda h: -h.score)
    return kept[:limit]


def named_figure_hits(catalog, store, query: str, qvec, book_ids: list[str]) -> list[Hit]:
    """A question that names a figure or table ("What does Figure 7-26 show?", "Was zeigt Abbildung 5.1?")
    gets the chunk holding that figure's caption and the chunk that first discusses it, as hits ahead of
    retrieval's. Where several books have that number, the one whose caption starts with the same word
    and whose indexed text is closest to the question wins."""
    named = named_figures(query)
    if not named:
        return []
    figs, vecs = catalog.figure_vectors(book_ids)
    q = np.asarray(qvec, dtype=np.float32)
    hits = []
    for key, word in named:
        rows = [i for i, f in enumerate(figs) if f.ref == key]
        if not rows:
            continue
        best = max(rows, key=lambda i: float(vecs[i] @ q) + (0.2 if same_word(word, figs[i].caption) else 0.0))
        f = figs[best]
        on = catalog.figure_chunks(f.book_id, f.index, "on")[:1]
        refs = [ci for ci in catalog.figure_chunks(f.book_id, f.index, "ref") if ci not in on][:1]
        for ci in on + refs:  # its caption, and the text that first discusses it
            chunk = catalog.chunk_range(f.book_id, ci, ci)[0]
            sim = store.similarities(qvec, [chunk.id]).get(chunk.id, float(vecs[best] @ q))
            hits.append(Hit(chunk, score=1.0, similarity=sim))
    return hits
