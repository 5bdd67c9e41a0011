"""Embedding throughput and agreement: ONNX Runtime (int8) against the torch reference, in one run.

Usage: .venv/bin/python bench/embed.py [PDF] [--repeats 3] [--limit N]
The PDF (default Think Python) is parsed and chunked as at ingest; its embedding texts are embedded by
both backends, alternating, ``--repeats`` times each, each run in a fresh process (so neither backend's
idle threads slow the other; the model is loaded and warmed first, not timed). Prints chunks/s per run,
the median ratio, and the cosine of each ONNX vector to its torch vector.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))

from rag.chunking import chunk_book  # noqa: E402
from rag.chunking.base import embedding_texts  # noqa: E402
from rag.embed import LocalSentenceEmbedding  # noqa: E402
from rag.parse.document import parse_pdf  # noqa: E402
from rag.settings import Settings  # noqa: E402


def child(backend: str, texts_file: Path, out: Path) -> None:
    """One timed run in this process: load + warm (not timed), then embed every text."""
    import json

    texts = json.loads(texts_file.read_text())
    s = Settings()
    e = LocalSentenceEmbedding(model_name=s.embed_model, backend=backend, embed_batch_size=s.embed_batch_size,
                               model_cache_dir=str(HERE / "data/models"))
    e.background_batch(texts[:64])
    t = time.perf_counter()
    # the ingest path: every text in one call; torch batches RAG_EMBED_BATCH_SIZE texts (sorted by length),
    # ONNX by length up to its word-piece budget
    vecs = np.asarray(e.background_batch(texts), dtype=np.float32)
    rate = len(texts) / (time.perf_counter() - t)
    np.save(out, vecs)
    print(json.dumps({"kind": e.kind, "rate": rate}))


def main() -> None:
    import json
    import subprocess
    import tempfile

    ap = argparse.ArgumentParser()
    ap.add_argument("pdf", nargs="?", type=Path, default=HERE.parent / "shared/eval/pdfs/en_think_python_2e_288p_ccbync.pdf")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--limit", type=int, default=0, help="embed only the first N texts")
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return child(args.child[0], Path(args.child[1]), Path(args.child[2]))
    s = Settings()
    book = parse_pdf(args.pdf.read_bytes(), args.pdf.name, s.max_upload_mb)
    chunks = chunk_book(book, "bench", s, None)
    texts = embedding_texts(book, chunks, s.embed_context)
    texts = texts[:args.limit] if args.limit else texts
    from rag.text.tokens import count_tokens

    rates: dict[str, list[float]] = {"torch": [], "onnx": []}
    vecs: dict[str, np.ndarray] = {}
    kinds = {}
    with tempfile.TemporaryDirectory() as d:
        tf = Path(d) / "texts.json"
        tf.write_text(json.dumps(texts))
        print(f"{args.pdf.name}: {len(texts)} embedding texts, mean "
              f"{statistics.fmean(count_tokens(t) for t in texts):.0f} word-pieces", flush=True)
        for r in range(args.repeats):
            for name in rates:
                out = Path(d) / f"{name}.npy"
                run = subprocess.run([sys.executable, __file__, "--child", name, str(tf), str(out)],
                                     capture_output=True, text=True, check=True)
                got = json.loads(run.stdout.strip().splitlines()[-1])
                kinds[name] = got["kind"]
                rates[name].append(got["rate"])
                vecs[name] = np.load(out)
                print(f"  run {r + 1} {got['kind']}: {got['rate']:.1f} chunks/s", flush=True)
    ratios = [o / t for o, t in zip(rates["onnx"], rates["torch"])]
    cos = (vecs["onnx"] * vecs["torch"]).sum(1)
    print(f"torch median {statistics.median(rates['torch']):.1f} chunks/s, {kinds['onnx']} median "
          f"{statistics.median(rates['onnx']):.1f} chunks/s: ratio per run {', '.join(f'{x:.2f}' for x in ratios)} "
          f"(median {statistics.median(ratios):.2f}×)")
    print(f"cosine ONNX vs torch: mean {cos.mean():.4f}, min {cos.min():.4f}, 5th percentile {np.percentile(cos, 5):.4f}")


if __name__ == "__main__":
    main()
