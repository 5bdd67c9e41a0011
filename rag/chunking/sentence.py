"""Sentence windows: whole sentences (Punkt) packed up to ``chunk_size`` word-pieces; the last
``sentence_overlap`` sentences of a chunk start the next one."""
from __future__ import annotations

from .base import Piece, SectionContext, pack, sentence_spans


def split(seg: str, ctx: SectionContext) -> list[Piece]:
    units = sentence_spans(seg)
    return [Piece(a, b) for a, b in pack(seg, units, ctx.settings.chunk_size, ctx, ctx.settings.sentence_overlap)]
