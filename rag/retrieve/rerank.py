"""Optional cross-encoder reranking of the fused candidates (sentence-transformers ``CrossEncoder``).

No cross-encoder is packaged, so the stage is off unless ``RAG_RERANK_MODEL`` names a local model folder
(nothing is downloaded). When set, the best ``RAG_RERANK_TOP_N`` fused candidates are scored as
(question, section + passage) pairs and re-ordered by that score; the fused order breaks ties and the rest
keep their place after them. ``status`` says in words whether the stage runs, for the UI and the CLI.
"""
from __future__ import annotations

import threading
from pathlib import Path

from ..errors import RagError

_MODELS: dict[str, object] = {}
_LOCK = threading.Lock()


class RerankUnavailable(RagError):
    """RAG_RERANK_MODEL is set but names no local model folder."""


def status(model: str) -> str:
    if not model:
        return "off (no cross-encoder is packaged; set RAG_RERANK_MODEL to a local model folder to use one)"
    if not Path(model).is_dir():
        return f"unavailable: {model} is not a folder here (a local sentence-transformers CrossEncoder is needed)"
    return f"on: {Path(model).name}"


def _load(model: str):
    if not Path(model).is_dir():
        raise RerankUnavailable(status(model))
    with _LOCK:
        if model not in _MODELS:
            from sentence_transformers import CrossEncoder

            _MODELS[model] = CrossEncoder(model, device="cpu", local_files_only=True)
        return _MODELS[model]


def rerank(query: str, hits: list, model: str, top_n: int) -> list:
    """``hits`` (fused order) with the first ``top_n`` re-ordered by the cross-encoder's score, which each
    re-ordered hit keeps in ``rerank_score``."""
    head, tail = hits[:top_n], hits[top_n:]
    if len(head) < 2:
        return hits
    ce = _load(model)
    scores = ce.predict([(query, (h.chunk.section + "\n" + h.chunk.text).strip()) for h in head],
                        show_progress_bar=False)
    for h, sc in zip(head, scores):
        h.rerank_score = float(sc)
    order = sorted(range(len(head)), key=lambda i: (-head[i].rerank_score, i))
    return [head[i] for i in order] + tail
