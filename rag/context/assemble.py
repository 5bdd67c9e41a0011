"""Context assembly: each hit's window (``windows``), merged with the windows of other hits of the
same book when they touch, within the word-piece budget, numbered [1]..[n]; and the sources block
an LLM reads."""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from ..chunking.zones import ZONES
from ..settings import WindowTuning
from ..text.sentences import runs_on
from ..types import Chunk, FigureHit, Hit, Page, Source
from .layout import source_layout, structured_text
from .windows import Plan, adaptive_plan, fixed_plan


def _pages_label(chunks: list[Chunk]) -> str:
    a, b = chunks[0], chunks[-1]
    la, lb = a.label_start or str(a.page_start), b.label_end or str(b.page_end)
    return f"p. {la}" if la == lb else f"pp. {la}–{lb}"


class ContextBuilder:
    """``neighbours(book_id, lo, hi)``: that book's chunks lo..hi; ``sims(book_id, indices)``: the
    question's cosine similarity to those chunks; ``doc_types``: book id → reference/procedural/narrative."""

    def __init__(self, mode: str, window: int, budget: int, neighbours: Callable[[str, int, int], list[Chunk]],
                 titles: dict[str, str], query_type: str = "factual", doc_types: dict[str, str] | None = None,
                 sims: Callable[[str, list[int]], dict[int, float]] | None = None, min_sim: float = 0.0,
                 model: str = "all-MiniLM-L6-v2", tuning: WindowTuning | None = None,
                 page: Callable[[str, int], Page | None] | None = None):
        self.mode, self.window, self.budget, self.neighbours, self.titles = mode, window, budget, neighbours, titles
        self.query_type, self.doc_types, self.sims, self.min_sim, self.model = (
            query_type, doc_types or {}, sims or (lambda b, ids: {}), min_sim, model)
        self.tuning = tuning
        self.page = page  # (book_id, number) → Page: with it, each source gets its lines' layout

    def plan(self, hit: Chunk, remaining: int, have: set[int]) -> Plan | None:
        reach = self.window * 2 + 1 if self.mode == "adaptive" else self.window
        if hit.parent >= 0 and self.mode == "adaptive":
            reach = max(reach, 40)  # a parent's children lie within this many chunks
        around = {
            c.chunk_index: c
            for c in self.neighbours(hit.book_id, hit.chunk_index - reach, hit.chunk_index + reach)
            if c.kind not in ZONES or c.kind == hit.kind
        }  # no index/references text around running text
        around[hit.chunk_index] = hit
        if self.mode == "fixed":
            return fixed_plan(hit, self.window, remaining, around, have)
        return adaptive_plan(hit, around, lambda ids: self.sims(hit.book_id, ids), self.query_type,
                             self.doc_types.get(hit.book_id, "narrative"), self.window, self.min_sim, remaining,
                             self.model, self.tuning)

    def build(self, hits: list[Hit]) -> list[Source]:
        groups: list[dict] = []  # {book_id, parts: {idx: text}, chunks: {idx: Chunk}, hits, hit, score, sim, plans}
        used = 0
        keep = self.tuning.reserve_hits if self.tuning is not None else 0
        for k, h in enumerate(hits):
            c = h.chunk
            have = set().union(*(g["parts"] for g in groups if g["book_id"] == c.book_id)) if groups else set()
            # the next few hits' own chunks are kept room for: a top hit's wide window does not push out a later
            # hit that retrieval also kept
            placed = {(g["book_id"], i) for g in groups for i in g["parts"]}
            later = sum(x.chunk.tokens for x in hits[k + 1:k + 1 + keep]
                        if (x.chunk.book_id, x.chunk.chunk_index) not in placed)
            room = self.budget - used
            plan = self.plan(c, max(min(room, c.tokens), room - later), have)
            if plan is None:
                continue
            used += sum(n for i, n in plan.sizes.items() if i not in have)
            lo, hi = min(plan.parts), max(plan.parts)
            target = next((g for g in groups if g["book_id"] == c.book_id and lo <= max(g["parts"]) + 1
                           and hi >= min(g["parts"]) - 1), None)
            if target is None:
                target = {"book_id": c.book_id, "parts": {}, "full": {}, "hits": [], "hit": c, "score": h.score,
                          "sim": h.similarity, "plans": []}
                groups.append(target)
            for i, text in plan.parts.items():
                old = target["parts"].get(i)
                if old is None or len(text) > len(old):
                    target["parts"][i] = text
            target["hits"].append(c)
            target["plans"].append(plan)
        sources = []
        for n, g in enumerate(groups, start=1):
            idx = sorted(g["parts"])
            cs = self.neighbours(g["book_id"], idx[0], idx[-1])
            cs = [x for x in cs if x.chunk_index in g["parts"]]
            whole, at = [], 0
            by_index = {x.chunk_index: x for x in cs}
            for i in idx:
                c = by_index.get(i)
                piece = _piece(c, g["parts"][i], i < g["hit"].chunk_index) if c is not None else None
                if piece is not None:
                    whole.append((at, piece))
                at += len(g["parts"][i]) + 1
            plans = g["plans"]
            before = self.neighbours(g["book_id"], idx[0] - 1, idx[0] - 1) if idx[0] > 0 and \
                idx[0] in by_index and g["parts"][idx[0]] == by_index[idx[0]].text else []
            sources.append(Source(
                n=n, book_id=g["book_id"], book_title=self.titles.get(g["book_id"], g["book_id"]), hit=g["hit"],
                text="\n".join(g["parts"][i] for i in idx), chunk_indices=idx,
                page_start=cs[0].page_start if cs else g["hit"].page_start,
                page_end=cs[-1].page_end if cs else g["hit"].page_end,
                pages_label=_pages_label(sorted(g["hits"], key=lambda x: x.chunk_index)),
                context_label=_pages_label(cs or [g["hit"]]), score=g["score"], similarity=g["sim"],
                plan={**plans[0].to_dict(), "summary": " | ".join(p.summary() for p in plans),
                      "merged_hits": [p.hit for p in plans]},
                layout=source_layout(whole, self.page) if self.page else [],
                cut_before=bool(before) and runs_on(before[-1].text, g["parts"][idx[0]])))
        return sources


