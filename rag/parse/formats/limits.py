"""Bounds on what an uploaded book may make us read, decode and lay out (untrusted input).

Each limit protects memory or time against a crafted file: ZIP bombs (sizes and ratios are checked
before anything is decompressed, and reading stops at the cap whatever the headers claim), pixel bombs
(image dimensions are read from the header before any decoding) and endless chapters (text is cut into
pieces that are laid out one at a time, and a book has a ceiling on its text).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    zip_entries: int = 10_000  # files in an archive
    zip_total: int = 600 * 2**20  # bytes, all entries uncompressed together
    zip_entry: int = 120 * 2**20  # bytes, one entry uncompressed
    zip_ratio: float = 120.0  # uncompressed / compressed size of one entry (text compresses 3–10×)
    zip_ratio_floor: int = 2 * 2**20  # entries smaller than this may compress better (a page of spaces)
    image_pixels: int = 40_000_000  # width × height of one image
    image_bytes: int = 30 * 2**20  # one image file
    book_chars: int = 25_000_000  # text of the whole book (~12,000 pages); more is refused
    piece_chars: int = 200_000  # HTML laid out at once: a longer chapter is split into pieces of about this
    documents: int = 5_000  # content documents (EPUB spine items)


LIMITS = Limits()
