"""Lay cleaned HTML out as a paginated PDF with PyMuPDF's Story API (MuPDF's HTML engine, no network).

``Flow`` places the pieces of a book one after another on A5 pages (a new document can start a new page),
records where every element with an id landed (page, y) and writes a page number at the foot of each page.
``finish`` adds the outline (from the book's own table of contents, else from its headings), the title and
language metadata, and compacts the file. The existing PDF pipeline then parses the result unchanged:
monospaced lines are code, ruled tables are tables, images are figures, the outline gives the sections.
"""
from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from html import unescape

from ...errors import BadDocumentError

PAGE_W, PAGE_H = 419.5, 595.3  # A5, points
MARGIN_X, MARGIN_TOP, MARGIN_BOTTOM = 46.0, 50.0, 56.0
CONTENT_W, CONTENT_H = PAGE_W - 2 * MARGIN_X, PAGE_H - MARGIN_TOP - MARGIN_BOTTOM
EM = 10.5
GAP = 4.0  # points between two pieces that share a page
MAX_PAGES = 20_000

CSS = """
body { margin: 0; font-family: serif; font-size: 10.5pt; line-height: 1.3; }
h1 { font-size: 17pt; font-weight: bold; margin: 0.4em 0 0.5em 0; }
h2 { font-size: 14pt; font-weight: bold; margin: 0.8em 0 0.4em 0; }
h3 { font-size: 12.5pt; font-weight: bold; margin: 0.8em 0 0.3em 0; }
h4, h5, h6 { font-size: 11pt; font-weight: bold; margin: 0.7em 0 0.3em 0; }
p { margin: 0 0 0.55em 0; }
blockquote { margin: 0.4em 1.5em; }
ul, ol { margin: 0.2em 0 0.5em 0; padding-left: 1.4em; }
li { margin: 0 0 0.2em 0; }
pre, code, .code { font-family: monospace; }
pre { font-size: 8.5pt; line-height: 1.2; white-space: pre-wrap; margin: 0.3em 0 0.7em 0; }
div.code { font-size: 8.5pt; line-height: 1.2; margin: 0.3em 0 0.7em 0; }
table { border-collapse: collapse; margin: 0.4em 0 0.7em 0; }
td, th { border: 1px solid black; padding: 2pt 4pt; vertical-align: top; font-size: 9.5pt; }
th { font-weight: bold; }
caption { font-size: 9pt; font-style: italic; }
div.figure { margin: 0.6em 0; text-align: center; }
div.caption { font-size: 9pt; font-style: italic; text-align: center; margin-top: 0.3em; }
hr { margin: 0.6em 0; }
.bold { font-weight: bold; }
"""


def _page_numbers(doc) -> None:
    """The printed page number at the foot of each page, as in a book (the parser marks it as furniture).
    Written as one small content stream per page with one shared Times-Roman font (TextWriter/insert_text
    cost 2–4 ms a page); the page's own content is wrapped in q … Q so its transformations do not apply."""
    import pymupdf

    font = doc.get_new_xref()
    doc.update_object(font, "<</Type/Font/Subtype/Type1/BaseFont/Times-Roman/Encoding/WinAnsiEncoding>>")
    save, restore = doc.get_new_xref(), doc.get_new_xref()
    for xref, ops in ((save, b"q"), (restore, b"Q")):
        doc.update_object(xref, "<<>>")
        doc.update_stream(xref, ops)
    for page in doc:
        kind, res = doc.xref_get_key(page.xref, "Resources")
        if kind == "xref":
            rx = int(res.split()[0])
            fkind, fonts = doc.xref_get_key(rx, "Font")
            if fkind == "xref":
                doc.xref_set_key(int(fonts.split()[0]), "FolioPageNo", f"{font} 0 R")
            elif fkind == "dict":
                doc.xref_set_key(rx, "Font/FolioPageNo", f"{font} 0 R")
            else:
                doc.xref_set_key(rx, "Font", f"<</FolioPageNo {font} 0 R>>")
        else:  # resources written inline (not what DocumentWriter does): the slower general way
            page.insert_text(((PAGE_W - pymupdf.get_text_length(str(page.number + 1), "tiro", 8)) / 2, PAGE_H - 28),
                             str(page.number + 1), fontname="tiro", fontsize=8)
            continue
        label = str(page.number + 1)
        x = (PAGE_W - pymupdf.get_text_length(label, "tiro", 8)) / 2
        number = doc.get_new_xref()
        doc.update_object(number, "<<>>")
        doc.update_stream(number, f"BT /FolioPageNo 8 Tf {x:.2f} 28 Td ({label}) Tj ET".encode())
        ckind, contents = doc.xref_get_key(page.xref, "Contents")
        inner = contents.strip("[]") if ckind == "array" else contents
        doc.xref_set_key(page.xref, "Contents", f"[{save} 0 R {inner} {restore} 0 R {number} 0 R]")


