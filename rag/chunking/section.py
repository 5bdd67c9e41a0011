"""Heading/section-aware: the book's sections (outline or heading fonts) first; inside a section,
code listings and tables are never cut (one longer than ``chunk_size`` is cut at line ends): a block of
``BLOCK_LINES`` lines and ``BLOCK_TOKENS`` word-pieces or more is a chunk of its own, marked kind
"code"/"table"; a shorter one (an inline snippet) is packed whole with the sentences around it."""
from __future__ import annotations

from .base import Piece, SectionContext, pack, sentence_spans, trim


def _line_units(seg: str, start: int, end: int) -> list[tuple[int, int]]:
    out, pos = [], start
    for line in seg[start:end].split("\n"):
        if line.strip():
            out.append(trim(seg, pos, pos + len(line)))
        pos += len(line) + 1
    return out


BLOCK_LINES, BLOCK_TOKENS = 3, 32


def units(seg: str, ctx: SectionContext) -> tuple[list[tuple[int, int]], set[int]]:
    """Sentences of the prose and whole code/table regions, in order, and the unit indices where a
    new chunk must start (around blocks of their own)."""
    out: list[tuple[int, int]] = []
    breaks: set[int] = set()
    pos = 0
    for r in sorted(ctx.regions, key=lambda r: r.start):
        if r.start < pos:
            continue
        out += [(pos + a, pos + b) for a, b in sentence_spans(seg[pos:r.start])]
        a, b = trim(seg, r.start, r.end)
        if b > a:
            block = seg[a:b].count("\n") + 1 >= BLOCK_LINES and ctx.tokens(seg[a:b]) >= BLOCK_TOKENS
            if block:
                breaks.add(len(out))
            out += [(a, b)] if ctx.tokens(seg[a:b]) <= ctx.settings.chunk_size else _line_units(seg, a, b)
            if block:
                breaks.add(len(out))
        pos = r.end
    out += [(pos + a, pos + b) for a, b in sentence_spans(seg[pos:])]
    return out, breaks


def split(seg: str, ctx: SectionContext) -> list[Piece]:
    us, breaks = units(seg, ctx)
    return [Piece(a, b) for a, b in pack(seg, us, ctx.settings.chunk_size, ctx, breaks=breaks)]


split.keeps_regions = True  # code and tables handled above, not by base.split_around_tables
