"""``Chats``: chat sessions and their messages, each answer stored with its metrics and the reader's feedback
(the Chat and Metrics pages).

A chat belongs to an ``owner`` (the browser that started it, an id the page keeps in a cookie): its chat list
shows only its own chats, and a chat URL (``?chat=12``) opens only for its owner. Chats from before owners
existed go to the first browser that lists its chats (``claim``)."""
from __future__ import annotations

from ..types import Answer
from .resources import Resources

TITLE_CHARS = 80
UNTITLED = "New chat"


def title_of(text: str) -> str:
    """A chat title from a question or a rename: one line, at most ``TITLE_CHARS`` characters."""
    t = " ".join(text.split())
    if len(t) > TITLE_CHARS:
        t = t[:TITLE_CHARS - 1].rstrip() + "…"
    return t or UNTITLED


class Chats:
    def __init__(self, res: Resources):
        self.res = res

    def sessions(self, owner: str | None = None, search: str = "", limit: int | None = None) -> list[dict]:
        """Chats (id, title, owner, created_at, updated_at), most recent first: ``owner``'s (every chat when
        None) whose title holds every word of ``search``."""
        return self.res.catalog.chats.sessions(owner, search, limit)

    def get(self, session_id: int, owner: str | None = None) -> dict | None:
        """The chat, or None when there is none with that id (deleted) or it is another owner's."""
        s = self.res.catalog.chats.session(int(session_id))
        if s is None or (owner is not None and s["owner"] not in (owner, "")):
            return None
        return s

    def claim(self, owner: str) -> int:
        """Chats from before owners existed become ``owner``'s (the first browser to list its chats)."""
        return self.res.catalog.chats.claim_sessions(owner) if owner else 0

    def new(self, title: str = UNTITLED, owner: str = "") -> int:
        return self.res.catalog.chats.new_session(title_of(title), owner)

    def rename(self, session_id: int, title: str) -> None:
        self.res.catalog.chats.rename_session(session_id, title_of(title))

    def delete(self, session_id: int) -> None:
        self.res.catalog.chats.delete_session(session_id)

    def messages(self, session_id: int) -> list[dict]:
        return self.res.catalog.chats.messages(session_id)

    def add_message(self, session_id: int, role: str, content: str) -> int:
        return self.res.catalog.chats.add_message(session_id, role, content)

    def save_answer(self, session_id: int, answer: Answer) -> int:
        """Store an answered turn in its chat session with its metrics; returns the message id."""
        from ..answer.metrics import answer_metrics

        mid = self.res.catalog.chats.add_message(session_id, "assistant", answer.text, answer.to_dict())
        s = self.res.settings
        self.res.catalog.chats.add_metrics(mid, session_id, answer.question, answer_metrics(answer, s.slow_answer_ms,
                                                                                      s.low_similarity))
        return mid

    def feedback(self, message_id: int, score: int | None, comment: str = "") -> None:
        """Thumbs (1 up, 0 down, None cleared) and an optional comment on one answer."""
        self.res.catalog.chats.set_feedback(message_id, score, comment)

    def metrics(self) -> list[dict]:
        """Every answered question's metrics (oldest first), for the Metrics page."""
        return self.res.catalog.chats.metrics()


def history(messages: list[dict]) -> tuple[list[tuple[str, str]], dict | None]:
    """The (question, answer text) turns of a chat's messages and the last answer (``Answer.to_dict()``), what the
    next question is folded into and searched with."""
    turns: list[tuple[str, str]] = []
    last_q, last_answer = None, None
    for m in messages:
        if m["role"] == "user":
            last_q = m["content"]
        elif last_q is not None:
            turns.append((last_q, m["content"]))
            last_q = None
            if m.get("answer"):
                last_answer = m["answer"]
    return turns, last_answer
