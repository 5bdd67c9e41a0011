"""BEIR retrieval sets (corpus.jsonl, queries.jsonl, qrels/<split>.tsv) through the project's own parts.

One document = one chunk (title + text), embedded by the configured embedder, stored in the
project's Chroma ``VectorStore`` and indexed by its ``BM25Index``; rankings for BM25, dense and
hybrid (fused as ``HybridRetriever`` fuses: convex by default) are scored with nDCG@10, Recall@100 and MRR@10.
Vectors are cached on disk by model + text hash, so a second run does not embed again.
"""
from __future__ import annotations

import csv
import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from ..retrieve import fuse
from ..retrieve.hybrid import move_up
from ..types import Chunk
from .metrics import mean, mrr, ndcg_at_k, recall_at_k

MODES = ("bm25", "dense", "hybrid")
BEIR_BOOK = "beir"


@dataclass
class BeirSet:
    name: str
    docs: list[tuple[str, str]]  # (doc id, title + "\n" + text)
    queries: dict[str, str]
    qrels: dict[str, dict[str, int]]


def load(folder: Path, split: str = "test") -> BeirSet:
    folder = Path(folder)
    docs = []
    with open(folder / "corpus.jsonl", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            docs.append((str(d["_id"]), (d.get("title", "") + "\n" + d.get("text", "")).strip()))
    qrels: dict[str, dict[str, int]] = {}
    with open(folder / "qrels" / f"{split}.tsv", encoding="utf-8") as f:
        rows = csv.reader(f, delimiter="\t")
        next(rows)  # header: query-id corpus-id score
        for qid, did, score in rows:
            qrels.setdefault(qid, {})[did] = int(score)
    queries = {}
    with open(folder / "queries.jsonl", encoding="utf-8") as f:
        for line in f:
            q = json.loads(line)
            if str(q["_id"]) in qrels:
                queries[str(q["_id"])] = q["text"]
    return BeirSet(folder.name, docs, queries, qrels)


def cached_vectors(texts: list[str], embed, model: str, cache_dir: Path,
                   progress: Callable[[int, int], None] | None = None, batch: int = 256) -> np.ndarray:
    """Vectors of ``texts``, reusing those already computed for the same model and text."""
    cache_dir.mkdir(parents=True, exist_ok=True)
    path = cache_dir / (hashlib.sha1(model.encode()).hexdigest()[:12] + ".npz")
    keys = [hashlib.sha1(t.encode()).hexdigest() for t in texts]
    known: dict[str, np.ndarray] = {}
    if path.exists():
        with np.load(path) as z:
            known = dict(zip(z["keys"].tolist(), z["vecs"]))
    todo = [i for i, k in enumerate(keys) if k not in known]
    for start in range(0, len(todo), batch):
        idx = todo[start:start + batch]
        for i, v in zip(idx, embed.get_text_embedding_batch([texts[i] for i in idx])):
            known[keys[i]] = np.asarray(v, dtype=np.float32)
        if progress:
            progress(start + len(idx), len(todo))
    if todo:
        np.savez(path, keys=np.array(list(known)), vecs=np.stack(list(known.values())))
    return np.stack([known[k] for k in keys]) if keys else np.zeros((0, 0), np.float32)


def evaluate(bs: BeirSet, settings, embed, modes=MODES, k_retrieve: int = 100, progress=None) -> dict:
    """{mode: {ndcg@10, recall@100, mrr@10, ms_per_query}} plus counts."""
    from ..library.bm25 import BM25Index
    from ..library.vectors import VectorStore

    chunks = [Chunk(BEIR_BOOK, i, text, 1, 1, 0, len(text), section="") for i, (_, text) in enumerate(bs.docs)]
    ids = [d for d, _ in bs.docs]
    t0 = time.perf_counter()
    model = getattr(embed, "cache_id", settings.embed_model)  # torch and ONNX vectors kept apart
    vecs = cached_vectors([c.text for c in chunks], embed, model, settings.data_dir / "eval_cache", progress)
    embed_s = time.perf_counter() - t0
    store = VectorStore(settings, model, vecs.shape[1])
    if store.count() != len(chunks):
        store.delete_book(BEIR_BOOK)
        store.add(chunks, vecs.tolist())
    bm25 = BM25Index(chunks)
    row = {d: i for i, d in enumerate(ids)}
    qids = list(bs.queries)
    rankings: dict[str, dict[str, list[str]]] = {m: {} for m in modes}
    ms: dict[str, list[float]] = {m: [] for m in modes}
    for qid in qids:
        q = bs.queries[qid]
        t = time.perf_counter()
        qvec = embed.get_query_embedding(q)
        t_embed = time.perf_counter() - t
        t = time.perf_counter()
        dense_hits = [(ids[c.chunk_index], cos) for c, cos in store.query(qvec, k_retrieve, [BEIR_BOOK])]
        dense = [d for d, _ in dense_hits]
        t_dense = time.perf_counter() - t + t_embed
        t = time.perf_counter()
        sparse_hits = [(ids[c.chunk_index], sc) for c, sc in bm25.search(q, k_retrieve)]
        sparse = [d for d, _ in sparse_hits]
        t_bm25 = time.perf_counter() - t
        if "bm25" in modes:
            rankings["bm25"][qid], _ = sparse, ms["bm25"].append(t_bm25 * 1e3)
        if "dense" in modes:
            rankings["dense"][qid], _ = dense, ms["dense"].append(t_dense * 1e3)
        if "hybrid" in modes:
            t = time.perf_counter()
            sims = dict(dense_hits)
            extra = [row[d] for d in sparse if d not in sims]
            if extra:  # cosine of BM25-only candidates, as the app's retriever has them
                qv = np.asarray(qvec, dtype=np.float32)
                for d, cos in zip((d for d in sparse if d not in sims), vecs[extra] @ qv / (
                        np.linalg.norm(vecs[extra], axis=1) * np.linalg.norm(qv) + 1e-12)):
                    sims[d] = float(cos)
            fused = fuse(dense_hits, sparse_hits, sims, settings.fusion, settings.fusion_alpha, settings.rrf_k)
            order = sorted(fused, key=lambda d: -fused[d])
            keep = settings.tuning.retrieve.dense_keep
            best = [d for d, cos in dense_hits[:keep] if cos >= settings.similarity_threshold]
            rankings["hybrid"][qid] = move_up(order, best, settings.tuning.retrieve.dense_keep_at) if keep else order
            ms["hybrid"].append((time.perf_counter() - t + t_dense + t_bm25) * 1e3)
    out = {"set": bs.name, "documents": len(ids), "queries": len(qids), "embed_seconds": round(embed_s, 1),
           "model": model, "fusion": settings.fusion, "fusion_alpha": settings.fusion_alpha,
           "rrf_k": settings.rrf_k, "modes": {}}
    for m in modes:
        r = rankings[m]
        out["modes"][m] = {
            "ndcg@10": round(mean([ndcg_at_k(r[q], bs.qrels[q], 10) for q in qids]), 4),
            "recall@100": round(mean([recall_at_k(r[q], bs.qrels[q], 100) for q in qids]), 4),
            "mrr@10": round(mean([mrr(r[q], bs.qrels[q], 10) for q in qids]), 4),
            "ms_per_query": round(mean(ms[m]), 2),
        }
    return out


def table(result: dict) -> str:
    rows = [f"{result['set']}: {result['documents']} documents, {result['queries']} queries, model {result['model']}",
            "| retriever | nDCG@10 | Recall@100 | MRR@10 | ms/query |", "|---|---|---|---|---|"]
    for m, v in result["modes"].items():
        rows.append(f"| {m} | {v['ndcg@10']:.3f} | {v['recall@100']:.3f} | {v['mrr@10']:.3f} | {v['ms_per_query']:.1f} "
                    f"|")
    return "\n".join(rows)
