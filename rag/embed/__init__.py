"""Embedding: ``embedder`` (the LlamaIndex ``BaseEmbedding`` over the local model: ONNX Runtime on the export
chosen for this CPU by default, sentence-transformers on torch as the reference) · ``onnx`` (the ONNX encoder and
its cached export) · ``export`` (torch → ONNX → candidates, measured and checked; run in a subprocess) ·
``candidates`` (fp32/int8 recipes) · ``samples`` (the check's texts) · ``cpu`` (the CPU kind) · ``status`` (what
runs, and when it is not the fast path, why and what it costs) · ``cache`` (content hash → vector, SQLite) ·
``foreground`` (questions before background embedding). Importing this package does not import torch."""
from .embedder import EMBED_DIMS, LocalSentenceEmbedding, make_embedder
from .foreground import FOREGROUND
from .status import EmbedStatus

__all__ = ["EMBED_DIMS", "EmbedStatus", "FOREGROUND", "LocalSentenceEmbedding", "make_embedder"]
