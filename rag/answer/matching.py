"""How the extractive answerer matches a question's words with a sentence's: stemmed in the question's language as
well as in English ("deinstalliere" meets "deinstallieren"), and for a German or French question also by the words'
dictionary translations into English ("Datei" meets "file" in an English passage)."""
from __future__ import annotations

from ..text.glossary import bridges
from ..text.languages import STEMMERS, detect
from ..text.terms import key_terms, stem


def stemmer_language(question: str) -> str:
    """The language whose stemmer matches the question's words with a sentence's: the question's own where Snowball
    has one ("deinstalliere" meets "deinstallieren" in German), else English's."""
    lang = detect(question)
    return lang if lang in STEMMERS else "en"


def stems(text: str, lang: str) -> set[str]:
    """The stems of ``text``'s key terms in ``lang``, and in English too (a German or French question meets an English
    passage by its words' translations)."""
    words = key_terms(text)
    out = {stem(w, lang) for w in words}
    return out | {stem(w) for w in words} if lang != "en" else out


def content_stems(text: str, lang: str) -> set[str]:
    """``stems`` of the words of ``text`` that are not function words of ``lang`` either ("die", "für", "wird" are
    key terms to the English stop list): what two sentences of a German or French book share when they are about the
    same thing."""
    from bm25s.stopwords import STOPWORDS_FRENCH, STOPWORDS_GERMAN

    stop = {"de": STOPWORDS_GERMAN, "fr": STOPWORDS_FRENCH}.get(lang, ())
    return {stem(w, lang) for w in key_terms(text) if w not in stop}


def translated(question: str, terms: set[str], lang: str = "en") -> dict[str, set[str]]:
    """Each of the question's ``terms`` (stemmed in ``lang``) → the stems that count as it in a sentence: itself and,
    for a German or French question, its dictionary translations into English (``text.glossary.bridges``): "Datei" is
    found in an English passage as "file" (a German edition that left a chapter in English, an English book asked in
    German)."""
    members = {t: {t} for t in terms}
    for word, found in bridges(question, ("en",)).get("en", {}).items():
        key = stem(word.lower(), lang)
        if key in members:
            members[key] |= {stem(w) for tr in found for w in key_terms(tr)}
    return members
