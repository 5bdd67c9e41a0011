"""The answer-backend interface and the shared follow-up folding."""
from __future__ import annotations

import re
from typing import Iterator, Protocol

from ..types import FigureHit, Source

NOT_FOUND_TEXT = ("Not in your books: no passage was relevant enough to answer this. The closest passages found "
                  "are listed below; they are not an answer. Try rephrasing, choosing another book, or lowering "
                  "the similarity threshold in the sidebar.")
NOT_IN_BOOKS_TEXT = ("Not in your books: the passages found share words or topic with the question but do not seem "
                     "to answer it (answerable: {p:.0%}). The closest passages are listed below; they are not an "
                     "answer.")

STOPWORDS = set("""a an and are as at be been but by can could did do does for from had has have how i if in into is it
its itself me more my no not of on or our she should so such than that the their them then there these they this those
to was we were what when where which who whom why will with would you your about also any each just only other same some
tell explain describe give show please mean means meant""".split())

FOLLOW_UP = re.compile(r"\b(it|its|this|that|these|those|they|them|their|he|she|him|her|his|one|ones|same|above|"
                       r"previous|former|latter|more|else|also|example|examples|why|how come)\b", re.I)
# "And tuples?", "What about lists?", "Und Kompaktheit?", "Còn án lệ 43?"
LEADS_ON = re.compile(r"^\s*(and|but|or|so|what about|how about|und|aber|oder|was ist mit|và|còn)\b", re.I)


def key_terms(text: str) -> list[str]:
    words = re.findall(r"[\w’'-]+", text.lower())
    out: list[str] = []
    for w in words:
        w = w.strip("’'-")
        if len(w) > 2 and w not in STOPWORDS and w not in out:
            out.append(w)
    return out


def is_follow_up(question: str, history: list[tuple[str, str]] = ()) -> bool:
    """A question that cannot stand alone: no terms of its own ("Why?"), one leading on ("And tuples?"), or a
    short one (two terms at most) that points back ("How does it work?") or picks up a word of the last turn
    ("Why in the morning?" after an answer about watering in the morning). "What is memoization?" after a
    question on something else stands alone: folding the last question's terms into it would search for both."""
    terms = key_terms(question)
    if not terms or LEADS_ON.search(question):
        return True
    if len(terms) > 2:
        return False
    if FOLLOW_UP.search(question):
        return True
    last = set(key_terms(" ".join(history[-1]))) if history else set()
    return any(t in last for t in terms)


def fold_history(question: str, history: list[tuple[str, str]]) -> str:
    """Extractive reformulation: a follow-up gets the previous questions' key terms appended."""
    if not history or not is_follow_up(question, history):
        return question
    extra: list[str] = []
    own = set(key_terms(question))
    for prev_q, _ in reversed(history):
        for t in key_terms(prev_q):
            if t not in own and t not in extra:
                extra.append(t)
        if extra:
            break
    return f"{question} ({' '.join(extra)})" if extra else question


class AnswerBackend(Protocol):
    name: str

    def stream(self, question: str, sources: list[Source], figures: list[FigureHit] = ()) -> Iterator[str]:
        """Yield the answer text in pieces; cite sources as [n] (an LLM also sees the figures as [FIGURE i])."""

    def reformulate(self, question: str, history: list[tuple[str, str]]) -> str:
        """A standalone question for retrieval, from the question and the last (question, answer) turns."""
