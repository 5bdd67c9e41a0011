"""Citation numbers in the order a reader meets them: the first source an answer quotes is [1], the next new one
[2], and so on; the sources it does not quote keep their order after those.

Retrieval numbers its sources by rank, and the extractive answerer may open with the passage of source [7] and go on
with [1]: read top to bottom, "… [7] … [1]" looks like a skipped list. ``renumber`` gives the sources (and the
figures that name them) their new numbers in place, before the answer's text is written. (An LLM writes its own
citations as it streams; its sources keep retrieval's numbers.)"""
from __future__ import annotations

import re

from ..types import FigureHit, Source

_REF = re.compile(r"\[(\d+)\]")


def renumber(sources: list[Source], order: list[int], figures: list[FigureHit] = ()) -> dict[int, int]:
    """``order``: the source numbers in the order the answer cites them (repeats allowed). Sets each source's ``n``
    (and sorts ``sources`` by it), each figure's ``sources``, ``ties`` and the numbers its ``why`` names; returns
    old → new."""
    cited = [n for n in dict.fromkeys(order) if any(s.n == n for s in sources)]
    rest = [s.n for s in sources if s.n not in cited]
    mapping = {old: new for new, old in enumerate(cited + rest, start=1)}
    if all(old == new for old, new in mapping.items()):
        return mapping
    for s in sources:
        s.n = mapping[s.n]
    sources.sort(key=lambda s: s.n)
    for f in figures:
        f.sources = sorted(mapping.get(n, n) for n in f.sources)
        f.ties = {mapping.get(n, n): _renamed(why, mapping) for n, why in f.ties.items()}
        f.why = _renamed(f.why, mapping)
    return mapping


def _renamed(why: str, mapping: dict[int, int]) -> str:
    """"on the page of [7]" with [7]'s new number."""
    return _REF.sub(lambda m: f"[{mapping.get(int(m.group(1)), int(m.group(1)))}]", why)
