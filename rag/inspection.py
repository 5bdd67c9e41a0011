"""Looking inside the library without changing it (``Inspection``, mixed into ``Folio``): a book's chunks,
pages and parse rebuilt from the catalog, another strategy previewed, lint, a page's chunk map, JSONL export,
the context one chunk would get, and the query probe — the chat's own stages with everything they considered."""
from __future__ import annotations

import time
from pathlib import Path

from .errors import NotFoundError, RagError
from .ingest import original_path
from .types import Chunk, Source


class Inspection:
    """Needs ``self.catalog``, ``self.settings``, ``self.embed`` and the chat's stages (``_ready_books``,
    ``_retrieve``, ``_context``): ``Folio`` has them."""

    def chunks(self, book_id: str) -> list[Chunk]:
        return self.catalog.chunks(book_id)

    def window(self, book_id: str, chunk_index: int, size: int) -> list[Chunk]:
        return self.catalog.chunk_range(book_id, chunk_index - size, chunk_index + size)

    def pages(self, book_id: str):
        return self.catalog.pages(book_id)

    def count_tokens(self, text: str) -> int:
        """Word-pieces of ``text`` with the embedding model's tokenizer (what budgets are counted in)."""
        from .tokens import count_tokens

        return count_tokens(text, self.settings.embed_model)

    def parsed(self, book_id: str):
        """The book as ingest parsed it (pages, line boxes, sections), rebuilt from the catalog."""
        from .inspect import rebuild

        return rebuild(self.book(book_id), self.catalog.pages(book_id), self.catalog.chunks(book_id))

    def preview_chunks(self, book_id: str, chunking: dict, pages: tuple[int, int] | None = None) -> list[Chunk]:
        """The chunks another strategy/size would make for this book (only the sections touching ``pages``
        when given), without re-indexing; the semantic strategy's sentence vectors come from the cache."""
        from .embed.cache import EmbeddingCache
        from .inspect import preview

        s = self.chunking_settings(chunking)
        cache = EmbeddingCache(s.embed_cache_path, self.embed.cache_id)
        embed = (lambda texts: cache.embed(texts, self.embed.get_text_embedding_batch, 64)) if s.chunker == "semantic" else None
        return preview(self.parsed(book_id), book_id, s, embed, pages)

    def lint(self, book_id: str, chunks: list[Chunk] | None = None):
        """Chunk-quality findings for the book's chunks (or for ``chunks`` of a preview)."""
        from .inspect import findings

        return findings(self.parsed(book_id), self.catalog.chunks(book_id) if chunks is None else chunks, self.settings)

    def chunk_map(self, book_id: str, page: int, chunks: list[Chunk]) -> Path:
        """PNG of a page with each of ``chunks`` on it filled in its own colour, parents outlined."""
        from .inspect import on_page, parent_spans
        from .pageimage import render_chunk_map

        pg = self.catalog.page(book_id, page)
        pdf = original_path(self.settings, book_id)
        if pg is None or not pdf.exists():
            raise NotFoundError(f"Page {page} of book {book_id} is not available (the book or its original is gone).")
        here = on_page(chunks, pg)

        def local(a: int, b: int) -> tuple[int, int]:
            return max(0, a - pg.offset), min(len(pg.text), b - pg.offset)

        spans = [(*local(c.char_start, c.char_end), c.chunk_index) for c in here]
        parents = [local(a, b) for p, (a, b) in sorted(parent_spans(here).items())]
        return render_chunk_map(pdf, pg, spans, parents, self.settings.page_cache_dir / book_id,
                                self.settings.page_image_zoom * 0.8)

    def export_chunks(self, book_id: str) -> str:
        """The book's chunks as JSONL, each line with the settings that produced it."""
        from .inspect import export_jsonl

        return export_jsonl(self.book(book_id), self.catalog.chunks(book_id))

    def context_preview(self, book_id: str, chunk_index: int, question: str = "", query_type: str = "",
                        **overrides) -> Source:
        """The source the answerer would receive if this chunk were the only hit: its window or parent under
        the current (or overridden) context settings. With a ``question`` neighbours are scored against it
        and its type is detected; ``query_type`` forces a type."""
        from .types import Hit

        s = self.settings.model_copy(update=overrides) if overrides else self.settings
        book = self.book(book_id)
        got = self.catalog.chunk_range(book_id, chunk_index, chunk_index)
        if not got:
            raise NotFoundError(f"Book {book_id} has no chunk {chunk_index}.")
        qvec = self.embed.get_query_embedding(question) if question.strip() else None
        srcs = self._context(question, qvec, [Hit(got[0], 1.0, 1.0)], s, [book], query_type)
        if not srcs:
            raise RagError("This chunk alone is larger than the context budget; raise RAG_CONTEXT_BUDGET_TOKENS.")
        return srcs[0]

    def probe(self, question: str, book_id: str | None = None, **overrides) -> dict:
        """What ask does up to the answerer, with everything it considered: every fused candidate with
        its dense, BM25 and fused scores (and whether it passed the threshold and was kept), the
        question type, each source's window decision, and the context block an LLM would receive."""
        from .context import classify_question, format_sources
        from .tokens import count_tokens

        s = self.settings.model_copy(update=overrides) if overrides else self.settings
        books = self._ready_books(s, book_id)
        trace: dict[str, float] = {}
        if not books:
            return {"question": question, "candidates": [], "sources": [], "context": "", "tokens": 0, "trace": trace}
        retriever, hits = self._retrieve(question, s, [b.id for b in books], trace)
        t = time.perf_counter()
        sources = self._context(question, retriever.query_vector, hits, s, books)
        trace["expand"] = (time.perf_counter() - t) * 1e3
        if s.answer_backend != "extractive" and s.llm_focus:  # what the LLM reads, as ask gives it
            from .answer.focus import focus

            sources = focus(question, sources, self.embed)
        kept = {h.chunk.id for h in hits}
        context = format_sources(sources)
        from .chunking.zones import asks_for_zone
        from .lang import detect

        return {"question": question, "query_type": classify_question(question), "mode": s.context_mode,
                "language": detect(question), "asks_for_zone": asks_for_zone(question),
                "book_languages": retriever.bm25().languages, "threshold": s.similarity_threshold,
                "candidates": [{"chunk": h.chunk, "similarity": h.similarity, "bm25": h.bm25_score, "fused": h.score,
                                "dense_rank": h.dense_rank, "bm25_rank": h.bm25_rank, "passed": h.passed,
                                "kept": h.chunk.id in kept} for h in retriever.candidates],
                "sources": sources, "context": context, "tokens": count_tokens(context, s.embed_model),
                "trace": trace}
