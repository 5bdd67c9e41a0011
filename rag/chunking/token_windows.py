"""Fixed-size windows: LlamaIndex ``TokenTextSplitter`` counting the embedder's word-pieces,
``chunk_size`` long with ``chunk_overlap`` shared, cut at spaces (the report's "TokenText")."""
from __future__ import annotations

from .base import Piece, SectionContext, locate


def split(seg: str, ctx: SectionContext) -> list[Piece]:
    from llama_index.core.node_parser import TokenTextSplitter

    s = ctx.settings
    splitter = TokenTextSplitter(chunk_size=s.chunk_size, chunk_overlap=s.chunk_overlap, separator=" ",
                                 backup_separators=["\n"], tokenizer=ctx.tokenizer)
    return [Piece(a, b) for a, b in locate(seg, splitter.split_text(seg), s.chunk_overlap > 0)]
