"""Typed values that know where they came from.

A ``Chunk`` carries its book, index, page span, character span (into the book text,
which is the page texts joined by ``PAGE_SEP``) and section path. It is flattened to
Chroma's scalar metadata only at the store boundary (``to_metadata``/``from_metadata``).
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from functools import cached_property

PAGE_SEP = "\n\n"
# a line box's 7th value, its kind: text, code (monospaced), a table's cell, a running header, footer or page number
# (left out of the chunks' text), a running header the chunks' text keeps (rag.parse.furniture.headers); the last
# two are never quoted, shown in an answer's context or highlighted (UNSHOWN)
LINE_TEXT, LINE_CODE, LINE_TABLE, LINE_FURNITURE, LINE_HEADER = 0, 1, 2, 3, 4
UNSHOWN = (LINE_FURNITURE, LINE_HEADER)
_HEADING_NUMBER = re.compile(r"^(\d{1,3}(?:\.\d{1,3})*)\.?\s+\S")


def heading_number(section: str) -> str:
    """The number of a section path's innermost heading ('4.8.5' of 'Basics > 4. Basics > 4.8 Netboot > 4.8.5
    Qemu'), '' when it has none."""
    m = _HEADING_NUMBER.match(section.rsplit(" > ", 1)[-1].strip())
    return m.group(1) if m else ""


@dataclass(frozen=True)
class Page:
    number: int  # 1-based physical page number
    label: str  # printed page label ("xiv", "12"); number as text when the PDF has none
    text: str
    offset: int  # where this page starts in the book text
    # one (start, end, x0, y0, x1, y1) per text line: page-local char span and its box in PDF points,
    # so any span of the page text can be highlighted on the rendered page
    lines: tuple = ()
    ocr: float = -1.0  # mean Tesseract word confidence (0–100) when the text was read by OCR; -1: text layer

    def local(self, spans) -> list[tuple[int, int]]:
        """Book-text ``spans`` as spans of this page's text, cut at its edges; those not on it left out."""
        cut = [(max(0, a - self.offset), min(len(self.text), b - self.offset)) for a, b in spans]
        return [(a, b) for a, b in cut if b > a]

    def boxes(self, start: int, end: int) -> list[tuple[float, float, float, float]]:
        """Boxes of the lines overlapping page-local chars [start, end)."""
        return [tuple(ln[2:6]) for ln in self.lines if ln[0] < end and ln[1] > start]

    def text_boxes(self, start: int, end: int) -> list[tuple[float, float, float, float]]:
        """``boxes`` without running headers, footers and page numbers: what a highlight of a passage covers."""
        return [tuple(ln[2:6]) for ln in self.lines if ln[0] < end and ln[1] > start
                and (len(ln) < 7 or ln[6] not in UNSHOWN)]

    @property
    def furniture(self) -> list[tuple[int, int]]:
        """Page-local spans of running headers, footers and page numbers (line kind ``LINE_FURNITURE``)."""
        return [(ln[0], ln[1]) for ln in self.lines if len(ln) > 6 and ln[6] == LINE_FURNITURE]

    @property
    def chunk_text(self) -> str:
        """The page text with its furniture blanked out (same length, so offsets stay valid)."""
        text = self.text
        for a, b in self.furniture:
            text = text[:a] + " " * (b - a) + text[b:]
        return text


@dataclass
class Figure:
    """A figure of a book (raster image or vector diagram), stored once as PNG under data/."""

    book_id: str
    index: int  # 0-based, in page order
    page: int  # physical page number
    page_label: str
    bbox: tuple[float, float, float, float]  # PDF points on that page
    kind: str  # "raster" | "vector"
    caption: str = ""  # the caption's text, "" when none was found
    ref: str = ""  # reference key the text uses for it, e.g. "figure 2.1", "table 4"
    labels: str = ""  # the figure's own words (text inside its box)
    context: str = ""  # sentences around it and sentences that refer to it
    anchor: int = -1  # book-text offset the figure belongs to (its caption, or the text next to it)
    path: str = ""  # PNG path relative to the data folder
    width: int = 0  # PNG pixels
    height: int = 0
    description: str = ""  # written by a vision model at ingest when one is configured

    @property
    def id(self) -> str:
        return f"{self.book_id}:fig{self.index}"

    @property
    def title(self) -> str:
        return self.caption or f"Figure on p. {self.page_label}"

    def index_text(self) -> str:
        """What is embedded so that a question about the figure finds it."""
        return "\n".join(t for t in (self.caption, self.description, self.labels, self.context) if t)


@dataclass(frozen=True)
class Section:
    path: str  # "Chapter 2 > 2.1 Assignment"
    start: int  # char span in the book text
    end: int


