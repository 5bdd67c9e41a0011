"""A question about what a text concludes ("What do the authors conclude?") gets the best books' concluding sections
("Conclusion", "Summary", "Fazit") among its hits, right after each book's first hit: the chunks of those sections
that are most like the question."""
from __future__ import annotations

from typing import Callable

from ..chunking.zones import ZONES
from ..query.conclusions import MARKS, concludes
from ..types import Chunk, Hit

PER_BOOK = 2  # concluding chunks a book adds (a book with a summary per chapter adds the two nearest the question)


def concluding_sections(hits: list[Hit], find: Callable[[str, tuple[str, ...]], list[Chunk]],
                        similarities: Callable[[list[str]], dict[str, float]], books: int = 3,
                        book_ids: list[str] | None = None) -> list[Hit]:
    """``hits`` with, after the first hit of each of the ``books`` best books, that book's ``PER_BOOK`` concluding
    chunks most similar to the question (``find(book_id, marks)``: the catalog's ``chunks_under``); with no hits,
    those of ``book_ids``."""
    order = list(dict.fromkeys(h.chunk.book_id for h in hits))[:books] if hits else list(book_ids or [])
    found = {b: [c for c in find(b, MARKS) if concludes(c.section) and c.kind not in ZONES] for b in order}
    if not any(found.values()):
        return hits
    sims = similarities(sorted(c.id for cs in found.values() for c in cs))
    best = {b: sorted(cs, key=lambda c: -sims.get(c.id, 0.0))[:PER_BOOK] for b, cs in found.items()}
    if not hits:
        return [Hit(c, 0.0, sims.get(c.id, 0.0)) for b in order for c in best[b]]
    out, books_done, added = [], set(), set()
    for h in hits:
        if h.chunk.id in added:
            continue
        out.append(h)
        b = h.chunk.book_id
        if b in best and b not in books_done:
            books_done.add(b)
            add = [c for c in best[b] if c.id != h.chunk.id]
            out += [Hit(c, h.score, sims.get(c.id, 0.0)) for c in add]
            added |= {c.id for c in add}
    return out
