"""An answer never stops on an unfinished enumeration. "Efficient pausing accomplishes one or all of four results:"
followed by "1. Pause Enables the Mind …" introduces items the book sets as numbered headings, each with pages of its
own prose (tour 39): the passage around the best sentence holds the first item only. The items that follow, "2. …",
"3. …", in the book's order and within a few pages, are often in the other sources (their prose matched the
question too): each is quoted after the first passage, with its own citation, up to the count the introduction names.
"""
from __future__ import annotations

import re
from dataclasses import replace

from .cues import asking
from .passages import Passage
from .units import Unit

# "… four results:", "… the following steps:", "… folgende Eigenschaften:" — a unit that introduces what follows
INTRODUCES = re.compile(r":\s*$")
OPENS_LIST = re.compile(r":\s*\n\s*\(?1[.)]\s")  # in a source's text: an introduction, then its first item
NUMBERED = re.compile(r"^\s*\(?(\d{1,2})[.)](?![\d.])\s*(?=\S)")
COUNTS = {w: i for i, ws in enumerate([
    (), ("one",), ("two", "zwei", "deux"), ("three", "drei", "trois"), ("four", "vier", "quatre"),
    ("five", "fünf", "cinq"), ("six", "sechs"), ("seven", "sieben", "sept"), ("eight", "acht", "huit"),
    ("nine", "neun", "neuf"), ("ten", "zehn", "dix")]) for w in ws}
ENUMERATION_PAGES = 6  # how far after the introduction its items may lie
ENUMERATION_CHUNKS = 12  # how many of the book's chunks after a source the pipeline reads for them
ITEM_WORDS = 25  # an item is a title or a line, not a paragraph


def _number(u: Unit) -> int:
    m = NUMBERED.match(u.text)
    return int(m.group(1)) if m else 0


def _reached(numbers: list[int]) -> int:
    """The last number of the run 1, 2, 3 … that ``numbers`` (the items' numbers in order, the first being 1) holds."""
    last = 1
    for n in numbers[1:]:
        if n == last + 1:
            last = n
    return last


def _count(intro: str) -> int:
    """The number of items the introduction names ("one or all of four results:" → 4), else 0."""
    words = re.findall(r"\w+", intro.lower())[-6:]
    found = [COUNTS.get(w) or (int(w) if w.isdigit() and int(w) <= 20 else 0) for w in words]
    return next((n for n in reversed(found) if n > 1), 0)


def unfinished(p: Passage) -> tuple[int, int] | None:
    """(index of the introducing unit, the number of its last item quoted) when ``p`` introduces numbered items and
    quotes the first of them but not the next; else None."""
    for j in range(len(p.units) - 1, -1, -1):
        if INTRODUCES.search(p.units[j].text) and p.units[j].prose:
            after = [_number(u) for u in p.units[j + 1:] if u.prose]
            return (j, _reached(after)) if after and after[0] == 1 else None
    return None


def awaited(sources: list, us: dict[int, list[Unit]], first: int = 3) -> list[tuple[object, int, int, bool]]:
    """The enumerations the ``first`` sources introduce whose next item no source of their book holds: (source, the
    number of its last item held, the count named or 0, whether its items ask) — where the pipeline looks further
    into the book (its ``enumeration`` stage)."""
    out = []
    for src in sources[:first]:
        v = us[src.n]
        for j, u in enumerate(v):
            if not (u.prose and INTRODUCES.search(u.text)):
                continue
            after = [x for x in v[j + 1:] if x.prose]
            if not after or _number(after[0]) != 1:
                continue
            last = _reached([_number(x) for x in after])
            want, asks = _count(u.text), asking(after[0].text)
            held = any(_number(x) == last + 1 and asking(x.text) == asks
                       for o in sources if o.book_id == src.book_id for x in us[o.n]
                       if x.prose and 0 <= o.page_start - src.page_start <= ENUMERATION_PAGES)
            if not held and (not want or last < want):
                out.append((src, last, want, asks))
    return out


def item_line(text: str, number: int, asks: bool) -> str:
    """Item ``number`` of ``text`` (a chunk's) on a line of its own, short, asking or not as the first did ("" if
    none), whitespace-normalised."""
    for line in text.split("\n"):
        m = NUMBERED.match(line)
        if m and int(m.group(1)) == number and len(line.split()) <= ITEM_WORDS and asking(line) == asks:
            return " ".join(line.split())
    return ""


def complete(chosen: list[Passage], us: dict[int, list[Unit]], sources: dict) -> list[Passage]:
    """``chosen`` with the items that finish its first passage's enumeration (see the module doc) quoted right after
    it; unchanged when it has none unfinished or no source holds the next item. ``us``: source n → its units;
    ``sources``: n → ``Source``."""
    if not chosen:
        return chosen
    first = chosen[0]
    found = unfinished(first)
    if not found:
        return chosen
    j, last = found
    want = _count(first.units[j].text) or 99
    ref = sources[first.n]
    book, page, origin = ref.book_id, ref.page_start, min(ref.chunk_indices or [0])
    asks = asking(next(u for u in first.units[j + 1:] if u.prose).text)  # exercises are followed by exercises only
    seen = {" ".join(u.text.split()) for p in chosen for u in p.units}
    pool: list[tuple[tuple[int, int], int, Unit]] = []  # ((chunk, position), source n, unit) of candidate items
    for n, src in sources.items():
        if src.book_id != book or not 0 <= src.page_start - page <= ENUMERATION_PAGES:
            continue
        at = min(src.chunk_indices or [0])
        for u in us.get(n, []):
            if not (u.prose and _number(u) > last and (n == first.n or at >= origin)):
                continue
            if len(u.text.split()) > ITEM_WORDS:  # a title the page runs into its first sentence: its own line
                line = item_line(src.text[u.start:u.end], _number(u), asks)
                u = replace(u, text=line) if line and u.text.startswith(line) else u
            if len(u.text.split()) <= ITEM_WORDS and asking(u.text) == asks \
                    and " ".join(u.text.split()) not in seen:
                pool.append(((at, u.start), n, u))
    pool.sort(key=lambda x: x[0])
    extra: list[Passage] = []
    after = (origin, -1)
    while last < want:
        nxt = next(((key, n, u) for key, n, u in pool if _number(u) == last + 1 and key > after), None)
        if nxt is None:
            break
        after, n, u = nxt
        extra.append(Passage(n, [u], 0))
        last += 1
    return [first, *extra, *chosen[1:]] if extra else chosen
