"""Context assembly: widen each hit with its neighbours (query time), merge overlapping
windows, keep within a word-piece budget, number the sources [1]..[n]."""
from __future__ import annotations

from typing import Callable

from .types import Chunk, FigureHit, Hit, Source


def _pages_label(chunks: list[Chunk]) -> str:
    a, b = chunks[0], chunks[-1]
    la, lb = a.label_start or str(a.page_start), b.label_end or str(b.page_end)
    return f"p. {la}" if la == lb else f"pp. {la}–{lb}"


def build_sources(hits: list[Hit], window: int, budget: int, neighbours: Callable[[str, int, int], list[Chunk]],
                  titles: dict[str, str]) -> list[Source]:
    """``neighbours(book_id, lo, hi)`` returns that book's chunks lo..hi in order."""
    groups: list[dict] = []  # {book_id, lo, hi, hit, score, sim}
    used = 0

    def cost(book_id: str, lo: int, hi: int, skip: set[int]) -> tuple[int, list[Chunk]]:
        cs = neighbours(book_id, lo, hi)
        return sum(c.tokens for c in cs if c.chunk_index not in skip), cs

    for h in hits:
        c = h.chunk
        lo, hi = c.chunk_index - window, c.chunk_index + window
        # merge into an existing source of the same book when the windows touch
        target = next((g for g in groups if g["book_id"] == c.book_id and lo <= g["hi"] + 1 and hi >= g["lo"] - 1), None)
        have = set(range(target["lo"], target["hi"] + 1)) if target else set()
        for w in range(window, -1, -1):  # shrink the window until it fits the budget
            lo, hi = max(0, c.chunk_index - w), c.chunk_index + w
            extra, _ = cost(c.book_id, lo, hi, have)
            if used + extra <= budget:
                break
        else:
            continue
        used += extra
        if target:
            target["lo"], target["hi"] = min(target["lo"], lo), max(target["hi"], hi)
            target["hits"].append(c)
        else:
            groups.append({"book_id": c.book_id, "lo": lo, "hi": hi, "hit": c, "hits": [c], "score": h.score,
                           "sim": h.similarity})
    sources = []
    for n, g in enumerate(groups, start=1):
        cs = neighbours(g["book_id"], g["lo"], g["hi"])
        sources.append(Source(n=n, book_id=g["book_id"], book_title=titles.get(g["book_id"], g["book_id"]), hit=g["hit"],
                              text="\n".join(c.text for c in cs), chunk_indices=[c.chunk_index for c in cs],
                              page_start=cs[0].page_start, page_end=cs[-1].page_end,
                              pages_label=_pages_label(sorted(g["hits"], key=lambda x: x.chunk_index)),
                              context_label=_pages_label(cs),
                              score=g["score"], similarity=g["sim"]))
    return sources


def format_sources(sources: list[Source], figures: list[FigureHit] = ()) -> str:
    """The sources block an LLM reads, then the figures it may name as [FIGURE i]."""
    block = "\n\n".join(f"[{s.n}] {s.book_title}, {s.pages_label}:\n{s.text}" for s in sources)
    if figures:
        block += "\n\nFigures:\n" + "\n".join(f"[FIGURE {i}] {f.title} (p. {f.page_label})"
                                               for i, f in enumerate(figures, start=1))
    return block
