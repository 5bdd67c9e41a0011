"""Retrieval: ``hybrid`` (dense ∥ BM25 → score fusion → relevance filter; ``HybridRetriever``, a LlamaIndex
retriever) · ``rerank`` (optional cross-encoder) · ``answerability`` (does the library answer the question:
features and the calibrated model) · ``decompose`` (two-part questions, a retrieval per part)."""
from .hybrid import HybridRetriever, fuse, relevance_filter, rrf

__all__ = ["HybridRetriever", "fuse", "relevance_filter", "rrf"]
