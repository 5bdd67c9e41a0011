"""What a chat turn costs the server as the chat grows, without a browser: the Chat page run in process (Streamlit's
AppTest) over a copy of a library, twelve questions asked in one chat, then the twelve-turn chat redrawn.

Usage: .venv/bin/python bench/chat_turns.py --data DIR [--before REV] [--reruns 5]
Prints, per tree: the seconds of each question's script run (retrieval, the answer, and redrawing the chat so
far: what the first text of an answer waits behind), the median of ``--reruns`` plain reruns of the finished
chat (the redraw alone), and how many elements the page has. ``--before REV`` measures the tree at git REV
(a temporary worktree) first, in a subprocess of its own, then this tree. Default questions: Think Python's.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
QUESTIONS = ["What is a state diagram?", "What is recursion?", "How do you define a function?",
             "What is the difference between a list and a tuple?", "What does the break statement do?",
             "What is a dictionary?", "How do you read a file?", "What is inheritance?", "What is a method?",
             "What is an infinite loop?", "What does the modulus operator do?", "What is a docstring?"]


def run_here(tree: Path, data: Path, reruns: int) -> None:
    """In this process: the Chat page of ``tree`` over a copy of ``data``."""
    sys.path.insert(0, str(tree))
    os.chdir(tree)
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(data, Path(tmp) / "data")
        os.environ["RAG_DATA_DIR"] = str(Path(tmp) / "data")
        from streamlit.testing.v1 import AppTest

        at = AppTest.from_file(str(tree / "app.py"), default_timeout=300)
        at.switch_page("pages/chat.py").run()
        runs = []
        for q in QUESTIONS:
            t = time.perf_counter()
            at.chat_input[0].set_value(q).run()
            runs.append(time.perf_counter() - t)
            if at.exception:
                raise SystemExit(f"{tree}: {at.exception}")
        redraw = []
        for _ in range(reruns):
            t = time.perf_counter()
            at.run()
            redraw.append(time.perf_counter() - t)
        print(f"  question runs, s: {' '.join(f'{x:.2f}' for x in runs)} (turns 2–4 mean "
              f"{statistics.fmean(runs[1:4]):.2f}, turns 10–12 mean {statistics.fmean(runs[-3:]):.2f})")
        print(f"  redraw of the 12-turn chat: median {statistics.median(redraw):.3f} s "
              f"({' '.join(f'{x:.3f}' for x in redraw)}); {len(list(at.main))} elements on the page")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, required=True, help="a library (RAG_DATA_DIR), e.g. with Think Python")
    ap.add_argument("--before", help="a git revision to measure first (a temporary worktree)")
    ap.add_argument("--reruns", type=int, default=5)
    ap.add_argument("--tree", type=Path, help=argparse.SUPPRESS)  # internal: measure this tree here
    args = ap.parse_args()
    if args.tree:
        run_here(args.tree, args.data.resolve(), args.reruns)
        return
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    print(f"load average {os.getloadavg()[0]:.1f} at start")
    trees: list[tuple[str, Path]] = []
    old = None
    if args.before:
        old = Path(tempfile.mkdtemp(prefix="folio-before-"))
        subprocess.run(["git", "worktree", "add", "-f", "--detach", str(old), args.before], cwd=HERE, check=True,
                       capture_output=True)
        trees.append((f"before ({args.before})", old))
    trees.append(("this tree", HERE))
    try:
        for label, tree in trees:
            print(label + ":", flush=True)
            subprocess.run([sys.executable, str(Path(__file__).resolve()), "--data", str(args.data.resolve()),
                            "--reruns", str(args.reruns), "--tree", str(tree)], env=env, check=False)
    finally:
        if old:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=HERE, capture_output=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
