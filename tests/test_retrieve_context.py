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
    assert [h.chunk.chunk_index for h in kept] == [0, 1, 2]  # the fused best 3 whatever their similarity
    assert [h.chunk.chunk_index for h in relevance_filter(hits, 0.4, 1, 10)] == [0, 2]  # then only passing ones
    assert [h.chunk.chunk_index for h in relevance_filter(hits, 0.15, 2, 10)] == [0, 1, 2, 3]
    assert len(relevance_filter(hits, 0.0, 1, 2)) == 2


def test_the_dense_best_passage_is_among_the_first_two_hits():
    """A passage that words the question differently has BM25 score 0 and is fused below passages that share a
    few words; the dense retriever's best one is moved up to second place (tuning.retrieve.dense_keep)."""
    from rag.retrieve.hybrid import keep_dense
    from rag.settings import Settings, updated

    hits = [_hit(i, 0.4) for i in range(6)]
    hits[4].dense_rank, hits[0].dense_rank = 1, 2
    s = Settings()
    order = [h.chunk.chunk_index for h in keep_dense(hits[:], hits, s)]
    assert order == [0, 4, 1, 2, 3, 5]  # fused best first, dense best second, nothing lost
    assert [h.chunk.chunk_index for h in keep_dense(hits[:], hits, updated(s, {"tuning.retrieve.dense_keep_at": 0}))
            ][:2] == [4, 0]
    assert keep_dense(hits[:], hits, updated(s, {"tuning.retrieve.dense_keep": 0})) == hits
    hits[4].similarity = s.similarity_threshold - 0.01  # not similar enough to be relevant: stays where it was
    assert [h.chunk.chunk_index for h in keep_dense(hits[:], hits, s)] == [0, 1, 2, 3, 4, 5]
    hits[4].similarity, hits[1].dense_rank, hits[4].dense_rank = 0.4, 1, None  # already second: unchanged
    assert [h.chunk.chunk_index for h in keep_dense(hits[:], hits, s)] == [0, 1, 2, 3, 4, 5]
    kept = hits[:2]  # a dense best the relevance filter cut joins the kept ones
    hits[5].dense_rank, hits[1].dense_rank = 1, None
    assert [h.chunk.chunk_index for h in keep_dense(kept, hits, s)] == [0, 5, 1]
    hits[5].dense_rank, hits[3].dense_rank, hits[0].dense_rank = None, 2, 3  # the dense best was a contents page
    # the zone filter left out: nothing is moved (the next dense rank up was tried: one development answer got worse)
    assert [h.chunk.chunk_index for h in keep_dense(hits[:], hits, s)] == [0, 1, 2, 3, 4, 5]


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


def test_a_source_that_begins_inside_a_sentence_knows_it_and_its_first_words_are_not_quoted():
    """The chunk before a source ends a line of prose mid-sentence and the source goes on in lower case (a page
    break cut the sentence): the source says so, and the passage answerer never starts a quote there; a source after
    a heading or a finished sentence begins whole, even with a lower-case name ("live-config consists of …")."""
    from rag.answer.units import units

    texts = ["We have also built the image with a fully encrypted and persistence",
             "capable live system, copied to a usb stick as explained before. We also made one more partition.",
             "5.3 The live-config package",
             "live-config consists of the scripts that run at boot time after live-boot."]
    chunks = {i: Chunk("x", i, t, i + 1, i + 1, i * 200, i * 200 + len(t), tokens=30) for i, t in enumerate(texts)}

    def neighbours(book, lo, hi):
        return [chunks[i] for i in range(max(lo, 0), min(hi, 3) + 1)]

    cut, whole = (build_sources([Hit(chunks[i], 1.0, 0.9)], 0, 1000, neighbours, {"x": "Book"})[0] for i in (1, 3))
    assert cut.cut_before and not whole.cut_before
    assert [u.kind for u in units(cut)] == ["fragment", "sentence"]
    assert units(whole)[0].kind == "sentence"


import pytest  # noqa: E402

from rag.retrieve import fuse  # noqa: E402


