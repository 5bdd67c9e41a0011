"""``Inspector`` (``Folio.inspector``): a book's chunks, pages and parse rebuilt from the catalog, another
strategy previewed, lint, a page's chunk map, JSONL export, the context one chunk would get, and the query
probe — the chat's own pipeline with everything its stages considered."""
from __future__ import annotations

from pathlib import Path

from ..answer.metrics import percent
from ..errors import NotFoundError, RagError
from ..library.books import Library
from ..library.ingest import original_path
from ..library.resources import Resources
from ..pipeline import Pipeline, context_report
from ..settings import with_overrides
from ..types import Chunk, Source


class Inspector:
    def __init__(self, res: Resources, library: Library, pipeline: Pipeline):
        self.res, self.library, self.pipeline = res, library, pipeline

    @property
    def settings(self):
        return self.res.settings

    def chunks(self, book_id: str) -> list[Chunk]:
        return self.res.catalog.chunks(book_id)

    def window(self, book_id: str, chunk_index: int, size: int) -> list[Chunk]:
        return self.res.catalog.chunk_range(book_id, chunk_index - size, chunk_index + size)

    def pages(self, book_id: str):
        return self.res.catalog.pages(book_id)

    def count_tokens(self, text: str) -> int:
        """Word-pieces of ``text`` with the embedding model's tokenizer (what budgets are counted in)."""
        from ..text.tokens import count_tokens

        return count_tokens(text, self.settings.embed_model)

    def parsed(self, book_id: str):
        """The book as ingest parsed it (pages, line boxes, sections), rebuilt from the catalog."""
        from .previews import rebuild

        return rebuild(self.library.book(book_id), self.res.catalog.pages(book_id), self.res.catalog.chunks(book_id))

    def preview_chunks(self, book_id: str, chunking: dict, pages: tuple[int, int] | None = None) -> list[Chunk]:
        """The chunks another strategy/size would make for this book (only the sections touching ``pages``
        when given), without re-indexing; the semantic strategy's sentence vectors come from the cache."""
        from ..embed.cache import EmbeddingCache
        from .previews import preview

        s = self.library.chunking_settings(chunking)
        embed = None
        if s.chunker == "semantic":
            model = self.res.embed
            cache = EmbeddingCache(s.embed_cache_path, model.cache_id)

            def embed(texts):
                return cache.embed(texts, model.get_text_embedding_batch, 64)
        return preview(self.parsed(book_id), book_id, s, embed, pages)

    def lint(self, book_id: str, chunks: list[Chunk] | None = None):
        """Chunk-quality findings for the book's chunks (or for ``chunks`` of a preview)."""
        from .previews import findings

        return findings(self.parsed(book_id), self.res.catalog.chunks(book_id) if chunks is None else chunks,
                        self.settings)

    def chunk_map(self, book_id: str, page: int, chunks: list[Chunk]) -> Path:
        """PNG of a page with each of ``chunks`` on it filled in its own colour, parents outlined."""
        from ..evidence.render import render_chunk_map
        from .previews import on_page, parent_spans

        pg = self.res.catalog.page(book_id, page)
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

    def thumbnail(self, book_id: str, page: int, zoom: float = 0.22) -> Path:
        """A small PNG of one page (cached beside the page images), for picking a page by sight."""
        import pymupdf

        out = self.settings.page_cache_dir / book_id / f"thumb-{page}-{zoom:g}.png"
        if out.exists():
            return out
        pdf = original_path(self.settings, book_id)
        if not pdf.exists():
            raise NotFoundError(f"The original of book {book_id} is gone: re-add the book to see its pages.")
        with pymupdf.open(pdf) as doc:
            if not 1 <= page <= doc.page_count:
                raise NotFoundError(f"Page {page} is not in this book (it has {doc.page_count}).")
            out.parent.mkdir(parents=True, exist_ok=True)
            tmp = out.with_suffix(".tmp.png")
            doc[page - 1].get_pixmap(matrix=pymupdf.Matrix(zoom, zoom)).save(tmp)
            tmp.replace(out)
        return out

    def export_chunks(self, book_id: str) -> str:
        """The book's chunks as JSONL, each line with the settings that produced it."""
        from .previews import export_jsonl

        return export_jsonl(self.library.book(book_id), self.res.catalog.chunks(book_id))

    def context_preview(self, book_id: str, chunk_index: int, question: str = "", query_type: str = "",
                        **overrides) -> Source:
        """The source the answerer would receive if this chunk were the only hit: its window or parent under
        the current (or overridden) context settings. With a ``question`` neighbours are scored against it
        and its type is detected; ``query_type`` forces a type."""
        from ..types import Hit

        s = with_overrides(self.settings, overrides)
        book = self.library.book(book_id)
        got = self.res.catalog.chunk_range(book_id, chunk_index, chunk_index)
        if not got:
            raise NotFoundError(f"Book {book_id} has no chunk {chunk_index}.")
        qvec = self.res.embed.get_query_embedding(question) if question.strip() else None
        srcs = self.pipeline.expand(question, qvec, [Hit(got[0], 1.0, 1.0)], s, [book], query_type)
        if not srcs:
            raise RagError("This chunk alone is larger than the context budget; raise RAG_CONTEXT_BUDGET_TOKENS.")
        return srcs[0]

    def probe(self, question: str, book_id: str | None = None, history: list[tuple[str, str]] | None = None,
              follow_books: list[str] | None = None, follow_chunks: list[str] | None = None, **overrides) -> dict:
        """The chat's pipeline up to the answerer, with everything it considered: every fused candidate with
        its dense, BM25 and fused scores (and whether it passed the threshold and was kept), the books searched,
        the "not in your books" decision, each source's window decision, and the context block an LLM would
        receive."""
        from ..chunking.zones import asks_for_zone
        from ..context import format_sources
        from ..text.tokens import count_tokens

        s = with_overrides(self.settings, overrides)
        r = self.pipeline.run(question, s, history, [book_id] if book_id else None, follow_books,
                              follow_chunks=follow_chunks)
        if r.done:
            return {"question": question, "query": r.query, "candidates": [], "sources": [], "context": "",
                    "tokens": 0, "trace": r.trace, "answerable": False, "probability": 0.0, "books": [],
                    "outcome": "not_found"}
        kept = {h.chunk.id for h in r.hits}
        context = format_sources(r.sources)
        report = context_report(r.query, r.sources, s)
        return {
            "question": question,
            "query": r.query,
            "query_type": report["query_type"],
            "mode": s.context_mode,
            "language": report["language"],
            "asks_for_zone": asks_for_zone(r.query),
            "books": r.ids,
            "book_languages": self.pipeline.bm25_for(r)().languages,
            "translations": found_translations(getattr(r.retriever, "bridge", {}) or {}, self.pipeline.bm25_for(r)(),
                                               r.ids),
            "threshold": s.similarity_threshold,
            "answerable": r.answerable,
            "probability": r.probability,
            "min_probability": s.answerable_min,
            "likely_probability": s.likely_min,
            "outcome": r.outcome,
            "evidence": dict(r.evidence),
            "candidates": [
                {
                    "chunk": h.chunk,
                    "similarity": h.similarity,
                    "bm25": h.bm25_score,
                    "fused": h.score,
                    "dense_rank": h.dense_rank,
                    "bm25_rank": h.bm25_rank,
                    "passed": h.passed,
                    "kept": h.chunk.id in kept,
                }
                for h in r.retriever.candidates
            ],
            "sources": r.sources,
            "context": context,
            "tokens": count_tokens(context, s.embed_model),
            "trace": r.trace,
        }


