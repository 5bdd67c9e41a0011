"""Metrics of one answered question (what the Metrics page aggregates), and the one confidence notion shown for an
answer everywhere.

Confidence is ``Answer.confidence``: the calibrated probability that the books answer the question
(``rag.retrieve.answerability``: from similarity, coverage of the question's rare words and retriever agreement).
The chat shows it in plain words with the answer's outcome; the Metrics page stores and averages the same number.
(Rows stored when confidence was 0.7 × similarity were migrated to the stored answer's probability:
``rag.library.catalog``.) Flags: slow (total latency over ``slow_answer_ms``) and low similarity (the sources'
average similarity under ``low_similarity``)."""
from __future__ import annotations

import math

from ..types import Answer

HIGH_CONFIDENCE = 0.85  # at or above: "high confidence" (the Metrics page's high-confidence rate)
MEDIUM_CONFIDENCE = 0.65  # at or above: "medium" (the default RAG_ANSWERABLE_MIN); below: "low"
OUTCOMES = ("answer", "likely", "not_found")


def outcome(answer: dict | Answer) -> str:
    """"answer", "likely" or "not_found"; an answer stored before outcomes existed: from its ``not_found``."""
    if isinstance(answer, Answer):
        got, not_found = getattr(answer, "outcome", "") or "", answer.not_found
    else:
        got, not_found = answer.get("outcome") or "", answer.get("not_found")
    if got in OUTCOMES:
        return got
    return "not_found" if not_found else "answer"


def level(confidence: float) -> str:
    """"high", "medium" or "low"."""
    if confidence >= HIGH_CONFIDENCE:
        return "high"
    return "medium" if confidence >= MEDIUM_CONFIDENCE else "low"


BASIS_WORDS = {"byline": "Found in your books · the names on its title page",
               "authors": "Found in your books · its own section on its authors",
               "overview": "Found in your books · its own account of what it is about (abstract, preface or "
                           "introduction)",
               "stating": "Found in your books · its own labelled statement (“Funding: …”, “Competing interests: …”)"}


# declined because no best passage says what the question wants (``rag.query.wants``), whatever the probability
UNSAID_WORDS = {"no_year": "Not in your books · no passage found gives the year asked for",
                "no_maker": "Not in your books · no passage found says who did what was asked",
                "no_duration": "Not in your books · no passage found gives the number of years, months or days asked "
                               "for",
                "no_organisation": "Not in your books · no passage found names the university, company or institution "
                                   "asked for",
                "no_price": "Not in your books · no passage found gives the price asked for",
                "no_size": "Not in your books · no passage found gives the size asked for (bytes, MB, GB …)",
                "no_funding": "Not in your books · no passage found says who funded the work",
                "no_name": "Not in your books · no book searched mentions a name the question asks about",
                "no_operator": "Not in your books · no book searched writes the operator asked about",
                # nothing was searched (``Pipeline.answer``): what the chat said instead of an answer
                "no_words": "Not searched · the question has no letters or digits to search for",
                "empty_library": "Not searched · no book of the library is ready"}


def percent(p: float) -> str:
    """A probability as a whole percentage, rounded down: 0.449 reads 44%, so a question declined below a 45% line
    never shows 45% (nor an answer below 70% shows 70%)."""
    return f"{math.floor(max(0.0, min(1.0, p)) * 100 + 1e-9)}%"


def confidence_words(confidence: float, result: str, basis: str = "") -> str:
    """The confidence in plain words, the same in the chat and on the Metrics page, e.g.
    "Found in your books · high confidence (92%)"; an answer taken from the book's title page or preface
    (``basis``) says so instead of a probability the answerability model was not made for."""
    if basis in BASIS_WORDS and result == "answer":
        return BASIS_WORDS[basis]
    if basis in UNSAID_WORDS and result == "not_found":
        return UNSAID_WORDS[basis]
    pct = percent(confidence)
    if result == "not_found":
        return f"Not in your books · the chance that they answer it is {pct}"
    if result == "likely":
        return f"Likely answer · low confidence ({pct}): the best passage matches, check it on its page"
    return f"Found in your books · {level(confidence)} confidence ({pct})"


def answer_metrics(answer: Answer, slow_ms: float, low_similarity: float) -> dict:
    sims = [s.similarity for s in answer.sources]
    avg = sum(sims) / len(sims) if sims else 0.0
    total = answer.trace.get("total", 0.0)
    result = outcome(answer)
    return {
        "total_ms": round(total, 1), "first_token_ms": round(answer.trace.get("first_token", 0.0), 1),
        "stages": {k: round(v, 1) for k, v in answer.trace.items()},
        "avg_similarity": round(avg, 4), "confidence": round(float(answer.confidence), 4),
        "not_found": result == "not_found", "outcome": result,
        "slow": total > slow_ms, "low_similarity": bool(sims) and avg < low_similarity,
        "quote_failures": sum(not c.ok for c in answer.checks),
        "book_ids": sorted({s.book_id for s in answer.sources}),
        "basis": (answer.context or {}).get("basis", ""),  # answered from the book's title page or preface
    }
