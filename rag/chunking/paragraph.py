"""paragraph → sentence packing (the default): LlamaIndex ``SentenceSplitter`` fills chunks with whole
paragraphs, then sentences, then words, up to ``chunk_size`` word-pieces, ``chunk_overlap`` shared. A page break inside
a sentence is no paragraph break (``rag.text.sentences.join_runs``)."""
from __future__ import annotations

from ..text.sentences import join_runs
from ..text.split import split_sentences
from .base import Piece, SectionContext, locate


def split(seg: str, ctx: SectionContext) -> list[Piece]:
    from llama_index.core.node_parser import SentenceSplitter

    s = ctx.settings
    splitter = SentenceSplitter(chunk_size=s.chunk_size, chunk_overlap=s.chunk_overlap, paragraph_separator="\n\n",
                                tokenizer=ctx.tokenizer, chunking_tokenizer_fn=split_sentences, include_metadata=False,
                                include_prev_next_rel=False)
    joined = join_runs(seg)  # a sentence a page break cuts stays one piece (same offsets)
    return [Piece(a, b) for a, b in locate(joined, splitter.split_text(joined), s.chunk_overlap > 0)]
