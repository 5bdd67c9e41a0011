"""Zones of a book that are not its running text: table of contents, index, references and the
copyright/front-matter page. Their chunks get the zone as ``kind``; retrieval leaves them out unless a
question asks for them ("what does reference 12 say", "which page covers X", "who publishes it"), so a
bibliography line or an index entry is never quoted as the answer to an ordinary question.

Found by the section's own title (en/de/fr/vi) or, for pages without such a section (Think Python's index
sits under its last chapter in the PDF outline), by the page's lines: mostly short entries ending in page
numbers or dot leaders (an index; a table of contents in the first tenth of the book), "Contents" /
"Index" as its head, or a copyright notice on one of the first pages; a chunk takes the zone of the page
its middle lies on.
"""
from __future__ import annotations

import re

from ..text.bylines import has_byline
from ..types import Chunk, ParsedBook

ZONES = ("toc", "index", "references", "front", "boilerplate")

_TITLES = {
    "references": r"references?|bibliograph(y|ie)|works cited|literatur(verzeichnis)?|quellen(verzeichnis)?|"
                  r"références( bibliographiques)?|ouvrages cités|tài liệu tham khảo",
    "index": r"index|stichwortverzeichnis|sachverzeichnis|register|symbolverzeichnis|abkürzungsverzeichnis|"
             r"index (alphabétique|général)|chỉ mục",
    "toc": r"(table of )?contents|inhalt(sverzeichnis)?|table des matières|sommaire|mục lục",
    # a paper's or book's administrative matter: never the answer to an ordinary question
    "boilerplate": r"competing interests?|conflicts? of interests?|declaration of interests?|funding|financial "
                   r"disclosure|acknowledge?ments?|author contributions?|authors'? contributions?|data availability"
                   r"( statement)?|ethics statement|licen[cs]e|copying|gnu free documentation license|"
                   r"danksagung|interessenkonflikte?|finanzierung|remerciements|conflits? d'intérêts?|"
                   r"financement|lời cảm ơn",
}
_TITLE = {z: re.compile(rf"^\W*({p})\W*$", re.I) for z, p in _TITLES.items()}
_ENTRY = re.compile(r"(\d{1,4}|[ivxlc]{1,6})(\s*[-–]\s*\d{1,4})?\s*$", re.I)  # "... 12", "..., 45–47", "... xiv"
_LEADER = re.compile(r"(\.\s?){5,}")  # dot leaders: "Glossary . . . . . . 31"
_NUMBER = re.compile(r"^([\d.]+|[ivxlc]{1,6})$", re.I)  # a section's or a page's number alone on its line
_COPYRIGHT = re.compile(r"copyright|©|all rights reserved|isbn|creative commons|urheberrecht|bản quyền", re.I)
_ASKS = re.compile(
    r"\b(references?|cited?|citations?|bibliograph\w*|literatur\w*|quellen\w*|sources? of|footnotes?|"
    r"index|register|stichwort\w*|table of contents|contents|inhaltsverzeichnis|table des matières|sommaire|"
    r"which pages?|what pages?|on what page|welche(n|r)? seite\w*|auf welcher seite|"
    r"copyright|isbn|licen[cs]e\w*|lizenz\w*|publish\w*|publisher|verlag\w*|edition|auflage|"
    r"fund\w*|grants?|acknowledg\w*|thank\w*|competing|conflicts? of interest|contribut\w*|"
    r"trang nào|mục lục|tài liệu tham khảo|bản quyền|xuất bản)\b|\[\d+\]|reference \d+", re.I)


# a paragraph that opens with an administrative label ("Competing interests: …", "Funding: …") inside running text
BOILERPLATE_LABEL = re.compile(
    r"^\W*(competing interests?|conflicts? of interests?|declaration of interests?|funding( statement)?|financial "
    r"disclosure|acknowledge?ments?|author contributions?|data availability( statement)?|ethics statement|"
    r"interessenkonflikte?|finanzierung|danksagung|conflits? d'intérêts?|financement|remerciements)\s*:", re.I)
