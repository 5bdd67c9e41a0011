"""One book being converted: cleaned documents go straight into the layout, then it becomes a ``Converted``.

Shared by every format reader: it counts the book's text against ``Limits.book_chars``, starts each document
on a new page (EPUB chapters) or continues, and picks the outline: the book's own table of contents when
at least two of its entries were placed, else the headings as laid out.
"""
from __future__ import annotations

import codecs
import re

from ...errors import BadDocumentError
from .clean import Doc, Shared, clean
from .converted import Converted
from .images import ImageStore
from .layout import CONTENT_H, CONTENT_W, Flow

MIN_CHARS = 20


class BookBuilder:
    def __init__(self, filename: str, what: str, images: ImageStore | None = None):
        self.filename, self.what = filename, what
        self.images = images or ImageStore()
        self.shared = Shared()
        self.flow = Flow(self.images.archive, filename)

    def doc(self, **kw) -> Doc:
        return Doc(content_width=CONTENT_W, content_height=CONTENT_H, **kw)

    def add(self, text, doc: Doc, new_page: bool = True, start_id: str = "") -> None:
        """Clean and lay out one document (``text``: str or iterable of str)."""
        first = [True]

        def emit(piece: str) -> None:
            if self.shared.chars > self.shared.limits.book_chars:
                raise BadDocumentError(self.filename, f"the {self.what} holds more than "
                                                      f"{self.shared.limits.book_chars:,} characters of text; split "
                                                      "it into parts and add them one by one.")
            if first[0] and start_id:
                piece = f'<a id="{start_id}"></a>' + piece
            self.flow.add(piece, new_page=new_page and first[0])
            first[0] = False

        clean(text, doc, self.shared, emit)

    def build(self, source_format: str, extension: str, title: str, language: str,
              toc: list[tuple[int, str, str]] | None = None) -> Converted:
        if self.shared.chars < MIN_CHARS or self.flow.pages == 0:
            raise BadDocumentError(self.filename, f"the {self.what} contains no text to index.")
        placed = [t for t in (toc or []) if t[2] in self.flow.ids]
        if len(placed) >= 2:
            titles = {_norm(t) for _, t, _ in placed}
            outline = merge_outline(drop_title_entries(placed, title), self.flow.headings, self.flow.ids, titles)
        else:
            outline = drop_title_heading(self.flow.headings, title)
        title = " ".join((title or "").split())[:300]
        pdf = self.flow.finish(title, language, outline)
        marks = [(level, text, self.flow.ids[eid].page, self.flow.ids[eid].y) for level, text, eid in outline
                 if eid in self.flow.ids]
        captions = [(self.flow.ids[i].page, self.flow.ids[i].rect, c) for i, c in self.shared.captions.items()
                    if i in self.flow.ids]
        left_out = dict(self.shared.left_out + self.images.skipped)
        return Converted(pdf=pdf, source_format=source_format, extension=extension, title=title,
                         language=language, outline=marks, captions=captions, left_out=left_out,
                         pages=self.flow.pages)


def _norm(t: str) -> str:
    return " ".join(t.lower().split())


def drop_title_entries(toc: list, title: str) -> list:
    """The table of contents without entries that only repeat the book's title (a root entry holding the
    whole book); what was under them moves up a level, so sections read "Chapter › Section"."""
    out, dropped = [], []  # levels of dropped entries still open
    for lvl, text, eid in toc:
        while dropped and lvl <= dropped[-1]:
            dropped.pop()
        if _norm(text) == _norm(title):
            dropped.append(lvl)
            continue
        out.append((max(1, lvl - len(dropped)), text, eid))
    return out if len(out) >= 2 else toc


def merge_outline(toc: list, headings: list, ids: dict, titles: set[str]) -> list[tuple[int, str, str]]:
    """The book's table of contents with the headings it does not list (a TOC of chapters only) put under
    the entry they follow: a heading one level below the entry's own heading becomes one level below it.
    Headings whose text is a ``titles`` entry (the TOC's own) are not added twice."""
    items = sorted([((ids[e].page, ids[e].y), 0, lvl, t, e) for lvl, t, e in toc]
                   + [((ids[e].page, ids[e].y), 1, lvl, t, e) for lvl, t, e in headings if e in ids])
    out: list[tuple[int, str, str]] = []
    anchor = None  # [level, title, (page, y), level of its own heading or None]
    for at, is_heading, lvl, text, eid in items:
        if not is_heading:
            out.append((lvl, text, eid))
            anchor = [lvl, _norm(text), at, None]
            continue
        if anchor is None:
            continue  # before the first entry (a cover or title page)
        own = _norm(text) == anchor[1] or (at[0] == anchor[2][0] and 0 <= at[1] - anchor[2][1] < 40)
        if anchor[3] is None and own:
            anchor[3] = lvl
            continue
        if _norm(text) in titles:
            continue
        base = anchor[3] if anchor[3] is not None else lvl - 1
        out.append((anchor[0] + max(1, lvl - base), text, eid))
    return out


def drop_title_heading(headings: list, title: str) -> list:
    """Headings as the outline, without a first heading that only repeats the book's title (Markdown's
    "# Title" above "## Chapter"s, Word's Title style): sections then read "Chapter › Section", not
    "Title › Chapter › Section" (the citation names the book already)."""
    if len(headings) > 1 and _norm(headings[0][1]) == _norm(title):
        return headings[1:]
    return headings


_XML_ENC = re.compile(rb"""^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")
_META_ENC = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9._-]+)""", re.I)


def encoding_of(head: bytes) -> str:
    """The text encoding of an (X)HTML document from its BOM, XML declaration or meta charset; UTF-8 else."""
    for bom, enc in ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16")):
        if head.startswith(bom):
            return enc
    m = _XML_ENC.match(head) or _META_ENC.search(head[:2048])
    if m:
        name = m.group(1).decode("ascii")
        try:
            return codecs.lookup(name).name
        except LookupError:
            pass
    return "utf-8"


def decode_stream(blocks):
    """Text chunks from byte blocks, the encoding taken from the first block (bad bytes become U+FFFD)."""
    it = iter(blocks)
    first = next(it, b"")
    dec = codecs.getincrementaldecoder(encoding_of(first[:4096]))(errors="replace")
    yield dec.decode(first)
    for b in it:
        yield dec.decode(b)
    yield dec.decode(b"", final=True)
