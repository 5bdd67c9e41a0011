"""The reader view's values: what a click on a citation or a figure opens (``ReaderTarget``: a book, a page, what to
highlight) and one page as the reader shows it (``ReaderPage``: the page image large with the passage highlighted,
or, when the image cannot be drawn, why and the page's text). ``CitationPages`` (``Folio.reader``) makes them; the
original file comes with them, whole (opening at the page) or as the one page."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

READER_ZOOM = 2.0  # 144 dpi: a US-letter page is 1224 px wide, readable in a large dialog and on a phone


@dataclass(frozen=True)
class ReaderTarget:
    """What to open: ``page`` of ``book_id`` (PDF page number), the book-text ``spans`` of the cited chunk
    (highlighted), the ``quotes`` the answer takes from it (highlighted stronger, each on the one page of the source's
    ``pages`` where it lies) and figure boxes ``rects`` ((page, x0, y0, x1, y1) in PDF points, framed). ``title``
    says what was clicked ("[1] Book › Section, p. 4")."""

    book_id: str
    page: int
    spans: tuple[tuple[int, int], ...] = ()
    quotes: tuple[str, ...] = ()
    rects: tuple[tuple[int, float, float, float, float], ...] = ()
    title: str = ""
    book_title: str = ""
    pages: tuple[int, ...] = ()  # the cited source's first and last page: each quote is marked on one of them

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "ReaderTarget":
        return cls(book_id=str(d["book_id"]), page=int(d["page"]),
                   spans=tuple((int(a), int(b)) for a, b in d.get("spans") or ()),
                   quotes=tuple(str(q) for q in d.get("quotes") or ()),
                   rects=tuple((int(r[0]), *(float(v) for v in r[1:5])) for r in d.get("rects") or ()),
                   title=str(d.get("title", "")), book_title=str(d.get("book_title", "")),
                   pages=tuple(int(p) for p in d.get("pages") or ()))


@dataclass
class ReaderPage:
    """One page in the reader: ``image`` (PNG, the passage highlighted) or None with ``problem`` saying why;
    ``text``: the page's text (shown when there is no image, and on request)."""

    book_id: str
    book_title: str
    number: int  # PDF page, 1-based
    label: str  # printed page label
    count: int  # pages in the book
    image: Path | None = None
    problem: str = ""
    text: str = ""
    highlighted: bool = False  # the cited passage (or figure) is on this page
    focus: tuple[float, float] | None = None  # where the highlight starts: (x, y) as shares of the image's size
    labels: list[str] = field(default_factory=list)  # every page's printed label, index = number - 1
    filename: str = ""  # the original's name, for downloads

    @property
    def where(self) -> str:
        """"p. 12 (page 31 of 288 in the file)"."""
        return f"p. {self.label} (page {self.number} of {self.count} in the file)"


def png_size(path: Path) -> tuple[int, int]:
    """(width, height) of a PNG in pixels, from its header; (0, 0) for anything else."""
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return 0, 0
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
