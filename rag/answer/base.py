"""The answer-backend interface, and what an answer says when the books do not answer."""
from __future__ import annotations

from typing import Iterator, Protocol

from ..types import FigureHit, Source

NOT_RELEVANT_TEXT = ("Not in your books: no passage was relevant enough to answer this. The closest passages found "
                     "are listed below; they are not an answer.")
NOT_FOUND_TEXT = NOT_RELEVANT_TEXT + (" Try rephrasing, choosing another book, or lowering the similarity "
                                      "threshold in the sidebar.")
NOT_IN_BOOKS_TEXT = ("Not in your books: the passages found share words or topic with the question but do not seem "
                     "to answer it. The closest passages are listed below; they are not an "
                     "answer.")
UNWRITTEN_TEXT = ("Not in your books: none of the books searched writes {symbols}, so they do not explain it. The "
                  "closest passages are listed below; they are not an answer.")
UNNAMED_TEXT = ("Not in your books: none of the books searched mentions {names}. The closest passages are listed "
                "below; they are not an answer.")
SCOPE_TEXT = " Only {books} {were} searched, as chosen: the whole library may answer it."
OTHER_LANGUAGE_TEXT = (" Your question is in {question}, and the books searched are in {books}: asking in {theirs} may "
                       "find it.")


def other_language(asked: str, theirs: list[str]) -> str:
    """What a declined answer adds when the question's language (``asked``, a code) is none of the searched books'
    (``theirs``): which language would find it."""
    from ..text.languages import NAMES

    names = sorted(NAMES.get(x, x) for x in theirs)
    books = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return OTHER_LANGUAGE_TEXT.format(question=NAMES.get(asked, asked), books=books,
                                      theirs=names[0] if len(names) == 1 else "one of them")


NO_WORD_KNOWN_TEXT = (" None of the question's words occur in your books: if it is in another language than they are, "
                      "ask in theirs.")


class AnswerBackend(Protocol):
    name: str

    def stream(self, question: str, sources: list[Source], figures: list[FigureHit] = ()) -> Iterator[str]:
        """Yield the answer text in pieces; cite sources as [n] (an LLM also sees the figures as [FIGURE i])."""

    def reformulate(self, question: str, history: list[tuple[str, str]]) -> str:
        """A standalone question for retrieval, from the question and the last (question, answer) turns."""
