"""How much context each hit gets, decided at query time (no re-indexing).

``fixed``: ``window`` neighbours each side, shrunk until it fits the budget (the old behaviour).
``adaptive``: a budget per hit from the question type and the book type; split before/after by the
question type (a definition reads on: 30/70); neighbours are taken nearest-first on each side while
they stay in the hit's section and stay similar to the question (≥ ``neighbour_min_similarity``);
unused budget of one side goes to the other; the last neighbour that does not fit is cut to the
sentences nearest the hit. A hit of a hierarchical book gets its whole parent when the parent fits the
budget, else a window of its siblings chosen the same way. Every decision is written down in a ``Plan``.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Callable

from ..settings import WindowTuning
from ..text.tokens import count_tokens
from ..types import Chunk



@dataclass
class Plan:
    hit: int
    mode: str  # "fixed" | "adaptive" | "parent"
    query_type: str = ""
    doc_type: str = ""
    position: str = ""  # "first" | "last" | "only" | "middle" chunk of its section
    budget: int = 0
    before: list[int] = field(default_factory=list)  # chunk indices, nearest first
    after: list[int] = field(default_factory=list)
    truncated: dict = field(default_factory=dict)  # chunk index → kept word-pieces
    dropped: list[str] = field(default_factory=list)  # why a side stopped
    tokens: int = 0
    parts: dict = field(default_factory=dict)  # chunk index → text actually used (full or cut)
    sizes: dict = field(default_factory=dict)  # chunk index → word-pieces of that text

    def to_dict(self) -> dict:
        d = asdict(self)
        d.pop("parts")
        d.pop("sizes")
        return d

    def summary(self) -> str:
        how = {"fixed": "fixed window", "adaptive": "adaptive window", "parent": "parent"}[self.mode]
        s = f"{how}: {len(self.before)} before, {len(self.after)} after, {self.tokens} word-pieces"
        if self.mode != "fixed":
            s += (
                f" (budget {self.budget}; {self.query_type} question, {self.doc_type} book, {self.position} of section)"
            )
        if self.truncated:
            s += f"; cut {', '.join(str(k) for k in self.truncated)} to fit"
        if self.dropped:
            s += "; " + "; ".join(self.dropped)
        return s


# where a neighbour may be cut: after a sentence's end mark (and a closing quote or bracket) when what follows does
# not go on in lower case, or at a blank line — never at a mere line break ("… with its delicacies and
# compensations,\nrequires that same fineness …" had begun a window with "requires")
_CUT_AT = re.compile(r"(?<=[.!?:;…])[\"'”’»)\]]*\s+(?=[^\sa-zà-öø-ÿ])|\n[ \t]*\n\s*")


def cut(text: str, budget: int, keep_end: bool, model: str) -> str:
    """Whole sentences of ``text`` nearest the hit within ``budget`` word-pieces (its end when the
    neighbour comes before the hit, its start when after); "" when not even one fits."""
    bounds = [0, *(m.end() for m in _CUT_AT.finditer(text)), len(text)]
    pieces = [(a, b) for a, b in zip(bounds, bounds[1:]) if text[a:b].strip()]
    used, at = 0, None
    for a, b in (reversed(pieces) if keep_end else pieces):
        n = count_tokens(text[a:b], model) + 1
        if used + n > budget:
            break
        used, at = used + n, (a if keep_end else b)
    if at is None:
        return ""
    return (text[at:] if keep_end else text[:at]).strip()


def position(hit: Chunk, prev: Chunk | None, nxt: Chunk | None) -> str:
    first = prev is None or prev.section != hit.section
    last = nxt is None or nxt.section != hit.section
    return "only" if first and last else "first" if first else "last" if last else "middle"


def fixed_plan(hit: Chunk, window: int, remaining: int, chunks: dict[int, Chunk], have: set[int]) -> Plan | None:
    for w in range(window, -1, -1):  # shrink the window until it fits the budget
        idx = [i for i in range(hit.chunk_index - w, hit.chunk_index + w + 1) if i in chunks]
        cost = sum(chunks[i].tokens for i in idx if i not in have)
        if cost <= remaining:
            p = Plan(
                hit.chunk_index,
                "fixed",
                budget=remaining,
                tokens=sum(chunks[i].tokens for i in idx),
                before=[i for i in reversed(idx) if i < hit.chunk_index],
                after=[i for i in idx if i > hit.chunk_index],
            )
            p.parts = {i: chunks[i].text for i in idx}
            p.sizes = {i: chunks[i].tokens for i in idx}
            return p
    return None


def unfinished(text: str) -> bool:
    """Whether a chunk stops where what it starts goes on in the next: on a colon, or inside a listing's brackets
    (it ends on an opening bracket or a line continuation, or opens more braces than it closes)."""
    t = text.rstrip()
    tail = "\n".join(t.split("\n")[-3:])  # the last lines: a brace a paragraph above mentions is no listing's
    return t.endswith((":", "{", "(", "[", "\\")) or tail.count("{") > tail.count("}")


def adaptive_plan(hit: Chunk, chunks: dict[int, Chunk], sims: Callable[[list[int]], dict[int, float]],
                  query_type: str, doc_type: str, window: int, min_sim: float, remaining: int, model: str,
                  tuning: WindowTuning | None = None) -> Plan | None:
    """``chunks``: the hit's book's chunks around it (index → Chunk); ``sims``: question similarity of chunks;
    ``tuning``: budgets by question and book type, the before/after split, the smallest piece kept."""
    t = tuning or WindowTuning()
    if hit.tokens > remaining:
        return None
    i0 = hit.chunk_index
    pos = position(hit, chunks.get(i0 - 1), chunks.get(i0 + 1))
    budget = min(remaining, int(t.budget[query_type] * t.doc_factor[doc_type]))
    siblings = None
    if hit.parent >= 0:
        siblings = sorted(i for i, c in chunks.items() if c.parent == hit.parent)
        whole = sum(chunks[i].tokens for i in siblings)
        if whole <= max(budget, min(remaining, 2 * budget)):  # a parent a little over the budget is still taken whole
            p = Plan(i0, "parent", query_type, doc_type, pos, budget, tokens=whole,
                     before=[i for i in reversed(siblings) if i < i0], after=[i for i in siblings if i > i0])
            p.parts = {i: chunks[i].text for i in siblings}
            p.sizes = {i: chunks[i].tokens for i in siblings}
            return p
    plan = Plan(i0, "adaptive" if siblings is None else "parent", query_type, doc_type, pos, budget)
    plan.parts = {i0: hit.text}
    span = window * 2 + 1  # the most neighbours looked at on each side
    allowed = set(siblings) if siblings is not None else None

    def side(step: int) -> list[int]:
        out = []
        for k in range(1, span + 1):
            c = chunks.get(i0 + step * k)
            if c is None or (allowed is not None and c.chunk_index not in allowed):
                break
            if allowed is None and c.section != hit.section:
                plan.dropped.append(f"{'before' if step < 0 else 'after'}: section boundary at chunk {c.chunk_index}")
                break
            out.append(c.chunk_index)
        return out

    before, after = side(-1), side(+1)
    # a hit that ends on a colon introduces what the next chunk holds (a list, a listing), and one that stops inside a
    # listing's brackets ("Consider this example. \relative {" at a page's foot) goes on in it: that chunk comes with
    # it, however little it shares with the question, and before the chunks in front
    leads_on = bool(after) and unfinished(hit.text)
    # likewise a chunk just before the hit that ends so introduces it ("… you can make a copy:" + the listing)
    led_in = bool(before) and unfinished(chunks[before[0]].text)
    scores = sims(before + after) if before or after else {}
    for name, lst in (("before", before), ("after", after)):
        for k, i in enumerate(lst):
            if k == 0 and (leads_on and name == "after" or led_in and name == "before"):
                continue
            if scores.get(i, 1.0) < min_sim:
                plan.dropped.append(f"{name}: chunk {i} similarity {scores[i]:.2f} < {min_sim:.2f}")
                del lst[k:]
                break
    rest = budget - hit.tokens
    share = t.before_share[query_type] if before and after else (1.0 if before else 0.0)
    qb = int(rest * share)

    def fill(lst: list[int], quota: int, keep_end: bool) -> tuple[dict[int, str], dict[int, int], int]:
        parts, cut_to, used = {}, {}, 0
        for i in lst:
            c = chunks[i]
            if used + c.tokens <= quota:
                parts[i], used = c.text, used + c.tokens
                continue
            piece = cut(c.text, quota - used, keep_end, model)
            n = count_tokens(piece, model) if piece else 0
            if n >= t.min_piece:
                parts[i], cut_to[i], used = piece, n, used + n
            break
        return parts, cut_to, used

    if leads_on:
        pa, ta, ua = fill(after, rest, False)
        pb, tb, ub = fill(before, rest - ua, True)
    elif led_in:
        pb, tb, ub = fill(before, rest, True)
        pa, ta, ua = fill(after, rest - ub, False)
    else:
        pb, tb, ub = fill(before, qb, True)
        pa, ta, ua = fill(after, rest - ub, False)  # what the before side left goes after
        if rest - ub - ua > 0 and before:  # and what the after side left goes before
            pb, tb, ub = fill(before, rest - ua, True)
    plan.parts.update(pb)
    plan.parts.update(pa)
    plan.truncated = {**tb, **ta}
    plan.sizes = {i: plan.truncated.get(i, chunks[i].tokens) for i in plan.parts}
    plan.before, plan.after = list(pb), list(pa)
    plan.tokens = hit.tokens + ub + ua
    return plan
