"""Looking at a book's chunking without re-indexing it: the book rebuilt from the catalog, any
strategy previewed on the sections of some pages, lint, a page's chunk map, and JSONL export."""
from __future__ import annotations

import json
import time
from dataclasses import asdict, replace
from typing import Callable

from ..chunking import chunk_book
from ..chunking.base import book_regions
from ..chunking.lint import Finding, lint
from ..settings import Settings
from ..types import Book, Chunk, Page, ParsedBook, Section


def rebuild(book: Book, pages: list[Page], chunks: list[Chunk]) -> ParsedBook:
    """The parsed book as ingest saw it (text, line boxes, sections). Books indexed before sections were
    stored get their sections back from their chunks."""
    sections = [Section(p, a, b) for p, a, b in book.sections]
    if not sections:
        total = pages[-1].offset + len(pages[-1].text) if pages else 0
        starts: list[tuple[int, str]] = []
        for c in chunks:
            if not starts or starts[-1][1] != c.section:
                starts.append((0 if not starts else c.char_start, c.section))
        sections = [Section(path, a, starts[i + 1][0] if i + 1 < len(starts) else total)
                    for i, (a, path) in enumerate(starts)]
    return ParsedBook(title=book.title, pages=pages, sections=sections, page_count=len(pages))


def preview(parsed: ParsedBook, book_id: str, settings: Settings, embed: Callable | None,
            pages: tuple[int, int] | None = None) -> list[Chunk]:
    """Chunks ``settings`` would make. With ``pages`` (first, last), only the sections touching those pages
    are chunked (chunking works section by section, so these chunks are exactly the whole book's)."""
    if pages:
        a = parsed.pages[pages[0] - 1].offset
        last = parsed.pages[pages[1] - 1]
        b = last.offset + len(last.text)
        parsed = replace(parsed, sections=[s for s in parsed.sections if s.start < b and s.end > a])
    return chunk_book(parsed, book_id, settings, embed)


def findings(parsed: ParsedBook, chunks: list[Chunk], settings: Settings) -> list[Finding]:
    return lint(
        chunks,
        parsed.chunk_text,
        book_regions(parsed),
        max_tokens=254 if settings.chunk_size <= 254 else settings.chunk_size,
    )


def on_page(chunks: list[Chunk], page: Page) -> list[Chunk]:
    end = page.offset + len(page.text)
    return [c for c in chunks if c.char_start < end and c.char_end > page.offset]


def parent_spans(chunks: list[Chunk]) -> dict[int, tuple[int, int]]:
    """Parent index → book-text span (the union of its children)."""
    out: dict[int, tuple[int, int]] = {}
    for c in chunks:
        if c.parent >= 0:
            a, b = out.get(c.parent, (c.char_start, c.char_end))
            out[c.parent] = (min(a, c.char_start), max(b, c.char_end))
    return out


def export_jsonl(book: Book, chunks: list[Chunk]) -> str:
    """One JSON object per chunk (text + metadata), each with the settings snapshot that produced it."""
    snap = {"book_id": book.id, "title": book.title, "embed_model": book.embed_model, "chunking": book.chunking,
            "exported_at": time.strftime("%Y-%m-%dT%H:%M:%S")}
    lines = []
    for c in chunks:
        d = asdict(c)
        lines.append(json.dumps({**d, "id": c.id, "settings": snap}, ensure_ascii=False))
    return "\n".join(lines) + ("\n" if lines else "")
