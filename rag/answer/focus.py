"""What an LLM reads: the sources that hold an answer, best first.

The extractive answerer's sentence scorer (similarity to the question + key-term overlap + the matched chunk's own
sentences first) scores the sources' sentences; a source is kept when one of its sentences scores within the
extractive ``keep_share`` of the best (the rule that keeps the extractive answer from padding), the kept sources
ordered by their best sentence and renumbered [1]…[k]. At least ``keep_min`` sources stay (the next best by that
score, then in fused order): on eval/qa_shared_eval.jsonl's 65 answerable questions the evidence page stays among
the LLM's sources for 0.985 (0.969 with at least 2, 1.000 unfocused) while its context shrinks from 2,058 to 1,287
word-pieces (median) and the evidence page is source [1] for 0.831 (0.708 unfocused). The quote check then runs on
the LLM's answer against exactly these sources."""
from __future__ import annotations

from dataclasses import replace

from ..types import Source
from ..settings import Tuning
from .extractive import ExtractiveBackend


def focus(question: str, sources: list[Source], embed, tuning: Tuning | None = None) -> list[Source]:
    tuning = tuning or Tuning()
    keep_min = tuning.answer.focus_keep_min
    if len(sources) <= keep_min:
        return [replace(s, n=i) for i, s in enumerate(sources, start=1)]
    scored = ExtractiveBackend(embed, 8 * len(sources), tuning.extractive).select_parts(
        question, sources, keep_share=0.0
    )
    best: dict[int, float] = {}
    for _, n, score in scored:
        best[n] = max(best.get(n, float("-inf")), score)
    by_score = sorted(best, key=lambda n: -best[n])
    top = best[by_score[0]] if by_score else 0.0
    floor = top * tuning.extractive.keep_share if top > 0 else float("-inf")
    order = by_score + [s.n for s in sources if s.n not in best]  # unscored last, in fused order
    keep = [n for n in order if n in best and best[n] >= floor]
    keep += [n for n in order if n not in keep][:max(0, keep_min - len(keep))]
    by_n = {s.n: s for s in sources}
    return [replace(by_n[n], n=i) for i, n in enumerate(keep, start=1)]
