"""The embedder: a LlamaIndex ``BaseEmbedding`` over the local model, loaded offline.

Two backends compute the same vectors (L2-normalised: dot product = cosine):
- ``onnx``: ONNX Runtime on an int8 export of the model (``rag.embed.onnx``; exported once, cached in
  the model cache folder). About 3× the chunks/s of torch on 2 cores; torch is never imported.
- ``torch``: sentence-transformers, the reference.
``auto`` (the default) uses onnx and falls back to torch when the export cannot be made or does not
match the reference (``fallback_reason`` says why). Nothing is loaded before first use.
Query vectors are kept in a small LRU cache, so a repeated question is not embedded again.
"""
from __future__ import annotations

import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from llama_index.core.base.embeddings.base import BaseEmbedding
from pydantic import PrivateAttr

from ..text.tokens import model_path
from .foreground import FOREGROUND

EMBED_DIMS = {"all-MiniLM-L6-v2": 384}
QUERY_CACHE_SIZE = 1024


class LocalSentenceEmbedding(BaseEmbedding):
    """The embedding model from a local folder; never touches the network."""

    backend: str = "auto"
    model_cache_dir: str = ""
    threads: int = 0

    _model: Any = PrivateAttr(default=None)
    _kind: str = PrivateAttr(default="")
    _fallback: str = PrivateAttr(default="")
    _lock: Any = PrivateAttr(default_factory=threading.Lock)
    _queries: Any = PrivateAttr(default_factory=OrderedDict)
    _qlock: Any = PrivateAttr(default_factory=threading.Lock)

    @classmethod
    def class_name(cls) -> str:
        return "LocalSentenceEmbedding"

    # --- loading -----------------------------------------------------------------------
    def _load(self):
        with self._lock:
            if self._model is None:
                for k, v in (("HF_HUB_OFFLINE", "1"), ("TRANSFORMERS_OFFLINE", "1"), ("TOKENIZERS_PARALLELISM", "false"),
                             ("HF_HUB_DISABLE_PROGRESS_BARS", "1"), ("TRANSFORMERS_VERBOSITY", "error")):
                    os.environ.setdefault(k, v)
                if self.backend in ("auto", "onnx"):
                    try:
                        self._model, self._kind = self._load_onnx()
                    except Exception as e:  # noqa: BLE001 - auto falls back to the reference backend
                        if self.backend == "onnx":
                            raise
                        self._fallback = f"{type(e).__name__}: {e}"
                if self._model is None:
                    from sentence_transformers import SentenceTransformer

                    self._model = SentenceTransformer(str(model_path(self.model_name)), device="cpu",
                                                      local_files_only=True)
                    if self.threads:
                        import torch

                        torch.set_num_threads(self.threads)
                    self._kind = "torch"
        return self._model

    def _load_onnx(self):
        from .onnx import OnnxEncoder, exported

        folder = model_path(self.model_name)
        if not (folder / "tokenizer.json").exists():
            raise RuntimeError(f"{folder} has no tokenizer.json")
        path, manifest = exported(folder, Path(self.model_cache_dir or "data/models"), self.model_name)
        return OnnxEncoder(path, folder, self.threads), f"onnx-{manifest['precision']}"

    def warm_up(self) -> None:
        """Load the model (and export it the first time) now rather than at the first question."""
        self._get_query_embedding("warm up")

    @property
    def kind(self) -> str:
        """'onnx-int8', 'onnx-fp32' or 'torch' (loads the model)."""
        self._load()
        return self._kind

    @property
    def fallback_reason(self) -> str:
        """Why ``auto`` runs on torch ('' when it does not)."""
        return self._fallback

    @property
    def cache_id(self) -> str:
        """Key for cached vectors: the model and, for ONNX, its precision (torch keeps the bare name)."""
        return self.model_name if self.kind == "torch" else f"{self.model_name}#{self.kind}"

    @property
    def dimension(self) -> int:
        if self.model_name in EMBED_DIMS:
            return EMBED_DIMS[self.model_name]
        model = self._load()
        return int(model.dimension if self._kind != "torch" else model.get_sentence_embedding_dimension())

    # --- encoding ----------------------------------------------------------------------
    def _encode(self, texts: list[str], background: bool = False) -> list[list[float]]:
        model = self._load()
        if background:
            FOREGROUND.wait_idle()
            if self._kind == "torch":
                return self._encode_now(model, texts)
            return model.encode(texts, between=FOREGROUND.wait_idle).tolist()
        with FOREGROUND:
            return self._encode_now(model, texts)

    def _encode_now(self, model, texts: list[str]) -> list[list[float]]:
        if self._kind == "torch":
            vecs = model.encode(texts, batch_size=self.embed_batch_size, normalize_embeddings=True,
                                show_progress_bar=False, convert_to_numpy=True)
        else:
            vecs = model.encode(texts)
        return vecs.tolist()

    def background_batch(self, texts: list[str]) -> list[list[float]]:
        """Vectors for bulk work (adding a book): yields to questions being answered between batches."""
        return self._encode(texts, background=True) if texts else []

    def _get_query_embedding(self, query: str) -> list[float]:
        with self._qlock:
            if query in self._queries:
                self._queries.move_to_end(query)
                return self._queries[query]
        vec = self._encode([query])[0]
        with self._qlock:
            self._queries[query] = vec
            while len(self._queries) > QUERY_CACHE_SIZE:
                self._queries.popitem(last=False)
        return vec

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._encode([text])[0]

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return self._encode(texts)


def make_embedder(settings) -> LocalSentenceEmbedding:
    """The embedder the settings ask for."""
    return LocalSentenceEmbedding(model_name=settings.embed_model, embed_batch_size=settings.embed_batch_size,
                                  backend=settings.embed_backend, model_cache_dir=str(settings.model_cache_path),
                                  threads=settings.embed_threads)
