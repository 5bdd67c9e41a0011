"""What kind of book is it? reference (Q&A, glossary, short entries) · procedural (manual, code,
numbered steps) · narrative (chapters of prose, regulations) — guessed from its chunks; a per-book
setting overrides the guess."""
from __future__ import annotations

import re
import statistics

from ..types import Chunk

DOC_TYPES = ("reference", "procedural", "narrative")
_STEP = re.compile(r"^\s*(\d{1,2}[.)]|step \d+|schritt \d+|bước \d+)\s", re.I | re.M)


def guess(chunks: list[Chunk]) -> str:
    if not chunks:
        return "narrative"
    n = len(chunks)
    code = sum(c.kind in ("code", "table") for c in chunks) / n
    steps = sum(len(_STEP.findall(c.text)) >= 2 for c in chunks) / n
    questions = sum(c.text.count("?") >= 2 for c in chunks) / n
    sizes: dict[str, int] = {}
    for c in chunks:
        sizes[c.section] = sizes.get(c.section, 0) + c.tokens
    short_sections = len(sizes) > 5 and statistics.median(sizes.values()) < 250
    if code > 0.04 or steps > 0.15:
        return "procedural"
    if questions > 0.25 or short_sections:
        return "reference"
    return "narrative"
