"""Questions that need two passages ("What is loam and how often do tomatoes need watering?") are split
into their parts, each retrieved on its own and the results interleaved, so that neither part's passage is
crowded out by the other's (a second retrieval hop per part). Only clear joins are split: "and"/"und"/"và"
followed by a new question word; anything else stays one question. A later part that points back at the first
("What does a tie look like and how do I type one?") gets the first part's terms, as a follow-up would."""
from __future__ import annotations

import re

_JOIN = re.compile(
    r"\s*,?\s+(?:and|und|và)\s+(?=(?:what|how|why|when|where|which|who|whom|whose|does|do|did|is|are|can|should|"
    r"was|wie|warum|wann|wo|welche[rsmn]?|wer|gibt|ist|sind|"
    r"tại sao|như thế nào|khi nào|ở đâu|ai)\b)", re.I)
def decompose(question: str, min_words: int = 3) -> list[str]:
    """The question's parts (one part: not split); a part shorter than ``min_words`` is not a question of its own."""
    from .followup import fold_history, points_back

    parts = [p.strip(" ,;") for p in _JOIN.split(question.strip()) if p.strip(" ,;")]
    if len(parts) < 2 or any(len(p.split()) < min_words for p in parts):
        return [question]
    parts = [p if p.endswith("?") else p + "?" for p in parts]
    # a later part that points back ("… and how do I type one?") is asked with the first part's terms, as a follow-up
    return parts[:1] + [fold_history(p, [(parts[0], "")]) if points_back(p) else p for p in parts[1:]]


def interleave(rankings: list[list], limit: int) -> list:
    """Best of each ranking in turn (the whole question's first), without repeats, at most ``limit``."""
    out, seen = [], set()
    for i in range(max((len(r) for r in rankings), default=0)):
        for r in rankings:
            if i < len(r) and r[i].chunk.id not in seen:
                seen.add(r[i].chunk.id)
                out.append(r[i])
    return out[:limit]
