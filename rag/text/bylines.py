"""Bylines: whether a line of a title page names the book's authors ("Allen Downey", "Miora Ralambondrainy¹, Essia
Belarbi², …"), not its title, a publisher or a heading. Used by "Who wrote …?" (``rag.query.authors``) and by the
zones that keep a paper's byline out of ordinary answers (``rag.chunking.zones``)."""
from __future__ import annotations

import re

from .terms import stem

# words of a title that do not name one book
GENERIC = {stem(w) for w in ("book manual handbook guide paper article study introduction edition version "
                             "learning reference user volume buch handbuch anleitung leitfaden lehrbuch skript "
                             "artikel einführung livre manuel cours tutoriel sách").split()}
# a person's name: capitalised words, initials and particles ("J. Berg Esenwein", "Chaker El Kalamouni")
NAME = re.compile(r"(?:[A-ZÀ-Ý][\w'’-]+|[A-Z]\.)(?:\s+(?:[A-ZÀ-Ý][\w'’-]+|[A-Z]\.|van|von|de|da|di|du|le|la|el)){1,4}")
# words that make a capitalised line an organisation's name (a publisher, a team), not a person's
ORGANISATION = re.compile(r"\b(press|publish\w*|publications?|books|verlag|éditions?|editions?|inc|ltd|llc|gmbh|"
                          r"university|universität|université|institut\w*|foundation|stiftung|team|project|"
                          r"projekt|projet|society|association|company|corporation|developers|community|"
                          r"gutenberg|department|school|college|library|lab|laboratory|fachbereich|fakultät|"
                          r"faculty|faculté|lehrstuhl|chair)\b", re.I)
PARTICLES = {"van", "von", "der", "den", "zu", "de", "da", "di", "du", "le", "la", "el", "and", "und", "et", "y",
             "by", "von", "và"}


def has_byline(text: str, title: str = "", headings: frozenset[str] | set[str] = frozenset()) -> bool:
    """Whether a title page's text has a line that names people (``names_people``)."""
    return any(names_people(" ".join(line.split()), title, headings) for line in text.split("\n") if line.strip())


def stem_set(text: str) -> set[str]:
    return {stem(w.lower()) for w in re.findall(r"[^\W\d_][\w'’-]*", text)}


def names_people(text: str, title: str = "", headings: frozenset[str] | set[str] = frozenset()) -> bool:
    """Whether a line of a title page is a byline: most of its letters are in personal names, two words or more,
    and no lower-case word but a particle ("Allen Downey", "Miora Ralambondrainy¹, Essia Belarbi², …", "By Debbie
    Kuhlmann", "Dale Carnegie and J. Berg Esenwein"; not "How to Think Like a Computer Scientist"), nor only words
    of the book's ``title`` and generic ones ("Learning Manual"), nor an organisation ("Green Tea Press"), nor a line
    with digits or "©", nor one whose words all occur in the book's section ``headings`` ("Getting Started")."""
    words = re.findall(r"[^\W\d_][\w'’-]*", text)
    if not words or text.isupper() or any(w[0].islower() and w not in PARTICLES for w in words) \
            or ORGANISATION.search(text) or re.search(r"[0-9©]", text) or stem_set(text) <= headings:
        return False
    own = {stem(w.lower()) for w in words} - GENERIC - {stem(w.lower()) for w in re.findall(r"\w+", title)}
    letters = sum(ch.isalpha() for ch in text)
    named = sum(sum(ch.isalpha() for ch in m.group(0)) for m in NAME.finditer(text))
    return bool(own) and named >= 0.6 * letters
