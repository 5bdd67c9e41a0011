"""App start in a real browser: `streamlit run app.py` → first paint, and the wait for the first questions.

Usage: .venv/bin/python bench/first_paint.py [--data DIR] [--question Q] [--then Q2] [--idle S]
Starts Streamlit on a free port (``--data``: its RAG_DATA_DIR, default a fresh folder, so the library is
empty unless you point it at one), opens it in Debian chromium (Playwright) as soon as the server
answers, and prints: seconds from the `streamlit run` command to the Library heading being visible
(first paint); then, with a library, the time from Enter to the first answer text on the Chat page.
The embedding model warms in the background after start (``Folio.start_warm_up``), so the first
question should not pay the model load.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path)
    ap.add_argument("--question", default="What is a state diagram?")
    ap.add_argument("--idle", type=float, default=0.0, help="seconds to wait on the Chat page before asking")
    ap.add_argument("--then", default="What is recursion?", help="a second question, asked once the first is answered")
    args = ap.parse_args()
    sys.path.insert(0, str(HERE))
    from playwright.sync_api import expect, sync_playwright

    from tests.servers import free_port

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        data = args.data or Path(tmp) / "data"
        env = {**os.environ, "RAG_DATA_DIR": str(data), "HF_HUB_OFFLINE": "1",
               "RAG_MODEL_CACHE_DIR": os.environ.get("RAG_MODEL_CACHE_DIR", str(HERE / "data/models"))}
        t0 = time.perf_counter()
        proc = subprocess.Popen([str(HERE / ".venv/bin/streamlit"), "run", "app.py", "--server.port", str(port),
                                 "--server.headless", "true"], cwd=HERE, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while True:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1)
                    break
                except OSError:
                    time.sleep(0.05)
            up = time.perf_counter() - t0
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium, headless=True,
                                            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                                                  "--disable-component-update", "--no-first-run"])
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.goto(f"http://127.0.0.1:{port}")
                expect(page.get_by_role("heading", name="📚 Library")).to_be_visible(timeout=60_000)
                paint = time.perf_counter() - t0
                print(f"server answering {up:.1f} s after `streamlit run`; Library page painted at {paint:.1f} s")
                if args.data:
                    page.get_by_role("link", name="Chat").click()
                    page.get_by_role("button", name="➕ New chat").click()  # else the last saved chat is open
                    box = page.get_by_placeholder("Ask about your books…")
                    expect(page.locator('[data-testid="stChatMessage"]')).to_have_count(0)
                    time.sleep(args.idle)
                    expect(box).to_be_enabled(timeout=60_000)
                    for n, question in enumerate((args.question, args.then)):
                        box.fill(question)
                        t = time.perf_counter()
                        asked = t - t0
                        box.press("Enter")
                        answer = page.locator('[data-testid="stChatMessage"]').nth(2 * n + 1)
                        expect(answer).to_contain_text(re.compile(r"\[\d+\]|Not in your books"), timeout=120_000)
                        print(f"{('first', 'second')[n]} question, asked {asked:.1f} s after start: first answer text "
                              f"{time.perf_counter() - t:.2f} s after Enter")
                        expect(box).to_be_enabled(timeout=60_000)
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)


if __name__ == "__main__":
    main()
