"""Semantic breaks: a chunk ends where the topic shifts. Each sentence is represented with its
neighbours (buffer 1, as in LlamaIndex's ``SemanticSplitterNodeParser``, but as the mean of the three
sentence vectors, so every sentence is embedded once, from the cache when seen before); where the cosine distance
between consecutive sentences is above the ``semantic_percentile``-th percentile of the section's
distances, a new chunk starts — once the current chunk holds a quarter of ``chunk_size`` (so a heading or
a one-line aside does not become a chunk of its own). Unlike LlamaIndex's parser, chunks are also capped at
``chunk_size`` word-pieces so they fit the embedder."""
from __future__ import annotations

import numpy as np

from ..errors import RagError
from .base import Piece, SectionContext, pack, sentence_spans


def breakpoints(vectors: np.ndarray, percentile: float) -> set[int]:
    """Indices i (≥ 1) where sentence i starts a new topic: distance(i-1, i) above the percentile."""
    if len(vectors) < 3:
        return set()
    v = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
    dist = 1.0 - np.sum(v[:-1] * v[1:], axis=1)
    cut = np.percentile(dist, percentile)
    return {i + 1 for i, d in enumerate(dist) if d > cut}


def split(seg: str, ctx: SectionContext) -> list[Piece]:
    if ctx.embed is None:
        raise RagError("The semantic chunker needs the embedding model; call it through ingest or the inspector.")
    units = sentence_spans(seg)
    if len(units) < 3:
        return [Piece(a, b) for a, b in pack(seg, units, ctx.settings.chunk_size, ctx)]
    single = np.asarray(ctx.embed([seg[a:b] for a, b in units]), dtype=np.float32)
    single /= np.maximum(np.linalg.norm(single, axis=1, keepdims=True), 1e-9)
    padded = np.vstack([single[:1], single, single[-1:]])
    buffered = padded[:-2] + padded[1:-1] + padded[2:]
    cuts = breakpoints(buffered, ctx.settings.semantic_percentile)
    return [Piece(a, b) for a, b in pack(seg, units, ctx.settings.chunk_size, ctx, breaks=cuts,
                                        min_tokens=ctx.settings.chunk_size // 4)]
