"""Vector store: Chroma (embedded PersistentClient, or a ``chroma run`` server via HttpClient)
behind LlamaIndex's ``ChromaVectorStore``.

The collection is named after the model that made its vectors and records model and
dimension in its metadata; opening it with another model is refused (``EmbeddingMismatchError``).
Adds are batched to the client's max batch size. Each node's ref-doc is its book, so
deleting a book deletes exactly its vectors. Searches are exact dot products over the searched books'
vectors kept in memory (50k chunks: 77 MB, ~5 ms), the hits' text and metadata read from the catalog (``fetch``)
or, without one, from the collection.
Each book's vectors are also saved as files (``vector_files``), so a restart maps them from disk instead of
reading every vector back from Chroma; the search itself is ``dense``.

A library larger than ``RAG_DENSE_EXACT_MAX`` chunks is searched in two steps: each book's vectors are kept as a
sketch — their coordinates on the book's ``RAG_DENSE_SKETCH_DIMS`` principal axes (``<book>.sketch.npz``; 128 of
384 dimensions: a third of the memory and of the time) — the question's dot product with every chunk is estimated
from it, and the ``RAG_DENSE_CANDIDATES`` best are re-scored exactly from the memory-mapped float32 rows
(docs/scaling.md).

With ``fetch`` (the catalog's ``chunks_at``: the library's case) a question reads the hits' chunks from the catalog
and similarities from the vector files, never from Chroma: embedded Chroma loads its whole collection (HNSW index
included: ~2 GB at a million chunks) into the process the first time anything is read from it.
"""
from __future__ import annotations

import re
import threading
from pathlib import Path

import numpy as np

from ..errors import EmbeddingMismatchError, StoreError
from ..settings import Settings
from ..types import Chunk
from . import dense
from .vector_files import VectorFiles


def collection_name(model: str, dim: int) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", model.lower().rsplit("/", 1)[-1]).strip("-")
    return f"folio-{slug}-{dim}"[:60]


