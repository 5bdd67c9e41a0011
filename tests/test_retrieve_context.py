from rag.context import build_sources
from rag.retrieve import relevance_filter, rrf
from rag.types import Chunk, Hit


def test_rrf_sums_reciprocal_ranks():
    s = rrf([["a", "b"], ["b", "c"]], k=60)
    assert s["b"] == 1 / 62 + 1 / 61
    assert s["a"] == 1 / 61 and s["c"] == 1 / 62
    assert max(s, key=s.get) == "b"


def _hit(i, sim, book="x"):
    return Hit(Chunk(book, i, f"t{i}", 1, 1, i * 10, i * 10 + 5, tokens=10), 1.0 / (i + 1), sim)


def test_relevance_filter_bounds():
    hits = [_hit(0, 0.9), _hit(1, 0.1), _hit(2, 0.5), _hit(3, 0.2)]
    assert relevance_filter(hits, 0.95, 2, 10) == []  # nothing passes → not found
    kept = relevance_filter(hits, 0.4, 3, 10)
    assert [h.chunk.chunk_index for h in kept] == [0, 2, 1]  # passing first, padded to min
    assert len(relevance_filter(hits, 0.0, 1, 2)) == 2


def test_sources_merge_touching_windows_and_respect_budget():
    chunks = {i: Chunk("x", i, f"text {i}", i + 1, i + 1, i * 10, i * 10 + 6, tokens=10, label_start=str(i + 1),
                       label_end=str(i + 1)) for i in range(10)}

    def neighbours(book, lo, hi):
        return [chunks[i] for i in range(max(lo, 0), min(hi, 9) + 1)]

    hits = [Hit(chunks[i], 1.0 / (i + 1), sim) for i, sim in ((4, 0.9), (5, 0.8), (9, 0.7))]
    srcs = build_sources(hits, 1, 1000, neighbours, {"x": "Book"})
    assert [s.chunk_indices for s in srcs] == [[3, 4, 5, 6], [8, 9]]  # 4 and 5 touch: one source
    assert srcs[0].n == 1 and srcs[0].pages_label == "pp. 5–6" and srcs[0].context_label == "pp. 4–7"
    tight = build_sources(hits, 1, 35, neighbours, {"x": "Book"})
    assert sum(len(s.chunk_indices) for s in tight) * 10 <= 35
    assert tight[0].hit.chunk_index == 4