def found_translations(bridge: dict, bm25, book_ids: list[str]) -> dict[str, dict[str, dict[str, bool]]]:
    """Book language → question word → each of its translations → whether the searched books hold it (only those can
    be found; the inspector lists them, so a wrong sense the books lack is not shown as searched)."""
    from ..text.languages import tokenize

    out: dict[str, dict[str, dict[str, bool]]] = {}
    for lang, found in bridge.items():
        words = {t for ts in found.values() for t in ts}
        known = {t for t, (_, ok) in bm25.term_weights(" ".join(sorted(words)), book_ids).items() if ok}
        out[lang] = {w: {t: any(tok in known for tok in tokenize([t], lang)[0]) for t in ts} for w, ts in found.items()}
    return out


def decision_text(probe: dict) -> str:
    """The probe's answerability decision in words, with the two thresholds it was judged by."""
    p, hi, lo = probe.get("probability", 0.0), probe.get("min_probability", 0.7), probe.get("likely_probability", 0.45)
    outcome = probe.get("outcome") or ("answer" if probe.get("answerable") else "not_found")
    said = {"answer": "the library answers it",
            "likely": "a likely answer: the chat shows it with a low-confidence label",
            "not_found": "not in your books: the chat says so and lists these closest passages"}.get(outcome, outcome)
    return f"{said} — P(answerable) {percent(p)} (an answer from {percent(hi)}, a likely answer from {percent(lo)})"
