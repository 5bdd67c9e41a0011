"""Definition questions ("What is a tuple in Python?", "Was ist ein Homöomorphismus?"): the passage that
defines the term goes first.

Fused retrieval often ranks passages that *use* a term above the one that *defines* it (they repeat the
term and the question's other words), and the context budget then leaves the definition out. When none of
the first ``LEAD`` hits has a sentence defining the term (the extractive answerer's definition patterns: "A
tuple is …", "… heißt Homöomorphismus, wenn …", "modulus operator: …"), the first later hit that does is
moved to the front; failing that, the term alone is looked up in BM25 and the first of its best ``K`` that
defines it is put first (a second hop).
"""
from __future__ import annotations

from typing import Callable

from ..query.definitions import definition_term, defines
from ..chunking.zones import ZONES
from ..types import Hit

def definition_first(question: str, hits: list[Hit], bm25: Callable, similarities: Callable, qvec,
                     book_ids: list[str], lead: int = 3, k: int = 30) -> tuple[list[Hit], str]:
    """``hits`` with a defining passage first, and how it got there ("" when unchanged, "moved", "hop").
    ``bm25()`` gives the library's BM25; ``similarities(qvec, ids)`` the cosine of stored chunks; ``lead``: hits
    that reach the context whatever its budget; ``k``: BM25 hits of the term scanned for a definition."""
    term = definition_term(question)
    if not term or any(defines(question, h.chunk.text) for h in hits[:lead]):
        return hits, ""
    for i, h in enumerate(hits[lead:], start=lead):
        if defines(question, h.chunk.text):
            return [h] + hits[:i] + hits[i + 1:], "moved"
    have = {h.chunk.id for h in hits}
    for chunk, score in bm25().search(term, k, book_ids):
        if chunk.id not in have and chunk.kind not in ZONES and defines(question, chunk.text):
            sim = similarities(qvec, [chunk.id]).get(chunk.id, 0.0) if qvec is not None else 0.0
            top = max((h.score for h in hits), default=1.0)
            return [Hit(chunk, top, sim, None, None, score, True)] + hits, "hop"
    return hits, ""
