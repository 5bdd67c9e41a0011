"""Embedding throughput and agreement: torch and every ONNX candidate of the export, in one run.

Usage: .venv/bin/python bench/embed.py [PDF] [--repeats 3] [--limit N] [--only NAME,…]
The PDF (default Think Python) is parsed and chunked as at ingest. The export (``rag.embed.export``) runs once
in a fresh cache folder and keeps every candidate's file; then torch and each candidate embed the book's
embedding texts, alternating, ``--repeats`` times each, each run in a fresh process (so no backend's idle
threads slow another; the model is loaded and warmed first, not timed). Prints the CPU kind, chunks/s per run,
the median ratio to torch (per-run ratios: each candidate's run against the torch run of the same round), the
cosine of each candidate's vectors to torch's on the book, the export's own check on its samples, and which
candidate the export chose.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))

from rag.embed import LocalSentenceEmbedding  # noqa: E402
from rag.embed.cpu import cpu_info  # noqa: E402
from rag.settings import Settings  # noqa: E402
from rag.text.tokens import model_path  # noqa: E402


def child(name: str, texts_file: Path, out: Path, onnx_file: str) -> None:
    """One timed run in this process: load + warm (not timed), then embed every text as ingest does."""
    texts = json.loads(texts_file.read_text())
    s = Settings()
    if name == "torch":
        e = LocalSentenceEmbedding(model_name=s.embed_model, backend="torch", embed_batch_size=s.embed_batch_size)
        embed = e.background_batch  # the ingest path: torch batches RAG_EMBED_BATCH_SIZE texts sorted by length
    else:
        from rag.embed.onnx import OnnxEncoder

        enc = OnnxEncoder(Path(onnx_file), model_path(s.embed_model), s.embed_threads)
        embed = enc.encode  # what the ONNX embedder's background_batch runs (batched by length)
    embed(texts[:64])
    t = time.perf_counter()
    vecs = np.asarray(embed(texts), dtype=np.float32)
    rate = len(texts) / (time.perf_counter() - t)
    np.save(out, vecs)
    print(json.dumps({"rate": rate}))


def _texts(pdf: Path, limit: int) -> list[str]:
    from rag.chunking import chunk_book
    from rag.chunking.base import embedding_texts
    from rag.parse.document import parse_pdf

    s = Settings()
    book = parse_pdf(pdf.read_bytes(), pdf.name, s.max_upload_mb)
    texts = embedding_texts(book, chunk_book(book, "bench", s, None), s.embed_context)
    return texts[:limit] if limit else texts


def _export(folder: Path) -> tuple[dict, dict[str, Path]]:
    """The export as the app runs it, keeping every candidate's file."""
    keep = folder / "candidates"
    run = subprocess.run([sys.executable, "-m", "rag.embed.export", str(model_path(Settings().embed_model)),
                          str(folder / "model.onnx"), str(keep)], cwd=HERE, capture_output=True, text=True,
                         env={**os.environ, "OMP_WAIT_POLICY": "PASSIVE", "TRANSFORMERS_VERBOSITY": "error"})
    if run.returncode != 0:
        sys.exit(f"export failed: {run.stderr.strip().splitlines()[-1:]}")
    manifest = json.loads((folder / "model.json").read_text())
    return manifest, {p.stem: p for p in sorted(keep.glob("*.onnx"))}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("pdf", nargs="?", type=Path,
                    default=HERE.parent / "shared/eval/pdfs/en_think_python_2e_288p_ccbync.pdf")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--limit", type=int, default=0, help="embed only the first N texts")
    ap.add_argument("--only", default="", help="comma-separated candidates to time (default: all the export built)")
    ap.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return child(args.child[0], Path(args.child[1]), Path(args.child[2]), args.child[3])
    from rag.text.tokens import count_tokens

    cpu = cpu_info()
    texts = _texts(args.pdf, args.limit)
    print(f"CPU: {cpu.describe()}; flags {', '.join(cpu.flags) or '-'}")
    print(f"{args.pdf.name}: {len(texts)} embedding texts, mean "
          f"{statistics.fmean(count_tokens(t) for t in texts):.0f} word-pieces", flush=True)
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        t = time.perf_counter()
        manifest, files = _export(d)
        print(f"export: {time.perf_counter() - t:.1f} s (its own record: {manifest['seconds']} s); chose "
              f"{manifest.get('chosen') or 'nothing (torch)'}", flush=True)
        if args.only:
            files = {n: p for n, p in files.items() if n in args.only.split(",")}
        names = ["torch", *files]
        rates: dict[str, list[float]] = {n: [] for n in names}
        vecs: dict[str, np.ndarray] = {}
        tf = d / "texts.json"
        tf.write_text(json.dumps(texts))
        for r in range(args.repeats):
            for name in names:
                out = d / f"{name}.npy"
                cmd = [sys.executable, __file__, "--child", name, str(tf), str(out), str(files.get(name, ""))]
                run = subprocess.run(cmd, capture_output=True, text=True, cwd=HERE)
                if run.returncode != 0:
                    sys.exit(f"{name} failed: {run.stderr.strip().splitlines()[-1:]}")
                rates[name].append(json.loads(run.stdout.strip().splitlines()[-1])["rate"])
                vecs[name] = np.load(out)
                print(f"  round {r + 1} {name}: {rates[name][-1]:.1f} chunks/s", flush=True)
    table = manifest.get("candidates", {})
    print(f"\n{'candidate':18s} {'chunks/s (runs)':>24s} {'median':>7s} {'× torch':>8s} "
          f"{'book cos mean/min/p5':>22s} {'export check mean/min':>22s}")
    for name in names:
        ratios = [x / t for x, t in zip(rates[name], rates["torch"])]
        cos = (vecs[name] * vecs["torch"]).sum(1)
        row = table.get(name, {})
        check = (f"{row['mean_cosine']:.4f}/{row['min_cosine']:.4f} {'pass' if row['passed'] else 'FAIL'}"
                 if "mean_cosine" in row else "reference" if name == "torch" else "-")
        mark = " ← chosen" if name == manifest.get("chosen") else ""
        print(f"{name:18s} {', '.join(f'{x:.1f}' for x in rates[name]):>24s} {statistics.median(rates[name]):7.1f} "
              f"{statistics.median(ratios):7.2f}× {cos.mean():8.4f}/{cos.min():.4f}/{np.percentile(cos, 5):.4f} "
              f"{check:>22s}{mark}")


if __name__ == "__main__":
    main()
