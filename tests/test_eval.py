"""Evaluation harness: metric functions by hand, a tiny BEIR set and a tiny book QA set through the CLI."""
import json
import re
import math
import os
import subprocess
import sys

import pymupdf
import pytest

from rag.eval.metrics import abstention, mrr, ndcg_at_k, page_hit, percentile, recall_at_k
from tests.conftest import ROOT


def test_metrics_against_hand_computed_values():
    ranking, rel = ["a", "b", "c"], {"b": 1, "c": 2}
    dcg = 1 / math.log2(3) + 2 / math.log2(4)
    idcg = 2 / math.log2(2) + 1 / math.log2(3)
    assert ndcg_at_k(ranking, rel, 10) == pytest.approx(dcg / idcg)
    assert ndcg_at_k(["c", "b"], rel, 10) == pytest.approx(1.0)
    assert ndcg_at_k(["x"], rel, 10) == 0.0
    assert recall_at_k(ranking, rel, 2) == 0.5 and recall_at_k(ranking, rel, 3) == 1.0
    assert mrr(ranking, rel) == 0.5 and mrr(["x", "y"], rel) == 0.0 and mrr(ranking, rel, k=1) == 0.0
    assert page_hit([(3, 4)], {4}) and not page_hit([(1, 2)], {4}) and not page_hit([], {1})
    assert abstention([True, False, False], [False, True, False]) == {"abstention": 0.5, "false_abstention": 0.0}
    assert percentile([1, 2, 3, 4], 50) == 2.5 and percentile([5], 95) == 5 and percentile([], 50) == 0.0


def _run(args, data_dir, timeout=600):
    env = {**os.environ, "RAG_DATA_DIR": str(data_dir), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "rag", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)


def test_tiny_beir_set_through_the_cli(tmp_path):
    folder = tmp_path / "tiny"
    (folder / "qrels").mkdir(parents=True)
    docs = {"d1": ("Tomato care", "Tomatoes need deep watering twice a week in summer."),
            "d2": ("Saturn", "Saturn is a gas giant famous for its bright rings of ice."),
            "d3": ("Bread", "Sourdough bread rises slowly because wild yeast ferments the dough."),
            "d4": ("Chess", "The knight moves in an L shape and can jump over other pieces."),
            "d5": ("Volcano", "Lava flows from a volcano when magma reaches the surface.")}
    with open(folder / "corpus.jsonl", "w") as f:
        for i, (t, x) in docs.items():
            f.write(json.dumps({"_id": i, "title": t, "text": x}) + "\n")
    queries = {"q1": "how often should tomatoes be watered", "q2": "which planet has rings of ice",
               "q3": "how does a knight move in chess"}
    with open(folder / "queries.jsonl", "w") as f:
        for i, t in queries.items():
            f.write(json.dumps({"_id": i, "text": t}) + "\n")
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\nq3\td4\t1\n")
    out = tmp_path / "beir.json"
    p = _run(["eval", "beir", str(folder), "--out", str(out)], tmp_path / "data")
    assert p.returncode == 0, p.stderr
    assert "| hybrid |" in p.stdout and "nDCG@10" in p.stdout
    res = json.loads(out.read_text())
    assert res["documents"] == 5 and res["queries"] == 3
    for mode in ("bm25", "dense", "hybrid"):
        assert res["modes"][mode]["ndcg@10"] == 1.0 and res["modes"][mode]["mrr@10"] == 1.0
    assert list((tmp_path / "data" / "eval" / "beir-tiny" / "eval_cache").glob("*.npz"))  # vectors kept
    p = _run(["eval", "beir", str(folder), "--modes", "hybrid"], tmp_path / "data")
    assert p.returncode == 0 and "| hybrid | 1.000 |" in p.stdout


def test_tiny_book_qa_set_through_the_cli(tmp_path, book_pdf):
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    (pdfs / "garden.pdf").write_bytes(book_pdf)
    doc = pymupdf.open(stream=book_pdf)

    def page_of(quote):
        return next(i + 1 for i, p in enumerate(doc) if quote in " ".join(p.get_text().split()))

    items = [
        {"id": "g1", "question": "How often do tomatoes need watering?", "file": "garden.pdf",
         "evidence_pages": [page_of("twice a week")], "evidence_quote": "Tomatoes need deep watering twice a week.",
         "type": "fact"},
        {"id": "g2", "question": "What is a planet?", "file": "garden.pdf",
         "evidence_pages": [page_of("celestial body")], "evidence_quote": "A planet is a celestial body",
         "type": "definition"},
        {"id": "g3", "question": "Who painted the Mona Lisa?", "file": "garden.pdf", "answerable": False,
         "type": "unanswerable"},
    ]
    qa = tmp_path / "qa.jsonl"
    qa.write_text("\n".join(json.dumps(i) for i in items))
    p = _run(["eval", "check", str(qa), "--pdfs", str(pdfs)], tmp_path / "data")
    assert p.returncode == 0 and "0 problems" in p.stdout, p.stdout
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({**items[0], "evidence_quote": "Tomatoes love the moon."}))
    p = _run(["eval", "check", str(bad), "--pdfs", str(pdfs)], tmp_path / "data")
    assert p.returncode == 1 and "evidence quote not on pages" in p.stdout

    out, table = tmp_path / "qa.json", tmp_path / "qa.csv"
    p = _run(["eval", "qa", str(qa), "--pdfs", str(pdfs), "--config", "window=0", "--config", "window=2",
              "--out", str(out), "--csv", str(table)], tmp_path / "data")
    assert p.returncode == 0, p.stderr
    results = json.loads(out.read_text())
    assert [r["config"] for r in results] == [{"window": 0}, {"window": 2}]
    for r in results:
        s = r["summary"]
        assert (s["questions"], s["answerable"], s["unanswerable"]) == (3, 2, 1)
        assert s["page_hit"] == 1.0 and s["abstention"] == 1.0 and s["false_abstention"] == 0.0
        assert s["quote_failures"] == 0 and s["latency_ms"]["p50"] > 0
    assert "| page-hit of cited sources (answerable) | 1.000 |" in p.stdout
    assert len(table.read_text().splitlines()) == 1 + 2 * 3

    # a chunk-size configuration gets a library of its own; a resumed sweep keeps what it measured
    p = _run(["eval", "qa", str(qa), "--pdfs", str(pdfs), "--config", "window=0", "--config", "chunk_size=64",
              "--config", "retrieval_mode=bm25", "--out", str(out)], tmp_path / "data")
    assert p.returncode == 0, p.stderr
    assert "already in" in p.stderr and (tmp_path / "data" / "eval" / "qa-chunk_size=64").is_dir()
    results = {json.dumps(r["config"]): r["summary"] for r in json.loads(out.read_text())}
    assert set(results) >= {'{"window": 0}', '{"window": 2}', '{"chunk_size": 64}', '{"retrieval_mode": "bm25"}'}
    assert results['{"chunk_size": 64}']["page_hit"] == 1.0 and results['{"retrieval_mode": "bm25"}']["page_hit"] == 1.0


