"""Hybrid retrieval: dense (Chroma) ∥ BM25 → score fusion → relevance filter.

Fusion (``fuse``) is by default a convex combination of the two scores, each normalised by its theoretical
minimum and the best score of the question's candidates ("TM2C2"/TMM in Bruch et al., "An Analysis of
Fusion Functions for Hybrid Retrieval", ACM TOIS 2023): α·(cos+1)/(max cos+1) + (1−α)·bm25/max bm25,
α = ``fusion_alpha`` chosen on SciFact's train queries. ``fusion="rrf"`` keeps reciprocal rank fusion.

``HybridRetriever`` is a LlamaIndex ``BaseRetriever``; ``hits()`` returns typed ``Hit``s
(what the service uses), ``_retrieve`` wraps them as ``NodeWithScore`` for LlamaIndex users.
"""
from __future__ import annotations

from typing import Callable

from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from ..library.bm25 import BM25Index
from ..text.query_terms import query_tokens
from .crosslingual import bridges, extra_text
from ..chunking.zones import ZONES, asks_for_zone
from ..settings import Settings
from ..library.vectors import VectorStore
from ..types import Hit


def rrf(rankings: list[list[str]], k: int = 60) -> dict[str, float]:
    """Reciprocal rank fusion: score(id) = Σ 1 / (k + rank), rank starting at 1."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, cid in enumerate(ranking, start=1):
            scores[cid] = scores.get(cid, 0.0) + 1.0 / (k + rank)
    return scores


def fuse(dense: list[tuple[str, float]], sparse: list[tuple[str, float]], sims: dict[str, float],
         method: str = "convex", alpha: float = 0.75, k: int = 60) -> dict[str, float]:
    """Fused score per candidate id. ``dense``/``sparse``: (id, score) best first; ``sims``: the cosine
    similarity of every candidate (dense-only and BM25-only alike); a candidate BM25 did not return has
    BM25 score 0, its theoretical minimum."""
    if method == "rrf":
        return rrf([[i for i, _ in dense], [i for i, _ in sparse]], k)
    bm = dict(sparse)
    cands = list(dict.fromkeys([i for i, _ in dense] + [i for i, _ in sparse]))
    if not cands:
        return {}
    top_cos = max(sims.get(i, -1.0) for i in cands)
    top_bm = max(bm.values(), default=0.0)
    d = {i: (sims.get(i, -1.0) + 1.0) / (top_cos + 1.0) if top_cos > -1.0 else 0.0 for i in cands}
    b = {i: bm.get(i, 0.0) / top_bm if top_bm > 0 else 0.0 for i in cands}
    if not dense:  # one retriever only (retrieval_mode): its own normalised score
        return b
    if not sparse:
        return d
    return {i: alpha * d[i] + (1.0 - alpha) * b[i] for i in cands}


def relevance_filter(hits: list[Hit], threshold: float, min_n: int, max_n: int) -> list[Hit]:
    """Hits in fused order, at most ``max_n``: once any passes ``threshold`` (cosine similarity), the fused
    best ``min_n`` are kept whatever their similarity — fusion ranked them first, often on exact words the
    dense model misses ("cell line" → "Human embryonic kidney cell line HEK293T …", cosine 0.27) — and further
    down only hits that pass. None passing → []."""
    if not any(h.similarity >= threshold for h in hits):
        return []
    head = hits[:min(min_n, max_n)]
    return head + [h for h in hits[len(head):] if h.similarity >= threshold][:max_n - len(head)]


RARE_LEAST, RARE_SMALL = 3, 0.01  # a rare word: at most ``rare_term_share`` of the searched chunks hold it, or at
# most 3 but never more than 1 % of them (in a five-chunk note no word is rare)


def rare_hits(query: str, hits: list[Hit], bm25, book_ids: list[str] | None, s: Settings) -> list[Hit]:
    """When no hit is similar enough: the fused best ``min_chunks`` and the further hits holding a rare word of the
    question (``RARE_LEAST``), if one of the first does — an acronym or a term of art the dense model reads as noise
    ("What does FANBOYS stand for?": cosine 0.23 to the page that spells it out, below every similarity floor). The
    question's words are read as each hit's book writes them (its language). Else []."""
    n = bm25.chunk_count(book_ids)
    most = max(s.tuning.retrieve.rare_term_share * n, min(RARE_LEAST, RARE_SMALL * n))
    if s.tuning.retrieve.rare_term_share <= 0 or most < 1:
        return []
    seen: dict[str, bool] = {}

    def rare(t: str) -> bool:
        if t not in seen:
            seen[t] = 0 < bm25.doc_freq(t, book_ids) <= most
        return seen[t]

    def holds(h: Hit) -> bool:
        c = h.chunk
        asked = set(query_tokens(query, bm25.languages.get(c.book_id, "en")))
        return any(rare(t) for t in asked & bm25.text_terms(f"{c.section}\n{c.text}", c.book_id))

    first = min(s.min_chunks, s.max_chunks)
    if not any(holds(h) for h in hits[:first]):
        return []
    return hits[:first] + [h for h in hits[first:s.max_chunks] if holds(h)]


def move_up(order: list[str], best: list[str], at: int) -> list[str]:
    """``order`` with the ids of ``best`` not already among its first ``at`` moved to position ``at``."""
    move = [i for i in best if i not in order[:at]]
    rest = [i for i in order if i not in move]
    return rest[:at] + move + rest[at:]


def keep_dense(kept: list[Hit], hits: list[Hit], s: Settings) -> list[Hit]:
    """The dense retriever's best ``dense_keep`` hits (those passing the similarity threshold) among the first
    ``dense_keep_at`` + 1 of ``kept``, in their dense order after the fused ones before them: convex fusion ranks a
    passage that words the question differently below any that shares a few of its words, because BM25 scores it
    0 ("How do I time a block of code?" → "Timing Utilities: tic, toc", dense rank 1, fused 7th)."""
    t = s.tuning.retrieve
    if t.dense_keep <= 0 or not kept or s.rerank_model:  # a cross-encoder's order is not second-guessed
        return kept
    at = min(t.dense_keep_at, len(kept))
    best = sorted((h for h in hits if h.dense_rank is not None and h.dense_rank <= t.dense_keep
                   and h.similarity >= s.similarity_threshold), key=lambda h: h.dense_rank)
    by_id = {h.chunk.id: h for h in kept + best}
    order = move_up([h.chunk.id for h in kept], [h.chunk.id for h in best], at)
    return [by_id[i] for i in order][:max(s.max_chunks, at + len(best))]


class HybridRetriever(BaseRetriever):
    def __init__(self, settings: Settings, store: VectorStore, embed, bm25: Callable[[], BM25Index],
                 book_ids: list[str], feature_ids: list[str] | None = None, titles: dict[str, str] | None = None):
        """``feature_ids``: the books the answerability features are measured over (default ``book_ids``): the
        books asked, even when the search was narrowed to some of them; ``titles``: their titles (id → title)."""
        super().__init__()
        self.settings, self.store, self.embed, self.bm25, self.book_ids = settings, store, embed, bm25, book_ids
        self.feature_ids, self.titles = feature_ids or book_ids, titles or {}
        self.timings: dict[str, float] = {}
        self.query_vector: list[float] | None = None  # the last query's embedding (figures reuse it)
        self.candidates: list[Hit] = []  # the last query's fused hits before the relevance filter
        self.evidence: dict[str, float] = {}  # the last query's answerability features (rag.retrieve.answerability)
        self.bridge: dict = {}  # the last query's word translations per book language (rag.retrieve.crosslingual)

    def hits(self, query: str) -> list[Hit]:
        import time

        s = self.settings
        t0 = time.perf_counter()
        qvec = self.query_vector = self.embed.get_query_embedding(query)
        t1 = time.perf_counter()
        dense = self.store.query(qvec, s.retrieve_k, self.book_ids, s) if s.retrieval_mode != "bm25" else []
        t2 = time.perf_counter()
        bm25 = self.bm25()
        book_lang = {b: lang for b, lang in bm25.languages.items() if self.book_ids is None or b in self.book_ids}
        self.bridge = bridges(query, tuple(sorted(set(book_lang.values())))) if s.translate_words else {}
        extra = extra_text(self.bridge)
        translated = {}  # book language → the translations' embedding: the books in that language are also
        if extra and s.retrieval_mode != "bm25":  # searched with it (the embedder knows their language, not the
            dense, translated = self.translated_dense(dense, extra, book_lang)  # question's)
        t2b = time.perf_counter()
        sparse = bm25.search(query, s.retrieve_k, self.book_ids, extra=extra or None) \
            if s.retrieval_mode != "dense" else []
        t3 = time.perf_counter()
        chunks = {c.id: c for c, _ in dense} | {c.id: c for c, _ in sparse}
        sims = {c.id: cos for c, cos in dense}
        missing = [cid for cid in chunks if cid not in sims]
        sims.update(self.store.similarities(qvec, missing))
        for lang, vec in translated.items():
            ids = [cid for cid in missing if book_lang.get(chunks[cid].book_id) == lang]
            for cid, cos in self.store.similarities(vec, ids).items():
                sims[cid] = max(sims.get(cid, -1.0), cos)
        dense_rank = {c.id: r for r, (c, _) in enumerate(dense, start=1)}
        bm25_rank = {c.id: r for r, (c, _) in enumerate(sparse, start=1)}
        fused = fuse([(c.id, cos) for c, cos in dense], [(c.id, sc) for c, sc in sparse], sims, s.fusion,
                     s.fusion_alpha, s.rrf_k)
        ordered = sorted(fused, key=lambda cid: (-fused[cid], -sims.get(cid, -1.0), chunks[cid].book_id,
                                                 chunks[cid].chunk_index))  # a tie (a paragraph a book has twice)
        # in the book's order, not the retrievers' (a run could cite p. 29 and the next p. 27 for the same answer)
        bm25_score = {c.id: sc for c, sc in sparse}
        hits = [Hit(chunks[cid], fused[cid], sims.get(cid, -1.0), dense_rank.get(cid), bm25_rank.get(cid),
                    bm25_score.get(cid, 0.0), sims.get(cid, -1.0) >= s.similarity_threshold) for cid in ordered]
        t_rr = time.perf_counter()
        if s.rerank_model:  # optional cross-encoder stage (rag.retrieve.rerank)
            from .rerank import rerank

            hits = rerank(query, hits, s.rerank_model, s.rerank_top_n)
        t_rr = time.perf_counter() - t_rr
        self.candidates = hits
        if not asks_for_zone(query):  # contents, index, references, copyright page: only when asked for
            hits = [h for h in hits if h.chunk.kind not in ZONES]
        kept = relevance_filter(hits, s.similarity_threshold, s.min_chunks, s.max_chunks)
        if not kept and hits:  # a word the embedder does not know ("FANBOYS"), the books' own: the answerability
            kept = rare_hits(query, hits, bm25, self.book_ids, s)  # model judges these, not the similarity floor
        kept = keep_dense(kept, hits, s)
        t4 = time.perf_counter()
        from .answerability import features

        self.evidence = features(query, hits, bm25 if s.retrieval_mode != "dense" else None,
                                 [c.id for c, _ in dense], [c.id for c, _ in sparse], self.feature_ids, self.bridge,
                                 self.titles)
        t5 = time.perf_counter()
        self.timings = {"embed_query": (t1 - t0) * 1e3, "dense": (t2 - t1) * 1e3, "bm25": (t3 - t2b) * 1e3,
                        "fuse_filter": (t4 - t3 - t_rr) * 1e3, "answerability": (t5 - t4) * 1e3}
        if s.rerank_model:
            self.timings["rerank"] = t_rr * 1e3
        if self.bridge:
            self.timings["translated"] = (t2b - t2) * 1e3
        return kept

    def translated_dense(self, dense: list, extra: dict[str, str], book_lang: dict[str, str]):
        """``dense`` merged with a search of each book language's books by the embedding of the question's words'
        translations into that language (``extra``): a chunk keeps the better of its two similarities. Returns the
        merged hits, best first, and language → translation embedding."""
        s = self.settings
        best = {c.id: (c, cos) for c, cos in dense}
        vectors = {}
        for lang, text in extra.items():
            ids = [b for b, code in book_lang.items() if code == lang]
            if not ids or not text.strip():
                continue
            vectors[lang] = vec = self.embed.get_query_embedding(text)
            for c, cos in self.store.query(vec, s.retrieve_k, ids, s):
                if c.id not in best or cos > best[c.id][1]:
                    best[c.id] = (c, cos)
            own = [cid for cid, (c, _) in best.items() if book_lang.get(c.book_id) == lang]
            for cid, cos in self.store.similarities(vec, own).items():
                if cos > best[cid][1]:
                    best[cid] = (best[cid][0], cos)
        merged = sorted(best.values(), key=lambda x: -x[1])[:s.retrieve_k]
        return merged, vectors

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return [NodeWithScore(node=TextNode(id_=h.chunk.id, text=h.chunk.text, metadata=h.chunk.to_metadata()),
                              score=h.score) for h in self.hits(query_bundle.query_str)]