@dataclass
class Placed:
    page: int  # 1-based
    rect: tuple[float, float, float, float]  # the element's box on that page, points

    @property
    def y(self) -> float:
        return self.rect[1]


CODE_PT, MIN_CODE_PT = 8.5, 4.0  # a listing's type size (the CSS's), and the least it is shrunk to (a command
# wrapped at a space is two commands when read back: 110-character command lines of the Live manual stay whole)
MIN_TOKEN_PT = 4.0  # the least an inline token too long for a line is shrunk to, to stay one line
TOKEN_ROOM = 0.9  # the share of the page's width such a token is fitted to (a list item or a quotation is narrower)
MONO_ADVANCE = 0.6  # a monospaced character's width, in ems (Courier)
_PRE = re.compile(r"<pre(\s[^>]*)?>(.*?)</pre>", re.S | re.I)
_CODE_DIV = re.compile(r"<div(\s[^>]*class=\"code\"[^>]*)>(.*?)</div>", re.S | re.I)  # a stylesheet's code paragraph
_INLINE = re.compile(r"<code(\s[^>]*)?>(.*?)</code>", re.S | re.I)


def _plain(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", re.sub(r"<br\s*/?>", "\n", html)))


def _size_for(chars: int, size: float, least: float = MIN_CODE_PT) -> float | None:
    """The type size at which ``chars`` monospaced characters fit the page's width (not below ``least``), or None
    when they fit at ``size``."""
    if chars <= int(CONTENT_W / (MONO_ADVANCE * size * 1.03)):
        return None
    return max(least, CONTENT_W / (MONO_ADVANCE * 1.03 * chars))


def fit_code(html: str) -> str:
    """Each listing (``<pre>``, or a paragraph the book's stylesheet sets as code) whose longest line would not fit
    the page at the listing's type size is set smaller (down to ``MIN_CODE_PT``), so that its lines stay whole: a
    command wrapped at a space cannot be told from two commands when the page is read back. So is inline code with
    a run the layout cannot break (it breaks only at spaces and hyphens): MuPDF draws what does not fit past the
    page's edge, and the text there is lost ("…,plugdev,netdev,p" for a 110-character boot parameter). Longer
    lines still wrap (the parser rejoins those broken inside a token)."""
    def fit(m: re.Match, tag: str) -> str:
        longest = max((len(line.rstrip()) for line in _plain(m.group(2)).split("\n")), default=0)
        size = _size_for(longest, CODE_PT)
        if size is None or "style=" in (m.group(1) or "").lower():
            return m.group(0)
        return f'<{tag}{m.group(1) or ""} style="font-size: {size:.2f}pt">{m.group(2)}</{tag}>'

    def inline(m: re.Match) -> str:
        if "style=" in (m.group(1) or "").lower():
            return m.group(0)
        text = _plain(m.group(2))
        token = max((len(w) for w in text.split()), default=0)
        room = CONTENT_W * TOKEN_ROOM
        if token <= int(room / (MONO_ADVANCE * EM * 1.03)):
            return m.group(0)
        size = max(MIN_TOKEN_PT, room / (MONO_ADVANCE * 1.03 * token))
        if room / (MONO_ADVANCE * 1.03 * token) >= MIN_TOKEN_PT:  # whole on a line of its own, unbroken
            style = f"font-size: {size:.2f}pt" + ("; white-space: nowrap" if len(text.split()) == 1 else "")
        else:  # too long even so: smaller, and broken at its hyphens, where the parser joins it again
            size = _size_for(max(len(r) for r in re.split(r"[\s\-]+", text)), EM) or EM
            style = f"font-size: {size:.2f}pt"
        return f'<code{m.group(1) or ""} style="{style}">{m.group(2)}</code>'

    low = html.lower()
    if "<pre" in low:
        html = _PRE.sub(lambda m: fit(m, "pre"), html)
    if 'class="code"' in low:
        html = _CODE_DIV.sub(lambda m: fit(m, "div"), html)
    if "<code" in low:  # outside listings, which are fitted whole
        parts = re.split(r"(<pre[\s>].*?</pre>|<div[^>]*class=\"code\"[^>]*>.*?</div>)", html, flags=re.S | re.I)
        html = "".join(p if i % 2 else _INLINE.sub(inline, p) for i, p in enumerate(parts))
    return html


@dataclass
class Flow:
    archive: object  # pymupdf.Archive with the book's images
    filename: str = ""
    ids: dict[str, Placed] = field(default_factory=dict)  # element id -> where it landed
    headings: list[tuple[int, str, str]] = field(default_factory=list)  # (level, text, id) in reading order
    pages: int = 0

    def __post_init__(self):
        import pymupdf

        self._pymupdf = pymupdf
        self._buf = io.BytesIO()
        self._writer = pymupdf.DocumentWriter(self._buf)
        self._dev = None
        self._free = None  # what is left of the current page

    def _new_page(self) -> None:
        pm = self._pymupdf
        if self._dev is not None:
            self._writer.end_page()
        if self.pages >= MAX_PAGES:
            raise BadDocumentError(self.filename, f"the book would lay out to more than {MAX_PAGES:,} pages. Split it "
                                                  "into parts and add them one by one.")
        self._dev = self._writer.begin_page(pm.Rect(0, 0, PAGE_W, PAGE_H))
        self.pages += 1
        self._free = pm.Rect(MARGIN_X, MARGIN_TOP, PAGE_W - MARGIN_X, PAGE_H - MARGIN_BOTTOM)

    def _record(self, pos) -> None:
        if not (pos.open_close & 1):
            return
        if pos.id and pos.id not in self.ids:
            self.ids[pos.id] = Placed(pos.pageno, tuple(float(v) for v in pos.rect))
        if pos.heading and pos.id and pos.text and pos.text.strip():
            self.headings.append((int(pos.heading), " ".join(pos.text.split()), pos.id))

    def add(self, html: str, new_page: bool = False) -> None:
        """Lay out one piece, continuing on the current page unless ``new_page``."""
        pm = self._pymupdf
        story = pm.Story(fit_code(html), CSS, EM, self.archive)
        if new_page or self._dev is None or self._free.height < 2 * EM:
            self._new_page()
        stuck = 0
        while True:
            fresh = self._free.y0 == MARGIN_TOP
            more, filled = story.place(self._free)
            story.element_positions(lambda pos: self._record(pos), {"pageno": self.pages})
            story.draw(self._dev)
            if not more:
                self._free = pm.Rect(MARGIN_X, filled[3] + GAP, PAGE_W - MARGIN_X, PAGE_H - MARGIN_BOTTOM)
                return
            stuck = stuck + 1 if fresh and filled[3] <= filled[1] else 0
            if stuck >= 2:
                raise BadDocumentError(self.filename, "an element of the book cannot be laid out on a page (it does "
                                                      "not fit and cannot be split). Convert the book to PDF instead.")
            self._new_page()

    def finish(self, title: str, language: str, outline: list[tuple[int, str, str]]) -> bytes:
        """The PDF: page numbers, outline ``(level, title, element id)`` for the ids that were placed,
        metadata; unused and duplicate objects (fonts repeated per page) removed."""
        pm = self._pymupdf
        if self._dev is None:
            self._new_page()
        self._writer.end_page()
        self._writer.close()
        doc = pm.open("pdf", self._buf.getvalue())
        try:
            _page_numbers(doc)
            toc = []
            for level, text, eid in outline:
                at = self.ids.get(eid)
                if at is None or not text.strip():
                    continue
                level = max(1, min(level, (toc[-1][0] + 1) if toc else 1))
                toc.append([level, " ".join(text.split())[:200], at.page,
                            {"kind": pm.LINK_GOTO, "page": at.page - 1, "to": pm.Point(MARGIN_X, at.y)}])
            doc.set_toc(toc)
            doc.set_metadata({"title": title, "producer": "Folio (laid out from the original with MuPDF)",
                              "creator": "Folio", "format": "PDF 1.7"})
            if language:
                doc.set_language(language)
            return doc.tobytes(garbage=3, deflate=True)
        finally:
            doc.close()
