"""One passage, one source: the same text found in two books of the library (two editions of a manual, a book
added under two names) is shown once.

Which copy stays: the one in the book whose declared language (an EPUB's ``dc:language``, kept in the book's
ingest report) is the question's — an English question cites the English edition, a German one the German
edition, even when the "German" edition is largely untranslated. Without such a book, the better-ranked copy.
The kept copy takes the group's best rank, so removing a duplicate never demotes the passage.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from ..types import Book, Chunk, Hit


def _key(text: str) -> str:
    return " ".join(text.lower().split())


def declared_languages(books: list[Book]) -> dict[str, str]:
    """book id → the language its file declares ('' when it declares none: PDFs mostly)."""
    return {b.id: str((b.report or {}).get("language", "")).split("-")[0].lower() for b in books}


def in_language(hits: list[Hit], books: list[Book], language: str,
                copies: Callable[[list[str], str], list[Chunk]]) -> list[Hit]:
    """Each hit from a book that does not declare ``language`` swapped for its exact copy in a book that does,
    when there is one (``copies(book_ids, text)``: the catalog's ``same_text``)."""
    declared = declared_languages(books)
    want = [b for b, lang in declared.items() if lang == language]
    if not want:
        return hits
    out = []
    for h in hits:
        if declared.get(h.chunk.book_id) != language:
            twin = next(iter(copies(want, h.chunk.text)), None)
            if twin is not None:
                h = replace(h, chunk=twin)
        out.append(h)
    return out


def one_per_passage(hits: list[Hit], books: list[Book], language: str) -> list[Hit]:
    """``hits`` (best first) with copies of the same passage in other books collapsed into one (repeats inside
    one book stay: they are different places of that book)."""
    declared = declared_languages(books)
    groups: dict[str, list[Hit]] = {}
    for h in hits:
        groups.setdefault(_key(h.chunk.text), []).append(h)
    if all(len({h.chunk.book_id for h in g}) == 1 for g in groups.values()):
        return hits
    keep_book = {}
    for k, g in groups.items():
        keep_book[k] = next((h.chunk.book_id for h in g if declared.get(h.chunk.book_id) == language),
                            g[0].chunk.book_id)
    out, used, placed = [], set(), set()
    for h in hits:
        k = _key(h.chunk.text)
        if h.chunk.book_id != keep_book[k]:  # a copy: the kept book's passage takes its place, once
            x = next((x for x in groups[k] if x.chunk.book_id == keep_book[k] and id(x) not in used), None)
            if x is None or k in placed:
                continue
            h, x = _ranked_as(x, h), x
            used.add(id(x))
        elif id(h) in used:
            continue
        placed.add(k)
        used.add(id(h))
        out.append(h)
    return out


def _ranked_as(h: Hit, better: Hit) -> Hit:
    """``h`` in the place of its copy ``better``: its score and ranks."""
    return replace(h, score=max(h.score, better.score), dense_rank=better.dense_rank, bm25_rank=better.bm25_rank)
