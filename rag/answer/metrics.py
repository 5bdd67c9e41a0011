"""Metrics of one answered question: what the Metrics page aggregates.

Confidence follows the published formula: 0.7 × average similarity of the chunks used + 0.3 × share
of those chunks with similarity above 0.7 (0 for a declined answer, whose passages are only the closest
found; the chat shows the calibrated answerability instead, ``rag.retrieve.answerability``). Flags: slow (total latency over ``slow_answer_ms``) and
low similarity (average similarity under ``low_similarity``).
"""
from __future__ import annotations

from ..types import Answer

HIGH_SIMILARITY = 0.7
HIGH_CONFIDENCE = 0.6  # "high-confidence rate" on the Metrics page


def confidence(similarities: list[float]) -> float:
    if not similarities:
        return 0.0
    avg = sum(similarities) / len(similarities)
    share = sum(s > HIGH_SIMILARITY for s in similarities) / len(similarities)
    return round(0.7 * avg + 0.3 * share, 4)


def answer_metrics(answer: Answer, slow_ms: float, low_similarity: float) -> dict:
    sims = [s.similarity for s in answer.sources]
    avg = sum(sims) / len(sims) if sims else 0.0
    total = answer.trace.get("total", 0.0)
    return {
        "total_ms": round(total, 1), "first_token_ms": round(answer.trace.get("first_token", 0.0), 1),
        "stages": {k: round(v, 1) for k, v in answer.trace.items()},
        "avg_similarity": round(avg, 4), "confidence": 0.0 if answer.not_found else confidence(sims), "not_found": answer.not_found,
        "slow": total > slow_ms, "low_similarity": bool(sims) and avg < low_similarity,
        "quote_failures": sum(not c.ok for c in answer.checks),
        "book_ids": sorted({s.book_id for s in answer.sources}),
    }
