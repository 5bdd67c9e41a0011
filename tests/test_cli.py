"""The headless CLI, as a user runs it."""
import os
import subprocess
import sys

from tests.conftest import ROOT


def run(args, data_dir, **kw):
    env = {**os.environ, "RAG_DATA_DIR": str(data_dir), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "rag", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300, **kw)


def test_cli_ingest_ask_reindex(tmp_path, book_pdf):
    pdf, bad = tmp_path / "garden.pdf", tmp_path / "bad.pdf"
    pdf.write_bytes(book_pdf)
    bad.write_bytes(b"not a pdf at all")
    d = tmp_path / "data"
    p = run(["ingest", str(pdf), str(bad)], d)
    assert p.returncode == 1  # one file failed
    assert "Garden and Sky" in p.stdout and "bad.pdf" in p.stderr and "not a PDF" in p.stderr
    book_id = p.stdout.split("\t")[0]
    p = run(["ask", "How often do tomatoes need watering?", "--book", book_id], d)
    assert p.returncode == 0, p.stderr
    assert "twice a week" in p.stdout and "[1] Garden and Sky" in p.stdout
    p = run(["ask", "Who painted the Mona Lisa?"], d)
    assert p.returncode == 3 and "Not in your books" in p.stdout
    p = run(["reindex"], d)
    assert p.returncode == 0 and book_id in p.stdout
    p = run(["books"], d)
    assert book_id in p.stdout and "ready" in p.stdout
    assert "# Embedding: " in p.stderr  # what embeds books here (a slower path: '# warning: …', why, what it costs)
    p = run(["ask", "x", "--book", "nope"], d)
    assert p.returncode == 2 and "error:" in p.stderr and "Traceback" not in p.stderr


def test_cli_chunking_choice_export_and_lint(tmp_path, book_pdf):
    import json

    pdf = tmp_path / "garden.pdf"
    pdf.write_bytes(book_pdf)
    d = tmp_path / "data"
    p = run(["ingest", str(pdf), "--chunker", "hierarchical", "--chunk-size", "64", "--parent-size", "256"], d)
    assert p.returncode == 0, p.stderr
    book_id = p.stdout.split("\t")[0]
    out = tmp_path / "chunks.jsonl"
    p = run(["chunks", book_id, "--out", str(out)], d)
    assert p.returncode == 0, p.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows and all(r["settings"]["chunking"]["chunker"] == "hierarchical" for r in rows)
    assert all(r["parent"] >= 0 and r["tokens"] <= 64 for r in rows)
    assert {"text", "page_start", "char_start", "section", "kind", "id"} <= set(rows[0])
    # re-chunk without uploading again
    p = run(["reindex", "--book", book_id, "--chunker", "sentence"], d)
    assert p.returncode == 0, p.stderr
    p = run(["chunks", book_id], d)
    rows = [json.loads(line) for line in p.stdout.splitlines()]
    assert rows and {r["settings"]["chunking"]["chunker"] for r in rows} == {"sentence"}
    p = run(["chunks", book_id, "--lint"], d)
    assert p.returncode == 0 and '"mid_sentence"' in p.stderr
    p = run(["ingest", str(pdf), "--chunker", "nope"], d)
    assert p.returncode == 2 and "invalid choice" in p.stderr


def test_cli_result_lines_stay_one_clean_line_each(tmp_path, book_pdf):
    """Titles with newlines and file names with terminal escapes cannot split or colour a result line;
    MuPDF's own messages about a repaired file stay off stdout and are summarised per file."""
    import re

    import pymupdf

    doc = pymupdf.open(stream=book_pdf, filetype="pdf")
    doc.set_metadata({"title": "Garden\nand Sky \x1b[31mred"})
    odd = tmp_path / "odd \x1b[2J name.pdf"
    odd.write_bytes(doc.tobytes())
    broken = tmp_path / "xref.pdf"  # a wrong xref offset: MuPDF rebuilds it (and says so at length)
    data = pymupdf.open(stream=book_pdf, filetype="pdf").tobytes(garbage=1, clean=True)
    broken.write_bytes(re.sub(rb"startxref\s+\d+", b"startxref\n17", data))
    d = tmp_path / "data"
    p = run(["ingest", str(odd), str(broken)], d)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert len(lines) == 2 and all(len(ln.split("\t")) == 3 for ln in lines), p.stdout
    esc = [ln for ln in re.split("[\r\n]", p.stdout + p.stderr) if "\x1b" in ln]
    assert not esc, esc
    assert "Garden\\nand Sky" in lines[0]  # the title's newline, escaped (PDF metadata has no ESC)
    assert "format error" not in p.stdout and "repair" not in p.stdout.lower()
    assert "MuPDF reported" in p.stderr and "odd \\x1b[2J name.pdf" in p.stderr
    p = run(["books"], d)
    assert len(p.stdout.splitlines()) == 2
