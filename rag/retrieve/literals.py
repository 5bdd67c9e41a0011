"""A question that writes out an operator ("What does the // operator do?", "%*%", "|>") is answered by the passage
that writes it too — which neither retriever finds: BM25 drops symbols, and the embedding of "operator" is closer to
every other passage about operators. So the chunks of the searched books that hold the symbol standing alone join the
hits, the most similar first, right after the best hit."""
from __future__ import annotations

from typing import Callable

from ..text.literals import holds_symbol, symbols
from ..types import Chunk, Hit


def with_literals(question: str, hits: list[Hit], book_ids: list[str],
                  find: Callable[[list[str], str], list[Chunk]], similarities: Callable[[list[str]], dict[str, float]],
                  top: int = 2, at: int = 1) -> list[Hit]:
    """``hits`` with up to ``top`` chunks holding one of the question's symbols (``find(book_ids, symbol)``: the
    catalog's ``chunks_holding``) placed at position ``at``, unless one is there already."""
    wanted = symbols(question)
    if not wanted or not hits:
        return hits
    have = {h.chunk.id for h in hits[:at + top]}
    found = {c.id: c for s in wanted for c in find(book_ids, s) if holds_symbol(c.text, s)}
    if not found or have & set(found):
        return hits
    sims = similarities(sorted(found))
    best = sorted(found, key=lambda cid: -sims.get(cid, -1.0))[:top]
    moved = [Hit(found[cid], hits[min(at, len(hits)) - 1].score, sims.get(cid, -1.0)) for cid in best]
    chosen = set(best)
    rest = [h for h in hits if h.chunk.id not in chosen]
    return rest[:at] + moved + rest[at:]
