"""The embedder: a LlamaIndex ``BaseEmbedding`` over the local model, loaded offline.

Two backends compute the same vectors (L2-normalised: dot product = cosine):
- ``onnx``: ONNX Runtime on the export chosen for this CPU (``rag.embed.onnx``: exported once, the fastest
  of several fp32/int8 candidates that passes the quality check, cached in the model cache folder); torch is
  never imported.
- ``torch``: sentence-transformers, the reference.
``auto`` (the default) uses onnx and falls back to torch when the export cannot be made, no candidate passes
the check, or ONNX Runtime is missing. ``status`` says what runs and, when it is not the fast path, why and
what it costs (``rag.embed.status``). Nothing is loaded before first use.
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
from .status import EmbedStatus, onnx_status, torch_status

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
    _manifest: Any = PrivateAttr(default=None)  # the export's manifest (also when it was rejected)
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
                for k, v in (
                    ("HF_HUB_OFFLINE", "1"),
                    ("TRANSFORMERS_OFFLINE", "1"),
                    ("TOKENIZERS_PARALLELISM", "false"),
                    ("HF_HUB_DISABLE_PROGRESS_BARS", "1"),
                    ("TRANSFORMERS_VERBOSITY", "error"),
                ):
                    os.environ.setdefault(k, v)
                if self.backend in ("auto", "onnx"):
                    try:
                        self._model, self._kind = self._load_onnx()
                    except Exception as e:  # noqa: BLE001 - auto falls back to the reference backend
                        if self.backend == "onnx":
                            raise
                        self._fallback = _why(e)
                        self._manifest = getattr(e, "manifest", None)
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
        self._manifest = manifest
        return OnnxEncoder(path, folder, self.threads), f"onnx-{manifest['chosen']}"

    def warm_up(self) -> None:
        """Load the model (and export it the first time) now rather than at the first question."""
        self._get_query_embedding("warm up")

    @property
    def kind(self) -> str:
        """'onnx-<candidate>' (e.g. 'onnx-int8-fused-u8', see ``rag.embed.candidates``) or 'torch' (loads the model)."""
        self._load()
        return self._kind

    @property
    def loaded(self) -> bool:
        """Whether the model is loaded (``status`` then costs nothing)."""
        return self._model is not None

    @property
    def fallback_reason(self) -> str:
        """Why ``auto`` runs on torch ('' when it does not)."""
        return self._fallback

    @property
    def manifest(self) -> dict | None:
        """The ONNX export's record: CPU kind, every candidate's speed and cosines, the one chosen (loads the model)."""
        self._load()
        return self._manifest

    @property
    def status(self) -> EmbedStatus:
        """What runs and, when it is not the fast path, why and what it costs (loads the model)."""
        self._load()
        if self._kind != "torch":
            return onnx_status(self._manifest or {})
        if self.backend == "torch":
            return torch_status("the settings ask for torch (RAG_EMBED_BACKEND=torch)", self._cached_manifest())
        return torch_status(self._fallback or "ONNX Runtime could not be used", self._manifest)

    def _cached_manifest(self) -> dict | None:
        """The manifest of an earlier export for this machine, if there is one (never exports)."""
        import json

        try:
            from .onnx import export_path

            meta = export_path(model_path(self.model_name), Path(self.model_cache_dir or "data/models"),
                               self.model_name).with_suffix(".json")
            return json.loads(meta.read_text()) if meta.exists() else None
        except Exception:  # noqa: BLE001 - only for the cost estimate
            return None

    @property
    def cache_id(self) -> str:
        """Key for cached vectors: the model and, for ONNX, its candidate (torch keeps the bare name)."""
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


def _why(e: Exception) -> str:
    """A reason a user can read: the export's own words when it ran, else the error."""
    from ..errors import RagError
    from .onnx import ExportRejected

    if isinstance(e, ExportRejected):
        return e.why
    if isinstance(e, RagError):
        return str(e).rstrip(".")
    if isinstance(e, ImportError):
        return f"ONNX Runtime cannot be imported ({e})"
    return f"the ONNX export failed ({type(e).__name__}: {e})"


def make_embedder(settings) -> LocalSentenceEmbedding:
    """The embedder the settings ask for."""
    return LocalSentenceEmbedding(model_name=settings.embed_model, embed_batch_size=settings.embed_batch_size,
                                  backend=settings.embed_backend, model_cache_dir=str(settings.model_cache_path),
                                  threads=settings.embed_threads)
