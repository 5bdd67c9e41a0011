"""The embedder: a LlamaIndex ``BaseEmbedding`` over sentence-transformers, loaded offline.

``torch``/``sentence_transformers`` are imported on first use only (10 s+ here), so pages
render before the model is needed. Vectors are L2-normalised: dot product = cosine.
"""
from __future__ import annotations

import os
import threading
from typing import Any

from llama_index.core.base.embeddings.base import BaseEmbedding
from pydantic import PrivateAttr

from .tokens import model_path

EMBED_DIMS = {"all-MiniLM-L6-v2": 384}


class LocalSentenceEmbedding(BaseEmbedding):
    """sentence-transformers model from a local folder; never touches the network."""

    _model: Any = PrivateAttr(default=None)
    _lock: Any = PrivateAttr(default_factory=threading.Lock)

    @classmethod
    def class_name(cls) -> str:
        return "LocalSentenceEmbedding"

    def _load(self):
        with self._lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
                os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
                os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
                from sentence_transformers import SentenceTransformer

                self._model = SentenceTransformer(str(model_path(self.model_name)), device="cpu", local_files_only=True)
        return self._model

    @property
    def dimension(self) -> int:
        if self.model_name in EMBED_DIMS:
            return EMBED_DIMS[self.model_name]
        return int(self._load().get_sentence_embedding_dimension())

    def _encode(self, texts: list[str]) -> list[list[float]]:
        model = self._load()
        vecs = model.encode(texts, batch_size=self.embed_batch_size, normalize_embeddings=True,
                            show_progress_bar=False, convert_to_numpy=True)
        return vecs.tolist()

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._encode([query])[0]

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._encode([text])[0]

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return self._encode(texts)
