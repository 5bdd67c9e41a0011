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
def a_word(word: str, lang: str) -> bool | None:
    """Whether ``word`` is a word of ``lang`` at all (in wordfreq's large list), as opposed to an identifier, a code
    or a coinage ("zstd", "squashfs"); None when there is no large list for ``lang``."""
    if lang not in _LARGE:
        return None
    try:
        from wordfreq import zipf_frequency

        return float(zipf_frequency(word, lang, wordlist="large")) > 0.0
    except Exception:  # noqa: BLE001 - a missing list: unknown, never an error
        return None