# a paragraph of a journal article's record, set in a column beside the abstract: "Received: October 9, 2017",
# "Copyright: © 2018 …", "Citation: Ralambondrainy M, … (2018) In vitro …", "Editor: Cheryl A. Stoddart, University
# of …" — with the date, year or name and affiliation that make it one (a glossary's "Editor: A program used to
# create and change text files" is no record)
_YEAR = r"(?:19|20)\d\d\b"
RECORD = re.compile(
    rf"^\W*(?:(?:received|accepted|published(?: online)?)\s*:\s*[^\n]{{0,30}}?\b{_YEAR}|"
    rf"copyright\s*:\s*(?:©|\(c\)|{_YEAR})|"
    rf"citation\s*:[\s\S]{{0,300}}?\({_YEAR}\)|"
    r"(?:academic |handling )?editor\s*:\s*(?-i:[A-Z][\w.'’-]*)(?:\s+(?-i:[A-Z][\w.'’-]*)){1,3},)", re.I)


def section_zone(path: str) -> str:
    """The zone a section's title or one of its parents' names ("Abstract > References" → references,
    "References > Journals" too), else ""."""
    for part in reversed(path.split(">")):
        title = re.sub(r"^[\d.]+\s+", "", part.strip())  # "7 References"
        zone = next((z for z, rx in _TITLE.items() if rx.match(title)), "")
        if zone:
            return zone
    return ""


def page_zone(text: str, number: int, page_count: int) -> str:
    """A page's zone from its lines alone (see the module doc), else ""."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    head = next((z for ln in lines[:3] for z in ("toc", "index") if _TITLE[z].match(ln)), "")
    if head:  # "Contents" / "Index" as the page's running head or title
        return head
    worded = [ln for ln in lines if not _NUMBER.match(ln)]  # MuPDF may read "1.1", the title and "15" as three lines
    if len(lines) >= 12 and sum(bool(_LEADER.search(ln)) for ln in worded) >= 0.3 * len(worded):
        return "toc" if number <= max(3, page_count // 10) else "index"
    if len(lines) >= 12:
        entries = sum(1 for ln in lines if len(ln) <= 70 and _ENTRY.search(ln) and re.search(r"[^\W\d]", ln))
        if entries >= 0.6 * len(lines):
            return "toc" if number <= max(3, page_count // 10) else "index"
    if number <= min(6, page_count // 2) and _COPYRIGHT.search(text) and len(text) < 3000:
        return "front"
    return ""


# a paper's affiliations: institutions and an e-mail address, in the part of its first pages before any heading
_AFFILIATION = re.compile(r"\b(universit\w*|institut\w*|department|département|departamento|laborator\w*|faculty|"
                          r"fakultät|faculté|school of|college|hospital|klinik\w*|centre|center)\b", re.I)
_MAIL = re.compile(r"[\w.+-]+@[\w-]+(\.[\w-]+)+")
AFFILIATION_WORDS = 2


def front_chunk(chunk: Chunk, title: str = "") -> bool:
    """A chunk of the first pages, before the first heading, that is the title and byline ("RESEARCH ARTICLE In
    vitro comparison … Miora Ralambondrainy¹, Essia Belarbi², …") or the affiliations with their e-mail addresses:
    who wrote it, never the answer to a question about what it says. ("Who wrote …?" reads the first chunk itself.)"""
    if chunk.section.strip() or chunk.page_start > 2 or chunk.chunk_index > 3:
        return False
    if len(_AFFILIATION.findall(chunk.text)) >= AFFILIATION_WORDS and _MAIL.search(chunk.text):
        return True
    lines = [ln for ln in chunk.text.split("\n") if ln.strip()]  # the book's first chunk: a title and names only
    return chunk.chunk_index == 0 and len(chunk.text) <= 600 and len(lines) <= 8 and has_byline(chunk.text, title)


def tag(book: ParsedBook, chunks: list[Chunk]) -> list[Chunk]:
    """Set each chunk's ``kind`` to its zone where it lies in one (section title first, then its first page, then
    the chunk itself: a title page's byline, a paper's affiliations)."""
    pages = {p.number: page_zone(p.text, p.number, book.page_count) for p in book.pages}
    for c in chunks:
        zone = section_zone(c.section) or pages.get(book.page_at((c.char_start + c.char_end) // 2).number, "") \
            or ("front" if front_chunk(c, book.title) else "")
        if zone:
            c.kind = zone
    return chunks


def asks_for_zone(question: str) -> bool:
    """Whether a question is about references, the index/contents, pages or the book's front matter."""
    return bool(_ASKS.search(question))
