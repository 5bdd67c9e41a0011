"""Key terms of a question or a sentence: lower-cased words without English function words, and their stems
(Snowball, English), so "tuples" meets "tuple" and "writing" meets "write" (used for overlap scores, the quote
check and follow-up detection; BM25 has its own per-language stemming in ``languages``)."""
from __future__ import annotations

import functools
import re

from .languages import fold_scripts

STOPWORDS = set("""a an and are as at be been but by can could did do does for from had has have how i if in into is it
its itself me more my no not of on or our she should so such than that the their them then there these they this those
to was we were what when where which who whom why will with would you your about also any each just only other same some
tell explain describe give show please mean means meant""".split())


def key_terms(text: str) -> list[str]:
    """Distinct words of ``text`` longer than two letters that are not in ``STOPWORDS``, in order (superscripts
    written plainly and footnote marks set apart, as BM25 reads them: ``languages.fold_scripts``)."""
    words = re.findall(r"[\w’'-]+", fold_scripts(text).lower())
    out: list[str] = []
    for w in words:
        w = w.strip("’'-")
        if len(w) > 2 and w not in STOPWORDS and w not in out:
            out.append(w)
    return out


@functools.lru_cache(maxsize=65536)
def stem(word: str, lang: str = "en") -> str:
    """"tuples" → "tupl", "writing" → "write" (Snowball's English stemmer, PyStemmer); with ``lang`` that language's
    Snowball stemmer ("deinstalliere" and "deinstallieren" → "deinstalli" in German), English where it has none."""
    return _stemmer(lang).stemWord(word)


@functools.lru_cache(maxsize=16)
def _stemmer(lang: str = "en"):
    import Stemmer

    from .languages import STEMMERS

    return Stemmer.Stemmer(STEMMERS.get(lang, "english"))


CAPTION_WORD = re.compile(r"^(?:fig|figs|figure|figures|table|tables|abb|abbildung|abbildungen|tabelle|tabellen|"
                          r"hình|bảng|chapter|kapitel|chapitre|section|page|seite)$", re.I)


ACRONYM_PLURAL = re.compile(r"^[A-Z]{2,}s$")  # "URLs", "ISBNs", "PDFs": the name is the acronym ("URL")


def opens_sentence(text: str, at: int) -> bool:
    """Whether the word at ``at`` begins a sentence of ``text``: a sentence's first word is capitalised anyway
    ("¿Cómo …?", "… cotutelle internationale. Dois-je …")."""
    j = at - 1
    while j >= 0 and text[j].isspace():
        j -= 1
    return j < 0 or text[j] in ".?!:;¿¡"


def capitalised_inside(text: str, word: str) -> bool:
    """Whether ``text`` writes ``word`` with its capital somewhere other than a sentence's start: a name's capital,
    not the sentence's."""
    return word[:1].isupper() and any(not opens_sentence(text, m.start())
                                      for m in re.finditer(rf"(?<!\w){re.escape(word)}(?!\w)", text))


@functools.lru_cache(maxsize=256)
def names(text: str) -> frozenset[str]:
    """The names in a question: words written with a capital inside the sentence ("Python", "LaTeX", "Mozart"; at
    a sentence's start only with a second capital: "AMC …"), three letters or more ("C", "AL" are not told apart
    from other words), caption words ("Figure", "Tabelle") left out, an acronym's plural as the acronym ("URLs" →
    "URL"). German nouns count too."""
    found = set()
    for m in re.finditer(r"\w+", text):
        w = m.group(0)
        if sum(ch.isupper() for ch in w) > (1 if opens_sentence(text, m.start()) else 0):
            found.add(w[:-1] if ACRONYM_PLURAL.match(w) else w)
    return frozenset(w for w in found if sum(ch.isalpha() for ch in w) >= 3 and not CAPTION_WORD.match(w))

