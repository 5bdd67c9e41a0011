"""``Chats``: chat sessions and their messages, each answer stored with its metrics and the reader's feedback
(the Chat and Metrics pages)."""
from __future__ import annotations

from ..types import Answer
from .resources import Resources


class Chats:
    def __init__(self, res: Resources):
        self.res = res

    def sessions(self) -> list[dict]:
        """Every chat (id, title, created_at, updated_at), most recent first."""
        return self.res.catalog.sessions()

    def new(self, title: str = "New chat") -> int:
        return self.res.catalog.new_session(title)

    def rename(self, session_id: int, title: str) -> None:
        self.res.catalog.rename_session(session_id, title)

    def delete(self, session_id: int) -> None:
        self.res.catalog.delete_session(session_id)

    def messages(self, session_id: int) -> list[dict]:
        return self.res.catalog.messages(session_id)

    def add_message(self, session_id: int, role: str, content: str) -> int:
        return self.res.catalog.add_message(session_id, role, content)

    def save_answer(self, session_id: int, answer: Answer) -> int:
        """Store an answered turn in its chat session with its metrics; returns the message id."""
        from ..answer.metrics import answer_metrics

        mid = self.res.catalog.add_message(session_id, "assistant", answer.text, answer.to_dict())
        s = self.res.settings
        self.res.catalog.add_metrics(mid, session_id, answer.question, answer_metrics(answer, s.slow_answer_ms,
                                                                                      s.low_similarity))
        return mid

    def feedback(self, message_id: int, score: int | None, comment: str = "") -> None:
        """Thumbs (1 up, 0 down, None cleared) and an optional comment on one answer."""
        self.res.catalog.set_feedback(message_id, score, comment)

    def metrics(self) -> list[dict]:
        """Every answered question's metrics (oldest first), for the Metrics page."""
        return self.res.catalog.metrics()
