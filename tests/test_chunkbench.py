"""Chroma's chunking benchmark scorer: the metric definitions, and a real run on one corpus."""
import pytest

from rag.eval import chunkbench as cb
from rag.settings import Settings
from tests.conftest import EVAL

BENCH = EVAL / "chunking"


def test_interval_arithmetic():
    assert cb.union([(5, 10), (0, 3), (2, 6)]) == [(0, 10)]
    assert cb.length([(0, 4), (2, 6), (10, 12)]) == 8
    assert cb.overlap([(0, 10)], [(5, 15), (8, 20)]) == 5


def test_metrics_as_the_report_defines_them():
    # excerpt 100 chars [100, 200); two retrieved chunks in the corpus cover [150, 250) and [400, 450),
    # one foreign chunk of 50 chars; the chunks touching the excerpt are [50, 150) and [150, 250)
    m = cb.score([(100, 200)], [(150, 250), (400, 450)], 50, [(50, 150), (150, 250)])
    assert m["recall"] == pytest.approx(50 / 100)
    assert m["precision"] == pytest.approx(50 / (100 + 50 + 50))
    assert m["iou"] == pytest.approx(50 / (200 + 50))
    assert m["precision_omega"] == pytest.approx(100 / 200)
    perfect = cb.score([(0, 10)], [(0, 10)], 0, [(0, 10)])
    assert perfect == {"recall": 1.0, "precision": 1.0, "iou": 1.0, "precision_omega": 1.0}


def test_reference_spans_are_first_occurrences():
    corpus = "A cat sat. Then more. A cat sat. End."
    assert cb.reference_span(corpus, "A cat sat.", (22, 32)) == (0, 9)  # trailing "." dropped, first copy
    assert cb.reference_span(corpus, "missing", (3, 5)) == (3, 5)


@pytest.mark.skipif(not (BENCH / "questions_df.csv").exists(), reason="../shared/eval/chunking not present")
@pytest.mark.parametrize("chunker", ["paragraph", "hierarchical"])
def test_a_real_run_on_one_corpus(embed, tmp_path, chunker):
    from rag.embed.cache import EmbeddingCache

    bench = cb.load(BENCH, ["chatlogs"])
    assert len(bench.questions) == 56 and list(bench.corpora) == ["chatlogs"]
    for q in bench.questions:  # the excerpts are where the set says
        assert all(0 <= a < b <= len(bench.corpora["chatlogs"]) for a, b in q.refs)
    s = Settings(chunker=chunker, chunk_size=64 if chunker == "hierarchical" else 200, parent_size=192)
    res = cb.evaluate(bench, s, embed, (5, 10), cache=EmbeddingCache(tmp_path / "c.db", s.embed_model))
    five, ten = res["by_k"]["5"], res["by_k"]["10"]
    assert res["chunks"] > 40
    assert 40 < five["recall"][0] <= ten["recall"][0] <= 100  # more chunks find more
    assert five["precision"][0] >= ten["precision"][0] > 0
    assert five["precision_omega"] == ten["precision_omega"]  # independent of k
    table = cb.table([(chunker, res)], bench)
    assert f"| Folio {chunker} |" in table and "| published TokenText 200/0 (cl100k)" in table
