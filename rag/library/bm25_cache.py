"""BM25 indexes on disk and in memory: a book's index saved next to the catalog (``data/bm25/``), read back
memory-mapped, and kept while the book stays as it is (``BM25Cache``)."""
from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Callable

import numpy as np

from ..types import Chunk
from .bm25 import BM25Index, BookChunks, BookIndexError, LibraryBM25

log = logging.getLogger("folio.bm25")


def save_index(index: BM25Index, folder: Path) -> None:
    """Write a one-book index (bm25s arrays + languages) to ``folder`` (atomically: temp folder, rename)."""
    import json
    import shutil

    tmp = folder.with_name(folder.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    if index.retriever is not None:
        index.retriever.save(str(tmp), show_progress=False)
    (tmp / "folio.json").write_text(json.dumps({"languages": index.languages, "chunks": len(index.chunks)}))
    shutil.rmtree(folder, ignore_errors=True)
    tmp.rename(folder)


def load_index(folder: Path, chunks: Sequence[Chunk]) -> BM25Index | None:
    """A one-book index saved by ``save_index`` for exactly these ``chunks`` (a list, or a ``BookChunks``); None if
    absent or stale. The score arrays are memory-mapped (read from disk as questions touch them)."""
    import json

    import bm25s

    meta = folder / "folio.json"
    if not meta.exists():
        return None
    info = json.loads(meta.read_text())
    if info.get("chunks") != len(chunks):
        return None
    index = BM25Index.__new__(BM25Index)
    index.chunks, index.languages = chunks, info["languages"]
    if isinstance(chunks, BookChunks):  # one book: one value repeated (a view, no copy per chunk)
        index._book_of = np.broadcast_to(np.array(chunks.book_id), (len(chunks),))
        index._lang_of = np.broadcast_to(np.array(index.languages.get(chunks.book_id, "en")), (len(chunks),))
    else:
        index._book_of = np.array([c.book_id for c in chunks]) if chunks else np.array([])
        index._lang_of = np.array([index.languages.get(c.book_id, "en") for c in chunks]) if chunks else np.array([])
    index.retriever = bm25s.BM25.load(str(folder), show_progress=False, mmap=True) if len(chunks) else None
    if index.retriever is not None:
        index.retriever.unique_token_ids_set = None  # bm25s's retrieve() needs it, get_scores() does not: ~1 MB a book
    return index


class BM25Cache:
    """Keeps each ready book's index while the book stays as it is; builds (and saves under ``folder``)
    or loads only the books that changed since the last question."""

    def __init__(self, folder: Path | None = None):
        self.folder = folder
        self._lock = threading.Lock()
        self._books: dict[str, tuple[tuple, BM25Index]] = {}
        self._view: tuple[tuple, LibraryBM25] | None = None

    def get(self, versions: dict[str, tuple], load_chunks, language: str = "",
            on_fail: Callable[[str, str], None] | None = None,
            sizes: dict[str, int] | None = None, fetch: Callable[[str, list[int]], list[Chunk]] | None = None,
            ) -> LibraryBM25:
        """``versions``: ready book id → anything that changes when its chunks change;
        ``load_chunks(book_id)``: the book's chunks. A book whose index cannot be built is left out of the view
        and reported to ``on_fail(book_id, reason)``; every other book is searched as usual. With ``sizes`` (book
        id → number of chunks) and ``fetch(book_id, positions)`` the indexes keep no chunk texts (``BookChunks``):
        a saved index is read back without reading the book's chunks, a hit's chunk is fetched when asked."""
        key = (tuple(sorted(versions.items())), language)
        with self._lock:
            if self._view and self._view[0] == key:
                return self._view[1]
            books: dict[str, BM25Index] = {}
            for bid, version in versions.items():
                v = (version, language)
                have = self._books.get(bid)
                if have and have[0] == v:
                    books[bid] = have[1]
                    continue
                try:
                    books[bid] = self._build(bid, v, load_chunks, language, (sizes or {}).get(bid), fetch)
                except Exception as e:  # noqa: BLE001 - one book's index must not stop the others
                    log.warning("BM25 index of book %s failed", bid, exc_info=not isinstance(e, BookIndexError))
                    if on_fail is not None:
                        on_fail(bid, str(e) if isinstance(e, BookIndexError) else
                                f"its search index (BM25) could not be built ({type(e).__name__}: {e}). Re-index "
                                "it; if that fails too, delete it and add the file again.")
                    continue
                self._books[bid] = (v, books[bid])
            for bid in set(self._books) - set(versions):
                del self._books[bid]
            view = LibraryBM25(books)
            self._view = (key, view)
            return view

    def forget(self, book_id: str) -> None:
        """Drop a deleted book's saved index."""
        import shutil

        if self.folder is not None:
            for old in self.folder.glob(f"{book_id}-*"):
                shutil.rmtree(old, ignore_errors=True)

    def _build(self, book_id: str, version: tuple, load_chunks, language: str, size: int | None = None,
               fetch=None) -> BM25Index:
        import hashlib

        lazy = BookChunks(book_id, size, fetch) if fetch is not None and size is not None else None
        chunks = None
        folder = None
        if self.folder is not None:
            tag = hashlib.sha1(repr(version).encode()).hexdigest()[:10]
            folder = self.folder / f"{book_id}-{tag}"
            try:
                chunks = lazy if lazy is not None else load_chunks(book_id)
                index = load_index(folder, chunks)
                if index is not None:
                    return index
            except Exception:  # noqa: BLE001 - a damaged saved index is rebuilt
                pass
        if chunks is None or chunks is lazy:
            chunks = load_chunks(book_id)
        index = BM25Index(chunks, language=language)
        if chunks and index.retriever is None:
            from ..text.indexable import unindexable_reason

            why = unindexable_reason("\n".join(c.text for c in chunks), language) or "its text has no words to search."
            raise BookIndexError(f"{why} (It was added before Folio checked this; delete it.)")
        if folder is not None:
            try:
                self.forget(book_id)
                save_index(index, folder)
                if lazy is not None and len(lazy) == len(chunks):  # searched from the saved arrays, texts dropped
                    return load_index(folder, lazy) or index
            except OSError:
                pass  # read-only data folder: kept in memory only
        return index