@dataclass
class ParsedBook:
    title: str
    pages: list[Page]
    sections: list[Section]
    page_count: int
    figures: list[Figure] = field(default_factory=list)  # book_id "" until ingest names the book
    figure_images: list[bytes] = field(default_factory=list)  # PNG of each figure, same order
    figure_report: dict = field(default_factory=dict)  # FigureReport.to_dict()

    @cached_property
    def text(self) -> str:
        return PAGE_SEP.join(p.text for p in self.pages)

    @cached_property
    def chunk_text(self) -> str:
        """What chunks are cut from: the book text with page furniture blanked (same offsets)."""
        return PAGE_SEP.join(p.chunk_text for p in self.pages)

    def page_at(self, offset: int) -> Page:
        """The page holding book-text offset ``offset``."""
        lo, hi = 0, len(self.pages) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.pages[mid].offset <= offset:
                lo = mid
            else:
                hi = mid - 1
        return self.pages[lo]


@dataclass
class Chunk:
    book_id: str
    chunk_index: int
    text: str
    page_start: int
    page_end: int
    char_start: int
    char_end: int
    section: str = ""
    tokens: int = 0
    label_start: str = ""
    label_end: str = ""
    kind: str = "text"  # "text" | "code" | "table"
    parent: int = -1  # parent group index within the book (hierarchical chunking), -1 = none

    @property
    def id(self) -> str:
        return f"{self.book_id}:{self.chunk_index}"

    def to_metadata(self) -> dict:
        d = asdict(self)
        d.pop("text")
        return d

    @classmethod
    def from_metadata(cls, text: str, meta: dict) -> "Chunk":
        keys = cls.__dataclass_fields__.keys()
        return cls(text=text, **{k: meta[k] for k in keys if k != "text" and k in meta})

    @property
    def heading_number(self) -> str:
        return heading_number(self.section)

    @property
    def pages_label(self) -> str:
        a, b = self.label_start or str(self.page_start), self.label_end or str(self.page_end)
        return f"p. {a}" if a == b else f"pp. {a}–{b}"


@dataclass
class Book:
    id: str
    title: str
    filename: str
    pages: int
    chunks: int
    status: str  # "indexing" | "ready" | "failed"
    embed_model: str
    chunking: dict
    error: str = ""
    added_at: str = ""
    ingest_seconds: float = 0.0
    figures: int = 0
    report: dict = field(default_factory=dict)  # ingest report: figures found, captions matched, skipped by reason
    sections: list = field(default_factory=list)  # (path, start, end) in the book text
    doc_type: str = ""  # "reference" | "procedural" | "narrative"; "" = guessed from the chunks


@dataclass
class Hit:
    """A retrieved chunk with the scores that put it there."""

    chunk: Chunk
    score: float  # fused score (rag.retrieve.fuse)
    similarity: float  # cosine(query, chunk)
    dense_rank: int | None = None
    bm25_rank: int | None = None
    bm25_score: float = 0.0
    passed: bool = True  # similarity at or above the threshold (the probe shows the rest too)
    rerank_score: float | None = None  # the cross-encoder's score, when RAG_RERANK_MODEL is set