@pytest.mark.parametrize("dense, sparse, sims, alpha, best, expected", [
    # both agree: the shared top candidate wins, with the top score 1
    ([("a", 0.8), ("b", 0.5)], [("a", 12.0), ("c", 6.0)], {"a": 0.8, "b": 0.5, "c": 0.2}, 0.75, "a", {"a": 1.0}),
    # a strong lexical match outranks a slightly better cosine when alpha leans to BM25
    ([("a", 0.6), ("b", 0.58)], [("b", 20.0), ("a", 1.0)], {"a": 0.6, "b": 0.58}, 0.3, "b", {}),
    # ... and not when alpha leans to the dense score
    ([("a", 0.9), ("b", 0.1)], [("b", 20.0), ("a", 10.0)], {"a": 0.9, "b": 0.1}, 0.9, "a", {}),
    # a BM25-only candidate keeps its cosine (theoretical minimum -1 maps to 0)
    ([("a", 0.5)], [("c", 8.0)], {"a": 0.5, "c": -1.0}, 0.5, "c", {"c": 0.5, "a": 0.5}),
])
def test_convex_fusion_normalises_by_theoretical_minimum_and_best_candidate(dense, sparse, sims, alpha, best, expected):
    f = fuse(dense, sparse, sims, "convex", alpha)
    assert max(f, key=f.get) == best or (expected and f[best] == max(f.values()))
    for cid, value in expected.items():
        assert f[cid] == pytest.approx(value)
    assert all(0.0 <= v <= 1.0 for v in f.values())


def test_fusion_with_one_retriever_is_its_own_normalised_score():
    assert fuse([("a", 0.5), ("b", 0.2)], [], {"a": 0.5, "b": 0.2}) == pytest.approx({"a": 1.0, "b": 1.2 / 1.5})
    assert fuse([], [("a", 4.0), ("b", 2.0)], {}) == {"a": 1.0, "b": 0.5}


def test_rrf_fusion_is_still_available():
    assert fuse([("a", 0.9), ("b", 0.1)], [("b", 3.0)], {"a": 0.9, "b": 0.1}, "rrf", k=60) == rrf(
        [["a", "b"], ["b"]], 60
    )


def test_a_rare_word_of_the_books_opens_the_similarity_floor():
    """"What does FANBOYS stand for?": the embedder reads the acronym as noise (cosine 0.23 to the page that spells it
    out), and with no hit above the similarity floor the question was declined at 0 %. A hit among the fused best
    that holds a word few chunks hold is judged by the answerability model instead, with the further hits that hold
    it; a question whose words every book uses stays below the floor."""
    from rag.library.bm25 import BM25Index
    from rag.retrieve.hybrid import rare_hits
    from rag.settings import Settings

    texts = [f"Common words about sentences and clauses, part {i}." for i in range(400)]
    texts[7] = "A trick to remember the coordinating conjunctions is the acronym FANBOYS."
    texts[30] = "FANBOYS stands for for, and, nor, but, or, yet and so."
    chunks = [Chunk("g", i, t, 1, 1, i * 100, i * 100 + len(t), tokens=10) for i, t in enumerate(texts)]
    bm25 = BM25Index(chunks)
    order = [chunks[7]] + chunks[:5] + [chunks[30]] + chunks[5:7] + chunks[8:30] + chunks[31:]
    hits = [Hit(c, 1.0 - i / 100, 0.2) for i, c in enumerate(order)]
    s = Settings(min_chunks=3, max_chunks=10)
    kept = rare_hits("What does FANBOYS stand for?", hits, bm25, None, s)
    assert [h.chunk.chunk_index for h in kept] == [7, 0, 1, 30]  # the fused best three, and a further one with it
    late = hits[1:4] + [hits[0]] + hits[4:]
    assert rare_hits("What does FANBOYS stand for?", late, bm25, None, s) == []  # not among the first three
    assert rare_hits("What are sentences and clauses about?", hits, bm25, None, s) == []
    off = Settings(min_chunks=3, max_chunks=10, tuning={"retrieve": {"rare_term_share": 0.0}})
    assert rare_hits("What does FANBOYS stand for?", hits, bm25, None, off) == []
    note = BM25Index(chunks[:5] + [chunks[7]])  # a six-chunk note: no word of it is rare
    assert rare_hits("What does FANBOYS stand for?", [Hit(c, 1.0, 0.2) for c in note.chunks], note, None, s) == []
