"""Answer backends behind one interface (``AnswerBackend``), chosen by ``Settings.answer_backend``."""
from __future__ import annotations

from .base import NO_WORD_KNOWN_TEXT, NOT_FOUND_TEXT, NOT_IN_BOOKS_TEXT, NOT_RELEVANT_TEXT, OTHER_LANGUAGE_TEXT, \
    SCOPE_TEXT, UNNAMED_TEXT, UNWRITTEN_TEXT, AnswerBackend, other_language
from ..settings import Settings


def make_backend(settings: Settings, embed) -> AnswerBackend:
    name = settings.answer_backend
    if name == "extractive":
        from .extractive import ExtractiveBackend

        return ExtractiveBackend(embed, settings.extractive_sentences, settings.tuning.extractive)
    from .llm import LLMBackend

    return LLMBackend.from_settings(settings)


__all__ = ["AnswerBackend", "NO_WORD_KNOWN_TEXT", "NOT_FOUND_TEXT", "NOT_IN_BOOKS_TEXT", "NOT_RELEVANT_TEXT",
           "OTHER_LANGUAGE_TEXT", "SCOPE_TEXT", "UNNAMED_TEXT", "UNWRITTEN_TEXT", "make_backend", "other_language"]
