"""Can a book's text be searched at all? Checked once, on the parsed text, before a book is committed.

Two ways a PDF's text layer can be useless although it is there: its characters come out one per line (a PDF
that draws every character as its own text object, in shuffled order — the text reads as single letters, and
the embeddings of that are noise), or it holds no word BM25 can index (only punctuation, symbols, single
letters, or function words). Such a book is refused with the reason, so it never enters the library; a book
that came in before this check is caught when its BM25 index is built (``rag.library.bm25``) and marked failed.
"""
from __future__ import annotations

import re

from .languages import detect, tokenize

_WORD = re.compile(r"\w\w+", re.U)  # bm25s's token pattern: two or more word characters
SOUP_MIN_WORDS = 40  # fewer letter-bearing words than this: too little text to judge
SOUP_SHARE = 0.5  # above this share of one-letter words the text is letters, not words
_SPACED_SCRIPTS = 0x2E80  # from here on (CJK, kana, hangul, …) one character is often a whole word


def letter_soup_share(text: str) -> float:
    """Share of the text's letter-bearing words that are one letter long (scripts written with spaces only).
    Running text in any language has few (English ~5 %, a maths text ~20 %); letter soup has nearly all."""
    words = [w for w in text.split() if not w.isascii() or w.isalpha() or any(ch.isalpha() for ch in w)]
    if len(words) < SOUP_MIN_WORDS:
        return 0.0
    single = sum(1 for w in words if len(w) == 1 and ord(w) < _SPACED_SCRIPTS)
    return single / len(words)


def has_index_words(text: str, language: str, batch: int = 500) -> bool:
    """Does ``text`` give BM25 at least one token in ``language`` (stopwords dropped, stemmed)? Its distinct
    candidate words are tokenised a batch at a time until one gives a token (usually the first batch)."""
    words = sorted({w.lower() for w in _WORD.findall(text)}, key=len, reverse=True)  # long words: rarely stopwords
    for i in range(0, len(words), batch):
        if any(tokenize([" ".join(words[i:i + batch])], language)[0]):
            return True
    return False


def unindexable_reason(text: str, language: str = "") -> str | None:
    """Why ``text`` (a book's chunkable text) cannot be searched, or None when it can. ``language``: the
    configured one, else detected."""
    share = letter_soup_share(text)
    if share > SOUP_SHARE:
        return (f"its text comes out as single letters ({share:.0%} of its words are one letter long): the PDF "
                "draws each character as its own object, out of reading order, so it cannot be searched. Make a "
                "searchable copy with OCR (e.g. ocrmypdf --force-ocr in.pdf out.pdf) and upload that.")
    if not has_index_words(text, language or detect(text[:200_000])):
        return ("its text has no words to search (only punctuation, symbols, single letters or function words). "
                "If the pages show more than that, make a searchable copy with OCR (e.g. ocrmypdf --force-ocr "
                "in.pdf out.pdf) and upload that.")
    return None
