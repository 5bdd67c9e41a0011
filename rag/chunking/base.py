"""Shared pieces of every chunking strategy.

A strategy splits one *section's* text into ``Piece``s (section-local character spans, a kind and
an optional parent group); ``chunk_sections`` runs it over every section of a book and turns the
pieces into ``Chunk``s with exact book-text spans, page spans, section path, kind and parent index.
So every strategy keeps the same invariants: a chunk's text is ``book.chunk_text[char_start:char_end]`` (the
book text with running headers/footers blanked, same offsets),
it never straddles two sections, and children tile their parent.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial
from typing import Callable

from ..settings import Settings
from ..text.split import span_tokenize
from ..text.tokens import count_tokens, tokenize
from ..types import Chunk, ParsedBook


@dataclass(frozen=True)
class Piece:
    start: int  # section-local characters
    end: int
    kind: str = "text"  # "text" | "code" | "table"
    parent: int = -1  # parent group within the section (hierarchical strategy), -1 = none


@dataclass(frozen=True)
class Region:
    """A run of code or table lines (section-local span) that should not be cut."""
    start: int
    end: int
    kind: str


class SectionContext:
    """What a splitter may use besides the text: settings, the section's code/table regions and,
    for the semantic strategy, an embedding function (texts → vectors)."""

    def __init__(self, settings: Settings, regions: list[Region] = (), embed: Callable | None = None):
        self.settings, self.regions, self.embed = settings, list(regions), embed

    def tokens(self, text: str) -> int:
        return count_tokens(text, self.settings.embed_model)

    @property
    def tokenizer(self):
        return partial(tokenize, model=self.settings.embed_model)


Splitter = Callable[[str, SectionContext], list[Piece]]


def locate(seg: str, texts: list[str], overlapping: bool) -> list[tuple[int, int]]:
    """Map splitter output texts back to spans of ``seg``, searching forward from the last one (so
    repeated text lands on its own occurrence). Splitters sometimes repeat a few characters of the
    previous piece or re-join words with other whitespace: without overlap, a piece found starting
    before the previous end is clipped to it; whitespace differences are matched word by word."""
    spans, cursor = [], 0
    for text in texts:
        t = text.strip()
        if not t:
            continue
        start, end = _find(seg, t, cursor)
        if start < 0 and not overlapping:  # it may begin with the end of the previous piece
            start, end = _find(seg, t, max(0, cursor - len(t)))
            if end <= cursor:
                continue
        if start < 0:
            continue
        if not overlapping:
            start = max(start, cursor)
        if end <= start:
            continue
        spans.append((start, end))
        cursor = start + 1 if overlapping else end
    return spans


def _find(seg: str, t: str, cursor: int) -> tuple[int, int]:
    start = seg.find(t, cursor)
    if start >= 0:
        return start, start + len(t)
    m = re.compile(r"\s+".join(re.escape(w) for w in t.split())).search(seg, cursor)
    return (m.start(), m.end()) if m else (-1, -1)


def trim(seg: str, start: int, end: int) -> tuple[int, int]:
    """Span without leading/trailing whitespace."""
    while start < end and seg[start].isspace():
        start += 1
    while end > start and seg[end - 1].isspace():
        end -= 1
    return start, end


def sentence_spans(seg: str) -> list[tuple[int, int]]:
    """Sentences of ``seg`` as exact spans (``rag.text.split``: Punkt's rules, plus blank-line breaks)."""
    from ..text.sentences import join_runs

    out: list[tuple[int, int]] = []
    pos = 0
    for para in join_runs(seg).split("\n\n"):  # a page break inside a sentence is no paragraph break
        if para.strip():
            for a, b in span_tokenize(para):
                a, b = trim(seg, pos + a, pos + b)
                if b > a:
                    out.append((a, b))
        pos += len(para) + 2
    return out


def split_long(seg: str, start: int, end: int, ctx: SectionContext) -> list[tuple[int, int]]:
    """Cut one over-long span into word-piece windows at word boundaries (no overlap)."""
    from llama_index.core.node_parser import TokenTextSplitter

    splitter = TokenTextSplitter(chunk_size=ctx.settings.chunk_size, chunk_overlap=0, separator=" ",
                                 backup_separators=["\n"], tokenizer=ctx.tokenizer)
    return [(start + a, start + b) for a, b in locate(seg[start:end], splitter.split_text(seg[start:end]), False)]


def pack(seg: str, units: list[tuple[int, int]], max_tokens: int, ctx: SectionContext, overlap_units: int = 0,
         breaks: set[int] = frozenset(), min_tokens: int = 0) -> list[tuple[int, int]]:
    """Greedy packing of consecutive units (sentences) into spans of at most ``max_tokens``; a unit
    index in ``breaks`` starts a new span once the current one holds ``min_tokens``; ``overlap_units``
    units repeat at the next start."""
    sizes = [ctx.tokens(seg[a:b]) for a, b in units]
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(units):
        if sizes[i] > max_tokens:  # one unit too long on its own
            out.extend(split_long(seg, *units[i], ctx))
            i += 1
            continue
        j, total = i, 0
        while j < len(units) and (j == i or j not in breaks or total < min_tokens):
            # +1 for the joining whitespace, a fair estimate; re-checked below
            if total + sizes[j] + (1 if j > i else 0) > max_tokens:
                break
            total += sizes[j] + (1 if j > i else 0)
            j += 1
        while j - 1 > i and ctx.tokens(seg[units[i][0]:units[j - 1][1]]) > max_tokens:
            j -= 1
        out.append((units[i][0], units[j - 1][1]))
        i = j - overlap_units if overlap_units and j - overlap_units > i and j < len(units) else j
    return out


def make_chunk(book: ParsedBook, book_id: str, index: int, start: int, end: int, section: str, model: str,
               kind: str = "text", parent: int = -1, text: str | None = None) -> Chunk:
    text = book.chunk_text[start:end] if text is None else text
    p0, p1 = book.page_at(start), book.page_at(max(start, end - 1))
    return Chunk(book_id=book_id, chunk_index=index, text=text, page_start=p0.number, page_end=p1.number,
                 char_start=start, char_end=end, section=section, tokens=count_tokens(text, model),
                 label_start=p0.label, label_end=p1.label, kind=kind, parent=parent)


def book_regions(book: ParsedBook) -> list[Region]:
    """Code (monospaced lines) and table (rows of short cells side by side) runs in book offsets,
    from the line kinds the parser recorded; consecutive lines of one kind form one region."""
    regions: list[Region] = []
    for page in book.pages:
        for ln in page.lines:
            kind = {1: "code", 2: "table"}.get(ln[6] if len(ln) > 6 else 0)
            if not kind:
                continue
            a, b = page.offset + ln[0], page.offset + ln[1]
            last = regions[-1] if regions else None
            gap = book.text[last.end:a] if last else "x"
            if last and last.kind == kind and not gap.strip():
                regions[-1] = Region(last.start, b, kind)
            else:
                regions.append(Region(a, b, kind))
    return regions


def chunk_sections(book: ParsedBook, book_id: str, settings: Settings, split: Splitter,
                   embed: Callable | None = None) -> list[Chunk]:
    text = book.chunk_text
    regions = book_regions(book)
    chunks: list[Chunk] = []
    parent_base = 0
    for section in book.sections:
        seg = text[section.start:section.end]
        if not seg.strip():
            continue
        local = [Region(r.start - section.start, r.end - section.start, r.kind) for r in regions
                 if r.start >= section.start and r.end <= section.end]
        ctx = SectionContext(settings, local, embed)
        pieces = split(seg, ctx) if getattr(split, "keeps_regions", False) else split_around_tables(seg, ctx, split)
        groups = max((p.parent for p in pieces), default=-1) + 1
        for p in pieces:
            a, b = trim(seg, p.start, p.end)
            if b <= a:
                continue
            kind = p.kind
            if kind == "text":  # mostly inside one code/table region → that kind
                inside = sum(min(b, r.end) - max(a, r.start) for r in local if r.start < b and r.end > a)
                kind = (
                    next((r.kind for r in local if r.start < b and r.end > a), "text")
                    if inside > (b - a) / 2
                    else "text"
                )
            chunks.append(make_chunk(book, book_id, len(chunks), section.start + a, section.start + b, section.path,
                                     settings.embed_model, kind, parent_base + p.parent if p.parent >= 0 else -1))
        parent_base += groups
    return chunks


MARKDOWN_RULE = "|---|"  # the line under a Markdown table's header: a ruled table found by find_tables


def split_around_tables(seg: str, ctx: SectionContext, split: Splitter) -> list[Piece]:
    """``split`` the prose between ruled tables (``rag.parse.tables``; side-by-side short lines that only
    look like table rows are left to ``split``); each table whole (its caption and rows), or cut between rows
    when it is longer than ``chunk_size``. Parent groups (hierarchical) stay in order, a table its own."""
    tables = sorted((r for r in ctx.regions if r.kind == "table" and MARKDOWN_RULE in seg[r.start:r.end]),
                    key=lambda r: r.start)
    if not tables:
        return split(seg, ctx)
    pieces: list[Piece] = []
    groups = 0

    def add(found: list[Piece], shift: int) -> None:
        nonlocal groups
        for p in found:
            pieces.append(Piece(p.start + shift, p.end + shift, p.kind, groups + p.parent if p.parent >= 0 else -1))
        groups += max((p.parent for p in found), default=-1) + 1

    pos = 0
    for r in tables:
        if r.start < pos:
            continue
        if seg[pos:r.start].strip():
            inner = [Region(q.start - pos, q.end - pos, q.kind) for q in ctx.regions
                     if q not in tables and q.start >= pos and q.end <= r.start]
            add(split(seg[pos:r.start], SectionContext(ctx.settings, inner, ctx.embed)), pos)
        hier = any(p.parent >= 0 for p in pieces) or ctx.settings.chunker == "hierarchical"
        add([Piece(a, b, "table", 0 if hier else -1) for a, b in table_rows(seg, r, ctx)], 0)
        pos = r.end
    if seg[pos:].strip():
        inner = [Region(q.start - pos, q.end - pos, q.kind) for q in ctx.regions if q not in tables and q.start >= pos]
        add(split(seg[pos:], SectionContext(ctx.settings, inner, ctx.embed)), pos)
    return pieces


def table_rows(seg: str, r: Region, ctx: SectionContext) -> list[tuple[int, int]]:
    """A table region as one span, or consecutive runs of whole rows of up to ``chunk_size`` word-pieces."""
    if ctx.tokens(seg[r.start:r.end]) <= ctx.settings.chunk_size:
        return [(r.start, r.end)]
    rows, at = [], r.start
    for line in seg[r.start:r.end].split("\n"):
        rows.append((at, at + len(line)))
        at += len(line) + 1
    out: list[tuple[int, int]] = []
    a = rows[0][0]
    for (s0, e0), nxt in zip(rows, rows[1:] + [None]):
        if nxt is None or ctx.tokens(seg[a:nxt[1]]) > ctx.settings.chunk_size:
            out.append((a, e0))
            a = nxt[0] if nxt else a
    return out


def table_header(book: ParsedBook, chunk: Chunk, regions: list[Region]) -> str:
    """For a table chunk that is not the table's start: the table's first lines (caption, header row),
    which its embedding and BM25 text repeat so the rows keep their column names."""
    if chunk.kind != "table":
        return ""
    r = next((r for r in regions if r.kind == "table" and r.start < chunk.char_start < r.end), None)
    if r is None:
        return ""
    lines = []
    for ln in book.chunk_text[r.start:chunk.char_start].split("\n")[:3]:  # caption lines, then the header row
        if not ln.startswith("|---"):
            lines.append(ln.strip())
        if ln.startswith("|"):
            break
    return " ".join(ln for ln in lines if ln)


def heading(section: str, levels: int) -> str:
    """The last ``levels`` parts of a section path ("Usage notes > Numerical limitations")."""
    parts = [p.strip() for p in section.split(">") if p.strip()]
    return " > ".join(parts[-levels:]) if levels > 0 else ""


def embedding_texts(book: ParsedBook, chunks: list[Chunk], context_tokens: int, headings: int = 0) -> list[str]:
    """What is embedded for each chunk: its text, or with ``context_tokens`` > 0 its text with about
    that many word-pieces of the surrounding text of its section (half before, half after, cut at
    word boundaries; ~4 characters a word-piece); with ``headings`` > 0 the last that many parts of its
    section path first (a chunk deep in "Numerical limitations" is about limits even when its words do not
    say so). The chunk itself is still what is retrieved and shown; the rest only makes its vector know what
    it is about."""
    regions = book_regions(book) if any(c.kind == "table" for c in chunks) else []
    heads = [table_header(book, c, regions) for c in chunks]
    if headings > 0:
        heads = [("\n".join(x for x in (heading(c.section, headings), h) if x)) for h, c in zip(heads, chunks)]
    if context_tokens <= 0:
        return [f"{h}\n{c.text}" if h else c.text for h, c in zip(heads, chunks)]
    text = book.chunk_text
    bounds = sorted((s.start, s.end) for s in book.sections)
    starts = [a for a, _ in bounds]
    import bisect

    out = []
    for c, head in zip(chunks, heads):
        k = max(0, bisect.bisect_right(starts, c.char_start) - 1)
        lo, hi = bounds[k] if bounds else (0, len(text))
        reach = context_tokens * 2  # chars on each side: half the word-pieces × ~4 chars
        a, b = max(lo, c.char_start - reach), min(hi, c.char_end + reach)
        before, after = text[a:c.char_start], text[c.char_end:b]
        if a > lo and " " in before:
            before = before[before.index(" ") + 1:]
        if b < hi and " " in after:
            after = after[:after.rindex(" ")]
        out.append(" ".join((head + " " + before.strip() + " " + c.text + " " + after.strip()).split()))
    return out
