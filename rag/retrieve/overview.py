"""A question about what a whole book is about gets the book's own account of it: the first section whose heading
says so (abstract, preface, introduction, "About this manual"), with its subsections — its first chunks that are
more than the heading."""
from __future__ import annotations

from typing import Callable

from ..chunking.zones import ZONES
from ..query.overview import MARKS, OPENING_CHUNKS, introduces
from ..types import Chunk

OVERVIEW_CHUNKS = 2  # chunks of that section a book's overview brings
HEADING_ONLY_WORDS = 8  # a chunk this short is the section's heading alone


def overview_chunks(book_id: str, find: Callable[[str, tuple[str, ...]], list[Chunk]],
                    opening: Callable[[str, int, int], list[Chunk]]) -> list[Chunk]:
    """The first ``OVERVIEW_CHUNKS`` chunks, in order, of the book's first section that introduces it — its own
    text, else its first subsection's — leaving out chunks that are only a heading; a book without such a heading:
    its opening chunks (``opening(book_id, lo, hi)``: the catalog's ``chunk_range``), past its title page, contents
    and front matter."""
    long = [c for c in find(book_id, MARKS) if c.kind not in ZONES and len(c.text.split()) > HEADING_ONLY_WORDS]
    first = next((c for c in long if introduces(c.section) or introduces(c.section.split(" > ")[0])), None)
    if first is None:
        return [c for c in opening(book_id, 0, OPENING_CHUNKS) if c.kind == "text"
                and len(c.text.split()) > HEADING_ONLY_WORDS][:OVERVIEW_CHUNKS]
    same = [c for c in long if c.section == first.section and c.chunk_index >= first.chunk_index]
    return same[:OVERVIEW_CHUNKS]
