"""The catalog's queries for the chunks a question's words point at, by what their text or section holds: the
paragraph a label opens ("Funding:"), an operator or option written out, a name mentioned anywhere, the sections of
a kind, a numbered section, a passage's copy in another edition. ``Catalog`` has them (its ``_db`` and
``chunks_at``)."""
from __future__ import annotations

from ..types import Chunk, heading_number

CHUNK_COLS = ("book_id, chunk_index, text, page_start, page_end, char_start, char_end, section, tokens, label_start, "
              "label_end, kind, parent")


class ChunkQueries:
    def chunks_stating(self, book_id: str, labels: tuple[str, ...]) -> list[Chunk]:
        """The chunks of one book whose text holds one of ``labels`` ('funding', …), in order: candidates for the
        paragraph that opens with it (``rag.retrieve.admin``)."""
        if not labels:
            return []
        cond = " OR ".join("instr(lower(text), ?) > 0" for _ in labels)
        with self._db() as db:
            rows = db.execute(f"SELECT {CHUNK_COLS} FROM chunks WHERE book_id=? AND ({cond}) ORDER BY chunk_index "
                              "LIMIT 20", (book_id, *[label.lower() for label in labels]))
            return [Chunk(**dict(r)) for r in rows]

    def chunks_holding(self, book_ids: list[str], needle: str, limit: int = 200) -> list[Chunk]:
        """The chunks of ``book_ids`` whose text holds ``needle`` after a space, a tab, a bracket, a quote or a comma,
        at a line's start or at its own start (an operator: "7 // 2", "(//)", not "http://"), in book order: candidates
        for a question that writes it out (``rag.retrieve.literals``)."""
        if not book_ids or not needle:
            return []
        marks = ",".join("?" * len(book_ids))
        before = (" ", "\n", "\t", "(", '"', "'", "`", ",", "\u2018", "\u201c")  # what holds_symbol lets before it
        cond = " OR ".join(["instr(text, ?) > 0"] * len(before))
        with self._db() as db:
            rows = db.execute(f"SELECT {CHUNK_COLS} FROM chunks WHERE book_id IN ({marks}) AND "
                              f"({cond} OR instr(text, ?) = 1) ORDER BY book_id, chunk_index LIMIT ?",
                              (*book_ids, *(b + needle for b in before), needle, limit))
            return [Chunk(**dict(r)) for r in rows]

    def mentions(self, book_ids: list[str], word: str) -> bool:
        """Whether any chunk of ``book_ids`` writes ``word`` (ignoring ASCII case), in its text or its section."""
        if not book_ids or not word:
            return False
        marks = ",".join("?" * len(book_ids))
        with self._db() as db:
            return db.execute(f"SELECT 1 FROM chunks WHERE book_id IN ({marks}) AND (instr(lower(text), lower(?)) > 0 "
                              "OR instr(lower(section), lower(?)) > 0) LIMIT 1", (*book_ids, word, word)).fetchone() \
                is not None

    def chunks_under(self, book_id: str, marks: tuple[str, ...], limit: int = 40) -> list[Chunk]:
        """The chunks of one book whose section path holds one of ``marks`` (lower case), in order: candidates for
        the sections a question asks for by their kind (``rag.retrieve.conclusions``)."""
        cond = " OR ".join("instr(lower(section), ?) > 0" for _ in marks)
        with self._db() as db:
            rows = db.execute(f"SELECT {CHUNK_COLS} FROM chunks WHERE book_id=? AND ({cond}) ORDER BY chunk_index "
                              "LIMIT ?", (book_id, *marks, limit))
            return [Chunk(**dict(r)) for r in rows]

    def numbered_section(self, book_id: str, number: str) -> list[Chunk]:
        """The chunks of one book whose innermost heading is numbered ``number`` ('8.4.2'), in order."""
        with self._db() as db:  # headings first (short), texts only of the section's chunks
            rows = db.execute("SELECT chunk_index, section FROM chunks WHERE book_id=? AND instr(section, ?) > 0 "
                              "ORDER BY chunk_index", (book_id, number)).fetchall()
        return self.chunks_at(book_id, [r["chunk_index"] for r in rows if heading_number(r["section"]) == number])

    def same_text(self, book_ids: list[str], text: str) -> list[Chunk]:
        """The chunks of ``book_ids`` whose text is exactly ``text`` (a passage's copy in another edition)."""
        if not book_ids:
            return []
        marks = ",".join("?" * len(book_ids))
        with self._db() as db:
            rows = db.execute(f"SELECT {CHUNK_COLS} FROM chunks WHERE book_id IN ({marks}) AND text=? "
                              "ORDER BY book_id, chunk_index", (*book_ids, text))
            return [Chunk(**dict(r)) for r in rows]
