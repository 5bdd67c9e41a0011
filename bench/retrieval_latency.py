"""Retrieval latency at library scale: p50/p95 of ``Folio.ask`` up to the answerer (query embedding, dense,
BM25, fusion, expansion, figures), whole library and one book, and the first question after a library change
(one book added to, then deleted from, the large library; and after a restart, BM25 read back from disk).

Usage: .venv/bin/python bench/retrieval_latency.py [--copies 1,10] [--queries 100] [--scifact DIR] [--cache DIR]
                                                   [--set retrieval_mode=bm25 ...]
The synthetic library is N copies of BEIR SciFact (5,183 abstracts each = one chunk each), written through
the project's catalog and Chroma store with vectors from the evaluation cache (``--cache``; the eval CLI
fills the same cache: ``python -m rag eval beir ../shared/eval/scifact``; without it SciFact is embedded
once, ~2 min on 2 AVX-512 cores). Prints one line per measurement, the CPU kind first, the process's resident
memory (RSS now and at its peak) after each library size and after a restart (a second process reading the same
library: ``--restart-only`` is that process). Above RAG_DENSE_EXACT_MAX chunks (250,000) the dense search goes by
each book's sketch, then re-scores exactly (``rag/library/vectors.py``); ``--set dense_exact_max=10000000`` times
the exact search beside it.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))

from bench.ingest import cpu_kind  # noqa: E402
from rag.eval import beir  # noqa: E402
from rag.eval.metrics import percentile  # noqa: E402
from rag.service import Folio  # noqa: E402
from rag.settings import Settings  # noqa: E402
from rag.types import Chunk, Page  # noqa: E402


def build(folio: Folio, docs, vecs, copies: int, names=None) -> None:
    for i in (names or range(copies)):
        book_id = i if isinstance(i, str) else f"scifact{i:02d}"
        if folio.catalog.book(book_id):
            continue
        chunks = [Chunk(book_id, j, text, 1, 1, 0, len(text), tokens=min(256, len(text) // 4))
                  for j, (_, text) in enumerate(docs)]
        folio.catalog.begin_book(book_id, f"SciFact copy {i}", f"scifact-{i}.jsonl", folio.settings.embed_model,
                                 folio.settings.chunking_config())
        folio.store.add(chunks, vecs.tolist())
        folio.catalog.commit_book(book_id, f"SciFact copy {i}", [Page(1, "1", "", 0)], chunks, 0.0)


def rss() -> str:
    """Resident memory of this process now and at its peak, from /proc/self/status."""
    got = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(("VmRSS:", "VmHWM:")):
            key, value = line.split(":", 1)
            got[key] = int(value.split()[0]) / 1024
    return f"RSS {got.get('VmRSS', 0):.0f} MB (peak {got.get('VmHWM', 0):.0f} MB)"


def timed(folio: Folio, queries: list[str], **kw) -> list[float]:
    out = []
    for q in queries:
        getattr(folio.embed, "_queries", {}).clear()  # every question embedded, as if asked for the first time
        t = time.perf_counter()
        folio.ask(q, **kw)  # retrieval, expansion and figure candidates; the answer is not generated
        out.append((time.perf_counter() - t) * 1e3)
    return out


def restart(data: Path, queries: list[str], configs) -> None:
    """A fresh process on a built library: warm-up (embedding model, BM25 indexes, vectors), then questions."""
    import os

    settings = Settings(data_dir=Path(data), model_cache_dir=HERE / "data/models")
    folio = Folio(settings)
    t = time.perf_counter()
    folio.warm_up()
    books = folio.library.books()
    print(f"library: {len(books)} books, {sum(b.chunks for b in books)} chunks; embedder {folio.embed.kind}")
    print(f"  restart warm-up (model, BM25 indexes, vectors) {time.perf_counter() - t:.1f} s, {rss()}")
    t = time.perf_counter()
    folio.ask(queries[3])
    print(f"  first question after the warm-up: {(time.perf_counter() - t) * 1e3:.0f} ms")
    for name, over in configs:
        for scope, kw in (("whole library", {}), ("one book", {"book_id": books[0].id})):
            ms = timed(folio, queries, **kw, **over)
            print(f"  {name} {scope}: p50 {percentile(ms, 50):.0f} ms, p95 {percentile(ms, 95):.0f} ms, "
                  f"mean {statistics.fmean(ms):.0f} ms over {len(ms)} queries; {rss()}")
    print(f"  (pid {os.getpid()})")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--copies", default="1,10", help="library sizes, in copies of SciFact (5,183 chunks each)")
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--scifact", type=Path, default=HERE.parent / "shared/eval/scifact")
    ap.add_argument("--cache", type=Path, default=HERE / "data/eval/beir-scifact/eval_cache")
    ap.add_argument("--data", type=Path, help="keep the synthetic library in this folder (reused when run again)")
    ap.add_argument("--set", action="append", default=[],
                    help="key=value query-time settings of a second configuration, timed beside the first")
    ap.add_argument("--restart-only", action="store_true",
                    help="open the library in --data as the app does after a restart (warm-up, then questions)")
    args = ap.parse_args()
    from rag.eval.cli import parse_config

    configs = [("default", {})] + ([(",".join(args.set), parse_config(",".join(args.set)))] if args.set else [])
    bs = beir.load(args.scifact)
    queries = list(bs.queries.values())[:args.queries]
    print(f"CPU: {cpu_kind()}")
    if args.restart_only:
        restart(args.data, queries, configs)
        return
    with tempfile.TemporaryDirectory() as tmp:
        d = args.data or tmp
        folio = Folio(Settings(data_dir=Path(d), model_cache_dir=HERE / "data/models"))
        t = time.perf_counter()
        vecs = beir.cached_vectors([text for _, text in bs.docs], folio.embed, folio.embed.cache_id, args.cache)
        print(f"SciFact vectors: {len(vecs)} in {time.perf_counter() - t:.1f} s (cache {args.cache})")
        folio.embed.get_query_embedding("warm up")  # model load is not a library change
        print(f"embedder: {folio.embed.kind}")
        for copies in sorted(int(c) for c in args.copies.split(",")):
            t = time.perf_counter()
            build(folio, bs.docs, vecs, copies)
            n = sum(b.chunks for b in folio.library.books())
            print(f"library: {copies} copies, {n} chunks (built in {time.perf_counter() - t:.1f} s); {rss()}")
            t = time.perf_counter()
            folio.ask(queries[0])
            print(f"  first question after the library change: {(time.perf_counter() - t) * 1e3:.0f} ms")
            for name, over in configs:
                for scope, kw in (("whole library", {}), ("one book", {"book_id": "scifact00"})):
                    ms = timed(folio, queries, **kw, **over)
                    print(f"  {name} {scope}: p50 {percentile(ms, 50):.0f} ms, p95 {percentile(ms, 95):.0f} ms, "
                          f"mean {statistics.fmean(ms):.0f} ms over {len(ms)} queries; {rss()}")
        build(folio, bs.docs, vecs, 0, names=["scifact-added"])  # a name no size of the library uses
        t = time.perf_counter()
        folio.library.bm25(folio.settings)  # what Folio.ingest does once a book is ready
        print(f"  BM25 index of the added book, built and saved at the end of its ingest: "
              f"{(time.perf_counter() - t) * 1e3:.0f} ms")
        t = time.perf_counter()
        folio.ask(queries[1])
        print(f"  first question after adding one more book ({sum(b.chunks for b in folio.library.books())} chunks): "
              f"{(time.perf_counter() - t) * 1e3:.0f} ms")
        folio.library.delete_book("scifact-added")
        t = time.perf_counter()
        folio.ask(queries[2])
        print(f"  first question after deleting it: {(time.perf_counter() - t) * 1e3:.0f} ms")
        again = Folio(Settings(data_dir=Path(d), model_cache_dir=HERE / "data/models"),
                      embed=folio.embed)  # a restart of the app, model already loaded
        t = time.perf_counter()
        again.warm_up()  # the app does this in the background at start
        print(f"  after a restart: warm-up (BM25 and book vectors from disk) {time.perf_counter() - t:.1f} s")
        t = time.perf_counter()
        again.ask(queries[3])
        print(f"  first question after the restart's warm-up: {(time.perf_counter() - t) * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
