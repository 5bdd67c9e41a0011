"""Freed memory handed back to the system during a long ingest.

Reading a big book allocates and frees a lot (each page's text dictionary, MuPDF's display lists and fonts):
glibc keeps freed heap for reuse and MuPDF keeps a cache of decoded objects, so the process's resident memory
stays at the parse's high-water mark through embedding and indexing (the 1,158-page Octave manual: 650 MB after
parsing, 215 MB of it live). ``give_back`` empties MuPDF's cache and asks glibc to return free heap pages
(``malloc_trim``); elsewhere (macOS, musl, Windows) it only empties the cache.
"""
from __future__ import annotations

import ctypes
import sys

_trim = None  # libc's malloc_trim, False where there is none


def give_back() -> None:
    global _trim
    try:
        import pymupdf

        pymupdf.TOOLS.store_shrink(100)
    except Exception:  # noqa: BLE001 - only a cache
        pass
    if _trim is None:
        _trim = False
        if sys.platform.startswith("linux"):
            try:
                _trim = ctypes.CDLL("libc.so.6").malloc_trim
            except (OSError, AttributeError):
                _trim = False
    if _trim:
        _trim(0)
