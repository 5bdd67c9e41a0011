"""Ingest one PDF: check → parse → chunk → embed → index, all-or-nothing.

The book row is ``indexing`` until vectors and chunks are written; ``commit_book`` then
makes it visible in one SQLite transaction. Any failure removes what was written; a crash
leaves an ``indexing`` row that ``recover`` cleans on the next start. Vector ids are
``book_id:chunk_index`` and old vectors of the book are deleted first, so a re-ingest never
duplicates chunks.
"""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .catalog import Catalog
from .chunking import chunk_book
from .errors import BadDocumentError
from .parse import check_pdf_bytes, parse_pdf
from .settings import Settings
from .store import VectorStore

Progress = Callable[[str, float, str], None]  # (stage, fraction 0..1 of that stage, message)
STAGES = ("parsing", "chunking", "embedding", "indexing")


def book_id_for(data: bytes) -> str:
    """Content hash: the same file is the same book, whatever its name."""
    return hashlib.sha256(data).hexdigest()[:16]


@dataclass
class IngestResult:
    book_id: str
    title: str
    pages: int
    chunks: int
    seconds: float
    skipped: bool = False  # already in the library with the same settings
    stage_seconds: dict | None = None


def _noop(stage: str, frac: float, msg: str) -> None:
    pass


def ingest_pdf(data: bytes, filename: str, settings: Settings, catalog: Catalog, store: VectorStore, embed,
               progress: Progress = _noop, force: bool = False) -> IngestResult:
    t0 = time.perf_counter()
    timings: dict[str, float] = {}
    check_pdf_bytes(data, filename, settings.max_upload_mb)
    book_id = book_id_for(data)
    existing = catalog.book(book_id)
    if (existing and existing.status == "ready" and not force and existing.embed_model == settings.embed_model
            and existing.chunking == settings.chunking_config()):
        progress("indexing", 1.0, f"{filename} is already in the library as '{existing.title}'.")
        return IngestResult(book_id, existing.title, existing.pages, existing.chunks, 0.0, skipped=True)

    progress("parsing", 0.0, f"Reading {filename}")
    t = time.perf_counter()
    book = parse_pdf(data, filename, settings.max_upload_mb)
    timings["parsing"] = time.perf_counter() - t
    progress("parsing", 1.0, f"{book.page_count} pages, {len(book.sections)} sections")

    settings.uploads_dir.mkdir(parents=True, exist_ok=True)
    original = settings.uploads_dir / f"{book_id}.pdf"
    if not original.exists():
        original.write_bytes(data)

    catalog.begin_book(book_id, book.title, filename, settings.embed_model, settings.chunking_config())
    try:
        store.delete_book(book_id)
        progress("chunking", 0.0, "Splitting into chunks")
        t = time.perf_counter()
        chunks = chunk_book(book, book_id, settings)
        timings["chunking"] = time.perf_counter() - t
        if not chunks:
            raise BadDocumentError(filename, "no text chunks could be made from this PDF.")
        progress("chunking", 1.0, f"{len(chunks)} chunks")

        t = time.perf_counter()
        vectors: list[list[float]] = []
        step = max(settings.embed_batch_size, 64)
        for i in range(0, len(chunks), step):
            vectors += embed.get_text_embedding_batch([c.text for c in chunks[i:i + step]])
            progress("embedding", len(vectors) / len(chunks), f"Embedded {len(vectors)}/{len(chunks)} chunks")
        timings["embedding"] = time.perf_counter() - t

        t = time.perf_counter()
        progress("indexing", 0.0, "Writing vectors and catalog")
        store.add(chunks, vectors)
        seconds = time.perf_counter() - t0
        catalog.commit_book(book_id, book.title, book.pages, chunks, seconds)
        timings["indexing"] = time.perf_counter() - t
        progress("indexing", 1.0, f"Ready: {len(chunks)} chunks in {seconds:.1f} s")
    except BaseException:
        try:
            store.delete_book(book_id)
        finally:
            catalog.delete_book(book_id)
        raise
    return IngestResult(book_id, book.title, book.page_count, len(chunks), seconds, stage_seconds=timings)


def recover(catalog: Catalog, store: VectorStore) -> list[str]:
    """Remove books a crash left half-indexed; returns their ids (they can be ingested again)."""
    removed = []
    for b in catalog.stale_books():
        store.delete_book(b.id)
        catalog.delete_book(b.id)
        removed.append(b.id)
    return removed


def original_path(settings: Settings, book_id: str) -> Path:
    return settings.uploads_dir / f"{book_id}.pdf"
