"""What the stages share: the ``Run`` (one question on its way through them: what each stage reads and writes) and
the ``Pipeline`` interface a stage uses of the runner (``rag.pipeline.stages``, ``rag.pipeline.runner``)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from ..answer import AnswerBackend
from ..settings import Settings
from ..types import Book, FigureHit, Hit, Source


class Pipeline(Protocol):
    """What a stage uses of the runner (``rag.pipeline.runner.Pipeline``): the shared resources, the library, the
    run's BM25 and the context builder."""

    res: Any
    library: Any

    def bm25_for(self, r: "Run") -> Callable: ...

    def expand(self, query: str, qvec, hits: list[Hit], s: Settings, books: list[Book],
               query_type: str = "") -> list[Source]: ...


@dataclass
class Run:
    """One question on its way through the stages."""

    question: str
    settings: Settings
    history: list[tuple[str, str]] = field(default_factory=list)
    book_ids: list[str] | None = None  # the books asked (None: the whole library)
    follow_books: list[str] | None = None  # the books the last answer cited
    follow_chunks: list[str] | None = None  # the chunks ("book:index") the last answer cited
    backend: AnswerBackend | None = None
    query: str = ""  # the standalone question retrieval uses
    books: list[Book] = field(default_factory=list)
    asked: list[str] = field(default_factory=list)  # the books asked, before a subject narrowed the search
    titles: dict[str, str] = field(default_factory=dict)  # their titles (book id → title)
    retriever: object = None  # the HybridRetriever of the whole question (candidates, query vector, evidence)
    hits: list[Hit] = field(default_factory=list)
    probability: float = 0.0  # P(the books answer it)
    answerable: bool = False  # an answer is given: outcome "answer" or "likely"
    outcome: str = ""  # "answer" | "likely" | "not_found"
    sources: list[Source] = field(default_factory=list)
    figures: list[FigureHit] = field(default_factory=list)
    figure_vector: Callable | None = None
    trace: dict[str, float] = field(default_factory=dict)
    done: bool = False  # a stage decided there is nothing more to do (an empty library)
    continued: bool = False  # a short nameless question searched in the chat's books first (``scope``)
    byline: bool = False  # "Who wrote <a book of the library>?": its title page leads the hits (``byline``)
    concluding: bool = False  # "What do the authors conclude?" of one book: its concluding section (``conclusion``)
    stating: bool = False  # "Who paid for this research?", no passage close: its "Funding: …" paragraph (``admin``)
    defined: bool = False  # a definition question one of whose best hits defines its term ("Ein topologischer Raum …")
    example_near: bool = False  # a follow-up asking for an example, with one labelled next to the passage last cited
    overview: bool = False  # "What is this book about?": its abstract, preface or introduction leads (``overview``)
    authors_section: bool = False  # "Who wrote <a book>?" of a book whose authors are a section of it (``byline``)
    unsaid: str = ""  # why it is declined whatever the probability: what no best passage says that the question
    # wants ("year", "duration", "maker", "organisation", "price", "size": ``query.wants``), a "name" none mentions, an
    # "operator" none writes
    unwritten: list[str] = field(default_factory=list)  # operators the question writes that no searched book writes
    unnamed: list[str] = field(default_factory=list)  # names the question writes that no searched book mentions
    bm25: Callable | None = field(default=None, repr=False)  # the library's BM25, built when first needed

    @property
    def ids(self) -> list[str]:
        return [b.id for b in self.books]

    @property
    def reading(self) -> list[str]:
        """The book being read: the one book searched, else the one the chat's last answer cited ([] if neither)."""
        if len(self.ids) == 1:
            return self.ids
        return self.follow_books if self.follow_books and len(self.follow_books) == 1 else []

    @property
    def basis(self) -> str:
        """What answered, where the book's own page did rather than the answerability model: "byline", "authors",
        "overview", "stating" (its own "Funding: …" paragraph, ``admin``) or ""."""
        return "byline" if self.byline else "authors" if self.authors_section else "overview" if self.overview \
            else "stating" if self.stating else ""

    @property
    def query_vector(self):
        return self.retriever.query_vector if self.retriever is not None else None

    @property
    def evidence(self) -> dict[str, float]:
        return self.retriever.evidence if self.retriever is not None else {}
