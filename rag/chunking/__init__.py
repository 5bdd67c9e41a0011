"""Chunking strategies: ParsedBook → list[Chunk] with exact spans, pages, section, kind and parent.

One module per strategy, each a splitter of one section's text (``base.Splitter``); the registry
below names them for settings, the inspector and the CLI. ``lint`` finds chunk-quality problems.
"""
from __future__ import annotations

from typing import Callable

from ..settings import Settings
from ..types import Chunk, ParsedBook
from . import hierarchical, paragraph, section, semantic, sentence, token_windows
from .base import chunk_sections

STRATEGIES = {
    "paragraph": (paragraph.split, "paragraph → sentence packing (LlamaIndex SentenceSplitter), the default"),
    "sentence": (sentence.split, "whole sentences, overlap in sentences"),
    "token": (token_windows.split, "fixed word-piece windows with overlap (LlamaIndex TokenTextSplitter)"),
    "semantic": (semantic.split, "breaks where neighbouring sentences' embeddings drift apart"),
    "section": (section.split, "sections first; code listings and tables whole"),
    "hierarchical": (hierarchical.split, "parents of ~parent_size word-pieces made of small children"),
}


def describe(name: str) -> str:
    return STRATEGIES[name][1]


def chunk_book(book: ParsedBook, book_id: str, settings: Settings, embed: Callable | None = None) -> list[Chunk]:
    """``embed`` (texts → vectors) is needed by the semantic strategy only. Chunks in a table of contents,
    index, reference list or copyright page get that zone as their ``kind`` (see ``zones``)."""
    from .zones import tag

    return tag(book, chunk_sections(book, book_id, settings, STRATEGIES[settings.chunker][0], embed))
