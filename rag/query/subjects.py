"""Which books a question names by their title: "How do I plot in Octave?" with *GNU Octave* in the library, "Wie
deinstalliere ich TeX Live?" with *TeX Live Anleitung*, "How do I start AMC?" with *Auto Multiple Choice* (a name
written as the title's initials).

A title says what a book is about; how often a book mentions a name does not ("PDF" fills a guide to a program
that writes PDF files, "Plus" fills any French book). So a question that names a book's title searches that book
(``rag.pipeline.stages.scope``) rather than the books that only mention the name often
(``LibraryBM25.subject_books``); those are searched for a name no picked title holds (``subject_scope``).
"""
from __future__ import annotations

import functools
import re
from typing import Callable

from ..text.terms import names

# languages that write every noun with a capital: there a capitalised word is a name only when it is no everyday word
# ("Docker", "GNOME", "QEMU" are; "Container", "Image", "Paket", "Handbuch" are not; here and in the answerability
# features, ``rag.retrieve.answerability``)
NOUNS_CAPITALISED = frozenset({"de"})


def _initials(title: str) -> set[str]:
    """Acronyms of a title's runs of capitalised words ("Auto Multiple Choice" → AMC, "GNU Octave" → GO … only
    runs of two or more words)."""
    words = re.findall(r"\w+", title)
    out, run = set(), []
    for w in words + [""]:
        if w[:1].isupper():
            run.append(w[0])
            continue
        for i in range(len(run)):
            for j in range(i + 2, len(run) + 1):
                out.add("".join(run[i:j]))
        run = []
    return out


@functools.lru_cache(maxsize=256)  # the title rule and the subject rule ask for one question's names in turn
def question_names(question: str) -> frozenset[str]:
    """The question's names that could be a title's words: in German, a capitalised everyday noun is none (a word
    with a capital inside, "TeX", "GNOME", always is)."""
    from ..text.frequency import common_noun, ordinary
    from ..text.languages import detect
    from ..text.query_terms import EVERYDAY_ZIPF

    found = names(question)
    lang = detect(question)
    if lang in NOUNS_CAPITALISED:  # a common noun ("Handbuch", "Publikationsliste", "Nummerierung") is none
        found = frozenset(w for w in found if any(ch.isupper() for ch in w[1:])
                          or not (ordinary(w.lower(), lang, EVERYDAY_ZIPF) or common_noun(w, lang, EVERYDAY_ZIPF)))
    return found


def unlisted_words(question: str) -> frozenset[str]:
    """The question's words in lower case that are no word of its language nor of English ("gnuplot", "lilypond",
    "ffmpeg"; not "octave", "live", "python"): program names written as a shell is typed."""
    from ..text.frequency import ordinary
    from ..text.languages import detect

    lang = detect(question)
    return frozenset(w for w in re.findall(r"(?<![\w-])[a-z][a-z0-9]{3,}(?![\w-])", question)
                     if not any(ordinary(w, code, 3.0) is not False for code in {lang, "en"}))


def titled_books(question: str, titles: dict[str, str]) -> list[str]:
    """The books (ids, in ``titles``' order) whose title holds the most of the question's names, as a word or as the
    initials of its capitalised words; [] when no title holds one, or every title does. A name written in lower
    case counts when it is no word of the question's language or of English ("in gnuplot": *gnuplot
    documentation*)."""
    found = question_names(question) | unlisted_words(question)
    if not found or len(titles) < 2:
        return []
    count = {}
    for book, title in titles.items():
        words = {w.lower() for w in re.findall(r"\w+", title)}
        initials = _initials(title)
        n = sum(1 for w in found if w.lower() in words or w in initials)
        if n:
            count[book] = n
    if not count:
        return []
    top = max(count.values())
    picked = [b for b in titles if count.get(b) == top]
    return picked if len(picked) < len(titles) else []


def subject_scope(question: str, titles: dict[str, str], names: set[str],
                  about: Callable[[set[str]], list[str]]) -> set[str]:
    """The books a question is about: those its names title (``titled_books``) and, for its ``names`` that no such
    title holds, the books ``about`` finds them the subject of (``LibraryBM25.subject_books``): "Ich habe Debian
    Buster für LinuxCNC installiert …" searches a Debian guide by its title and the LinuxCNC manual, whose title
    does not name it, by what it is about. Empty: no book is picked out (every book is searched)."""
    titled = titled_books(question, titles)
    words = {w.lower() for b in titled for w in re.findall(r"\w+", titles[b])}
    untitled = {w for w in names if w.lower() not in words}
    return set(titled) | (set(about(untitled)) if untitled else set())


def program_names(question: str, languages: set[str]) -> set[str]:
    """The question's names that may be what a book is about although its title does not say so ("LaTeX", "Debian",
    "MuseScore"): not an everyday word of a language the books are in ("Plus" is French, "Live" English), not a
    short all-capital abbreviation (a format or a standard many books use: "PDF", "USB", "ISO", "JPEG"). A word
    written with a capital inside ("LaTeX") is always one."""
    from ..text.frequency import ordinary
    from ..text.query_terms import EVERYDAY_ZIPF

    def mixed(w: str) -> bool:  # "LaTeX", "LilyPond": a name even where the word is an everyday one ("latex")
        return any(ch.isupper() for ch in w[1:]) and not w.isupper()

    return {w for w in question_names(question)
            if mixed(w) or (not (w.isupper() and len(w) <= 5)
                            and not any(ordinary(w.lower(), lang, EVERYDAY_ZIPF) for lang in languages))}
