"""BM25 (bm25s): one index per book, and a library view over them (saved and cached by ``bm25_cache``; a
question's terms come from ``rag.text.query_terms``).

``BM25Index`` indexes a list of chunks (one book in the app; a whole benchmark corpus in ``rag.eval``).
``LibraryBM25`` holds one ``BM25Index`` per ready book: a book's index is built once when the book
changes (or read back from ``data/bm25/``, where it is saved after building), never rebuilt from every
chunk of the library. Scores use the library's IDF (each book's
term scores rescaled by library IDF / book IDF), so a book's hits compare with another's and a question
scoped to one book ranks as it would over the whole library.
"""
from __future__ import annotations

import math

from collections.abc import Sequence
from typing import Callable

import numpy as np

from ..text.languages import tokenize
from ..text.query_terms import idf, query_tokens, weigh_terms, words
from ..text.terms import names as question_names
from ..types import Chunk

# the version of how a book's text becomes BM25 tokens: a saved index of another version is rebuilt
# (2: superscripts written plainly and footnote marks set apart from their word, ``text.languages.fold_scripts``;
# 3: German "Codierung" read as "Kodierung", ``text.languages.tokenize``)
TOKENS_VERSION = 3


class BookIndexError(Exception):
    """A book's BM25 index cannot be made; the message is the reason shown with the book."""


class BookChunks(Sequence):
    """One book's chunks by index, read from the catalog when asked: a library's BM25 keeps its indexes, not the
    chunks' texts (a thousand books' texts would be gigabytes held for the ~10 hits a question shows)."""

    def __init__(self, book_id: str, n: int, fetch: Callable[[str, list[int]], list[Chunk]]):
        self.book_id, self.n, self.fetch = book_id, n, fetch

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return self.take(range(*i.indices(self.n)))
        if not -self.n <= i < self.n:
            raise IndexError(i)
        return self.take([i % self.n])[0]

    def take(self, indices) -> list[Chunk]:
        return self.fetch(self.book_id, [int(i) for i in indices])


def take(chunks: Sequence[Chunk], indices) -> list[Chunk]:
    """``chunks[i]`` for each of ``indices``: one catalog read for a ``BookChunks``."""
    if isinstance(chunks, BookChunks):
        return chunks.take(indices)
    return [chunks[int(i)] for i in indices]


