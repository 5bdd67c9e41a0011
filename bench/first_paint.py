"""App start in a real browser: `streamlit run app.py` → first paint, and the wait for the first text of answers,
in a fresh chat and as the chat grows.

Usage: .venv/bin/python bench/first_paint.py [--data DIR] [--turns N] [--before REV] [--rounds R] [--idle S]
Starts Streamlit on a free port (``--data``: its RAG_DATA_DIR, copied to a temporary folder for each run so runs
do not see each other's chats; default a fresh, empty library), opens it in Debian chromium (Playwright) as soon
as the server answers, and prints the seconds from the `streamlit run` command to the Library heading being
visible (first paint). With a library it then opens the Chat page in a new chat and asks ``--turns`` questions
in that one chat, printing for each the time from Enter to the first answer text (the first streamed words on
the screen). ``--before REV`` measures the tree at git REV (a temporary worktree) and this tree in the
same run, alternating, ``--rounds`` times each.
"""
from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
QUESTIONS = ["What is a state diagram?", "What is recursion?", "How do you define a function?",
             "What is the difference between a list and a tuple?", "What does the break statement do?",
             "What is a dictionary?", "How do you read a file?", "What is inheritance?", "What is a method?",
             "What is an infinite loop?", "What does the modulus operator do?", "What is a docstring?"]


FIRST_TEXT = '[data-testid="stText"], [data-testid="stBidiComponentIsolated"], [data-testid="stCode"]'


def cpu() -> str:
    try:
        info = Path("/proc/cpuinfo").read_text()
        model = re.search(r"model name\s*:\s*(.*)", info)
        flags = re.search(r"flags\s*:\s*(.*)", info)
        fl = set(flags.group(1).split()) if flags else set()
        simd = ", ".join(f for f in ("avx2", "fma", "avx512f") if f in fl)
        return f"{model.group(1) if model else platform.processor()} ({os.cpu_count()} cores; {simd or 'no AVX2'})"
    except OSError:
        return platform.processor()


def measure(tree: Path, data: Path | None, turns: int, idle: float) -> dict:
    """One start of the app from ``tree``: first paint, then first text of ``turns`` questions in one chat."""
    from playwright.sync_api import expect, sync_playwright

    from tests.servers import free_port

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    port = free_port()
    out: dict = {"first_text": []}
    with tempfile.TemporaryDirectory() as tmp:
        run_data = Path(tmp) / "data"
        if data:
            shutil.copytree(data, run_data)
        env = {**os.environ, "RAG_DATA_DIR": str(run_data), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
               "RAG_MODEL_CACHE_DIR": os.environ.get("RAG_MODEL_CACHE_DIR", str(HERE / "data/models"))}
        t0 = time.perf_counter()
        proc = subprocess.Popen([str(HERE / ".venv/bin/streamlit"), "run", "app.py", "--server.port", str(port),
                                 "--server.headless", "true", "--browser.gatherUsageStats", "false"], cwd=tree,
                                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while True:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1)
                    break
                except OSError:
                    time.sleep(0.05)
            out["server"] = time.perf_counter() - t0
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium, headless=True,
                                            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                                                  "--disable-component-update", "--no-first-run"])
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.goto(f"http://127.0.0.1:{port}")
                expect(page.get_by_role("heading", name="📚 Library")).to_be_visible(timeout=60_000)
                out["paint"] = time.perf_counter() - t0
                if data and turns:
                    page.get_by_role("link", name="Chat").click()
                    box = page.get_by_placeholder("Ask about your books…")
                    expect(box).to_be_enabled(timeout=60_000)
                    old_button = page.get_by_role("button", name="➕ New chat")  # the tree before chat URLs
                    if old_button.count():
                        old_button.click()  # there, the last saved chat would be open
                    expect(page.locator('[data-testid="stChatMessage"]')).to_have_count(0, timeout=30_000)
                    time.sleep(idle)
                    for n in range(turns):
                        question = QUESTIONS[n % len(QUESTIONS)] + ("" if n < len(QUESTIONS) else f" ({n})")
                        expect(box).to_be_enabled(timeout=60_000)
                        box.fill(question)
                        t = time.perf_counter()
                        box.press("Enter")
                        answer = page.locator('[data-testid="stChatMessage"]').nth(2 * n + 1)
                        # the first streamed words (a text element), or the finished answer's prose if it was faster
                        # than a poll
                        expect(answer.locator(FIRST_TEXT).first).to_be_attached(timeout=120_000)
                        out["first_text"].append(time.perf_counter() - t)
                        # the answer is complete (feedback thumbs drawn) before the next question
                        expect(answer.locator('[data-testid="stFeedback"], [data-testid="stButtonGroup"]')
                               .first).to_be_visible(timeout=120_000)
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    return out


def report(label: str, runs: list[dict]) -> None:
    paints = [r["paint"] for r in runs]
    print(f"{label}: first paint {statistics.median(paints):.1f} s (runs: "
          f"{', '.join(f'{x:.1f}' for x in paints)})")
    texts = [r["first_text"] for r in runs if r["first_text"]]
    if texts:
        per_turn = [statistics.median(t[i] for t in texts) for i in range(min(len(t) for t in texts))]
        print(f"  first text per turn (median of {len(texts)} run(s)), s: " + " ".join(f"{x:.2f}" for x in per_turn))
        first, last = per_turn[:3], per_turn[-3:]
        print(f"  turns 1–3 mean {statistics.fmean(first):.2f} s · last 3 turns mean {statistics.fmean(last):.2f} s")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, help="a library (RAG_DATA_DIR) to copy for each run")
    ap.add_argument("--turns", type=int, default=2, help="questions asked in one chat (needs --data)")
    ap.add_argument("--before", help="a git revision to measure in the same run (a temporary worktree)")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--idle", type=float, default=0.0, help="seconds to wait on the Chat page before asking")
    args = ap.parse_args()
    sys.path.insert(0, str(HERE))
    print(f"CPU: {cpu()}; load average {os.getloadavg()[0]:.1f} at start")
    trees = {"this tree": HERE}
    old = None
    if args.before:
        old = Path(tempfile.mkdtemp(prefix="folio-before-"))
        subprocess.run(["git", "worktree", "add", "-f", "--detach", str(old), args.before], cwd=HERE, check=True,
                       capture_output=True)
        trees = {f"before ({args.before})": old, "this tree": HERE}
    runs: dict[str, list[dict]] = {k: [] for k in trees}
    try:
        for r in range(args.rounds):
            for label, tree in trees.items():
                res = measure(tree, args.data, args.turns, args.idle)
                runs[label].append(res)
                print(f"round {r + 1}, {label}: paint {res['paint']:.1f} s, first text "
                      + " ".join(f"{x:.2f}" for x in res["first_text"]), flush=True)
    finally:
        if old:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=HERE, capture_output=True)
    for label, rs in runs.items():
        report(label, rs)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
