"""Ingest throughput and memory per book file: pages/s, chunks/s embedded, peak RSS.

Usage: .venv/bin/python bench/ingest.py [--code DIR ...] [--set key=value ...] [FILE ...]
       .venv/bin/python bench/ingest.py --epub-vs-pdf [EPUB ...] [--pdf PDF ...]
Each file (PDF, EPUB, DOCX, HTML, Markdown, text) is ingested in a fresh process (so peak RSS is that
file's, model load included) with a fresh data folder. Give ``--code`` twice (two checkouts) or ``--set``
to compare two configurations in the same run; the ratio column compares each to the first. Defaults:
every PDF in ../shared/eval/pdfs, the checkout this script is in.

``--epub-vs-pdf`` times each EPUB against the PDF it is laid out as (same pages, same text: the cost of
the conversion alone) and against real PDFs of similar length (``--pdf``; default Think Python, 288
pages). Default EPUBs: a generated book of about 300 pages and the live-manual EPUBs in
../shared/eval/books2. The "convert s" column is the EPUB → PDF layout, included in "ingest s".
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

    import rag.library.ingest as ingest_mod

    converting = [0.0]
    read_document = ingest_mod.read_document

    def timed(*a, **kw):  # the format conversion, timed from outside the ingest code
        t0 = time.perf_counter()
        try:
            return read_document(*a, **kw)
        finally:
            converting[0] += time.perf_counter() - t0

    ingest_mod.read_document = timed
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
                "parse": st.get("parsing", 0.0), "embed": st.get("embedding", 0.0), "convert": converting[0],
                "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def cpu_kind() -> str:
    """"AMD EPYC …, 2 cores, AVX2 FMA (no AVX-512)": what the timings were measured on."""
    model, flags = "unknown CPU", set()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name") and model == "unknown CPU":
                model = line.split(":", 1)[1].strip()
            elif line.startswith("flags") and not flags:
                flags = set(line.split(":", 1)[1].split())
    except OSError:
        pass
    simd = " ".join(f for f in ("avx2", "fma") if f in flags).upper() or "no AVX2"
    avx512 = "AVX-512" if any(f.startswith("avx512") for f in flags) else "no AVX-512"
    return f"{model}, {os.cpu_count()} cores, {simd} ({avx512})"


WORDS = ("garden soil water root leaf light planet orbit star telescope mirror lens compost seed season frost "
         "harvest river valley mountain engine signal network packet kernel module driver archive image system "
         "manual chapter section figure table value result method measure sample pressure volume energy").split()


def generated_epub(pages: int = 300) -> bytes:
    """A book of about ``pages`` A5 pages: chapters, sections, paragraphs of varied words, a code listing
    and a table per chapter (deterministic, so every run times the same book)."""
    import io
    import random
    import zipfile

    rnd = random.Random(7)

    def para() -> str:
        sents = []
        for _ in range(rnd.randint(3, 6)):
            w = [rnd.choice(WORDS) for _ in range(rnd.randint(8, 18))]
            sents.append(" ".join(w).capitalize() + ".")
        return "<p>" + " ".join(sents) + "</p>"

    chapters = []
    for c in range(1, pages // 6 + 1):  # about six A5 pages a chapter
        body = [f"<h1>Chapter {c} {rnd.choice(WORDS).title()} and {rnd.choice(WORDS)}</h1>"]
        for s in range(1, 5):
            body.append(f"<h2>{c}.{s} {rnd.choice(WORDS).title()} {rnd.choice(WORDS)}</h2>")
            body += [para() for _ in range(6)]
        body.append("<pre>" + "\n".join(f"step_{i} = run('{rnd.choice(WORDS)}', {i})" for i in range(8)) + "</pre>")
        body.append("<table>" + "".join(f"<tr><td>{rnd.choice(WORDS)}</td><td>{rnd.randint(1, 999)}</td></tr>"
                                        for _ in range(6)) + "</table>")
        chapters.append('<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><body>'
                        + "".join(body) + "</body></html>")
    items = "".join(f'<item id="c{i}" href="c{i}.xhtml" media-type="application/xhtml+xml"/>'
                    for i in range(len(chapters)))
    refs = "".join(f'<itemref idref="c{i}"/>' for i in range(len(chapters)))
    opf = ('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata '
           'xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Generated Bench Book</dc:title>'
           f"<dc:language>en</dc:language></metadata><manifest>{items}</manifest><spine>{refs}</spine></package>")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip")
        z.writestr("META-INF/container.xml", '<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
                   '<rootfiles><rootfile full-path="content.opf"/></rootfiles></container>')
        z.writestr("content.opf", opf)
        for i, ch in enumerate(chapters):
            z.writestr(f"c{i}.xhtml", ch)
    return buf.getvalue()


def epub_vs_pdf(epubs: list[Path], pdfs: list[Path], code: Path, workdir: Path) -> list[Path]:
    """The files to time: each EPUB, then the PDF it is laid out as, then the real PDFs."""
    sys.path.insert(0, str(code))
    from rag.parse.formats import read_document

    if not epubs:
        gen = workdir / "generated_300p.epub"
        gen.write_bytes(generated_epub())
        epubs = [gen] + [p for p in [HERE.parent / "shared/eval/books2/en_live_manual.epub"] if p.exists()]
    files = []
    for e in epubs:
        laid = workdir / f"{e.stem}.laid-out.pdf"
        laid.write_bytes(read_document(e.read_bytes(), e.name, 500).pdf)
        files += [e, laid]
    return files + (pdfs or [p for p in [HERE.parent / "shared/eval/pdfs/en_think_python_2e_288p_ccbync.pdf"]
                             if p.exists()])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--code", type=Path, action="append", help="checkout to run (repeat to compare)")
    ap.add_argument("--set", action="append", default=[], help="key=value settings for a second configuration")
    ap.add_argument("--one", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--json", default="{}", help=argparse.SUPPRESS)
    ap.add_argument("--epub-vs-pdf", action="store_true", help="time EPUBs against PDFs of the same length")
    ap.add_argument("--pdf", type=Path, action="append", default=[], help="real PDF to compare (--epub-vs-pdf)")
    ap.add_argument("pdfs", nargs="*", type=Path)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(args.one, args.code[0], json.loads(args.json))))
        return
    work = tempfile.TemporaryDirectory()
    if args.epub_vs_pdf:
        pdfs = epub_vs_pdf(args.pdfs, args.pdf, (args.code or [HERE])[0], Path(work.name))
    else:
        pdfs = args.pdfs or sorted((HERE.parent / "shared/eval/pdfs").rglob("*.pdf"))
    runs = [(c, {}) for c in (args.code or [HERE])]
    if args.set:
        runs.append((runs[0][0], dict(kv.split("=", 1) for kv in args.set)))
    print(f"CPU: {cpu_kind()}\n")
    print("| file | run | pages | chunks | ingest s | pages/s | chunks/s embedded | convert s | parse s | peak RSS MB "
          "| × first run |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for pdf in pdfs:
        first = None
        for n, (code, over) in enumerate(runs, start=1):
            env = {**os.environ, "HF_HUB_OFFLINE": "1"}
            out = subprocess.run(
                [sys.executable, __file__, "--one", str(pdf), "--code", str(code), "--json", json.dumps(over)],
                capture_output=True,
                text=True,
                env=env,
            )
            try:
                r = json.loads(out.stdout.strip().splitlines()[-1])
            except (IndexError, ValueError):
                print(f"| {pdf.name} | {n} | failed: {out.stderr.strip().splitlines()[-1:]} |")
                continue
            if "error" in r:
                print(f"| {pdf.name} | {n} | refused: {r['error']} |")
                continue
            first = first or r["seconds"]
            print(f"| {pdf.name} | {n} | {r['pages']} | {r['chunks']} | {r['seconds']:.1f} | "
                  f"{r['pages'] / r['seconds']:.1f} | "
                  f"{r['chunks'] / max(r['embed'], 1e-9):.1f} | {r['convert']:.2f} | {r['parse']:.1f} | "
                  f"{r['rss_mb']:.0f} | {r['seconds'] / first:.2f} |", flush=True)


if __name__ == "__main__":
    main()