class VectorStore:
    def __init__(self, settings: Settings, model: str, dim: int, fetch=None):
        """``fetch(book_id, chunk_indices)``: where the hits' chunks are read (default: Chroma's documents)."""
        self.settings, self.model, self.dim, self.fetch = settings, model, dim, fetch
        self.name = collection_name(model, dim)
        self._lock = threading.Lock()
        self._client = None
        self._collection = None
        self._vs = None
        self._vectors: dict[str, tuple[list[str], np.ndarray]] = {}  # book id → its chunk ids and vectors
        self._added: set[str] = set()  # books this process has written vectors for
        self._problems: dict[str, str] = {}  # book id → why its vectors cannot be searched (the library marks it)
        self.files = Path(settings.data_dir) / "vectors" / self.name  # <book>.npy + <book>.ids.json (+ sketch)
        self.vector_files = VectorFiles(self.files, dim)

    # --- the per-book vector files ----------------------------------------------------
    def _load_file(self, book_id: str) -> tuple[list[str], np.ndarray] | None:
        """The saved vectors, if their ids are still in the library (first and last checked)."""
        have = self.vector_files.load(book_id)
        if have is None:
            return None
        ids = have[0]
        ends = list(dict.fromkeys([ids[0], ids[-1]]))  # one id for a one-chunk book (Chroma refuses duplicates)
        if self.fetch is not None:  # the catalog holds the book's chunks (it is committed after its vectors)
            if len(self.fetch(book_id, [int(i.rsplit(":", 1)[1]) for i in ends])) != len(ends):
                return None
        elif len(self._collection.get(ids=ends, include=[])["ids"]) != len(ends):
            return None
        return have

    # --- opening ----------------------------------------------------------------
    def _open(self):
        with self._lock:
            if self._vs is not None:
                return self._vs
            import chromadb
            from chromadb.config import Settings as ChromaSettings
            from llama_index.vector_stores.chroma import ChromaVectorStore

            cs = ChromaSettings(anonymized_telemetry=False, allow_reset=False)
            s = self.settings
            try:
                if s.chroma_host:
                    client = chromadb.HttpClient(host=s.chroma_host, port=s.chroma_port, settings=cs)
                    client.heartbeat()
                else:
                    s.chroma_path.mkdir(parents=True, exist_ok=True)
                    client = chromadb.PersistentClient(path=str(s.chroma_path), settings=cs)
            except Exception as e:
                where = (
                    f"the Chroma server at {s.chroma_host}:{s.chroma_port}"
                    if s.chroma_host
                    else f"the Chroma folder {s.chroma_path}"
                )
                raise StoreError(f"Cannot open {where} ({type(e).__name__}: {e}). "
                                 "Check that the server is running / the folder is writable and not used by another "
                                 "process.") from None
            meta = {"embed_model": self.model, "dim": self.dim, "hnsw:space": "cosine"}
            col = client.get_or_create_collection(self.name, metadata=meta, embedding_function=None)
            got = col.metadata or {}
            if got.get("embed_model") != self.model or int(got.get("dim", -1)) != self.dim:
                raise EmbeddingMismatchError(
                    f"Chroma collection '{self.name}' holds vectors from {got.get('embed_model')} "
                    f"(dim {got.get('dim')}), not {self.model} (dim {self.dim}). Set RAG_EMBED_MODEL back, "
                    "or run `python -m rag reindex` to rebuild the vectors with the configured model.")
            self._client, self._collection = client, col
            self._vs = ChromaVectorStore(chroma_collection=col)
            return self._vs

    # --- writing ------------------------------------------------------------------
    def add(self, chunks: list[Chunk], vectors) -> None:
        """``vectors``: a row per chunk (a float32 matrix, or lists of floats)."""
        from llama_index.core.schema import NodeRelationship, RelatedNodeInfo, TextNode

        vs = self._open()

        def node(c: Chunk, v) -> TextNode:
            rel = {NodeRelationship.SOURCE: RelatedNodeInfo(node_id=c.book_id)}
            if c.chunk_index > 0:
                rel[NodeRelationship.PREVIOUS] = RelatedNodeInfo(node_id=f"{c.book_id}:{c.chunk_index - 1}")
            rel[NodeRelationship.NEXT] = RelatedNodeInfo(node_id=f"{c.book_id}:{c.chunk_index + 1}")
            return TextNode(id_=c.id, text=c.text, metadata=c.to_metadata(),
                            embedding=v.tolist() if hasattr(v, "tolist") else v, relationships=rel,
                            start_char_idx=c.char_start, end_char_idx=c.char_end,
                            excluded_embed_metadata_keys=list(c.to_metadata()),
                            excluded_llm_metadata_keys=list(c.to_metadata()))

        if len(chunks) != len(vectors):
            raise ValueError(f"{len(chunks)} chunks but {len(vectors)} vectors")
        with self._lock:  # a book added in one call: its vectors are the search's; else read back later
            for b in {c.book_id for c in chunks}:
                self.vector_files.forget_sketch(b)
                if b in self._vectors or b in self._added:
                    self._vectors.pop(b, None)
                else:
                    pick = [i for i, c in enumerate(chunks) if c.book_id == b]
                    self._vectors[b] = (
                        [chunks[i].id for i in pick],
                        np.asarray([vectors[i] for i in pick], dtype=np.float32),
                    )
                self._added.add(b)
                self.vector_files.remove(b)
        batch = max(1, min(self._client.get_max_batch_size(), 500))  # nodes made per batch: less memory at once
        for i in range(0, len(chunks), batch):
            vs.add([node(c, v) for c, v in zip(chunks[i:i + batch], vectors[i:i + batch])])
        with self._lock:
            whole = {b: self._vectors[b] for b in {c.book_id for c in chunks} if b in self._vectors}
        for b, (ids, mat) in whole.items():  # after Chroma has them
            self.vector_files.save(b, ids, mat)

    def delete_book(self, book_id: str) -> None:
        self._open().delete(book_id)
        with self._lock:
            self._vectors.pop(book_id, None)
            self._added.discard(book_id)
            self.vector_files.remove(book_id)

    def open(self) -> None:
        """Open the collection (checks model and dimension) without reading from it."""
        self._open()

    def count(self, book_id: str | None = None) -> int:
        self._open()
        if book_id is None:
            return self._collection.count()
        return len(self._collection.get(where={"book_id": book_id}, include=[])["ids"])

    # --- reading ------------------------------------------------------------------
    def query(self, vector: list[float], k: int, book_ids: list[str],
              settings: Settings | None = None) -> list[tuple[Chunk, float]]:
        """Top-k chunks among ``book_ids`` with their cosine similarity: an exact search, by dot product
        with those books' vectors, kept in memory (filled when a book is added, else read from Chroma
        once per book). No metadata filter, whether one book or the whole library is asked (a filter
        makes Chroma scan every chunk's metadata, ~40 ms at 50k chunks; its unfiltered HNSW search is
        approximate). A library larger than ``dense_exact_max`` chunks goes in two steps (``dense.two_step``);
        ``settings``: this question's (default: the store's)."""
        if not book_ids:
            return []
        self._open()
        return self._subset_query(np.asarray(vector, dtype=np.float32), k, book_ids, settings or self.settings)

    def _book_vectors(self, book_id: str) -> tuple[list[str], np.ndarray]:
        with self._lock:
            have = self._vectors.get(book_id)
        if have is None:
            have = self._load_file(book_id)
            if have is None:
                got = self._collection.get(where={"book_id": book_id}, include=["embeddings"])
                mat = (
                    np.asarray(got["embeddings"], dtype=np.float32)
                    if len(got["ids"])
                    else np.zeros((0, self.dim), np.float32)
                )
                have = (list(got["ids"]), mat)
                if mat.ndim != 2 or mat.shape[1] != self.dim:
                    self._problem(book_id, f"its vectors in Chroma have the wrong shape {mat.shape}")
                    have = ([], np.zeros((0, self.dim), np.float32))
                elif not have[0]:
                    self._problem(book_id, "its vectors are missing from the vector store (Chroma)")
                else:
                    self.vector_files.save(book_id, *have)
            with self._lock:
                self._vectors[book_id] = have
        return have

    def _problem(self, book_id: str, what: str) -> None:
        with self._lock:
            self._problems[book_id] = f"{what}, so it cannot be searched. Re-index it (or delete it)."

    def take_problems(self) -> dict[str, str]:
        """Books found unsearchable since the last call (book id → reason), for the library to mark failed. A
        book whose vectors are there again (it was re-indexed meanwhile) is dropped from the list."""
        with self._lock:
            out, self._problems = self._problems, {}
        for book_id in list(out):
            if "missing" in out[book_id] and self.count(book_id):
                with self._lock:
                    self._vectors.pop(book_id, None)
                del out[book_id]
        return out

    def _subset_query(self, q: np.ndarray, k: int, book_ids: list[str], s: Settings) -> list[tuple[Chunk, float]]:
        books = [(b, *self._book_vectors(b)) for b in dict.fromkeys(book_ids)]
        books = [(b, ids, mat) for b, ids, mat in books if ids]
        if sum(len(ids) for _, ids, _ in books) > s.dense_exact_max:
            scored = dense.two_step(books, q, k, s.dense_candidates,
                                    lambda b, mat: self.vector_files.sketch(b, mat, s.dense_sketch_dims))
        else:
            scored = dense.exact(books, q, k)
        scored = sorted(scored, reverse=True)[:k]
        if not scored:
            return []
        if self.fetch is not None:
            wanted: dict[str, list[int]] = {}
            for _, i in scored:
                b, idx = i.rsplit(":", 1)
                wanted.setdefault(b, []).append(int(idx))
            by_chunk = {c.id: c for b, idx in wanted.items() for c in self.fetch(b, idx)}
            return [(by_chunk[i], sim) for sim, i in scored if i in by_chunk]
        got = self._collection.get(ids=[i for _, i in scored], include=["metadatas", "documents"])
        by_id = {i: (doc, m) for i, doc, m in zip(got["ids"], got["documents"], got["metadatas"])}
        return [(Chunk.from_metadata(*by_id[i]), sim) for sim, i in scored if i in by_id]

    def _rows_of(self, ids: list[str]) -> tuple[dict[str, np.ndarray], list[str]]:
        """Vectors of chunks ``ids`` from the books' vector files (a chunk's row is its index when the file lists
        the book's chunks in order, as the files written here do), and the ids not found that way."""
        found: dict[str, np.ndarray] = {}
        rest: list[str] = []
        by_book: dict[str, list[tuple[str, int]]] = {}
        for i in ids:
            b, _, idx = i.rpartition(":")
            if not idx.isdigit():
                rest.append(i)
                continue
            by_book.setdefault(b, []).append((i, int(idx)))
        for b, want in by_book.items():
            book_ids, mat = self._book_vectors(b)  # kept once read, as for a search
            ok, missed = [], []
            for i, r in want:
                (ok if r < len(book_ids) and book_ids[r] == i else missed).append((i, r))
            rest += [i for i, _ in missed]
            if ok:
                rows = dense.read_rows(mat, np.array([r for _, r in ok]))
                found.update({i: v for (i, _), v in zip(ok, rows)})
        return found, rest

    def similarities(self, vector: list[float], ids: list[str]) -> dict[str, float]:
        """Cosine of ``vector`` with stored chunks ``ids`` (for BM25-only hits): from the vector files, Chroma
        asked only for chunks they do not hold."""
        if not ids:
            return {}
        self._open()
        q = np.asarray(vector, dtype=np.float32)
        found, rest = self._rows_of(list(ids))
        out = {i: float(v @ q) for i, v in found.items()}
        if rest:
            got = self._collection.get(ids=rest, include=["embeddings"])
            out.update({i: float(np.dot(q, np.asarray(e, dtype=np.float32)))
                        for i, e in zip(got["ids"], got["embeddings"])})
        return out
