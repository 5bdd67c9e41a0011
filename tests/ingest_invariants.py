"""What must hold after any file was given to ``Library.ingest`` (the fuzz test and bench/fuzz_ingest.py): either a
correct book — ready, every chunk exactly the page text at its span, its vectors in the store and its BM25 index
in the library, a question scoped to it answered without an error — or a ``RagError`` naming the file with a
specific reason (not the catch-all "unexpected error"); never any other exception. And the library stays
answerable: a normal book added after it is found and answers."""
from __future__ import annotations

import time
from dataclasses import dataclass

from rag.errors import RagError
from rag.types import PAGE_SEP

CATCH_ALL = "an unexpected error stopped it"  # rag.library.ingest.failure_reason for errors no check foresaw


@dataclass
class Outcome:
    name: str
    result: str  # "book" | "refused"
    detail: str  # the summary, or the reason
    seconds: float
    book_id: str = ""


def ingest_outcome(folio, name: str, data: bytes) -> Outcome:
    """Ingest one file and check the book it made; any exception other than a RagError propagates."""
    t = time.perf_counter()
    try:
        r = folio.library.ingest(data, name)
    except RagError as e:
        return Outcome(name, "refused", str(e), time.perf_counter() - t)
    check_book(folio, r.book_id)
    return Outcome(name, "book", r.summary(), time.perf_counter() - t, r.book_id)


def check_book(folio, book_id: str) -> None:
    b = folio.library.book(book_id)
    assert b.status == "ready" and b.chunks > 0, (b.status, b.error)
    pages = folio.library.pages(book_id)
    text = PAGE_SEP.join(p.chunk_text for p in pages)
    chunks = folio.library.chunks(book_id)
    assert [c.chunk_index for c in chunks] == list(range(b.chunks))
    for c in chunks:
        assert text[c.char_start:c.char_end] == c.text, f"chunk {c.chunk_index} is not the text at its span"
    assert folio.store.count(book_id) == b.chunks
    assert book_id in folio.library.bm25(folio.settings).books
    a = folio.ask("What is this book about?", book_id=book_id).consume()
    assert a.text.strip()


def check_refusal(o: Outcome) -> None:
    assert o.name in o.detail, f"the reason does not name the file: {o.detail}"
    assert CATCH_ALL not in o.detail, f"refused for no specific reason (a bug to fix): {o.detail}"
    assert len(o.detail) > len(o.name) + 20, o.detail


def check_answerable(folio, n: int) -> None:
    """A normal book (a new file each time: its title says ``n``) goes in, the library answers from it, and it
    is deleted again (so the library does not fill with copies of one book)."""
    from tests.pdfs import make_book_pdf

    r = folio.library.ingest(make_book_pdf(title=f"Garden and Sky {n}"), f"garden-{n}.pdf")
    assert folio.library.book(r.book_id).status == "ready"
    a = folio.ask("How often do tomatoes need watering?").consume()
    assert "twice a week" in a.text and any(s.book_id == r.book_id for s in a.sources), a.text
    folio.library.delete_book(r.book_id)
