"""The stored originals of a book: ``uploads/<id>.pdf`` is what pages render from (the laid-out PDF for a
converted book) and, for a converted book, ``uploads/<id>.<ext>`` is the file as uploaded, which re-indexing
converts again (the book id is the hash of that file, so it stays the same)."""
from __future__ import annotations

from pathlib import Path

from .converted import Converted

EXTENSIONS = ("epub", "docx", "html", "md", "txt")


def store_original(uploads: Path, book_id: str, data: bytes, doc: Converted) -> None:
    uploads.mkdir(parents=True, exist_ok=True)
    pdf = uploads / f"{book_id}.pdf"
    if doc.converted:
        (uploads / f"{book_id}.{doc.extension}").write_bytes(data)
        pdf.write_bytes(doc.pdf)  # always: the pages shown must be the pages just parsed
    elif not pdf.exists():
        pdf.write_bytes(data)


def original_file(uploads: Path, book_id: str) -> Path:
    """The file as the user gave it (what re-indexing reads)."""
    for ext in EXTENSIONS:
        p = uploads / f"{book_id}.{ext}"
        if p.exists():
            return p
    return uploads / f"{book_id}.pdf"


def remove_originals(uploads: Path, book_id: str) -> None:
    for ext in ("pdf", *EXTENSIONS):
        (uploads / f"{book_id}.{ext}").unlink(missing_ok=True)
