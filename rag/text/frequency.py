"""How ordinary a word is in its language at large: wordfreq's Zipf scale (about 7 for "the", 3 for a word met
once per million words), from the data wordfreq installs (nothing is fetched). Its small lists are read (about
3 MB of memory a language, loaded at a language's first word): they hold the words from Zipf 3 up, so a rarer word
reads 0."""
from __future__ import annotations

import functools

# wordfreq's languages that Folio detects; a word of another language has no frequency here
_LANGS = frozenset({"en", "de", "fr", "vi", "es", "it", "nl", "pt"})


@functools.lru_cache(maxsize=4096)
def zipf(word: str, lang: str) -> float | None:
    """``word``'s Zipf frequency in ``lang``; None when wordfreq has no list for ``lang`` (or cannot load)."""
    if lang not in _LANGS:
        return None
    try:
        from wordfreq import zipf_frequency

        return float(zipf_frequency(word, lang, wordlist="small"))
    except Exception:  # noqa: BLE001 - a missing list makes every word "unknown frequency", never an error
        return None


def ordinary(word: str, lang: str, least: float = 3.0) -> bool | None:
    """Whether ``word`` is an everyday word of ``lang`` (Zipf ≥ ``least``: "get", "times", "bekomme"), as opposed
    to a name, a term of art or an identifier ("zstd", "venv", "anacrusis"); None when its frequency is unknown."""
    z = zipf(word, lang)
    return None if z is None else z >= least


# the languages wordfreq has a large list for (words from Zipf 1 up: "untrusted", "digitising", "loszulegen" are in
# it, "zstd" and "squashfs" are not); read only when asked (30–70 MB a language)
_LARGE = frozenset({"en", "de", "fr", "es", "it", "nl", "pt"})


@functools.lru_cache(maxsize=4096)
def large_zipf(word: str, lang: str) -> float | None:
    """``word``'s Zipf frequency in wordfreq's large list of ``lang`` (0 for no word of it); None when there is none."""
    if lang not in _LARGE:
        return None
    try:
        from wordfreq import zipf_frequency

        return float(zipf_frequency(word, lang, wordlist="large"))
    except Exception:  # noqa: BLE001 - a missing list: unknown, never an error
        return None


def a_word(word: str, lang: str) -> bool | None:
    """Whether ``word`` is a word of ``lang`` at all (in wordfreq's large list), as opposed to an identifier, a code
    or a coinage ("zstd", "squashfs"); None when there is no large list for ``lang``."""
    z = large_zipf(word, lang)
    return None if z is None else z > 0.0


# suffixes that make common nouns and verbs of German (what a product or a person is rarely called): a word of the
# language ending in one is no name even when it is too rare for the everyday list ("Nummerierung", "Kompilieren")
_COMMON_SUFFIX = {"de": ("ung", "ungen", "ieren", "heit", "keit", "schaft", "ität", "tion", "tionen", "ismus",
                         "grafie", "graphie", "logie")}
COMPOUND_HEAD, COMPOUND_TAIL = 4, 4  # a compound part's least letters ("Teil|listen"; "Dock|er", "der|bird" are none)
OWN_MARGIN = 1.0  # a part is the language's own word when this much more frequent in it than in English ("Terra|form":
# terra 3.53 in German, 3.44 in English, is no German word)
LOANWORD_MARGIN = 0.8  # a word German took from English and uses nearly as much ("start" 4.9 vs 5.6, "option" 4.4 vs
# 4.8), not one its lists hold only as English ("face" 3.8 vs 5.5, "over" 4.1 vs 6.1)
OWN_WORD_ZIPF = 2.0  # a word of the language's large list this frequent and far more its own than English's is no name
LONGEST = 40  # letters of the longest word split into parts (a 300-letter token is no compound noun)
HEAD_ZIPF = 2.5  # a compound's first part may be a rarer word than its last ("binär|datei"): the last is inflected
# endings of German plurals and genitives: "Rechners", "Verzeichnisse" are the everyday "Rechner", "Verzeichnis"
_INFLECTION = {"de": ("es", "s", "en", "n", "e", "se")}


