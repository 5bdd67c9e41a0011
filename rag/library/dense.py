"""Dense search over per-book vector matrices (rows: a book's chunks, float32, unit length): exact, or — for a
large library — in two steps, every chunk's similarity estimated from its book's ``Sketch`` and the best
candidates re-scored exactly from rows read off the vector files (docs/scaling.md). Plain NumPy; no store, no
Chroma: ``VectorStore`` hands the books in as (book id, chunk ids, matrix)."""
from __future__ import annotations

import os
from typing import Callable

import numpy as np

Book = tuple[str, list[str], np.ndarray]  # book id, its chunk ids, their vectors (in memory or memory-mapped)


def read_rows(mat: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``mat[rows]`` as float32. From a memory-mapped file the rows are read with ``pread`` (one call per run of
    consecutive rows), so they pass through the page cache without being mapped into the process: fancy indexing
    on the map would fault in (and count as resident) the pages around every row."""
    rows = np.asarray(rows, dtype=np.int64)
    if not isinstance(mat, np.memmap) or not len(rows):
        return np.asarray(mat[rows], dtype=np.float32)
    width = mat.shape[1] * mat.dtype.itemsize
    out = np.empty((len(rows), mat.shape[1]), dtype=mat.dtype)
    order = np.argsort(rows, kind="stable")
    fd = os.open(mat.filename, os.O_RDONLY)
    try:
        k = 0
        while k < len(order):
            e = k
            while e + 1 < len(order) and rows[order[e + 1]] == rows[order[e]] + 1:
                e += 1
            start = mat.offset + int(rows[order[k]]) * width
            buf = os.pread(fd, width * (e - k + 1), start)
            out[order[k:e + 1]] = np.frombuffer(buf, dtype=mat.dtype).reshape(e - k + 1, -1)
            k = e + 1
    finally:
        os.close(fd)
    return out.astype(np.float32, copy=False)


class Sketch:
    """A book's vectors on their own principal axes: ``x · q ≈ mean · q + coords[x] · (basis.T @ q)`` (exact for
    the part of ``x`` in the span of ``basis``)."""

    def __init__(self, mean: np.ndarray, basis: np.ndarray, coords: np.ndarray):
        self.mean, self.basis, self.coords = mean, basis, coords

    @classmethod
    def of(cls, mat: np.ndarray, dims: int, block: int = 65536) -> "Sketch":
        """The ``dims`` principal axes of ``mat``'s rows (from their covariance, summed block by block)."""
        dim = mat.shape[1]
        mean = np.zeros(dim, np.float64)
        for i in range(0, len(mat), block):
            mean += np.asarray(mat[i:i + block], dtype=np.float64).sum(axis=0)
        mean = (mean / max(len(mat), 1)).astype(np.float32)
        cov = np.zeros((dim, dim), np.float64)
        for i in range(0, len(mat), block):
            x = np.asarray(mat[i:i + block], dtype=np.float32) - mean
            cov += x.T.astype(np.float64) @ x
        _, vecs = np.linalg.eigh(cov)  # ascending
        basis = np.ascontiguousarray(vecs[:, ::-1][:, :min(dims, dim)], dtype=np.float32)
        coords = np.concatenate([(np.asarray(mat[i:i + block], dtype=np.float32) - mean) @ basis
                                 for i in range(0, len(mat), block)]) if len(mat) else np.zeros((0, basis.shape[1]))
        return cls(mean, basis, np.ascontiguousarray(coords, dtype=np.float32))

    def estimate(self, q: np.ndarray) -> np.ndarray:
        return self.coords @ (q @ self.basis) + float(self.mean @ q)


def exact(books: list[Book], q: np.ndarray, k: int) -> list[tuple[float, str]]:
    """Each book's ``k`` best chunks by exact dot product (similarity, chunk id); the caller keeps the best ``k``."""
    scored: list[tuple[float, str]] = []
    for _, ids, mat in books:
        sims = mat @ q
        top = np.argpartition(-sims, k - 1)[:k] if k < len(ids) else np.arange(len(ids))
        scored += [(float(sims[i]), ids[i]) for i in top]
    return scored


def two_step(books: list[Book], q: np.ndarray, k: int, candidates: int,
             sketch_of: Callable[[str, np.ndarray], Sketch]) -> list[tuple[float, str]]:
    """The ``candidates`` chunks (at least ``k``) whose similarity estimated from their book's sketch is highest,
    re-scored exactly (similarity, chunk id)."""
    est = np.concatenate([sketch_of(b, mat).estimate(q) for b, _, mat in books])
    n = min(max(candidates, k), len(est))
    cand = np.argpartition(-est, n - 1)[:n] if n < len(est) else np.arange(len(est))
    starts = np.cumsum([0] + [len(ids) for _, ids, _ in books])
    which = np.searchsorted(starts, cand, side="right") - 1
    scored: list[tuple[float, str]] = []
    for j in np.unique(which):
        _, ids, mat = books[j]
        rows = np.sort(cand[which == j] - starts[j])
        sims = read_rows(mat, rows) @ q
        scored += [(float(v), ids[r]) for v, r in zip(sims, rows)]
    return scored
