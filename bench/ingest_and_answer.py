"""Measure ingest time of one PDF and time-to-first-text / total for questions.

Usage: .venv/bin/python bench/ingest_and_answer.py [PDF] [QUESTION ...]
Defaults: ../shared/eval/pdfs/en_think_python_2e_288p_ccbync.pdf, "What is a state diagram?".
Uses a fresh temporary data folder; prints what it measured (wall clock, this machine).
"""
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rag.service import Folio  # noqa: E402
from rag.settings import Settings  # noqa: E402

pdf = (
    Path(sys.argv[1])
    if len(sys.argv) > 1
    else Path(__file__).resolve().parents[2] / "shared/eval/pdfs/en_think_python_2e_288p_ccbync.pdf"
)
questions = sys.argv[2:] or ["What is a state diagram?", "What is the capital of Mongolia?"]

with tempfile.TemporaryDirectory() as d:
    t = time.perf_counter()
    folio = Folio(Settings(data_dir=Path(d), model_cache_dir=Path(__file__).resolve().parents[1] / "data/models"))
    folio.warm_up()  # what the app does in the background at start: model load, imports; reported separately
    print(
        f"warm-up (model load, sentence splitter import): {time.perf_counter() - t:.1f} s; embedder {folio.embed.kind}"
    )
    r = folio.library.ingest(pdf.read_bytes(), pdf.name)
    stages = ", ".join(f"{k} {v:.1f} s" for k, v in (r.stage_seconds or {}).items())
    print(f"ingest {pdf.name}: {r.pages} pages, {r.chunks} chunks in {r.seconds:.1f} s ({stages}); "
          f"{r.chunks / (r.stage_seconds or {}).get('embedding', 1):.1f} chunks/s embedded")
    for q in questions:
        for attempt in ("first", "second"):
            a = folio.ask(q).consume()
            print(f"{attempt:6} ask {q!r}: first text {a.trace['first_token']:.0f} ms, done {a.trace['total']:.0f} ms, "
                  f"not_found={a.not_found}, sources={[s.pages_label for s in a.sources]}")
