"""Questions about a paper's administrative matter ("Who funded the study?", "Are there competing interests?") are
answered by the paragraph that states it ("Funding: This work was supported by …"), which the question's few words
rarely retrieve: it is one paragraph among the first page's text, and an author-contributions list saying "Funding
acquisition: <names>" matches the question better. So for such a question the labelled paragraphs of the books the
best hits are from join the hits, right after each book's first hit."""
from __future__ import annotations

from typing import Callable

from ..query.admin import labels_asked, states
from ..types import Chunk, Hit


def _stating(labels: tuple[str, ...], book_ids: list[str],
             find: Callable[[str, tuple[str, ...]], list[Chunk]]) -> dict[str, list[Chunk]]:
    """Book → its chunks holding a paragraph with one of ``labels``, for each of ``book_ids``."""
    return {b: [c for c in find(b, labels) if states(c.text, labels)] for b in book_ids}


def _best(hits: list[Hit], books: int) -> list[str]:
    """The ``books`` best books of ``hits``, best first."""
    return list(dict.fromkeys(h.chunk.book_id for h in hits))[:books]


def labelled_paragraphs(question: str, hits: list[Hit], find: Callable[[str, tuple[str, ...]], list[Chunk]],
                        similarities: Callable[[list[str]], dict[str, float]], books: int = 3) -> list[Hit]:
    """``hits`` with, after the first hit of each of the ``books`` best books, that book's chunks holding a paragraph
    the question asks about (``find(book_id, labels)``: the catalog's ``chunks_stating``)."""
    labels = labels_asked(question)
    if not labels or not hits:
        return hits
    have = {h.chunk.id for h in hits}
    found = {b: [c for c in cs if c.id not in have] for b, cs in _stating(labels, _best(hits, books), find).items()}
    if not any(found.values()):
        return hits
    sims = similarities(sorted(c.id for cs in found.values() for c in cs))
    out, placed = [], set()
    for h in hits:
        out.append(h)
        b = h.chunk.book_id
        if b in found and b not in placed:
            placed.add(b)
            out += [Hit(c, h.score, sims.get(c.id, 0.0)) for c in found[b]]
    return out


def library_statements(question: str, book_ids: list[str], find: Callable[[str, tuple[str, ...]], list[Chunk]],
                       similarities: Callable[[list[str]], dict[str, float]]) -> list[Hit]:
    """The chunks of any of ``book_ids`` holding a paragraph the question asks about, most similar first: for a
    question that names no subject ("Who paid for this research?" of the whole library), whose best passages are of
    books without one ("They paid him fifteen dollars a week" in a speech manual, tour 39)."""
    labels = labels_asked(question)
    found = [c for cs in _stating(labels, book_ids, find).values() for c in cs] if labels else []
    sims = similarities(sorted(c.id for c in found)) if found else {}
    return sorted((Hit(c, 1.0, sims.get(c.id, 0.0)) for c in found), key=lambda h: -h.similarity)


def stating_paragraphs(question: str, near: list[Hit], find: Callable[[str, tuple[str, ...]], list[Chunk]],
                       similarities: Callable[[list[str]], dict[str, float]], books: int = 3) -> list[Hit]:
    """For a question no passage is close enough to ("Who paid for this research?"): the chunks holding a paragraph
    it asks about, of the ``books`` books the ``near`` candidates are from, best book first ([] if none)."""
    labels = labels_asked(question)
    if not labels:
        return []
    found = [c for cs in _stating(labels, _best(near, books), find).values() for c in cs]
    sims = similarities(sorted(c.id for c in found)) if found else {}
    return [Hit(c, 1.0, sims.get(c.id, 0.0)) for c in found]
