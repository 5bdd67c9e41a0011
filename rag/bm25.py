"""BM25 (bm25s) over the library's ready chunks, rebuilt when the catalog's generation changes.

Building is fast (a 288-page book's ~760 chunks index in well under a second), so the index
lives in memory and never goes out of step with the catalog. One-book queries use
bm25s's ``weight_mask`` rather than a separate index.
"""
from __future__ import annotations

import functools
import math
import re
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


    def _df(self, term: str, allowed: np.ndarray | None) -> int:
        tid = self.retriever.vocab_dict.get(term) if self.retriever is not None else None
        if tid is None:
            return 0
        ptr = self.retriever.scores["indptr"]
        if allowed is None:
            return int(ptr[tid + 1] - ptr[tid])
        return int(allowed[self.retriever.scores["indices"][ptr[tid]:ptr[tid + 1]]].sum())

    def term_weights(self, query: str, book_ids: list[str] | None = None) -> dict[str, tuple[float, bool]]:
        """The question's BM25 terms (in its own language when a searched book has it, else in every
        language of the searched books; function words left out), each with its IDF weight within
        ``book_ids`` (default: all) and whether any of their chunks contains it. A term none has weighs as
        much as the rarest possible term when it is a name, a number or a long word, half that otherwise."""
        from .lang import detect

        allowed = np.isin(self._book_of, list(book_ids)) if book_ids is not None and len(self.chunks) else None
        present = sorted({self.languages[b] for b in (book_ids or self.languages) if b in self.languages})
        own = detect(query)
        langs = [own] if own in present else present
        n = max(int(allowed.sum()) if allowed is not None else len(self.chunks), 1)
        names = {w.lower() for w in re.findall(r"\w+", query)[1:] if w[:1].isupper()}
        out: dict[str, tuple[float, bool]] = {}
        for lang in langs:
            for t in tokenize([query], lang)[0]:
                if t in _function_words(lang):  # "do", "was", "gì": the question's frame, not its subject
                    continue
                df = self._df(t, allowed)
                weight = math.log(1 + (n - max(df, 0.5) + 0.5) / (max(df, 0.5) + 0.5))
                if not df and not (any(ch.isdigit() for ch in t) or len(t) >= 7 or any(w.startswith(t) for w in names)):
                    weight /= 2  # a short ordinary word the books lack ("get", "times") says less than a name
                out[t] = (weight, df > 0)
        return out

    def text_terms(self, text: str, book_id: str) -> set[str]:
        """The BM25 terms of ``text`` in ``book_id``'s language."""
        return set(tokenize([text], self.languages.get(book_id, "en"))[0])


@functools.lru_cache(maxsize=16)
def _function_words(lang: str) -> frozenset[str]:
    """BM25 tokens of a language's most frequent function and question words (``rag.lang``), plus the
    English question frame of ``rag.answer.base.STOPWORDS``."""
    from .answer.base import STOPWORDS
    from .lang import _MARKERS

    words = _MARKERS.get(lang, "") + (" " + " ".join(sorted(STOPWORDS)) if lang == "en" else "")
    return frozenset(tokenize([words], lang)[0]) | frozenset(words.split())


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