@functools.lru_cache(maxsize=4096)
def compound(word: str, lang: str, least: float = 3.0, depth: int = 0) -> bool:
    """Whether ``word`` is two everyday words of ``lang`` written as one, the first perhaps with a linking s
    ("Publikationsliste" = Publikation + s + liste, "Teillisten", "Seitenangabe"; not "Docker", "Zotero"). One part
    at least must be more a word of ``lang`` than of English: German lists hold English words too, and a product is
    often two of them ("Thunderbird", "Overleaf"). The second part may itself be a compound or a derived word
    ("Teil|raum|topologie"), ``depth`` parts deep."""
    w = word.lower()
    if len(w) > LONGEST:
        return False
    for i in range(COMPOUND_HEAD, len(w) - COMPOUND_TAIL + 1):
        head, tail = w[:i], w[i:]
        if not (ordinary(tail, lang, least) or _derived(tail, lang) or (depth < 2 and compound(tail, lang, least,
                                                                                              depth + 1))):
            continue
        if not (ordinary(head, lang, least) or (large_zipf(head, lang) or 0.0) >= HEAD_ZIPF):
            if not (head.endswith("s") and len(head) > COMPOUND_HEAD and ordinary(head[:-1], lang, least)):
                continue
            head = head[:-1]
        if lang == "en" or any((zipf(x, lang) or 0.0) >= (zipf(x, "en") or 0.0) + OWN_MARGIN for x in (head, tail)):
            return True
    return False


def parts(word: str, lang: str, least: float = 3.0) -> tuple[str, str] | None:
    """Two everyday words of ``lang`` that ``word`` is written as, the first perhaps with a linking s, each used in
    ``lang`` nearly as much as in English (``LOANWORD_MARGIN``): "Startoption" → start, option; not "Facebook" (face,
    book), "Thunderbird", "Overleaf", whose parts are English words German lists hold. None when it is no two such
    words."""
    w = word.lower()
    if len(w) > LONGEST or not w.isalpha():
        return None

    def own(x: str) -> bool:
        return ordinary(x, lang, least) and (zipf(x, lang) or 0.0) >= (zipf(x, "en") or 0.0) - LOANWORD_MARGIN

    for i in range(len(w) - COMPOUND_TAIL, COMPOUND_HEAD - 1, -1):  # the longest first part first
        head, tail = w[:i], w[i:]
        if not own(tail):
            continue
        if own(head):
            return head, tail
        if head.endswith("s") and len(head) > COMPOUND_HEAD and own(head[:-1]):
            return head[:-1], tail
    return None


def common_noun(word: str, lang: str, least: float = 3.0) -> bool:
    """Whether ``word``, capitalised as a German noun is ("Bibliografie", "Publikationsliste"), is a common noun of
    ``lang`` rather than a name: an everyday word (also inflected: "Rechners"), a compound of two (``compound``), or
    a word of the language made with a common noun's suffix. A word with a capital inside ("BibTeX", "OpenOffice")
    or a digit is a name."""
    if not word.isalpha() or any(ch.isupper() for ch in word[1:]):
        return False
    w = word.lower()
    if ordinary(w, lang, least) or any(w.endswith(x) and len(w) - len(x) >= COMPOUND_HEAD
                                       and ordinary(w[:-len(x)], lang, least) for x in _INFLECTION.get(lang, ())):
        return True
    return _derived(w, lang) or compound(w, lang, least) or _own_word(w, lang)


def _own_word(word: str, lang: str) -> bool:
    """A rarer German word that English hardly uses and that German also writes inflected ("Fräse" 2.5 in German,
    0 in English, "Fräsen" 2.7; "Transkriptionen"): the language's own noun, not a name. A product or a project is
    named alike in every language ("Docker" 2.8 and 3.0, "Thunderbird", "Kubernetes"), and one known mostly in
    German has no plural ("Lexware", "Threema", "DATEV")."""
    if lang not in _INFLECTION:
        return False
    own = large_zipf(word, lang) or 0.0
    return own >= OWN_WORD_ZIPF and own >= (large_zipf(word, "en") or 0.0) + OWN_MARGIN \
        and any((large_zipf(word + x, lang) or 0.0) >= OWN_WORD_ZIPF for x in _INFLECTION[lang])


def _derived(word: str, lang: str) -> bool:
    """A word of ``lang`` made with a common noun's suffix (``_COMMON_SUFFIX``: "nummerierung", "topologie")."""
    return word.endswith(_COMMON_SUFFIX.get(lang, ())) and bool(a_word(word, lang))
