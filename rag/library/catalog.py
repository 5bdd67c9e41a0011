"""SQLite catalog: books, their pages and chunks, chat sessions and messages.

A book becomes visible only when ``commit_book`` flips it to ``ready`` in the same
transaction that writes its pages and chunks; a crash before that leaves a row in
``indexing`` that ``stale_books`` reports on the next start, for clean-up.
"""
from __future__ import annotations

import json
import sqlite3
import threading
from contextlib import contextmanager
from dataclasses import astuple
from pathlib import Path
from typing import Iterator

import numpy as np

from ..types import Book, Chunk, Figure, Page
from .chat_tables import ChatTables, now as _now
from .chunk_queries import CHUNK_COLS as _CHUNK_COLS, ChunkQueries

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
CREATE TABLE IF NOT EXISTS figures (
  book_id TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE, idx INTEGER NOT NULL, page INTEGER NOT NULL,
  page_label TEXT NOT NULL, bbox TEXT NOT NULL, kind TEXT NOT NULL, caption TEXT NOT NULL, ref TEXT NOT NULL,
  labels TEXT NOT NULL, context TEXT NOT NULL, anchor INTEGER NOT NULL, path TEXT NOT NULL, width INTEGER NOT NULL,
  height INTEGER NOT NULL, vector BLOB, PRIMARY KEY (book_id, idx));
CREATE TABLE IF NOT EXISTS figure_links (
  book_id TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE, chunk_index INTEGER NOT NULL,
  figure_idx INTEGER NOT NULL, relation TEXT NOT NULL, PRIMARY KEY (book_id, chunk_index, figure_idx, relation));
CREATE TABLE IF NOT EXISTS answer_metrics (
  message_id INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE, session_id INTEGER NOT NULL,
  created_at TEXT NOT NULL, question TEXT NOT NULL, total_ms REAL NOT NULL, first_token_ms REAL NOT NULL,
  stages TEXT NOT NULL, avg_similarity REAL NOT NULL, confidence REAL NOT NULL, not_found INTEGER NOT NULL,
  slow INTEGER NOT NULL, low_similarity INTEGER NOT NULL, quote_failures INTEGER NOT NULL, book_ids TEXT NOT NULL,
  feedback INTEGER, comment TEXT NOT NULL DEFAULT '');
"""

# columns added after the first release: (table, column, definition)
MIGRATIONS = [
    ("pages", "lines", "TEXT NOT NULL DEFAULT '[]'"),
    ("books", "figures", "INTEGER NOT NULL DEFAULT 0"),
    ("books", "report", "TEXT NOT NULL DEFAULT '{}'"),
    ("figures", "description", "TEXT NOT NULL DEFAULT ''"),
    ("chunks", "kind", "TEXT NOT NULL DEFAULT 'text'"),
    ("chunks", "parent", "INTEGER NOT NULL DEFAULT -1"),
    ("books", "sections", "TEXT NOT NULL DEFAULT '[]'"),
    ("books", "doc_type", "TEXT NOT NULL DEFAULT ''"),
    ("pages", "ocr", "REAL NOT NULL DEFAULT -1"),
    ("sessions", "owner", "TEXT NOT NULL DEFAULT ''"),  # the browser that started the chat ('' = before owners)
    ("answer_metrics", "outcome", "TEXT NOT NULL DEFAULT ''"),  # answer | likely | not_found
    # what "confidence" holds: 'similarity' (the old 0.7 × similarity formula), 'answerable' (P(the books answer it))
    ("answer_metrics", "confidence_kind", "TEXT NOT NULL DEFAULT 'similarity'"),
]

# rows written before confidence meant P(answerable): that probability (and the outcome) from the stored answer,
# -1 (unknown) where the answer did not record it
_MIGRATE_CONFIDENCE = """
UPDATE answer_metrics SET
  confidence = coalesce((SELECT json_extract(m.answer, '$.confidence') FROM messages m
                         WHERE m.id = answer_metrics.message_id AND json_valid(m.answer)), -1),
  outcome = coalesce(nullif((SELECT json_extract(m.answer, '$.outcome') FROM messages m
                             WHERE m.id = answer_metrics.message_id AND json_valid(m.answer)), ''),
                     CASE WHEN not_found THEN 'not_found' ELSE 'answer' END),
  confidence_kind = 'answerable'
