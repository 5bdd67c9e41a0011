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
    assert p.returncode == 3 and "could not find" in p.stdout
    p = run(["reindex"], d)
    assert p.returncode == 0 and book_id in p.stdout
    p = run(["books"], d)
    assert book_id in p.stdout and "ready" in p.stdout
    p = run(["ask", "x", "--book", "nope"], d)
    assert p.returncode == 2 and "error:" in p.stderr and "Traceback" not in p.stderr
