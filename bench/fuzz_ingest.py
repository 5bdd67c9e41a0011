"""The full fuzz run: every hostile PDF of tests/fuzz_pdfs.py (heavy ones included) through ``Library.ingest`` into
one library, the invariants of tests/ingest_invariants.py checked after each, a normal book added and answered
after each refusal; then one ``python -m rag ingest`` over a folder of all of them. Prints each file's outcome and
time, the totals, and the CPU it ran on.

Usage: HF_HUB_OFFLINE=1 .venv/bin/python bench/fuzz_ingest.py [--seed 21] [--light] [--no-cli] [--only NAME…]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))


def cpu() -> str:
    try:
        info = Path("/proc/cpuinfo").read_text()
        model = next(ln.split(":", 1)[1].strip() for ln in info.splitlines() if ln.startswith("model name"))
        flags = next(ln for ln in info.splitlines() if ln.startswith("flags")).split()
        simd = ", ".join(f for f in ("avx2", "fma", "avx512f") if f in flags)
        return f"{model} ({os.cpu_count()} cores; {simd})"
    except (OSError, StopIteration):
        import platform

        return platform.processor() or "unknown CPU"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--light", action="store_true", help="leave out the heavy cases")
    ap.add_argument("--no-cli", action="store_true", help="skip the CLI run over the folder")
    ap.add_argument("--only", nargs="*", help="case names (or parts of them) to run")
    args = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("RAG_MODEL_CACHE_DIR", str(Path(tempfile.gettempdir()) / "folio-test-models"))
    from rag.service import Folio
    from rag.settings import Settings
    from tests.fuzz_pdfs import cases
    from tests.ingest_invariants import check_answerable, check_refusal, ingest_outcome

    todo = [c for c in cases(args.seed) if not (args.light and c.heavy)
            and (not args.only or any(o in c.name for o in args.only))]
    print(f"# fuzz ingest: {len(todo)} files, seed {args.seed}, on {cpu()}", flush=True)
    results, problems, t_all = Counter(), [], time.perf_counter()
    with tempfile.TemporaryDirectory() as d:
        folio = Folio(Settings(data_dir=Path(d) / "data"))
        folio.warm_up()
        folder = Path(d) / "files"
        folder.mkdir()
        for n, case in enumerate(todo):
            t = time.perf_counter()
            data = case.data()
            made = time.perf_counter() - t
            (folder / case.name).write_bytes(data)
            try:
                o = ingest_outcome(folio, case.name, data)
                if o.result == "refused":
                    check_refusal(o)
                    check_answerable(folio, n)
                wrong = case.expect != "either" and case.expect != o.result
                verdict = "UNEXPECTED" if wrong else "ok"
            except Exception as e:  # noqa: BLE001 - reported, the run goes on
                o, verdict = None, f"BROKEN {type(e).__name__}: {str(e)[:200]}"
            if verdict != "ok":
                problems.append((case.name, verdict, o.detail[:200] if o else ""))
            results[(o.result if o else "broken", verdict == "ok")] += 1
            what = f"{o.result:<7} {o.seconds:6.2f} s  {o.detail[:110]}" if o else verdict
            print(f"{case.name:<40} {len(data) / 1024:8.0f} KB (made in {made:4.1f} s) {what}", flush=True)
        print(f"\n# Library.ingest: {sum(results.values())} files in {time.perf_counter() - t_all:.0f} s: "
              f"{results[('book', True)]} books, {results[('refused', True)]} refused with a reason, "
              f"{len(problems)} problems")
        for p in problems:
            print("  problem:", *p)
        if not args.no_cli:
            env = {**os.environ, "RAG_DATA_DIR": str(Path(d) / "cli-data"), "PYTHONPATH": str(HERE)}
            t = time.perf_counter()
            p = subprocess.run([sys.executable, "-m", "rag", "ingest", str(folder)], cwd=HERE, env=env,
                               capture_output=True, text=True)
            books = len(p.stdout.splitlines())
            errors = p.stderr.count("\nerror: ")
            print(f"# CLI: python -m rag ingest FOLDER ({len(todo)} files): exit {p.returncode}, {books} books, "
                  f"{errors} errors, {p.stderr.count('Traceback')} tracebacks, {time.perf_counter() - t:.0f} s")
            if "Traceback" in p.stderr:
                print(p.stderr[-3000:])
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
