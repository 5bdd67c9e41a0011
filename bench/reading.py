"""What faithful reading finds in each PDF, and what it costs at ingest: running headers/footers removed,
zones tagged, tables kept, pages read by OCR, the detected language, and end-to-end ingest seconds of the
code before the reading work (git REV, default 671e7fd) and of this tree, in the same run, each in a fresh
data directory (no embedding cache), one after the other.

Usage: .venv/bin/python bench/reading.py [--before REV] [PDF ...]   (default: every PDF in ../shared/eval/pdfs)
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
EVAL = HERE.parent / "shared" / "eval" / "pdfs"

# runs inside the tree being measured (old or new): ingest one PDF, print what came out as JSON
PROBE = r"""
import json, sys, time
from pathlib import Path
from rag.service import Folio
from rag.errors import RagError
path = Path(sys.argv[1])
f = Folio()
f.embed.get_text_embedding("warm up")  # load the model before timing (both trees)
t = time.perf_counter()
try:
    r = f.library.ingest(path.read_bytes(), path.name)
except RagError as e:
    print(json.dumps({"refused": str(e)[:120], "seconds": time.perf_counter() - t})); sys.exit()
out = {"seconds": time.perf_counter() - t, "stages": r.stage_seconds or {}, "pages": r.pages, "chunks": r.chunks,
       "report": r.figures or {}}
pages = f.inspector.pages(r.book_id)
out["furniture"] = sum(len(getattr(p, "furniture", [])) for p in pages)
out["furniture_pages"] = sum(1 for p in pages if getattr(p, "furniture", []))
out["ocr_pages"] = sum(1 for p in pages if getattr(p, "ocr", -1) >= 0)
chunks = f.catalog.chunks(r.book_id)
out["kinds"] = dict(__import__("collections").Counter(c.kind for c in chunks))
try:
    from rag.text.languages import detect
    out["language"] = detect(" ".join(c.text for c in chunks[:300]))
except ImportError:
    out["language"] = ""
print(json.dumps(out))
"""


def run(tree: Path, pdf: Path) -> dict:
    with tempfile.TemporaryDirectory() as data:
        env = {**os.environ, "RAG_DATA_DIR": data, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
               "PYTHONPATH": str(tree)}
        p = subprocess.run([str(HERE / ".venv/bin/python"), "-c", PROBE, str(pdf)], cwd=tree, env=env,
                           capture_output=True, text=True)
    line = next((ln for ln in reversed(p.stdout.splitlines()) if ln.startswith("{")), None)
    if not line:
        return {"error": (p.stderr.strip().splitlines() or ["no output"])[-1][:120]}
    return json.loads(line)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", default="671e7fd")
    ap.add_argument("pdfs", nargs="*", type=Path)
    a = ap.parse_args()
    pdfs = [p.resolve() for p in a.pdfs] or sorted(p for p in EVAL.rglob("*.pdf"))
    old = Path(tempfile.mkdtemp(prefix="folio-before-"))
    subprocess.run(["git", "worktree", "add", "-f", "--detach", str(old), a.before], cwd=HERE, check=True,
                   capture_output=True)
    try:
        print(f"| PDF | pages | furniture lines (pages) | zones (chunks) | tables | OCR'd pages | language | "
              f"ingest s before ({a.before}) → now | parse s before → now |")
        print("|---|---|---|---|---|---|---|---|---|")
        for pdf in pdfs:
            before, now = run(old, pdf), run(HERE, pdf)
            name = pdf.relative_to(EVAL) if pdf.is_relative_to(EVAL) else pdf.name
            if "refused" in now or "error" in now:
                b = before.get("refused") or before.get("error") or f"ingested: {before.get('chunks')} chunks"
                print(f"| {name} | | now: {now.get('refused') or now.get('error')} | | | | | before: {b} | |")
                continue
            kinds = Counter(now["kinds"])
            zones = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()) if k not in ("text", "code", "table")) or "–"
            rep = now["report"]
            bs = f"{before['seconds']:.1f}" if "seconds" in before and "refused" not in before else \
                (before.get("refused") or before.get("error") or "?")[:40]
            bp = f"{before.get('stages', {}).get('parsing', 0):.1f}" if "stages" in before else "–"
            print(f"| {name} | {now['pages']} | {now['furniture']} ({now['furniture_pages']}) | {zones} | "
                  f"{rep.get('tables', 0)} ({kinds.get('table', 0)} table chunks) | {now['ocr_pages']} | "
                  f"{now['language']} | {bs} → {now['seconds']:.1f} | {bp} → {now['stages'].get('parsing', 0):.1f} |")
            sys.stdout.flush()
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=HERE, capture_output=True)


if __name__ == "__main__":
    main()