class BM25Index:
    """``language``: one code for every book (the ``RAG_LANGUAGE`` setting), or "" to detect each book's
    language from its chunks; each book is tokenised and stemmed in its language (``rag.text.languages``) and a
    question is tokenised once per language present, each version scoring that language's chunks."""

    def __init__(self, chunks: list[Chunk], k1: float = 0.9, b: float = 0.4, language: str = ""):
        import bm25s

        from ..text.languages import detect

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
            if any(tokens):  # bm25s cannot index a corpus without a single token (issue 21): no retriever then
                self.retriever = bm25s.BM25(k1=k1, b=b)
                self.retriever.index(tokens, show_progress=False)

    def search(self, query: str, k: int, book_ids: list[str] | None = None,
               extra: dict[str, str] | None = None) -> list[tuple[Chunk, float]]:
        """``extra``: language → words searched beside the question in that language's books (its translations,
        ``rag.retrieve.crosslingual``)."""
        if self.retriever is None:
            return []
        allowed = np.isin(self._book_of, list(book_ids)) if book_ids is not None else None
        scores = np.zeros(len(self.chunks), dtype=np.float32)
        langs = sorted(set(self.languages.values()))
        for lang in langs:
            q = [t for t in query_tokens(query, lang) if t in self.retriever.vocab_dict]
            if extra and extra.get(lang):  # each translation once, and none the question has already
                q += [t for t in dict.fromkeys(words(extra[lang], lang))
                      if t in self.retriever.vocab_dict and t not in q]
            if not q:
                continue
            if len(langs) == 1 and allowed is None:  # one book, or one language: no mask to apply
                scores += self.retriever.get_scores(q)
                continue
            mask = (self._lang_of == lang).astype(np.float32)
            if allowed is not None:
                mask *= allowed
            if mask.any():
                scores += self.retriever.get_scores(q, weight_mask=mask)
        k = min(k, len(self.chunks))
        top = np.argpartition(-scores, k - 1)[:k] if 0 < k < len(scores) else np.arange(len(scores))
        top = top[np.argsort(-scores[top], kind="stable")]
        top = [i for i in top if scores[i] > 0]
        return [(c, float(scores[i])) for c, i in zip(take(self.chunks, top), top)]

    def _df(self, term: str, allowed: np.ndarray | None) -> int:
        tid = self.retriever.vocab_dict.get(term) if self.retriever is not None else None
        if tid is None:
            return 0
        ptr = self.retriever.scores["indptr"]
        if allowed is None:
            return int(ptr[tid + 1] - ptr[tid])
        return int(allowed[self.retriever.scores["indices"][ptr[tid]:ptr[tid + 1]]].sum())

    def chunk_count(self, book_ids: list[str] | None = None) -> int:
        """The chunks of ``book_ids`` (default: all)."""
        return int(np.isin(self._book_of, list(book_ids)).sum()) if book_ids is not None else len(self.chunks)

    def doc_freq(self, term: str, book_ids: list[str] | None = None) -> int:
        """How many chunks of ``book_ids`` (default: all) hold the BM25 token ``term``."""
        return self._df(term, np.isin(self._book_of, list(book_ids)) if book_ids is not None else None)

    def term_weights(self, query: str, book_ids: list[str] | None = None) -> dict[str, tuple[float, bool]]:
        """The question's BM25 terms (in its own language when a searched book has it, else in every
        language of the searched books; function words left out), each with its IDF weight within
        ``book_ids`` (default: all) and whether any of their chunks contains it. A term none has weighs as
        much as the rarest possible term when it is a name, a number or a long word, half that otherwise."""
        allowed = np.isin(self._book_of, list(book_ids)) if book_ids is not None and len(self.chunks) else None
        present = sorted({self.languages[b] for b in (book_ids or self.languages) if b in self.languages})
        n = int(allowed.sum()) if allowed is not None else len(self.chunks)
        return weigh_terms(query, present, n, lambda t: self._df(t, allowed))

    def text_terms(self, text: str, book_id: str) -> set[str]:
        """The BM25 terms of ``text`` in ``book_id``'s language."""
        return set(tokenize([text], self.languages.get(book_id, "en"))[0])


SUBJECT_LEAST_SHORT = 2  # the fewest chunks naming a subject in a short book (``LibraryBM25.subject_books``)


