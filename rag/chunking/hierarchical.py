"""Parent-child: parents of up to ``parent_size`` word-pieces (paragraph → sentence packing inside a
section, like LlamaIndex's ``HierarchicalNodeParser``), each cut into children of up to ``chunk_size``
that fit the embedder. Only children are embedded and retrieved; every child records its parent, and
the parents are the children's union, so at query time the context is the whole parent or a window of
siblings — decided then, not at ingest (``rag.context``)."""
from __future__ import annotations

from ..text.split import split_sentences
from .base import Piece, SectionContext, locate


def split(seg: str, ctx: SectionContext) -> list[Piece]:
    from llama_index.core.node_parser import SentenceSplitter  # imported on first use: the app starts faster

    s = ctx.settings
    parents = SentenceSplitter(chunk_size=s.parent_size, chunk_overlap=0, paragraph_separator="\n\n",
                               tokenizer=ctx.tokenizer, chunking_tokenizer_fn=split_sentences)
    children = SentenceSplitter(chunk_size=s.chunk_size, chunk_overlap=0, paragraph_separator="\n\n",
                                tokenizer=ctx.tokenizer, chunking_tokenizer_fn=split_sentences)
    pieces: list[Piece] = []
    for g, (pa, pb) in enumerate(locate(seg, parents.split_text(seg), False)):
        ptext = seg[pa:pb]
        pieces += [Piece(pa + a, pa + b, parent=g) for a, b in locate(ptext, children.split_text(ptext), False)]
    return pieces
