"""The library: ``catalog`` (SQLite: books, pages, chunks, figures, chats) · ``vectors`` (Chroma + per-book vector
files) · ``bm25`` (one index per book, a library view) · ``ingest`` (one file, all-or-nothing) · ``jobs``
(the background ingest queue) · ``books`` (``Library``: adding, re-indexing, deleting books) · ``chats`` (sessions,
messages, answer metrics) · ``resources`` (the heavy objects, built once)."""