class LibraryBM25:
    """The ready books' BM25 indexes, one per book, with ``BM25Index``'s query interface."""

    def __init__(self, books: dict[str, BM25Index] | None = None):
        self.books: dict[str, BM25Index] = dict(books or {})

    @property
    def languages(self) -> dict[str, str]:
        return {bid: idx.languages.get(bid, "en") for bid, idx in self.books.items()}

    def subject_books(self, query: str, book_ids: list[str] | None = None, share: float = 0.1,
                      ratio: float = 5.0, least: int = 10, names: set[str] | None = None) -> list[str]:
        """The books a question's named subject is the subject of: for a name in the question (a word written with
        a capital inside the sentence: "Python", "LaTeX", "Octave"), the searched books whose chunks mention it in
        at least ``share`` of their chunks (and ``least`` chunks) and ``ratio`` times as often as the book that
        mentions it least. [] when no name picks out some books but not others (then every book is searched as
        asked). ``names``: the names to weigh (default: every name in the question)."""
        names = question_names(query) if names is None else names
        searched = [b for b in (book_ids or list(self.books)) if b in self.books]
        if not names or len(searched) < 2:
            return []
        picked: set[str] = set()
        for name in names:
            shares = {}
            for b in searched:
                idx = self.books[b]
                toks = tokenize([name], idx.languages.get(b, "en"))[0]
                if not toks or len(toks[0]) < 3 or not idx.chunks:
                    shares[b] = 0.0
                    continue
                df = idx._df(toks[0], None)
                # ``least`` chunks, or in a short book (a one-page note) the chunks ``share`` of it makes, two at the
                # least: a name in 4 of its 5 chunks is its subject too ("the Boots self-locking nut" is not the Live
                # manual's "boot"); one chunk saying "PDF" once is not
                need = min(least, max(SUBJECT_LEAST_SHORT, math.ceil(share * len(idx.chunks))))
                shares[b] = df / len(idx.chunks) if df >= need else 0.0
            top, low = max(shares.values()), min(shares.values())
            if top >= share and top >= ratio * max(low, 1e-9):
                picked |= {b for b, v in shares.items() if v >= top / ratio}
        return [b for b in searched if b in picked] if picked and len(picked) < len(searched) else []

    def chunk_count(self, book_ids: list[str] | None = None) -> int:
        """The chunks of the searched books."""
        return sum(len(idx.chunks) for idx in self._searched(book_ids))

    def doc_freq(self, term: str, book_ids: list[str] | None = None) -> int:
        """How many chunks of the searched books hold the BM25 token ``term``."""
        return sum(idx._df(term, None) for idx in self._searched(book_ids))

    def _searched(self, book_ids: list[str] | None) -> list[BM25Index]:
        ids = self.books if book_ids is None else book_ids
        return [self.books[b] for b in ids if b in self.books]

    def search(self, query: str, k: int, book_ids: list[str] | None = None,
               extra: dict[str, str] | None = None) -> list[tuple[Chunk, float]]:
        """The ``k`` best chunks: every searched book scored, only the best ``k`` read (``BookChunks``); ``extra`` as
        in ``BM25Index.search``."""
        hits: list[tuple[float, str, int]] = []  # score, book, chunk position
        n = sum(len(idx.chunks) for idx in self.books.values())
        df_lib: dict[str, int] = {}  # a term's chunks in the library, counted once per question (not once per book)
        for bid in (self.books if book_ids is None else [b for b in book_ids if b in self.books]):
            idx = self.books[bid]
            lang = next(iter(idx.languages.values()), "en")
            asked = query_tokens(query, lang) + (words(extra[lang], lang) if extra and extra.get(lang) else ())
            terms = [t for t in dict.fromkeys(asked) if t in idx.retriever.vocab_dict] \
                if idx.retriever is not None else []
            if not terms:
                continue
            scores = np.zeros(len(idx.chunks), dtype=np.float32)
            for t in terms:
                if t not in df_lib:
                    df_lib[t] = sum(other._df(t, None) for other in self.books.values())
                scale = idf(df_lib[t], n) / idf(idx._df(t, None), len(idx.chunks))
                scores += scale * idx.retriever.get_scores([t])
            kk = min(k, len(scores))
            top = np.argpartition(-scores, kk - 1)[:kk] if kk < len(scores) else np.arange(len(scores))
            hits += [(float(scores[i]), bid, int(i)) for i in top if scores[i] > 0]
        hits = sorted(hits, key=lambda h: -h[0])[:k]
        wanted: dict[str, list[int]] = {}
        for _, bid, i in hits:
            wanted.setdefault(bid, []).append(i)
        got = {bid: dict(zip(ii, take(self.books[bid].chunks, ii))) for bid, ii in wanted.items()}
        return [(got[bid][i], score) for score, bid, i in hits if i in got[bid]]

    def term_weights(self, query: str, book_ids: list[str] | None = None) -> dict[str, tuple[float, bool]]:
        searched = self._searched(book_ids)
        present = sorted({lang for idx in searched for lang in idx.languages.values()})
        return weigh_terms(query, present, self.chunk_count(book_ids), lambda t: self.doc_freq(t, book_ids))

    def text_terms(self, text: str, book_id: str) -> set[str]:
        return set(tokenize([text], self.languages.get(book_id, "en"))[0])
