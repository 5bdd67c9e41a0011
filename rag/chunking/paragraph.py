"""paragraph → sentence packing (the default): LlamaIndex ``SentenceSplitter`` fills chunks with whole
paragraphs, then sentences, then words, up to ``chunk_size`` word-pieces, ``chunk_overlap`` shared."""
from __future__ import annotations

from ..text.split import split_sentences
from .base import Piece, SectionContext, locate


def split(seg: str, ctx: SectionContext) -> list[Piece]:
    from llama_index.core.node_parser import SentenceSplitter

    s = ctx.settings
    splitter = SentenceSplitter(chunk_size=s.chunk_size, chunk_overlap=s.chunk_overlap, paragraph_separator="\n\n",
                                tokenizer=ctx.tokenizer, chunking_tokenizer_fn=split_sentences, include_metadata=False,
                                include_prev_next_rel=False)
    return [Piece(a, b) for a, b in locate(seg, splitter.split_text(seg), s.chunk_overlap > 0)]
