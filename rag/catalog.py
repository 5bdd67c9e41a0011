"""SQLite catalog: books, their pages and chunks, chat sessions and messages.

A book becomes visible only when ``commit_book`` flips it to ``ready`` in the same
transaction that writes its pages and chunks; a crash before that leaves a row in
``indexing`` that ``stale_books`` reports on the next start, for clean-up.
"""
from __future__ import annotations

import json
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import astuple
from pathlib import Path
from typing import Iterator

from .types import Book, Chunk, Page

SCHEMA = """
CREATE TABLE IF NOT EXISTS books (
  id TEXT PRIMARY KEY, title TEXT NOT NULL, filename TEXT NOT NULL, pages INTEGER NOT NULL DEFAULT 0,
  chunks INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL, embed_model TEXT NOT NULL, chunking TEXT NOT NULL,
  error TEXT NOT NULL DEFAULT '', added_at TEXT NOT NULL, ingest_seconds REAL NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS pages (
  book_id TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE, number INTEGER NOT NULL, label TEXT NOT NULL,
  text TEXT NOT NULL, offset INTEGER NOT NULL, PRIMARY KEY (book_id, number));
CREATE TABLE IF NOT EXISTS chunks (
  book_id TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE, chunk_index INTEGER NOT NULL, text TEXT NOT NULL,
  page_start INTEGER NOT NULL, page_end INTEGER NOT NULL, char_start INTEGER NOT NULL, char_end INTEGER NOT NULL,
  section TEXT NOT NULL, tokens INTEGER NOT NULL, label_start TEXT NOT NULL, label_end TEXT NOT NULL,
  PRIMARY KEY (book_id, chunk_index));
CREATE TABLE IF NOT EXISTS sessions (
  id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT, session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  role TEXT NOT NULL, content TEXT NOT NULL, answer TEXT, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

_CHUNK_COLS = "book_id, chunk_index, text, page_start, page_end, char_start, char_end, section, tokens, label_start, label_end"


def _now() -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S")


class Catalog:
    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._db() as db:
            db.executescript(SCHEMA)

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=30)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA journal_mode = WAL")
        try:
            with db:  # one transaction
                yield db
        finally:
            db.close()

    # --- library generation: bumped on every visible change (BM25 cache key) ---
    def generation(self) -> int:
        with self._db() as db:
            row = db.execute("SELECT value FROM meta WHERE key='generation'").fetchone()
            return int(row["value"]) if row else 0

    @staticmethod
    def _bump(db: sqlite3.Connection) -> None:
        db.execute("INSERT INTO meta(key, value) VALUES('generation', '1') "
                   "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1")

    # --- books ---------------------------------------------------------------
    def begin_book(self, book_id: str, title: str, filename: str, embed_model: str, chunking: dict) -> None:
        with self._db() as db:
            db.execute("DELETE FROM books WHERE id = ?", (book_id,))
            db.execute("INSERT INTO books(id, title, filename, status, embed_model, chunking, added_at) "
                       "VALUES(?,?,?,?,?,?,?)", (book_id, title, filename, "indexing", embed_model, json.dumps(chunking), _now()))
            self._bump(db)

    def commit_book(self, book_id: str, title: str, pages: list[Page], chunks: list[Chunk], seconds: float) -> None:
        with self._db() as db:
            db.execute("DELETE FROM pages WHERE book_id = ?", (book_id,))
            db.execute("DELETE FROM chunks WHERE book_id = ?", (book_id,))
            db.executemany("INSERT INTO pages(book_id, number, label, text, offset) VALUES(?,?,?,?,?)",
                           [(book_id, p.number, p.label, p.text, p.offset) for p in pages])
            db.executemany(f"INSERT INTO chunks({_CHUNK_COLS}) VALUES(?,?,?,?,?,?,?,?,?,?,?)",
                           [astuple(c) for c in chunks])
            db.execute("UPDATE books SET status='ready', title=?, pages=?, chunks=?, error='', ingest_seconds=? WHERE id=?",
                       (title, len(pages), len(chunks), seconds, book_id))
            self._bump(db)

    def delete_book(self, book_id: str) -> None:
        with self._db() as db:
            db.execute("DELETE FROM books WHERE id = ?", (book_id,))
            self._bump(db)

    def _book(self, row: sqlite3.Row) -> Book:
        d = dict(row)
        d["chunking"] = json.loads(d["chunking"])
        return Book(**d)

    def books(self, status: str | None = None) -> list[Book]:
        with self._db() as db:
            q, args = "SELECT * FROM books", ()
            if status:
                q, args = q + " WHERE status = ?", (status,)
            return [self._book(r) for r in db.execute(q + " ORDER BY added_at, title", args)]

    def book(self, book_id: str) -> Book | None:
        with self._db() as db:
            row = db.execute("SELECT * FROM books WHERE id = ?", (book_id,)).fetchone()
            return self._book(row) if row else None

    def stale_books(self) -> list[Book]:
        """Books left half-indexed by a crash or kill."""
        return self.books(status="indexing")

    # --- pages & chunks --------------------------------------------------------
    def pages(self, book_id: str) -> list[Page]:
        with self._db() as db:
            rows = db.execute("SELECT number, label, text, offset FROM pages WHERE book_id=? ORDER BY number", (book_id,))
            return [Page(**dict(r)) for r in rows]

    def chunks(self, book_id: str | None = None, ready_only: bool = True) -> list[Chunk]:
        q = f"SELECT {', '.join('c.' + c.strip() for c in _CHUNK_COLS.split(','))} FROM chunks c JOIN books b ON b.id = c.book_id"
        cond, args = [], []
        if ready_only:
            cond.append("b.status = 'ready'")
        if book_id:
            cond.append("c.book_id = ?")
            args.append(book_id)
        if cond:
            q += " WHERE " + " AND ".join(cond)
        with self._db() as db:
            return [Chunk(**dict(r)) for r in db.execute(q + " ORDER BY c.book_id, c.chunk_index", args)]

    def chunk_range(self, book_id: str, lo: int, hi: int) -> list[Chunk]:
        """Chunks lo..hi (inclusive) of one book, in order."""
        with self._db() as db:
            rows = db.execute(f"SELECT {_CHUNK_COLS} FROM chunks WHERE book_id=? AND chunk_index BETWEEN ? AND ? "
                              "ORDER BY chunk_index", (book_id, lo, hi))
            return [Chunk(**dict(r)) for r in rows]

    # --- chat ------------------------------------------------------------------
    def new_session(self, title: str = "New chat") -> int:
        with self._db() as db:
            cur = db.execute("INSERT INTO sessions(title, created_at, updated_at) VALUES(?,?,?)", (title, _now(), _now()))
            return int(cur.lastrowid)

    def sessions(self) -> list[dict]:
        with self._db() as db:
            return [dict(r) for r in db.execute("SELECT * FROM sessions ORDER BY updated_at DESC, id DESC")]

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

    def messages(self, session_id: int) -> list[dict]:
        with self._db() as db:
            rows = db.execute("SELECT * FROM messages WHERE session_id=? ORDER BY id", (session_id,))
            out = []
            for r in rows:
                d = dict(r)
                d["answer"] = json.loads(d["answer"]) if d["answer"] else None
                out.append(d)
            return out
