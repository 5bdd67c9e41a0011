"""Where a question's time goes at 50k chunks: per-stage medians of ``Folio.ask``'s trace.

Usage: .venv/bin/python bench/query_stages.py [TREE] [--copies 10] [--queries 50] [--cache DIR]
TREE (default: this checkout) is the checkout whose ``rag`` is measured, so an older commit's worktree can
be timed with the same script (its own ``bench/retrieval_latency.py`` builds the library). The library is
``--copies`` × SciFact written through the catalog and store (vectors from the eval cache); each question
is embedded afresh (the query cache, where there is one, is cleared), whole library then one book.
"""
import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("tree", nargs="?", type=Path, default=HERE)
    ap.add_argument("--copies", type=int, default=10)
    ap.add_argument("--queries", type=int, default=50)
    ap.add_argument("--scifact", type=Path, default=HERE.parent / "shared/eval/scifact")
    ap.add_argument("--cache", type=Path, default=HERE / "data/eval/beir-scifact/eval_cache")
    args = ap.parse_args()
    tree = args.tree.resolve()
    sys.path.insert(0, str(tree))
    sys.path.insert(0, str(tree / "bench"))
    import retrieval_latency as rl
    from rag.eval import beir
    from rag.service import Folio
    from rag.settings import Settings

    bs = beir.load(args.scifact)
    qs = list(bs.queries.values())[:args.queries]
    with tempfile.TemporaryDirectory() as d:
        f = Folio(Settings(data_dir=Path(d), model_cache_dir=HERE / "data/models"))
        key = getattr(f.embed, "cache_id", None) or f.settings.embed_model
        vecs = beir.cached_vectors([t for _, t in bs.docs], f.embed, key, args.cache)
        f.embed.get_query_embedding("warm up")
        rl.build(f, bs.docs, vecs, args.copies)
        t = time.perf_counter()
        f.ask(qs[0])
        print(f"{tree.name}: first question after building the library: {(time.perf_counter() - t) * 1e3:.0f} ms")
        for scope, kw in (("whole library", {}), ("one book", {"book_id": "scifact00"})):
            traces, total = [], []
            for q in qs:
                getattr(f.embed, "_queries", {}).clear()
                t = time.perf_counter()
                a = f.ask(q, **kw)
                total.append((time.perf_counter() - t) * 1e3)
                traces.append(dict(a.answer.trace))
            keys = [k for k in traces[0] if k != "reformulate"]
            print(f"{scope}: total p50 {statistics.median(total):.0f} ms; " +
                  ", ".join(f"{k} {statistics.median(tr.get(k, 0) for tr in traces):.1f}" for k in keys))


if __name__ == "__main__":
    main()
