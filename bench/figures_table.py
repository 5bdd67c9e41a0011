"""Figures per PDF and ingest time, for every PDF in ../shared/eval/pdfs (or the PDFs given).

Usage: .venv/bin/python bench/figures_table.py [--code DIR] [PDF ...]
``--code DIR`` runs another checkout's ``rag`` (e.g. a worktree of the previous commit) so that
"before" and "after" ingest times come from the same machine in the same session. Each PDF is
ingested into a fresh temporary data folder; one process, the model loaded once (not counted).
Prints one row per PDF: pages, chunks, figures found (raster/vector), captions matched, skipped,
ingest seconds (parse / embed).
"""
import argparse
import sys
import tempfile
import time
from pathlib import Path

ap = argparse.ArgumentParser()
ap.add_argument("--code", type=Path, default=Path(__file__).resolve().parents[1])
ap.add_argument("pdfs", nargs="*", type=Path)
args = ap.parse_args()
sys.path.insert(0, str(args.code.resolve()))

from rag.errors import RagError  # noqa: E402
from rag.service import Folio  # noqa: E402
from rag.settings import Settings  # noqa: E402

pdfs = args.pdfs or sorted((Path(__file__).resolve().parents[2] / "shared/eval/pdfs").rglob("*.pdf"))
embed = None
print(f"code: {args.code.resolve()}")
print("| PDF | pages | chunks | figures (raster/vector) | captions | skipped | ingest s (parse / embed) |")
print("|---|---|---|---|---|---|---|")
for pdf in pdfs:
    with tempfile.TemporaryDirectory() as d:
        folio = Folio(Settings(data_dir=Path(d)), embed=embed)
        if embed is None:
            folio.embed.get_query_embedding("warm up")
            embed = folio.embed
        t = time.perf_counter()
        try:
            r = folio.library.ingest(pdf.read_bytes(), pdf.name)
        except RagError as e:
            print(f"| {pdf.name} | – | – | refused: {str(e)[len(pdf.name) + 2:][:60]}… | – | – | "
                  f"{time.perf_counter() - t:.1f} |")
            continue
        st = r.stage_seconds or {}
        fig = getattr(r, "figures", None)
        if fig:
            skipped = sum(fig["skipped"].values())
            figs = f"{fig['found']} ({fig['raster']}/{fig['vector']})"
            caps, skip = str(fig["captioned"]), str(skipped)
        else:
            figs, caps, skip = "–", "–", "–"
        print(f"| {pdf.name} | {r.pages} | {r.chunks} | {figs} | {caps} | {skip} | "
              f"{r.seconds:.1f} ({st.get('parsing', 0):.1f} / {st.get('embedding', 0):.1f}) |", flush=True)
