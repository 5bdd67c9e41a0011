"""BM25 (bm25s) over the library's ready chunks, rebuilt when the catalog's generation changes.

Building is fast (a 288-page book's ~760 chunks index in well under a second), so the index
lives in memory and never goes out of step with the catalog. One-book queries use
bm25s's ``weight_mask`` rather than a separate index.
"""
from __future__ import annotations

import threading

import numpy as np

from .lang import tokenize
from .types import Chunk


class BM25Index:
    """``language``: one code for every book (the ``RAG_LANGUAGE`` setting), or "" to detect each book's
    language from its chunks; each book is tokenised and stemmed in its language (``rag.lang``) and a
    question is tokenised once per language present, each version scoring that language's chunks."""

    def __init__(self, chunks: list[Chunk], k1: float = 0.9, b: float = 0.4, language: str = ""):
        import bm25s

        from .lang import detect

        self.chunks = chunks
        self.retriever = None
        by_book: dict[str, list[int]] = {}
        for i, c in enumerate(chunks):
            by_book.setdefault(c.book_id, []).append(i)
        self.languages = {bid: language or detect(" ".join(chunks[i].text for i in idx[:300]))
                          for bid, idx in by_book.items()}
        self._lang_of = np.array([self.languages[c.book_id] for c in chunks]) if chunks else np.array([])
        self._book_of = np.array([c.book_id for c in chunks]) if chunks else np.array([])
        if chunks:
            tokens: list[list[str]] = [[] for _ in chunks]
            for lang in set(self.languages.values()):
                idx = [i for i, c in enumerate(chunks) if self.languages[c.book_id] == lang]
                for i, t in zip(idx, tokenize([chunks[i].section + "\n" + chunks[i].text for i in idx], lang)):
                    tokens[i] = t
            self.retriever = bm25s.BM25(k1=k1, b=b)
            self.retriever.index(tokens, show_progress=False)

    def search(self, query: str, k: int, book_ids: list[str] | None = None) -> list[tuple[Chunk, float]]:
        if self.retriever is None:
            return []
        allowed = np.isin(self._book_of, list(book_ids)) if book_ids is not None else None
        scores = np.zeros(len(self.chunks), dtype=np.float32)
        for lang in sorted(set(self.languages.values())):
            q = tokenize([query], lang)[0]
            q = [t for t in q if t in self.retriever.vocab_dict]
            if not q:
                continue
            mask = (self._lang_of == lang).astype(np.float32)
            if allowed is not None:
                mask *= allowed
            if mask.any():
                scores += self.retriever.get_scores(q, weight_mask=mask)
        k = min(k, len(self.chunks))
        top = np.argsort(-scores)[:k]
        return [(self.chunks[i], float(scores[i])) for i in top if scores[i] > 0]


class BM25Cache:
    """Holds one BM25Index per catalog generation."""

    def __init__(self):
        self._lock = threading.Lock()
        self._gen: int | None = None
        self._index: BM25Index | None = None

    def get(self, generation: int, load_chunks, language: str = "") -> BM25Index:
        with self._lock:
            if self._index is None or self._gen != (generation, language):
                self._index = BM25Index(load_chunks(), language=language)
                self._gen = (generation, language)
            return self._index
