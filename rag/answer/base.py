"""The answer-backend interface, and what an answer says when the books do not answer."""
from __future__ import annotations

from typing import Iterator, Protocol

from ..types import FigureHit, Source

from .declines import TEXTS, other_language  # noqa: F401 - what a declined answer says, per language

_EN = TEXTS["en"]  # the English sentences under the names the rest of Folio and its tests use
NOT_RELEVANT_TEXT = _EN["not_relevant"]
NOT_FOUND_TEXT = NOT_RELEVANT_TEXT + _EN["try"]
NOT_IN_BOOKS_TEXT = _EN["not_in_books"]
UNWRITTEN_TEXT = _EN["unwritten"]
UNNAMED_TEXT = _EN["unnamed"]
SCOPE_TEXT = _EN["scope_one"]
OTHER_LANGUAGE_TEXT = _EN["other_language"]
NO_WORD_KNOWN_TEXT = _EN["no_word_known"]


class AnswerBackend(Protocol):
    name: str

    def stream(self, question: str, sources: list[Source], figures: list[FigureHit] = ()) -> Iterator[str]:
        """Yield the answer text in pieces; cite sources as [n] (an LLM also sees the figures as [FIGURE i])."""

    def reformulate(self, question: str, history: list[tuple[str, str]]) -> str:
        """A standalone question for retrieval, from the question and the last (question, answer) turns."""
