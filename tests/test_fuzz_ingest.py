"""Hostile PDFs (tests/fuzz_pdfs.py, seeded) through ``Library.ingest`` and one ``python -m rag ingest`` over a
folder of them: each file becomes a correct book or is refused with a specific reason, never another exception or
a traceback, and after each refusal a normal book is added and answered. The suite runs one light case per kind
of hostility; bench/fuzz_ingest.py runs all of them (heavy ones too)."""
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT
from tests.fuzz_pdfs import cases, quick
from tests.ingest_invariants import check_answerable, check_refusal, ingest_outcome

ALL = cases()
QUICK = quick(ALL)


def test_the_corpus_is_seeded_big_and_varied():
    assert len(ALL) >= 100 and len({c.name for c in ALL}) == len(ALL)
    assert {"random_bytes", "byte_flips", "truncated", "trailing_junk", "blank_pages", "punctuation_only",
            "digits_only", "cjk_only", "rtl", "shuffled_chars", "deep_nesting", "outline_huge", "tiny_images",
            "page_tree_cycle", "self_drawing_form"} <= {c.family for c in QUICK}
    assert any(c.family == "blank_pages" and c.name.endswith("10000.pdf") for c in ALL)
    again = cases()
    for c in QUICK[::4]:  # the same bytes from the same seed
        assert c.data() == next(x for x in again if x.name == c.name).data()


@pytest.fixture(scope="module")
def library(tmp_path_factory, embed):
    from rag.service import Folio
    from rag.settings import Settings

    return Folio(Settings(data_dir=tmp_path_factory.mktemp("fuzz") / "data"), embed=embed)


@pytest.mark.parametrize("case", QUICK, ids=lambda c: c.name)
def test_a_hostile_file_is_a_book_or_a_reason(library, case):
    o = ingest_outcome(library, case.name, case.data())
    if case.expect != "either":
        assert o.result == case.expect, o.detail
    if o.result == "refused":
        check_refusal(o)
        check_answerable(library, QUICK.index(case))


def test_the_cli_over_a_folder_of_hostile_files(tmp_path, book_pdf):
    folder = tmp_path / "files"
    folder.mkdir()
    picked = QUICK[::3]
    for c in picked:
        (folder / c.name).write_bytes(c.data())
    (folder / "zz-garden.pdf").write_bytes(book_pdf)  # a normal book after all of them
    env = {**os.environ, "RAG_DATA_DIR": str(tmp_path / "data"), "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, "-m", "rag", "ingest", str(folder)], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=300)
    assert "Traceback" not in p.stderr and p.returncode in (0, 1), p.stderr[-3000:]
    books = [ln.split("\t") for ln in p.stdout.splitlines()]
    errors = [ln for ln in p.stderr.splitlines() if ln.startswith("error: ")]
    assert len(books) + len(errors) == len(picked) + 1, (p.stdout, errors)
    assert all(len(b) == 3 for b in books) and books[-1][1] == "Garden and Sky"
    assert all(any(c.name in e for c in picked) and "unexpected error" not in e for e in errors)
    expected_refusals = {c.name for c in picked if c.expect == "refused"}
    assert all(any(n in e for e in errors) for n in expected_refusals)
    assert p.returncode == (1 if errors else 0)
