"""BM25 (bm25s) over the library's ready chunks, rebuilt when the catalog's generation changes.

Building is fast (a 288-page book's ~760 chunks index in well under a second), so the index
lives in memory and never goes out of step with the catalog. One-book queries use
bm25s's ``weight_mask`` rather than a separate index.
"""
from __future__ import annotations

import threading

import numpy as np

from .types import Chunk


class BM25Index:
    def __init__(self, chunks: list[Chunk], k1: float = 0.9, b: float = 0.4):
        import bm25s
        import Stemmer

        self.chunks = chunks
        self._stemmer = Stemmer.Stemmer("english")
        self._bm25s = bm25s
        self.retriever = None
        if chunks:
            tokens = bm25s.tokenize([c.section + "\n" + c.text for c in chunks], stopwords="en",
                                    stemmer=self._stemmer, show_progress=False)
            self.retriever = bm25s.BM25(k1=k1, b=b)
            self.retriever.index(tokens, show_progress=False)

    def search(self, query: str, k: int, book_ids: list[str] | None = None) -> list[tuple[Chunk, float]]:
        if self.retriever is None:
            return []
        q = self._bm25s.tokenize([query], stopwords="en", stemmer=self._stemmer, show_progress=False, return_ids=False)
        if not q or not q[0]:
            return []
        mask = None
        if book_ids is not None:
            allowed = set(book_ids)
            mask = np.array([1.0 if c.book_id in allowed else 0.0 for c in self.chunks], dtype=np.float32)
        scores = self.retriever.get_scores(q[0], weight_mask=mask)
        k = min(k, len(self.chunks))
        top = np.argsort(-scores)[:k]
        return [(self.chunks[i], float(scores[i])) for i in top if scores[i] > 0]


class BM25Cache:
    """Holds one BM25Index per catalog generation."""

    def __init__(self):
        self._lock = threading.Lock()
        self._gen: int | None = None
        self._index: BM25Index | None = None

    def get(self, generation: int, load_chunks) -> BM25Index:
        with self._lock:
            if self._index is None or self._gen != generation:
                self._index = BM25Index(load_chunks())
                self._gen = generation
            return self._index
