"""Embedding: ``embedder`` (the LlamaIndex ``BaseEmbedding`` over the local model: ONNX Runtime int8 by
default, sentence-transformers on torch as the reference) · ``onnx`` (the ONNX encoder and its cached export)
· ``export`` (torch → ONNX → int8, checked; run in a subprocess) · ``cache`` (content hash → vector, SQLite)
· ``foreground`` (questions before background embedding). Importing this package does not import torch."""
from .embedder import EMBED_DIMS, LocalSentenceEmbedding, make_embedder
from .foreground import FOREGROUND

__all__ = ["EMBED_DIMS", "FOREGROUND", "LocalSentenceEmbedding", "make_embedder"]
