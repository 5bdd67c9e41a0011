"""A question's BM25 terms: its tokens for books in a language (without its own language's function words when
that differs), the function words of each language as another language's tokenizer writes them, and each term's
IDF weight within the searched books (``rag.library.bm25``)."""
from __future__ import annotations

import functools
import math
import re

from .languages import MARKERS, detect, surely, tokenize
from .terms import STOPWORDS


EVERYDAY_ZIPF = 3.0  # Zipf frequency from which a word the books lack counts as an everyday word (half weight)


def idf(df: float, n: int) -> float:
    """bm25s's (Lucene's) IDF."""
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


@functools.lru_cache(maxsize=256)
def words(text: str, lang: str) -> tuple[str, ...]:
    """BM25 tokens of words already in the book's language (a question's translations): no frame to drop."""
    return tuple(tokenize([text], lang)[0])


@functools.lru_cache(maxsize=256)
def query_tokens(query: str, lang: str) -> tuple[str, ...]:
    """The question's BM25 tokens for books in ``lang``; a question surely in another language loses its own
    function words too ("what", "is", "the" are not French stopwords, yet match a French book's English example
    more than anything the question is about)."""
    toks = list(words(query, lang))
    own = detect(query)
    if own != lang and surely(query, own):
        frame = function_words(own, lang)
        toks = [t for t in toks if t not in frame]
    return tuple(toks)


def weigh_terms(query: str, present: list[str], n: int, df_of) -> dict[str, tuple[float, bool]]:
    """``BM25Index.term_weights`` given the searched books' languages, their chunk count and a term → df function."""
    own = detect(query)
    langs = [own] if own in present else present
    n = max(n, 1)
    out: dict[str, tuple[float, bool]] = {}
    for lang in langs:
        for t in words(query, lang):
            if t in function_words(lang) or t in function_words(own):  # "do", "was", "gì": the question's
                continue  # frame, not its subject — in the books' language or in the question's own
            df = df_of(t)
            weight = idf(max(df, 0.5), n)
            if not df and everyday_missing(query, t, lang):
                weight /= 2  # an everyday word the books lack ("get", "times") says less than a name or a term
            out[t] = (weight, df > 0)
    return out


def everyday_missing(query: str, term: str, lang: str) -> bool:
    """Whether the question's ``term`` (a BM25 token for books in ``lang``), were no book to hold it, would be an
    everyday word of the question's language ("get", "times", "bekomme") rather than a name, a number or a term of
    art ("zstd", "MuseScore", "Raspberry")."""
    if any(ch.isdigit() for ch in term) or any(w.startswith(term) for w in _capitalised(query)):
        return False
    return _everyday(_surfaces(query, lang).get(term, term), _language(query))


@functools.lru_cache(maxsize=256)
def _capitalised(query: str) -> frozenset[str]:
    """The question's words written with a capital inside it (names, or German nouns), lower-cased."""
    return frozenset(w.lower() for w in re.findall(r"\w+", query)[1:] if w[:1].isupper())


@functools.lru_cache(maxsize=256)
def _language(query: str) -> str:
    return detect(query)


def surface(query: str, term: str, lang: str) -> str:
    """The word of the question (as written) that ``term`` comes from."""
    return next((w for w in re.findall(r"\w+", query) if w.lower() == _surfaces(query, lang).get(term)), term)


@functools.lru_cache(maxsize=256)
def _surfaces(query: str, lang: str) -> dict[str, str]:
    """Token → the question's word it comes from."""
    found = re.findall(r"\w+", query)
    out: dict[str, str] = {}
    for w, toks in zip(found, tokenize(found, lang)):  # one call, not one (cached) call a word
        for t in toks:
            out.setdefault(t, w.lower())
    return out


def _everyday(word: str, lang: str) -> bool:
    """An everyday word of the question's language (``rag.text.frequency``); where its frequency is unknown, a
    word shorter than seven letters."""
    from .frequency import ordinary

    known = ordinary(word, lang, EVERYDAY_ZIPF)
    return len(word) < 7 if known is None else known


# a question's frame beyond the markers that tell its language (they are no markers: "en" and "comment" are words
# of other languages too): French elisions and pronouns ("Qu'est-ce qu'un tuple en Python ?" asks about a tuple and
# Python, not about "qu" and "en"), German "wie viele"
FRAME = {"fr": "qu en y ne il elle on nous vous comment quoi combien", "de": "viele viel"}


@functools.lru_cache(maxsize=16)
def function_words(lang: str, written_in: str = "") -> frozenset[str]:
    """BM25 tokens of a language's most frequent function and question words (``languages.MARKERS``, ``FRAME``),
    plus the English question frame of ``terms.STOPWORDS``, as ``written_in``'s tokenizer writes them (default: the
    language's own), and as written."""
    listed = MARKERS.get(lang, "") + " " + FRAME.get(lang, "") + (" " + " ".join(sorted(STOPWORDS)) if lang == "en"
                                                                  else "")
    return frozenset(tokenize([listed], written_in or lang)[0]) | frozenset(listed.split())


# "like %myop%", "such as 7.3pt", "z. B. <datei>", "comme \\foo": what follows an example's lead word
EXAMPLE_LEAD = re.compile(r"(?:\b(?:like|such as|e\.g\.|for example|for instance|wie|z\.\s?B\.|zum Beispiel|etwa|"
                          r"comme|par exemple|tels? que|telles? que))\s?[,:]?\s+(\S+)", re.IGNORECASE)
PLACEHOLDER = re.compile(r"[%<>\\={}$#@|~^_(]|^\d")  # "%myop%", "<datei>", "\\foo", "$HOME", "my_f2(x)", "7.3pt"


def example_values(query: str) -> list[str]:
    """The example values ``query`` makes up: a token after "like", "such as", "e.g." (German and French alike)
    written as a placeholder or code (with "%", "<", "\\", "$", "_", "(" …, or starting with a digit: "%myop%", "7.3pt",
    "<-3,6-8,10>", "my_f2(x)") illustrates a kind of thing; a book may explain the kind ("%anything%" operators) and
    never write the user's instance. A name, quoted or not ("Kubernetes", "IPv6", "Node.js"), is no such value: it
    may be what is asked."""
    found = (m.group(1).strip(".,;:?!\"'“”‘’«»()[]") for m in EXAMPLE_LEAD.finditer(query))
    return [tok for tok in found if tok and PLACEHOLDER.search(tok)]
