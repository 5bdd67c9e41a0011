"""Chat sessions answering while a book is being added: per-answer latency, alone and during an ingest.

Usage: .venv/bin/python bench/sessions.py [--sessions 5] [--questions 8] [--book PDF] [--during PDF]
One ``Folio`` (as in the app: one per process, shared by every browser session) on a fresh data folder
holds ``--book`` (default Think Python). Each of ``--sessions`` threads asks ``--questions`` questions in
a row (extractive answers, consumed to the end); first alone, then while ``--during`` (default The Art
of Public Speaking) is ingested through the job queue. Prints p50/p95 per answer for both, and the
ingest's own time.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))

from rag.eval.metrics import percentile  # noqa: E402
from rag.service import Folio  # noqa: E402
from rag.settings import Settings  # noqa: E402

PDFS = HERE.parent / "shared/eval/pdfs"
QUESTIONS = ["What is a state diagram?", "What is recursion?", "How do you define a function?",
             "What is the difference between a list and a tuple?", "What does the break statement do?",
             "What is a dictionary?", "How do you read a file?", "What is inheritance?", "What is a method?",
             "What is an infinite loop?", "What does the modulus operator do?", "What is a docstring?"]


def sessions(folio: Folio, n: int, per: int, stop: threading.Event | None = None) -> list[float]:
    times: list[float] = []
    lock = threading.Lock()

    def one(k: int) -> None:
        for i in range(per):
            q = QUESTIONS[(k * 3 + i) % len(QUESTIONS)] + ("" if i < len(QUESTIONS) else f" ({i})")
            t = time.perf_counter()
            folio.ask(q).consume()
            with lock:
                times.append(time.perf_counter() - t)

    threads = [threading.Thread(target=one, args=(k,)) for k in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return times


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, default=5)
    ap.add_argument("--questions", type=int, default=8)
    ap.add_argument("--book", type=Path, default=PDFS / "en_think_python_2e_288p_ccbync.pdf")
    ap.add_argument("--during", type=Path, default=PDFS / "en_art_of_public_speaking_467p_pd.pdf")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        folio = Folio(Settings(data_dir=Path(d), model_cache_dir=HERE / "data/models"))
        folio.warm_up()
        folio.library.ingest(args.book.read_bytes(), args.book.name)
        sessions(folio, 1, 3)  # warm caches the way a running app has them
        for label, during in (("alone", False), ("during an ingest", True)):
            job = folio.library.submit(args.during.read_bytes(), args.during.name) if during else None
            if job:
                while job.state == "queued":
                    time.sleep(0.05)
            t = time.perf_counter()
            times = sessions(folio, args.sessions, args.questions)
            wall = time.perf_counter() - t
            state = f", ingest still {job.state}" if job else ""
            print(f"{args.sessions} sessions × {args.questions} questions {label}: per answer p50 "
                  f"{percentile(times, 50):.2f} s, p95 {percentile(times, 95):.2f} s, mean "
                  f"{statistics.fmean(times):.2f} s "
                  f"({wall:.1f} s in all{state})", flush=True)
            if job:
                while job.state in ("queued", "running"):
                    time.sleep(0.2)
                print(f"ingest of {args.during.name} during the sessions: {job.state}, {job.message}")


if __name__ == "__main__":
    main()
