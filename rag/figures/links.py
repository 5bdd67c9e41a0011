"""Figures ↔ chunks, decided at ingest.

A figure belongs ("on") to the chunk holding its anchor (its caption, or the text next to it);
a chunk that says "see Figure 3.2" refers ("ref") to that figure wherever it sits. The
sentences that refer to a figure are added to its context, so that its indexed text
(caption + labels + context) is what the book says about it.
"""
from __future__ import annotations

import re
from bisect import bisect_right

from ..text.captions import REFERENCE, reference_keys
from ..types import Chunk, Figure

MAX_CONTEXT = 1200


def _sentence_around(text: str, start: int, end: int, limit: int = 300) -> str:
    """The sentence holding text[start:end], with the sentence before it ("… is called a state
    diagram. Figure 2.1 shows …": what a figure shows is often said just before it is named)."""
    lo = max(0, start - 2 * limit)
    stops = [m.end() for m in re.finditer(r"[.!?]\s", text[lo:start])]
    if len(stops) >= 2:
        lo += stops[-2]
    elif lo > 0 and stops:
        lo += stops[0]
    m = re.search(r"[.!?](\s|$)", text[end:end + limit])
    hi = end + (m.end() if m else min(limit, len(text) - end))
    return " ".join(text[lo:hi].split())


def link_figures(figures: list[Figure], chunks: list[Chunk]) -> list[tuple[int, int, str]]:
    """(chunk_index, figure_index, "on" | "ref") pairs; extends each figure's ``context`` in place."""
    links: list[tuple[int, int, str]] = []
    if not figures or not chunks:
        return links
    starts = [c.char_start for c in chunks]
    for f in figures:
        i = bisect_right(starts, f.anchor) - 1
        c = chunks[i] if i >= 0 else None
        if c is None or not (c.char_start <= f.anchor < c.char_end):
            same_page = [c for c in chunks if c.page_start <= f.page <= c.page_end]
            c = min(same_page, key=lambda c: abs(c.char_start - f.anchor)) if same_page else None
        if c is not None:
            links.append((c.chunk_index, f.index, "on"))
    by_ref: dict[str, Figure] = {}
    for f in figures:
        if f.ref:
            by_ref.setdefault(f.ref, f)
    said: dict[int, list[str]] = {}
    for c in chunks:
        if not REFERENCE.search(c.text):
            continue
        for key in reference_keys(c.text):
            f = by_ref.get(key)
            if f is None:
                continue
            links.append((c.chunk_index, f.index, "ref"))
            for m in REFERENCE.finditer(c.text):
                if f.caption and c.text[m.start():].startswith(f.caption[:20]):
                    continue  # the caption itself
                if key in reference_keys(m.group(0)):
                    said.setdefault(f.index, []).append(_sentence_around(c.text, m.start(), m.end()))
    for f in figures:
        extra = [s for s in dict.fromkeys(said.get(f.index, [])) if s and s not in f.context]
        if extra:
            f.context = (f.context + " " + " ".join(extra)).strip()[:MAX_CONTEXT]
    return links
