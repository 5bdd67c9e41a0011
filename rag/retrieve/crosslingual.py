"""A question in one language, books in another: the question's content words with their dictionary translations.

BM25 then also searches a book for the translations in the book's language, and the answerability features count
a question word as found in a passage when the word or one of its translations is there. Only content words are
looked up (function and question words are the question's frame, and their many senses would add noise); a
hyphenated word is looked up by its parts ("Firmen-Proxy"). Dictionaries: ``rag.text.glossary``.
"""
from __future__ import annotations

import functools
import re

_WORD = re.compile(r"[^\W\d_]+", re.U)


@functools.lru_cache(maxsize=256)
def bridges(query: str, targets: tuple[str, ...], per_word: int = 6,
            folder: str = "") -> dict[str, dict[str, tuple[str, ...]]]:
    """Book language → {content word of the question → its translations}, for each of ``targets`` (the searched
    books' languages) that is not the question's own language and has an installed dictionary. {} otherwise."""
    from ..text.query_terms import function_words
    from ..text.glossary import DICT_DIR, dictionary, translate
    from ..text.languages import detect, surely, tokenize

    source = detect(query)
    if not surely(query, source):  # a few words a language is not sure of ("man page mount options") stay as they are
        return {}
    where = folder or str(DICT_DIR)
    others = [t for t in dict.fromkeys(targets) if t != source and dictionary(source, t, where) is not None]
    if not others:  # the books are in the question's language, or no dictionary bridges the two
        return {}
    frame = function_words(source)
    found_words = [w for w in dict.fromkeys(_WORD.findall(query)) if len(w) > 2 and w.lower() not in frame]
    words = [w for w, toks in zip(found_words, tokenize(found_words, source)) if toks and toks[0] not in frame]
    out = {}
    for target in others:
        found = translate(words, source, target, per_word, where)
        if found:
            out[target] = found
    return out


def extra_text(bridge: dict[str, dict[str, tuple[str, ...]]]) -> dict[str, str]:
    """Book language → the translations as one text, to search beside the question."""
    return {lang: " ".join(t for ts in found.values() for t in ts) for lang, found in bridge.items()}