@dataclass
class Source:
    """A numbered source [n] as the answerer and the user see it."""

    n: int
    book_id: str
    book_title: str
    hit: Chunk  # the chunk that matched
    text: str  # hit plus its window, what the answerer reads
    chunk_indices: list[int]
    page_start: int  # pages of the whole window
    page_end: int
    pages_label: str  # printed pages of the matching chunk(s): what a citation names
    score: float
    similarity: float
    context_label: str = ""  # printed pages of the whole window
    plan: dict = field(default_factory=dict)  # how the window was chosen (rag.context.windows.Plan)
    # [start, end, kind, indent, blank before] of the text's lines that are whole chunk lines: kind 0 text, 1 code
    # (monospaced), 2 table, 3 running header/footer; indent = a code line's indentation in characters, blank before
    # = 1 where the page sets a blank line between it and the code line before it, x0 = the line's left edge on its
    # page in points (rag.context.layout)
    layout: list = field(default_factory=list)
    cut_before: bool = False  # the book's text just before ``text`` stops mid-sentence and ``text`` goes on in lower
    # case (rag.text.sentences.runs_on): its start is the rest of that sentence
    quoted: Chunk | None = None  # the chunk of the window the answer quotes, when it is not the hit (a glossary line
    # beside the Exercises the question matched): the source's label and passage are that chunk's
    quoted_to: str = ""  # the printed page the quote ends on, when it runs onto a later page (rag.evidence.pages)
    quoted_from: str = ""  # the printed page the quote begins on, where the book's pages showed it ("": the chunk's)

    @property
    def quote(self) -> str:
        return " ".join(self.hit.text.split())

    @property
    def label(self) -> str:
        """"Think Python › 2 Variables › 2.2 Assignment, p. 11": book, section path, printed page(s) — of the chunk
        the answer quotes."""
        c = self.quoted or self.hit
        parts = [self.book_title] + [p.strip() for p in c.section.split(" > ") if p.strip()]
        if self.quoted_from:  # the pages the quotes lie on
            a, b = self.quoted_from, self.quoted_to or self.quoted_from
            return " › ".join(parts) + (f", p. {a}" if a == b else f", pp. {a}–{b}")
        if self.quoted is None and not self.quoted_to:
            return " › ".join(parts) + f", {self.pages_label}"
        a, b = c.label_start or str(c.page_start), self.quoted_to or c.label_end or str(c.page_end)
        return " › ".join(parts) + (f", p. {a}" if a == b else f", pp. {a}–{b}")

    @property
    def pdf_pages(self) -> str:
        """Physical page(s) of the matching chunk, e.g. "pdf p. 31"."""
        a, b = self.hit.page_start, self.hit.page_end
        return f"pdf p. {a}" if a == b else f"pdf pp. {a}–{b}"

    def to_dict(self) -> dict:
        d = asdict(self)
        d["hit"] = asdict(self.hit)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Source":
        d = dict(d)
        d["hit"] = Chunk(**d["hit"])
        if d.get("quoted"):
            d["quoted"] = Chunk(**d["quoted"])
        return cls(**d)


@dataclass
class FigureHit:
    """A figure shown under an answer, and why."""

    id: str
    book_id: str
    book_title: str
    page: int
    page_label: str
    caption: str
    kind: str
    path: str  # PNG, relative to the data folder
    score: float  # relevance to the question and the answer
    why: str  # "on the page of [1]", "referred to by [2]", "matches the question"
    sources: list[int] = field(default_factory=list)  # the [n] it belongs to
    ties: dict = field(default_factory=dict)  # source n → how it belongs to it ("on the page of [n]", …)

    @property
    def title(self) -> str:
        return self.caption or f"Figure on p. {self.page_label}"


@dataclass
class QuoteCheck:
    """One sentence of an answer checked against the source it cites."""

    n: int  # the cited source
    sentence: str
    ok: bool
    how: str  # "quoted" (verbatim), "supported" (its content words are in the source), "unmatched", "no such source"
    overlap: float = 0.0  # share of the sentence's content words found in source n


@dataclass
class Answer:
    question: str
    query: str  # the standalone question retrieval used
    text: str = ""
    sources: list[Source] = field(default_factory=list)
    not_found: bool = False
    outcome: str = ""  # "answer" | "likely" (a strong passage the model is unsure of) | "not_found"
    trace: dict[str, float] = field(default_factory=dict)  # stage -> milliseconds
    confidence: float = 0.0
    backend: str = ""
    figures: list[FigureHit] = field(default_factory=list)
    checks: list[QuoteCheck] = field(default_factory=list)
    context: dict = field(default_factory=dict)  # context mode, question type, each source's window decision

    def to_dict(self) -> dict:
        return {
            "question": self.question, "query": self.query, "text": self.text,
            "sources": [s.to_dict() for s in self.sources], "not_found": self.not_found, "outcome": self.outcome,
            "trace": self.trace, "confidence": self.confidence, "backend": self.backend,
            "figures": [asdict(f) for f in self.figures], "checks": [asdict(c) for c in self.checks],
            "context": self.context,
        }

    @property
    def cited_books(self) -> list[str]:
        """Books of the sources the answer cites (a follow-up searches these; ``Folio.ask(follow_books=…)``)."""
        cited = {c.n for c in self.checks}
        return sorted({s.book_id for s in self.sources if s.n in cited})

    @property
    def cited_chunks(self) -> list[str]:
        """Chunk ids ("book:index") of the passages the answer cites, windows included: where a follow-up looks
        first (``Folio.ask(follow_chunks=…)``)."""
        cited = {c.n for c in self.checks}
        return [f"{s.book_id}:{i}" for s in self.sources if s.n in cited for i in s.chunk_indices]

    @classmethod
    def from_dict(cls, d: dict) -> "Answer":
        d = dict(d)
        d["sources"] = [Source.from_dict(s) for s in d.get("sources", [])]
        d["figures"] = [FigureHit(**f) for f in d.get("figures", [])]
        d["checks"] = [QuoteCheck(**c) for c in d.get("checks", [])]
        return cls(**d)
