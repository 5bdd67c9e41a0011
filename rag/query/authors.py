""""Who wrote Think Python?", "Who are the authors of the essential oils paper?": the answer is the book's byline,
the names on its title page (its first chunk), which such a question's few words never retrieve. Only a question
that names a book of the library (by the words of its title) or points at the one being read ("this book", "the
paper") is answered so: "Who wrote the Linux kernel?" names no book, and is searched as any question."""
from __future__ import annotations

import functools
import re

from ..text.terms import key_terms, stem
from .admin import labels_asked
from ..text.bylines import GENERIC, stem_set

# a who-question about writing: "Who wrote …?", "Who are the authors of …?", "By whom was … written?" — not "What do
# the authors of the paper conclude?"
ASKS = re.compile(
    r"\b(who\s+(wrote|writes|has\s+written|authored|edited|is\s+the\s+author|are\s+the\s+authors|"
    r"is\s+the\s+writer)|written\s+by\s+whom|by\s+whom\b.*\bwritten|"
    r"wer\s+(hat|haben)\b.*\b(geschrieben|verfasst)|wer\s+(ist|sind|war|waren)\s+(der|die)\s+(autor\w*|verfasser\w*)|"
    r"qui\s+(a|ont)\s+écrit|qui\s+(est|sont)\s+(l['’]\s*|les\s+)auteurs?|"
    r"ai\s+(là\s+tác\s+giả|viết|đã\s+viết)|tác\s+giả\s+(của\s+.*\s+)?là\s+ai)", re.I)
# the words of such a question that do not name the book (what is left must be words of its title)
ASKING = {stem(w) for w in ("who wrote writes written write authored author authors edited writer whom "
                            "wer hat haben geschrieben verfasst autor autoren autorin verfasser war waren "
                            "qui écrit auteur auteurs ai tác giả viết là của đã").split()}
# the question points at the book being read
DEICTIC = re.compile(r"\b(this|the|dieses|diese[ns]?|das|der|die|ce|cette|le|la|l')\s*(book|paper|article|manual|"
                     r"document|text|study|handbook|guide|tutorial|script|buch|handbuch|skript|artikel|studie|"
                     r"anleitung|livre|manuel|étude|guide)\b|\b(sách|bài báo|tài liệu)\s+(này|đó)\b", re.I)


def asks_authors(question: str) -> bool:
    """Whether the question asks who wrote a book (an "author contributions" question is an administrative one)."""
    return bool(ASKS.search(question)) and not labels_asked(question)


def named_books(question: str, titles: dict[str, str], reading: list[str], languages: dict[str, str] | None = None,
                question_language: str = "", asking: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """The books whose titles hold every word the question names its book by ("the essential oils paper" → the
    paper whose title has "essential oils"; not "the Python language" for Think Python) — of several, those in the
    question's language; else, when it points at "this book" / "the paper", the book being read (``reading``: the
    one book asked, or the one the chat is about), if there is one. ``asking``: the words of the kind of question
    that name no book (besides those of "who wrote …")."""
    named = _words(question) - ASKING - GENERIC - set(asking)
    found = [b for b, t in titles.items() if named and named <= _words(t)]
    if len(found) > 1 and languages and question_language:
        found = [b for b in found if languages.get(b) == question_language] or found
    if found:
        return found
    return [b for b in reading if b in titles][:1] if DEICTIC.search(question) else []


def _words(text: str) -> set[str]:
    """Stems of ``text``'s words without the function words of the languages Folio reads."""
    return {stem(w) for w in key_terms(text) if w not in _stopwords()}


@functools.lru_cache(maxsize=1)
def _stopwords() -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN, STOPWORDS_FRENCH, STOPWORDS_GERMAN

    return frozenset(STOPWORDS_EN) | frozenset(STOPWORDS_GERMAN) | frozenset(STOPWORDS_FRENCH)


def heading_words(sections: list) -> set[str]:
    """The stems of the words of a book's section titles (``Book.sections``: (path, start, end))."""
    return {w for path, *_ in sections for w in stem_set(str(path).rsplit(">", 1)[-1])}


# a section that lists a book's authors ("1.3 Authors", "Autoren", "Contributors", "Credits")
SECTION = re.compile(r"^\W*(\d+(\.\d+)*\.?\s+)?(authors?|autoren|autor|verfasser|auteurs?|contributors|credits|"
                     r"mitwirkende|tác\s+giả)\W*$", re.I)
SECTION_MARKS = ("author", "autor", "verfasser", "auteur", "contributor", "credits", "mitwirkende", "tác giả")


def lists_authors(section: str) -> bool:
    """Whether a section path's innermost heading is the book's list of authors."""
    return bool(SECTION.match(section.rsplit(">", 1)[-1].strip()))
