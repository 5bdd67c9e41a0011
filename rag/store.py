"""Vector store: Chroma (embedded PersistentClient, or a ``chroma run`` server via HttpClient)
behind LlamaIndex's ``ChromaVectorStore``.

The collection is named after the model that made its vectors and records model and
dimension in its metadata; opening it with another model is refused (``EmbeddingMismatchError``).
Adds are batched to the client's max batch size. Each node's ref-doc is its book, so
deleting a book deletes exactly its vectors.
"""
from __future__ import annotations

import math
import re
import threading

import numpy as np

from .errors import EmbeddingMismatchError, StoreError
from .settings import Settings
from .types import Chunk


def collection_name(model: str, dim: int) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", model.lower().rsplit("/", 1)[-1]).strip("-")
    return f"folio-{slug}-{dim}"[:60]


class VectorStore:
    def __init__(self, settings: Settings, model: str, dim: int):
        self.settings, self.model, self.dim = settings, model, dim
        self.name = collection_name(model, dim)
        self._lock = threading.Lock()
        self._client = None
        self._collection = None
        self._vs = None

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
                where = f"the Chroma server at {s.chroma_host}:{s.chroma_port}" if s.chroma_host else f"the Chroma folder {s.chroma_path}"
                raise StoreError(f"Cannot open {where} ({type(e).__name__}: {e}). "
                                 "Check that the server is running / the folder is writable and not used by another process.") from None
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
    def add(self, chunks: list[Chunk], vectors: list[list[float]]) -> None:
        from llama_index.core.schema import NodeRelationship, RelatedNodeInfo, TextNode

        vs = self._open()
        nodes = []
        for c, v in zip(chunks, vectors, strict=True):
            rel = {NodeRelationship.SOURCE: RelatedNodeInfo(node_id=c.book_id)}
            if c.chunk_index > 0:
                rel[NodeRelationship.PREVIOUS] = RelatedNodeInfo(node_id=f"{c.book_id}:{c.chunk_index - 1}")
            rel[NodeRelationship.NEXT] = RelatedNodeInfo(node_id=f"{c.book_id}:{c.chunk_index + 1}")
            nodes.append(TextNode(id_=c.id, text=c.text, metadata=c.to_metadata(), embedding=v, relationships=rel,
                                  start_char_idx=c.char_start, end_char_idx=c.char_end,
                                  excluded_embed_metadata_keys=list(c.to_metadata()),
                                  excluded_llm_metadata_keys=list(c.to_metadata())))
        batch = max(1, min(self._client.get_max_batch_size(), 5000))
        for i in range(0, len(nodes), batch):
            vs.add(nodes[i:i + batch])

    def delete_book(self, book_id: str) -> None:
        self._open().delete(book_id)

    def count(self, book_id: str | None = None) -> int:
        self._open()
        if book_id is None:
            return self._collection.count()
        return len(self._collection.get(where={"book_id": book_id}, include=[])["ids"])

    # --- reading ------------------------------------------------------------------
    def query(self, vector: list[float], k: int, book_ids: list[str], unfiltered: bool = False) -> list[tuple[Chunk, float]]:
        """Top-k chunks among ``book_ids`` with their cosine similarity.

        ``unfiltered``: ``book_ids`` are the whole library, so the index is searched without a metadata
        filter (a filter makes Chroma scan the metadata of every chunk); hits of other books (one being
        added right now) are dropped, and the filtered search is used if that leaves fewer than ``k``."""
        from llama_index.core.vector_stores.types import (FilterOperator, MetadataFilter, MetadataFilters,
                                                          VectorStoreQuery)

        if not book_ids:
            return []
        vs = self._open()
        if unfiltered:
            res = vs.query(VectorStoreQuery(query_embedding=vector, similarity_top_k=k))
            allowed = set(book_ids)
            if all(n.metadata.get("book_id") in allowed for n in res.nodes or []):
                return self._hits(res)
        flt = MetadataFilters(filters=[MetadataFilter(key="book_id", operator=FilterOperator.IN, value=list(book_ids))])
        return self._hits(vs.query(VectorStoreQuery(query_embedding=vector, similarity_top_k=k, filters=flt)))

    @staticmethod
    def _hits(res) -> list[tuple[Chunk, float]]:
        out = []
        for node, sim in zip(res.nodes or [], res.similarities or []):
            cos = 1.0 + math.log(sim) if sim > 0 else -1.0  # ChromaVectorStore reports exp(-distance), distance = 1 - cos
            out.append((Chunk.from_metadata(node.get_content(), node.metadata), cos))
        return out

    def similarities(self, vector: list[float], ids: list[str]) -> dict[str, float]:
        """Cosine of ``vector`` with stored chunks ``ids`` (for BM25-only hits)."""
        if not ids:
            return {}
        self._open()
        got = self._collection.get(ids=list(ids), include=["embeddings"])
        q = np.asarray(vector, dtype=np.float32)
        return {i: float(np.dot(q, np.asarray(e, dtype=np.float32))) for i, e in zip(got["ids"], got["embeddings"])}
