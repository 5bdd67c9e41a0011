"""A passage found in one language edition of a book, cited from the edition in the question's language.

Manuals and textbooks are translated chapter by chapter and keep their section numbers ("8.4.2 Using a proxy with
APT" is "8.4.2 Utilisation d'un proxy avec APT" in the French edition). When a library holds several editions, the
retriever finds the answering passage in whichever edition matches the question's words best — for a German
question about a command, often the French edition — but the reader asked in German and wants to open the German
edition's page. So a hit from an edition in another language is swapped for the same-numbered section of the
edition in the question's language, when there is one.

Two books count as editions of one work only on evidence that holds for translations in general and rarely for
unrelated books: they declare different languages (an EPUB's ``dc:language``), have at least
``edition_min_sections`` numbered headings each, share ``edition_min_overlap`` of them, and their page counts
are within ``edition_page_ratio`` of each other. Within the section, the chunk kept is the one that shares most
of the hit's untranslatable tokens (commands, options, paths, numbers); without any, the chunk at the same place
in the section.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Callable

from ..types import Book, Chunk, Hit, heading_number

# an option (--apt-http-proxy, -v), a token with a digit (32, 8.4.2, 1×10⁵), or words joined by . / _ : ~ - inside a
# token (config/includes.chroot, LB_ISO_VOLUME, apt-get): what a translator leaves as it is
_VERBATIM = re.compile(r"(?<![\w-])(?:--?[A-Za-z][\w./:~-]*|[\w./:~-]*\d[\w./:~-]*|[/~]?\w+(?:[./_:~-]+\w+)+/?)")
MAX_DROP = 0.25  # the counterpart's similarity to the question may be at most this much lower than the hit's
SECTION_LENGTHS = 0.8  # correlation of the shared sections' (log) lengths that two editions of one book have
_SECTIONS: dict[tuple, dict[str, int]] = {}  # (book id, sections, pages) → heading number → section length


def numbered(book: Book) -> dict[str, int]:
    """Heading number → the length of its section's text (the first section of that number), cached per book."""
    key = (book.id, len(book.sections), book.pages, book.chunks)
    if key not in _SECTIONS:
        if len(_SECTIONS) > 4096:
            _SECTIONS.clear()
        out: dict[str, int] = {}
        for path, start, end in book.sections:
            n = heading_number(path)
            if n and n not in out:
                out[n] = max(1, end - start)
        _SECTIONS[key] = out
    return _SECTIONS[key]


def verbatim(text: str) -> set[str]:
    """Tokens a translation leaves as they are: commands, options, paths, identifiers, numbers."""
    return {t.rstrip(".:") for t in _VERBATIM.findall(text) if len(t.rstrip(".:")) >= 2}


def are_editions(a: Book, b: Book, min_sections: int, min_overlap: float, page_ratio: float) -> bool:
    """Translations of one book: different declared languages, pages within ``page_ratio``, at least
    ``min_sections`` numbered headings each sharing ``min_overlap`` of them, and the shared sections' lengths
    rising and falling together (a translation's long sections are long; two textbooks that merely number their
    sections alike do not agree on that)."""
    la, lb = (str((x.report or {}).get("language", "")).split("-")[0].lower() for x in (a, b))
    if not la or not lb or la == lb:
        return False
    if min(a.pages, b.pages) < page_ratio * max(a.pages, b.pages):
        return False
    na, nb = numbered(a), numbered(b)
    if min(len(na), len(nb)) < min_sections:
        return False
    shared = sorted(set(na) & set(nb))
    if len(shared) < min_overlap * len(set(na) | set(nb)):
        return False
    import numpy as np

    x, y = (np.log([n[k] for k in shared]) for n in (na, nb))
    if x.std() == 0 or y.std() == 0:
        return False
    return float(np.corrcoef(x, y)[0, 1]) >= SECTION_LENGTHS


def counterpart(hit: Chunk, section: list[Chunk], twins: list[Chunk]) -> Chunk | None:
    """The chunk of ``twins`` (one section of the other edition, in order) that renders ``hit`` (a chunk of
    ``section``, the same-numbered section of its own edition)."""
    if not twins:
        return None
    words = verbatim(hit.text)
    if words:
        shared = [len(words & verbatim(c.text)) for c in twins]
        if max(shared) > 0:
            return twins[shared.index(max(shared))]
    place = next((i for i, c in enumerate(section) if c.chunk_index == hit.chunk_index), 0)
    return twins[min(len(twins) - 1, round(place * len(twins) / max(1, len(section))))]


def in_question_language(hits: list[Hit], books: list[Book], language: str,
                         section_chunks: Callable[[str, str], list[Chunk]],
                         similarities: Callable[[list[str]], dict[str, float]], min_sections: int,
                         min_overlap: float, page_ratio: float) -> list[Hit]:
    """Each hit from an edition in another language swapped for its counterpart in the edition in ``language``
    (``section_chunks(book_id, number)``: that book's chunks under the heading numbered so, in order;
    ``similarities(chunk_ids)``: their cosine to the question, shown beside the swapped passage); a passage met
    twice keeps its best place and score."""
    by_id = {b.id: b for b in books}
    targets = [b for b in books if str((b.report or {}).get("language", "")).split("-")[0].lower() == language]
    if not targets:
        return hits
    editions: dict[str, Book | None] = {}
    out: list[Hit] = []
    swapped: set[str] = set()
    for h in hits:
        book = by_id.get(h.chunk.book_id)
        if book is not None and book not in targets:
            if book.id not in editions:
                editions[book.id] = next((t for t in targets
                                          if are_editions(book, t, min_sections, min_overlap, page_ratio)), None)
            target = editions[book.id]
            number = h.chunk.heading_number
            if target is not None and number:
                twin = counterpart(h.chunk, section_chunks(book.id, number), section_chunks(target.id, number))
                if twin is not None:
                    h = replace(h, chunk=twin)
                    swapped.add(twin.id)
        out.append(h)
    if not swapped:
        return hits
    sims = similarities(sorted(swapped))
    # the same passage in another language matches the question less well, but not much less: a far weaker
    # "counterpart" is another passage, so that hit is left out (the reader asked in the edition's language, and the
    # other edition's passage is a duplicate of one it has)
    out = [h if h.chunk.id not in swapped or h.chunk.id == o.chunk.id else None
           if sims.get(h.chunk.id, -1.0) < o.similarity - MAX_DROP else replace(h, similarity=sims[h.chunk.id])
           for h, o in zip(out, hits)]
    out = [h for h in out if h is not None]
    seen: dict[str, int] = {}
    kept: list[Hit] = []
    for h in out:
        if h.chunk.id in seen:
            i = seen[h.chunk.id]
            kept[i] = replace(kept[i], score=max(kept[i].score, h.score))
            continue
        seen[h.chunk.id] = len(kept)
        kept.append(h)
    return kept
