"""The chat tables of the catalog's database: chats (sessions) with their owner and title, their messages (an
answer stored whole), and each answer's metrics and the reader's feedback. The schema and its migrations are the
catalog's (one SQLite file); ``Catalog.chats`` is this, sharing the catalog's per-thread connections."""
from __future__ import annotations

import json
import sqlite3
import time
from contextlib import AbstractContextManager
from typing import Callable


def now() -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S")


_now = now


class ChatTables:
    def __init__(self, db: Callable[[], AbstractContextManager[sqlite3.Connection]]):
        self._db = db

    def new_session(self, title: str = "New chat", owner: str = "") -> int:
        with self._db() as db:
            cur = db.execute("INSERT INTO sessions(title, created_at, updated_at, owner) VALUES(?,?,?,?)",
                             (title, _now(), _now(), owner))
            return int(cur.lastrowid)

    def sessions(self, owner: str | None = None, search: str = "", limit: int | None = None) -> list[dict]:
        """Chats, most recent first: every one (``owner`` None) or one owner's; ``search``: words the title holds."""
        q, args = "SELECT * FROM sessions WHERE 1", []
        if owner is not None:
            q += " AND owner = ?"
            args.append(owner)
        for word in search.split():
            q += " AND title LIKE ? ESCAPE '\\'"
            args.append("%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%")
        q += " ORDER BY updated_at DESC, id DESC" + (f" LIMIT {int(limit)}" if limit else "")
        with self._db() as db:
            return [dict(r) for r in db.execute(q, args)]

    def session(self, session_id: int) -> dict | None:
        with self._db() as db:
            r = db.execute("SELECT * FROM sessions WHERE id=?", (session_id,)).fetchone()
            return dict(r) if r else None

    def claim_sessions(self, owner: str) -> int:
        """Chats from before chats had owners become ``owner``'s; returns how many."""
        with self._db() as db:
            return db.execute("UPDATE sessions SET owner=? WHERE owner=''", (owner,)).rowcount

    def rename_session(self, session_id: int, title: str) -> None:
        with self._db() as db:
            db.execute("UPDATE sessions SET title=? WHERE id=?", (title, session_id))

    def delete_session(self, session_id: int) -> None:
        with self._db() as db:
            db.execute("DELETE FROM sessions WHERE id=?", (session_id,))

    def add_message(self, session_id: int, role: str, content: str, answer: dict | None = None) -> int:
        with self._db() as db:
            cur = db.execute("INSERT INTO messages(session_id, role, content, answer, created_at) VALUES(?,?,?,?,?)",
                             (session_id, role, content, json.dumps(answer) if answer else None, _now()))
            db.execute("UPDATE sessions SET updated_at=? WHERE id=?", (_now(), session_id))
            return int(cur.lastrowid)

    # --- answer metrics and feedback ---------------------------------------------------
    def add_metrics(self, message_id: int, session_id: int, question: str, m: dict) -> None:
        with self._db() as db:
            db.execute("INSERT OR REPLACE INTO answer_metrics(message_id, session_id, created_at, question, total_ms, "
                       "first_token_ms, stages, avg_similarity, confidence, not_found, slow, low_similarity, "
                       "quote_failures, book_ids, outcome, confidence_kind) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                       (message_id, session_id, _now(), question, m["total_ms"], m["first_token_ms"],
                        json.dumps(m["stages"]), m["avg_similarity"], m["confidence"], int(m["not_found"]),
                        int(m["slow"]), int(m["low_similarity"]), m["quote_failures"], json.dumps(m["book_ids"]),
                        m["outcome"], m.get("basis") or "answerable"))  # what the confidence is: P(answerable),
            # or the book's own page that answered (``rag.answer.metrics.BASIS_WORDS``), or what no passage said
            # (``UNSAID_WORDS``)

    def set_feedback(self, message_id: int, score: int | None, comment: str = "") -> None:
        with self._db() as db:
            db.execute("UPDATE answer_metrics SET feedback=?, comment=? WHERE "
                       "message_id=?", (score, comment, message_id))

    def metrics(self) -> list[dict]:
        with self._db() as db:
            rows = [dict(r) for r in db.execute("SELECT * FROM answer_metrics ORDER BY created_at")]
        for r in rows:
            r["stages"], r["book_ids"] = json.loads(r["stages"]), json.loads(r["book_ids"])
        return rows

    def messages(self, session_id: int) -> list[dict]:
        with self._db() as db:
            rows = db.execute("SELECT m.*, a.feedback, a.comment FROM messages m LEFT JOIN answer_metrics a "
                              "ON a.message_id = m.id WHERE m.session_id=? ORDER BY m.id", (session_id,))
            out = []
            for r in rows:
                d = dict(r)
                d["answer"] = json.loads(d["answer"]) if d["answer"] else None
                out.append(d)
            return out