def _piece(c: Chunk, text: str, before: bool = False) -> Chunk | None:
    """The chunk ``c`` as far as ``text`` holds it: itself, or — a neighbour cut to fit the budget keeps its end
    when it comes ``before`` the hit, else its start (``windows.cut``) — the part of it that is ``text``, so that the
    layout knows its lines too (tour 49: Think Python's ``def sequence(n):`` listing, in the cut neighbour after the
    hit, was quoted as one line of prose). None when ``text`` is not that part."""
    if text == c.text:
        return c
    if not text or not (c.text.endswith(text) if before else c.text.startswith(text)):
        return None
    off = len(c.text) - len(text) if before else 0
    return replace(c, text=text, char_start=c.char_start + off, char_end=c.char_start + off + len(text))


def build_sources(hits: list[Hit], window: int, budget: int, neighbours: Callable[[str, int, int], list[Chunk]],
                  titles: dict[str, str]) -> list[Source]:
    """Fixed windows (kept for callers and tests of the original behaviour)."""
    return ContextBuilder("fixed", window, budget, neighbours, titles).build(hits)


def source_tag(sources: list[Source], figures: list[FigureHit] = ()) -> str:
    """A tag made from the sources' own text: each source's end marker carries it, so text inside a source cannot
    write the marker that ends it (it would have to contain its own hash)."""
    import hashlib

    h = hashlib.sha256()
    for s in sources:
        h.update(f"{s.n}\0{s.book_title}\0{s.text}\0".encode("utf-8", "surrogatepass"))
    for f in figures:
        h.update(f"{f.title}\0".encode("utf-8", "surrogatepass"))
    return h.hexdigest()[:12]


def end_marker(n: int | str, tag: str) -> str:
    return f"[end of source {n} · {tag}]"


def _line(text: str) -> str:
    """Book metadata (a title, a caption) as one line: it cannot start a line of its own in the block."""
    return " ".join(str(text).split())


def format_sources(sources: list[Source], figures: list[FigureHit] = ()) -> str:
    """The sources block an LLM reads: each source its header line "[n] Book, pages:", its text, and its end line
    ``end_marker(n, source_tag(...))``; then the figures it may name as [FIGURE i], one line each. What a book says
    stays inside its source (``rag.answer.llm`` tells the model that it is data, not instructions)."""
    tag = source_tag(sources, figures)
    block = "\n\n".join(f"[{s.n}] {_line(s.book_title)}, {s.pages_label}:\n{structured_text(s.text, s.layout)}\n"
                         f"{end_marker(s.n, tag)}" for s in sources)
    if figures:
        block += "\n\nFigures:\n" + "\n".join(f"[FIGURE {i}] {_line(f.title)} (p. {f.page_label})"
                                               for i, f in enumerate(figures, start=1))
    return block