WHERE confidence_kind = 'similarity'"""
_FIGURE_COLS = ("book_id, idx, page, page_label, bbox, kind, caption, ref, labels, context, anchor, path, width, "
                "height, "
                "description")



REINDEXING = "re-indexing"  # the error column of a book being re-indexed (it was in the library before)

class Catalog(ChunkQueries):
    def __init__(self, path: Path):
        self.path = Path(path)
        self._local = threading.local()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._db() as db:
            db.executescript(SCHEMA)
            for table, col, definition in MIGRATIONS:
                if col not in {r["name"] for r in db.execute(f"PRAGMA table_info({table})")}:
                    db.execute(f"ALTER TABLE {table} ADD COLUMN {col} {definition}")
            # before six strategies existed, "sentence" named today's paragraph→sentence default
            db.execute("""UPDATE books SET chunking = json_set(chunking, '$.chunker', 'paragraph', '$.v', 2)
                          WHERE json_extract(chunking, '$.v') IS NULL
                            AND json_extract(chunking, '$.chunker') = 'sentence'""")
            db.execute(_MIGRATE_CONFIDENCE)
        self.chats = ChatTables(self._db)  # chats, their messages, answer metrics and feedback

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=30)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA journal_mode = WAL")
        return db

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        """One transaction. Each thread keeps its connection open between calls (a question makes dozens
        of small reads); a nested call gets a connection of its own."""
        local = self._local
        nested = getattr(local, "busy", False)
        db = self._connect() if nested else getattr(local, "db", None)
        if db is None:
            db = local.db = self._connect()
        if not nested:
            local.busy = True
        try:
            with db:
                yield db
        finally:
            if nested:
                db.close()
            else:
                local.busy = False

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
    def begin_book(self, book_id: str, title: str, filename: str, embed_model: str, chunking: dict,
                   reindexing: bool = False) -> None:
        """The book's row in state 'indexing'; ``reindexing``: the book was in the library before (a crash now
        must leave it listed as failed with its original, not remove it: ``REINDEXING``)."""
        with self._db() as db:
            db.execute("DELETE FROM books WHERE id = ?", (book_id,))
            db.execute(
                "INSERT INTO books(id, title, filename, status, embed_model, chunking, added_at, error) "
                "VALUES(?,?,?,?,?,?,?,?)",
                (book_id, title, filename, "indexing", embed_model, json.dumps(chunking), _now(),
                 REINDEXING if reindexing else ""),
            )
            self._bump(db)

    def commit_book(self, book_id: str, title: str, pages: list[Page], chunks: list[Chunk], seconds: float,
                    figures: list[Figure] = (), figure_vectors: list = (), links: list[tuple[int, int, str]] = (),
                    report: dict | None = None, sections: list = (), doc_type: str = "") -> None:
        """Pages, chunks, figures (with their vectors) and chunk→figure links, visible at once."""
        with self._db() as db:
            for table in ("pages", "chunks", "figures", "figure_links"):
                db.execute(f"DELETE FROM {table} WHERE book_id = ?", (book_id,))
            db.executemany("INSERT INTO pages(book_id, number, label, text, offset, lines, ocr) VALUES(?,?,?,?,?,?,?)",
                           [(book_id, p.number, p.label, p.text, p.offset, json.dumps(p.lines), p.ocr) for p in pages])
            db.executemany(f"INSERT INTO chunks({_CHUNK_COLS}) VALUES({','.join('?' * 13)})",
                           [astuple(c) for c in chunks])
            vecs = list(figure_vectors) or [None] * len(figures)
            db.executemany(f"INSERT INTO figures({_FIGURE_COLS}, vector) VALUES({','.join('?' * 16)})",
                           [(book_id, f.index, f.page, f.page_label, json.dumps(f.bbox), f.kind, f.caption, f.ref,
                             f.labels, f.context, f.anchor, f.path, f.width, f.height, f.description,
                             None if v is None else np.asarray(v, dtype=np.float32).tobytes())
                            for f, v in zip(figures, vecs)])
            db.executemany("INSERT OR IGNORE INTO figure_links(book_id, chunk_index, figure_idx, relation) "
                           "VALUES(?,?,?,?)",
                           [(book_id, ci, fi, rel) for ci, fi, rel in links])
            db.execute("UPDATE books SET status='ready', title=?, pages=?, chunks=?, error='', ingest_seconds=?, "
                       "figures=?, report=?, sections=?, doc_type=? WHERE id=?",
                       (title, len(pages), len(chunks), seconds, len(figures), json.dumps(report or {}),
                        json.dumps([[s.path, s.start, s.end] for s in sections]), doc_type, book_id))
            self._bump(db)

    def delete_book(self, book_id: str) -> None:
        with self._db() as db:
            db.execute("DELETE FROM books WHERE id = ?", (book_id,))
            self._bump(db)

    def mark_failed(self, book_id: str, reason: str) -> None:
        """The book stays listed with ``reason`` but is no longer searched (status 'failed') until it is
        re-indexed or deleted."""
        with self._db() as db:
            db.execute("UPDATE books SET status='failed', error=? WHERE id=?", (reason, book_id))
            self._bump(db)

    def chunk_counts(self) -> dict[str, int]:
        """Book id → the number of chunk rows it has (compared with ``Book.chunks`` by the start-up repair)."""
        with self._db() as db:
            return {r[0]: r[1] for r in db.execute("SELECT book_id, COUNT(*) FROM chunks GROUP BY book_id")}

    # each book with the number of books of its title: two editions or languages of one work ("Auto Multiple
    # Choice" in English and in French, tour 45) are told apart by their file's name wherever a title is shown
    _BOOKS = "SELECT *, (SELECT COUNT(*) FROM books AS same WHERE same.title = books.title) AS titled FROM books"

    def _book(self, row: sqlite3.Row) -> Book:
        d = dict(row)
        if d.pop("titled", 1) > 1:
            d["title"] = f"{d['title']} ({Path(d['filename']).stem})"
        d["chunking"] = json.loads(d["chunking"])
        d["report"] = json.loads(d.get("report") or "{}")
        d["sections"] = [tuple(x) for x in json.loads(d.get("sections") or "[]")]
        return Book(**d)

    def set_doc_type(self, book_id: str, doc_type: str) -> None:
        """The book's type for adaptive context ('' = guess it)."""
        with self._db() as db:
            db.execute("UPDATE books SET doc_type=? WHERE id=?", (doc_type, book_id))

    def books(self, status: str | None = None) -> list[Book]:
        with self._db() as db:
            q, args = self._BOOKS, ()
            if status:
                q, args = q + " WHERE status = ?", (status,)
            return [self._book(r) for r in db.execute(q + " ORDER BY added_at, title", args)]

    def book(self, book_id: str) -> Book | None:
        with self._db() as db:
            row = db.execute(self._BOOKS + " WHERE id = ?", (book_id,)).fetchone()
            return self._book(row) if row else None

    def stale_books(self) -> list[Book]:
        """Books left half-indexed by a crash or kill."""
        return self.books(status="indexing")

    # --- pages & chunks --------------------------------------------------------
    def pages(self, book_id: str) -> list[Page]:
        with self._db() as db:
            rows = db.execute("SELECT number, label, text, offset, lines, ocr FROM pages WHERE book_id=? ORDER BY "
                              "number",
                              (book_id,))
            return [self._page(r) for r in rows]

    def page(self, book_id: str, number: int) -> Page | None:
        with self._db() as db:
            r = db.execute("SELECT number, label, text, offset, lines, ocr FROM pages WHERE book_id=? AND number=?",
                           (book_id, number)).fetchone()
            return self._page(r) if r else None

    def page_labels(self, book_id: str) -> list[str]:
        """Every page's printed label, in page order (index = page number - 1)."""
        with self._db() as db:
            return [r["label"] for r in db.execute("SELECT label FROM pages WHERE book_id=? ORDER BY number",
                                                   (book_id,))]

    @staticmethod
    def _page(r: sqlite3.Row) -> Page:
        d = dict(r)
        d["lines"] = tuple(tuple(x) for x in json.loads(d["lines"] or "[]"))
        return Page(**d)

    # --- figures -----------------------------------------------------------------
    def figures(self, book_id: str) -> list[Figure]:
        with self._db() as db:
            rows = db.execute(f"SELECT {_FIGURE_COLS} FROM figures WHERE book_id=? ORDER BY idx", (book_id,))
            return [self._figure(r) for r in rows]

    @staticmethod
    def _figure(r: sqlite3.Row) -> Figure:
        d = dict(r)
        d["index"] = d.pop("idx")
        d["bbox"] = tuple(json.loads(d["bbox"]))
        return Figure(**d)

    def figure_vectors(self, book_ids: list[str]) -> tuple[list[Figure], np.ndarray]:
        """All figures of these (ready) books and their vectors (rows aligned; zero rows if none)."""
        if not book_ids:
            return [], np.zeros((0, 0), dtype=np.float32)
        q = ",".join("?" * len(book_ids))
        with self._db() as db:
            rows = list(db.execute(f"SELECT {_FIGURE_COLS}, vector FROM figures WHERE book_id IN ({q}) "
                                   "AND vector IS NOT NULL ORDER BY book_id, idx", book_ids))
        sizes = [len(r["vector"]) for r in rows]
        size = max(set(sizes), key=sizes.count) if rows else 0  # a damaged row (another length) is left out
        rows = [r for r in rows if len(r["vector"]) == size and size % 4 == 0]
        figs = [self._figure({k: r[k] for k in r.keys() if k != "vector"}) for r in rows]
        vecs = (
            np.stack([np.frombuffer(r["vector"], dtype=np.float32) for r in rows])
            if rows
            else np.zeros((0, 0), np.float32)
        )
        return figs, vecs

    def figure_chunks(self, book_id: str, figure_idx: int, relation: str = "on") -> list[int]:
        """Chunk indices linked to one figure (its caption's chunk for "on")."""
        with self._db() as db:
            rows = db.execute("SELECT chunk_index FROM figure_links WHERE book_id=? AND figure_idx=? AND relation=? "
                              "ORDER BY chunk_index", (book_id, figure_idx, relation))
            return [r["chunk_index"] for r in rows]

    def figure_links(self, book_id: str, chunk_indices: list[int]) -> list[tuple[int, int, str]]:
        """(chunk_index, figure_idx, relation) for these chunks of one book."""
        if not chunk_indices:
            return []
        q = ",".join("?" * len(chunk_indices))
        with self._db() as db:
            rows = db.execute(f"SELECT chunk_index, figure_idx, relation FROM figure_links WHERE book_id=? "
                              f"AND chunk_index IN ({q})", (book_id, *chunk_indices))
            return [(r["chunk_index"], r["figure_idx"], r["relation"]) for r in rows]

    def chunks(self, book_id: str | None = None, ready_only: bool = True) -> list[Chunk]:
        cols = ", ".join("c." + c.strip() for c in _CHUNK_COLS.split(","))
        q = f"SELECT {cols} FROM chunks c JOIN books b ON b.id = c.book_id"
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

    def chunks_at(self, book_id: str, indices: list[int]) -> list[Chunk]:
        """Chunks ``indices`` of one book, in the order asked (missing ones left out)."""
        if not indices:
            return []
        marks = ",".join("?" * len(indices))
        with self._db() as db:
            rows = db.execute(f"SELECT {_CHUNK_COLS} FROM chunks WHERE book_id=? AND chunk_index IN ({marks})",
                              (book_id, *indices))
            got = {r["chunk_index"]: Chunk(**dict(r)) for r in rows}
        return [got[i] for i in indices if i in got]
