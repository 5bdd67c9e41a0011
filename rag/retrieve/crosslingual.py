"""A question in one language, books in another: the question's content words with their dictionary translations.

BM25 then also searches a book for the translations in the book's language, and the answerability features count
a question word as found in a passage when the word or one of its translations is there. Only content words are
looked up (function and question words are the question's frame, and their many senses would add noise); a
hyphenated word is looked up by its parts ("Firmen-Proxy"). Dictionaries: ``rag.text.glossary``.
"""
from __future__ import annotations

from ..text.glossary import bridges

__all__ = ["bridges", "extra_text"]


def extra_text(bridge: dict[str, dict[str, tuple[str, ...]]]) -> dict[str, str]:
    """Book language → the translations as one text, to search beside the question."""
    return {lang: " ".join(t for ts in found.values() for t in ts) for lang, found in bridge.items()}
