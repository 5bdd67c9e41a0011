"""Typed values that know where they came from.

A ``Chunk`` carries its book, index, page span, character span (into the book text,
which is the page texts joined by ``PAGE_SEP``) and section path. It is flattened to
Chroma's scalar metadata only at the store boundary (``to_metadata``/``from_metadata``).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

PAGE_SEP = "\n\n"


@dataclass(frozen=True)
class Page:
    number: int  # 1-based physical page number
    label: str  # printed page label ("xiv", "12"); number as text when the PDF has none
    text: str
    offset: int  # where this page starts in the book text


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

    @property
    def text(self) -> str:
        return PAGE_SEP.join(p.text for p in self.pages)

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


@dataclass
class Hit:
    """A retrieved chunk with the scores that put it there."""

    chunk: Chunk
    score: float  # fused (RRF) score
    similarity: float  # cosine(query, chunk)
    dense_rank: int | None = None
    bm25_rank: int | None = None


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

    @property
    def quote(self) -> str:
        return " ".join(self.hit.text.split())

    def to_dict(self) -> dict:
        d = asdict(self)
        d["hit"] = asdict(self.hit)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Source":
        d = dict(d)
        d["hit"] = Chunk(**d["hit"])
        return cls(**d)


@dataclass
class Answer:
    question: str
    query: str  # the standalone question retrieval used
    text: str = ""
    sources: list[Source] = field(default_factory=list)
    not_found: bool = False
    trace: dict[str, float] = field(default_factory=dict)  # stage -> milliseconds
    confidence: float = 0.0
    backend: str = ""

    def to_dict(self) -> dict:
        return {
            "question": self.question, "query": self.query, "text": self.text,
            "sources": [s.to_dict() for s in self.sources], "not_found": self.not_found,
            "trace": self.trace, "confidence": self.confidence, "backend": self.backend,
        }

    @classmethod
    def from_dict(cls, d: dict) -> "Answer":
        d = dict(d)
        d["sources"] = [Source.from_dict(s) for s in d.get("sources", [])]
        return cls(**d)
