"""Answer backends behind one interface (``AnswerBackend``), chosen by ``Settings.answer_backend``."""
from __future__ import annotations

from .base import AnswerBackend, NOT_FOUND_TEXT
from ..settings import Settings


def make_backend(settings: Settings, embed) -> AnswerBackend:
    name = settings.answer_backend
    if name == "extractive":
        from .extractive import ExtractiveBackend

        return ExtractiveBackend(embed, settings.extractive_sentences)
    from .llm import LLMBackend

    return LLMBackend.from_settings(settings)


__all__ = ["AnswerBackend", "NOT_FOUND_TEXT", "make_backend"]