def test_evaluate_page_runs_a_set_in_the_background(tmp_path, monkeypatch, book_pdf):
    import time

    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("RAG_DATA_DIR", str(tmp_path / "data"))
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    (pdfs / "garden.pdf").write_bytes(book_pdf)
    qa = "\n".join(json.dumps(i) for i in [
        {"id": "g1", "question": "How often do tomatoes need watering?", "file": "garden.pdf", "evidence_pages": [2]},
        {"id": "g2", "question": "Who painted the Mona Lisa?", "file": "garden.pdf", "answerable": False}])
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.switch_page("pages/evaluate.py").run()
    assert not at.exception
    at.selectbox[0].set_value("Upload a JSONL set…").run()
    at.file_uploader[0].set_value([("tiny.jsonl", qa.encode(), "application/json")])
    at.text_input[0].set_value(str(pdfs))
    at.text_area[0].set_value("window=0\nwindow=1")
    at.button[0].click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    deadline = time.time() + 240
    while time.time() < deadline and not at.dataframe:
        time.sleep(1)
        at.run()
    assert not at.exception
    df = at.dataframe[0].value
    assert list(df["config"]) == ['{"window": 0}', '{"window": 1}'] and list(df["abstention"]) == [1.0, 1.0]
    assert "Results: tiny.jsonl" in [s.value for s in at.subheader]
    assert any("twice a week" in t.value for t in at.text)  # the question explorer shows the answers
    from rag.library.catalog import Catalog
    from rag.settings import Settings

    mine = Settings(data_dir=tmp_path / "data")
    assert Catalog(mine.catalog_path).books() == []  # the user's library is untouched by the evaluation
    assert [b.filename for b in Catalog(Settings(data_dir=mine.data_dir / "eval" / "library").catalog_path).books()] \
        == ["garden.pdf"]
    at.switch_page("pages/evaluate.py")
    at.session_state["browser_id"] = "another-browser"  # another browser does not see this run
    at.session_state["browser_id_stored"] = True
    at.run()
    assert not at.exception and not at.dataframe


def test_an_evidence_quote_across_a_page_break_is_on_the_page_where_it_starts():
    """A book without fixed pages (EPUB) gets its evidence page from the quote: one that runs over a page break
    (a page number between its words) lies on the page where it begins."""
    from types import SimpleNamespace as NS

    from rag.eval.bookqa import QAItem, evidence_pages

    pages = [NS(number=1, text="Intro text."), NS(number=2, text="Often, only the layout matters. For example, "
                                                                 "to get the\n\n2"),
             NS(number=3, text="locale files for German keyboards in X use:\n$ lb config")]
    folio = NS(inspector=NS(pages=lambda book_id: pages))
    item = QAItem(id="x", question="?", file="b.epub", evidence_quote="to get the locale files for German keyboards")
    assert evidence_pages(folio, item, "book") == {2}
    inside = QAItem(id="y", question="?", file="b.epub", evidence_quote="locale files for German keyboards")
    assert evidence_pages(folio, inside, "book") == {3}


def test_a_shipped_sets_books_folder_is_suggested_only_where_it_is_and_a_missing_folder_is_refused_at_once(tmp_path):
    """The Evaluate page suggests where a shipped set's books are laid out (docs/evaluation.md) only when that folder
    exists (a clone outside the team's machines has none), and a folder that is not there is refused before any
    work starts, saying what to give."""
    from rag.errors import RagError
    from rag.eval.runs import REPO, SHARED_EVAL, Evaluations

    for name, where in [("qa_shared_eval.jsonl", SHARED_EVAL / "pdfs"), ("qa_books2.jsonl", SHARED_EVAL / "books2"),
                        ("qa_books5.jsonl", REPO.parent / "books5")]:
        assert Evaluations.books_folder(REPO / "eval" / name) == (where if where.is_dir() else None)
    assert Evaluations.books_folder(tmp_path / "mine.jsonl") is None
    runs = Evaluations(folio=None)
    for folder, said in ((tmp_path / "nowhere", f"No folder {tmp_path / 'nowhere'} on this machine"),
                         ("", "No folder given")):
        with pytest.raises(RagError, match=f"^{re.escape(said)}: give the folder that holds the set's books"):
            runs.start([], folder, [{}], "set.jsonl")
    assert runs.latest() is None
