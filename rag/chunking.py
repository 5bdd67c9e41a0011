"""Chunking strategies: ParsedBook → list[Chunk] with exact spans.

A strategy is a callable registered in ``STRATEGIES``; new ones (the inspector's six) add an
entry. The default ``sentence`` strategy runs LlamaIndex's ``SentenceSplitter`` (paragraph →
sentence packing, sized in the embedding model's word-pieces) on each section separately,
so a chunk never straddles two sections, and maps every node back to its span in the book
text. Neighbours are implicit in ``chunk_index`` (same book, index ± 1); parents are the
section; both are widened at query time.
"""
from __future__ import annotations

from functools import partial
from typing import Callable

from .settings import Settings
from .tokens import count_tokens, tokenize
from .types import Chunk, ParsedBook

Strategy = Callable[[ParsedBook, str, Settings], list[Chunk]]


def _make_chunk(book: ParsedBook, book_id: str, index: int, start: int, end: int, section: str, model: str) -> Chunk:
    text = book.text[start:end]
    p0, p1 = book.page_at(start), book.page_at(max(start, end - 1))
    return Chunk(book_id=book_id, chunk_index=index, text=text, page_start=p0.number, page_end=p1.number,
                 char_start=start, char_end=end, section=section, tokens=count_tokens(text, model),
                 label_start=p0.label, label_end=p1.label)


def sentence_chunks(book: ParsedBook, book_id: str, settings: Settings) -> list[Chunk]:
    from llama_index.core import Document
    from llama_index.core.node_parser import SentenceSplitter

    splitter = SentenceSplitter(
        chunk_size=settings.chunk_size,
        chunk_overlap=settings.chunk_overlap,
        paragraph_separator="\n\n",
        tokenizer=partial(tokenize, model=settings.embed_model),
        include_metadata=False,
        include_prev_next_rel=False,
    )
    full = book.text
    chunks: list[Chunk] = []
    for section in book.sections:
        seg = full[section.start:section.end]
        if not seg.strip():
            continue
        nodes = splitter.get_nodes_from_documents([Document(text=seg)])
        cursor = 0
        for node in nodes:
            text = node.get_content()
            start = node.start_char_idx
            if start is None or start < cursor or seg[start:start + len(text)] != text:
                start = seg.find(text, cursor)  # repeated text: search forward from the previous chunk
                if start < 0:
                    continue
            # without overlap the next chunk starts after this one; with overlap, after this start
            cursor = start + len(text) if settings.chunk_overlap == 0 else start + 1
            chunks.append(_make_chunk(book, book_id, len(chunks), section.start + start,
                                      section.start + start + len(text), section.path, settings.embed_model))
    return chunks


STRATEGIES: dict[str, Strategy] = {"sentence": sentence_chunks}


def chunk_book(book: ParsedBook, book_id: str, settings: Settings) -> list[Chunk]:
    return STRATEGIES[settings.chunker](book, book_id, settings)
