"""Ingest throughput and memory per PDF: pages/s, chunks/s embedded, peak RSS.

Usage: .venv/bin/python bench/ingest.py [--code DIR ...] [--set key=value ...] [PDF ...]
Each PDF is ingested in a fresh process (so peak RSS is that PDF's, model load included) with a fresh
data folder. Give ``--code`` twice (two checkouts) or ``--set`` to compare two configurations in the
same run; the ratio column compares each to the first. Defaults: every PDF in ../shared/eval/pdfs,
the checkout this script is in.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def one(pdf: Path, code: Path, overrides: dict) -> dict:
    """Runs in the child: ingest one PDF, report timings and peak RSS."""
    import resource
    import time

    sys.path.insert(0, str(code))
    from rag.errors import RagError
    from rag.service import Folio
    from rag.settings import Settings

    with tempfile.TemporaryDirectory() as d:
        folio = Folio(Settings(data_dir=Path(d), **{"model_cache_dir": code / "data/models", **overrides}))
        t = time.perf_counter()
        folio.warm_up()  # as the app does in the background at start (model load, imports)
        load = time.perf_counter() - t
        try:
            r = folio.library.ingest(pdf.read_bytes(), pdf.name)
        except RagError as e:
            return {"pdf": pdf.name, "error": str(e)[:80]}
        st = r.stage_seconds or {}
        return {"pdf": pdf.name, "pages": r.pages, "chunks": r.chunks, "seconds": r.seconds, "load": load,
                "parse": st.get("parsing", 0.0), "embed": st.get("embedding", 0.0),
                "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--code", type=Path, action="append", help="checkout to run (repeat to compare)")
    ap.add_argument("--set", action="append", default=[], help="key=value settings for a second configuration")
    ap.add_argument("--one", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--json", default="{}", help=argparse.SUPPRESS)
    ap.add_argument("pdfs", nargs="*", type=Path)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(args.one, args.code[0], json.loads(args.json))))
        return
    pdfs = args.pdfs or sorted((HERE.parent / "shared/eval/pdfs").rglob("*.pdf"))
    runs = [(c, {}) for c in (args.code or [HERE])]
    if args.set:
        runs.append((runs[0][0], dict(kv.split("=", 1) for kv in args.set)))
    print("| PDF | run | pages | chunks | ingest s | pages/s | chunks/s embedded | parse s | peak RSS MB | × first run |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for pdf in pdfs:
        first = None
        for n, (code, over) in enumerate(runs, start=1):
            env = {**os.environ, "HF_HUB_OFFLINE": "1"}
            out = subprocess.run([sys.executable, __file__, "--one", str(pdf), "--code", str(code), "--json", json.dumps(over)],
                                 capture_output=True, text=True, env=env)
            try:
                r = json.loads(out.stdout.strip().splitlines()[-1])
            except (IndexError, ValueError):
                print(f"| {pdf.name} | {n} | failed: {out.stderr.strip().splitlines()[-1:]} |")
                continue
            if "error" in r:
                print(f"| {pdf.name} | {n} | refused: {r['error']} |")
                continue
            first = first or r["seconds"]
            print(f"| {pdf.name} | {n} | {r['pages']} | {r['chunks']} | {r['seconds']:.1f} | {r['pages'] / r['seconds']:.1f} | "
                  f"{r['chunks'] / max(r['embed'], 1e-9):.1f} | {r['parse']:.1f} | {r['rss_mb']:.0f} | "
                  f"{r['seconds'] / first:.2f} |", flush=True)


if __name__ == "__main__":
    main()
