"""Retrieval and answer metrics, as pure functions over ids and pages.

``ranking`` is a list of document ids, best first; ``relevant`` maps id → graded relevance
(BEIR qrels; > 0 counts as relevant).
"""
from __future__ import annotations

import math
import statistics


def ndcg_at_k(ranking: list[str], relevant: dict[str, int], k: int = 10) -> float:
    """Normalised discounted cumulative gain with graded gains (BEIR/trec_eval: gain = rel, log2(rank+1))."""
    dcg = sum(relevant.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranking[:k]))
    ideal = sorted((r for r in relevant.values() if r > 0), reverse=True)[:k]
    idcg = sum(r / math.log2(i + 2) for i, r in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall_at_k(ranking: list[str], relevant: dict[str, int], k: int) -> float:
    rel = {d for d, r in relevant.items() if r > 0}
    return len(rel & set(ranking[:k])) / len(rel) if rel else 0.0


def mrr(ranking: list[str], relevant: dict[str, int], k: int | None = None) -> float:
    """Reciprocal rank of the first relevant document (0 when none in the first k)."""
    for i, d in enumerate(ranking[:k] if k else ranking):
        if relevant.get(d, 0) > 0:
            return 1.0 / (i + 1)
    return 0.0


def page_hit(cited_pages: list[tuple[int, int]], evidence: set[int]) -> bool:
    """A cited source's matching chunk (page span start..end) lies on an evidence page."""
    return any(a <= p <= b for a, b in cited_pages for p in evidence)


def percentile(values: list[float], q: float) -> float:
    """q-th percentile (0..100) by linear interpolation; 0.0 for no values."""
    if not values:
        return 0.0
    v = sorted(values)
    pos = (len(v) - 1) * q / 100
    lo, hi = math.floor(pos), math.ceil(pos)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else 0.0


def abstention(answerable: list[bool], abstained: list[bool]) -> dict[str, float]:
    """Share of unanswerable questions declined, and of answerable ones wrongly declined."""
    un = [a for q, a in zip(answerable, abstained) if not q]
    an = [a for q, a in zip(answerable, abstained) if q]
    return {"abstention": sum(un) / len(un) if un else 0.0,
            "false_abstention": sum(an) / len(an) if an else 0.0}
