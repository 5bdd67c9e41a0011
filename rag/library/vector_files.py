"""Each book's vectors as files beside the vector store (``data/vectors/<collection>/``): ``<book>.npy`` (float32,
a row per chunk) with ``<book>.ids.json``, and, once a large library is searched, ``<book>.sketch.npz`` (its
``dense.Sketch``). Written when a book is added or first read back, removed with the book, so a restart maps them
from disk instead of reading every vector back from Chroma. A cache: a damaged or missing file is made again."""
from __future__ import annotations

import json
import os
import re
import threading
from pathlib import Path

import numpy as np

from .dense import Sketch


class VectorFiles:
    def __init__(self, folder: Path, dim: int):
        self.folder, self.dim = folder, dim
        self._lock = threading.Lock()
        self._sketches: dict[str, Sketch] = {}  # book id → its sketch, once asked

    def path(self, book_id: str) -> Path:
        return self.folder / f"{re.sub(r'[^A-Za-z0-9_.-]', '_', book_id)}.npy"

    def _tmp(self, f: Path) -> Path:
        return f.with_suffix(f".{os.getpid()}-{threading.get_ident()}.tmp")  # one per writer

    def save(self, book_id: str, ids: list[str], mat: np.ndarray) -> None:
        """Atomically (temporary files, then rename: ids last, so ids present ⇒ matrix complete)."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            f = self.path(book_id)
            ids_f = f.with_suffix(".ids.json")
            tmp = self._tmp(f)
            ids_f.unlink(missing_ok=True)
            with open(tmp, "wb") as out:
                np.save(out, np.ascontiguousarray(mat, dtype=np.float32))
            os.replace(tmp, f)
            tmp.write_text(json.dumps(ids))
            os.replace(tmp, ids_f)
        except OSError:  # a cache: the vectors are in Chroma
            pass

    def load(self, book_id: str) -> tuple[list[str], np.ndarray] | None:
        """The saved ids and vectors (memory-mapped); None when absent; a damaged pair is removed."""
        f = self.path(book_id)
        try:
            ids = json.loads(f.with_suffix(".ids.json").read_text())
            mat = np.load(f, mmap_mode="r")
            if not isinstance(ids, list) or not ids or mat.shape != (len(ids), self.dim):
                raise ValueError("ids and matrix disagree")
        except FileNotFoundError:
            return None
        except Exception:  # noqa: BLE001 - a damaged file (half written, another version): read Chroma again
            self.remove(book_id)
            return None
        return ids, mat

    def remove(self, book_id: str) -> None:
        f = self.path(book_id)
        with self._lock:
            self._sketches.pop(book_id, None)
        for p in (f.with_suffix(".ids.json"), f, f.with_suffix(".sketch.npz")):
            p.unlink(missing_ok=True)

    def sketch(self, book_id: str, mat: np.ndarray, dims: int) -> Sketch:
        """The book's ``Sketch`` of ``dims`` axes: kept in memory, saved as ``<book>.sketch.npz`` (made from
        ``mat``, block by block, the first time)."""
        want = min(dims, self.dim)
        with self._lock:
            have = self._sketches.get(book_id)
        if have is not None and have.coords.shape == (len(mat), want):
            return have
        f = self.path(book_id).with_suffix(".sketch.npz")
        sk = None
        try:
            with np.load(f) as z:
                got = Sketch(z["mean"], z["basis"], z["coords"])
            if got.coords.shape == (len(mat), want) and got.basis.shape == (self.dim, want):
                sk = got
        except (OSError, ValueError, KeyError):
            pass
        if sk is None:
            sk = Sketch.of(mat, dims)
            try:
                tmp = self._tmp(f)
                with open(tmp, "wb") as out:
                    np.savez(out, mean=sk.mean, basis=sk.basis, coords=sk.coords)
                os.replace(tmp, f)
            except OSError:  # a cache
                pass
        with self._lock:
            self._sketches[book_id] = sk
        return sk

    def forget_sketch(self, book_id: str) -> None:
        """The book's vectors changed in this process: its sketch is made again when next asked."""
        with self._lock:
            self._sketches.pop(book_id, None)
