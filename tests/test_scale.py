"""A large library: the dense search goes by sign bits then re-scores exactly, BM25 keeps no chunk texts — and both
return what the small-library paths return."""
import numpy as np

from rag.library.bm25 import BookChunks
from rag.library.bm25_cache import BM25Cache
from rag.library.dense import Sketch
from rag.library.vectors import VectorStore
from rag.types import Chunk
from tests.test_bm25_library import BOOKS


def _chunks(book: str, n: int) -> list[Chunk]:
    return [Chunk(book, i, f"passage {i} of {book}", 1, 1, 0, 10) for i in range(n)]


def _clustered(n_books=3, per_book=1500, dim=384, seed=0):
    """Vectors in tight clusters spread over books: a question near a cluster's centre has that cluster's members
    as its exact nearest neighbours, far ahead of the rest."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((60, dim)).astype(np.float32)
    books = {}
    for b in range(n_books):
        members = rng.integers(0, len(centres), per_book)
        mat = centres[members] + 0.6 * rng.standard_normal((per_book, dim)).astype(np.float32)
        books[f"book{b}"] = mat / np.linalg.norm(mat, axis=1, keepdims=True)
    return centres, books


def test_a_sketch_estimates_dot_products_exactly_within_its_axes():
    rng = np.random.default_rng(2)
    low = rng.standard_normal((500, 8)).astype(np.float32) @ rng.standard_normal((8, 64)).astype(np.float32)
    mat = low + 3.0  # rank 8 around a mean far from zero
    sk = Sketch.of(mat, dims=8, block=128)  # blocks: the same as one pass
    q = rng.standard_normal(64).astype(np.float32)
    assert sk.coords.shape == (500, 8) and np.allclose(sk.estimate(q), mat @ q, rtol=1e-3, atol=1e-2)
    rough = Sketch.of(mat, dims=2).estimate(q)
    assert np.corrcoef(rough, mat @ q)[0, 1] > 0.5  # fewer axes: an estimate, not the value


def test_two_step_dense_search_finds_the_exact_neighbours_with_their_exact_scores(settings):
    centres, books = _clustered()
    exact = VectorStore(settings, "all-MiniLM-L6-v2", 384)
    for b, mat in books.items():
        exact.add(_chunks(b, len(mat)), mat)
    big = VectorStore(settings.model_copy(update={"dense_exact_max": 1000, "dense_candidates": 200}),
                      "all-MiniLM-L6-v2", 384)  # 4,500 chunks > 1,000: sketches, then 200 re-scored
    rng = np.random.default_rng(1)
    for c in range(0, 60, 6):
        q = centres[c] + 0.3 * rng.standard_normal(384).astype(np.float32)
        q /= np.linalg.norm(q)
        want = exact.query(q.tolist(), 10, list(books))
        got = big.query(q.tolist(), 10, list(books))
        assert [ch.id for ch, _ in got] == [ch.id for ch, _ in want]
        assert np.allclose([s for _, s in got], [s for _, s in want], atol=1e-5)  # re-scored, not estimated
    saved = big.files / "book0.sketch.npz"
    assert saved.exists() and np.load(saved)["coords"].shape == (1500, 128)  # beside the vectors: a restart reads it
    big.delete_book("book0")
    assert not saved.exists()
    assert all(ch.book_id != "book0" for ch, _ in big.query(centres[0].tolist(), 10, list(books)))


def test_library_bm25_keeps_no_texts_and_reads_only_the_hits(tmp_path):
    versions = {b: (1,) for b in BOOKS}
    eager = BM25Cache(tmp_path / "eager").get(versions, BOOKS.__getitem__)
    reads: list[tuple[str, list[int]]] = []

    def fetch(book_id, positions):
        reads.append((book_id, positions))
        return [BOOKS[book_id][i] for i in positions]

    sizes = {b: len(c) for b, c in BOOKS.items()}
    built = BM25Cache(tmp_path / "lazy").get(versions, BOOKS.__getitem__, sizes=sizes, fetch=fetch)
    loads: list[str] = []

    def load(book_id):
        loads.append(book_id)
        return BOOKS[book_id]

    restarted = BM25Cache(tmp_path / "lazy").get(versions, load, sizes=sizes, fetch=fetch)
    assert loads == []  # a saved index is read back without reading the book's chunks
    for lib in (built, restarted):
        assert all(isinstance(idx.chunks, BookChunks) for idx in lib.books.values())
        for q in ("recursive functions", "Wann sind Abbildungen stetig?", "watering tomatoes", "soil worms"):
            reads.clear()
            assert lib.search(q, 2) == eager.search(q, 2)
            assert sum(len(p) for _, p in reads) <= 2 and len(reads) == len({b for b, _ in reads})
            for b in BOOKS:
                assert lib.search(q, 2, [b]) == eager.search(q, 2, [b])
    idx = restarted.books["garden"]
    assert len(idx.chunks) == 3 and idx.chunks[-1] == BOOKS["garden"][2] and idx.chunks[0:2] == BOOKS["garden"][:2]


def test_rows_are_read_from_the_file_without_mapping_it(tmp_path):
    from rag.library.dense import read_rows

    mat = np.arange(40 * 6, dtype=np.float32).reshape(40, 6)
    np.save(tmp_path / "m.npy", mat)
    mapped = np.load(tmp_path / "m.npy", mmap_mode="r")
    rows = np.array([7, 3, 4, 5, 39, 0])  # unsorted, with a run of consecutive rows
    assert np.array_equal(read_rows(mapped, rows), mat[rows]) and np.array_equal(read_rows(mat, rows), mat[rows])


def test_a_library_question_reads_neither_texts_nor_vectors_from_chroma(folio, book_pdf, monkeypatch):
    """Hits come from the catalog, similarities from the vector files: Chroma's collection is only written to."""
    folio.library.ingest(book_pdf, "garden.pdf")
    restarted = type(folio)(folio.settings, embed=folio.embed)
    store = restarted.store
    store.open()

    def no_reads(*a, **kw):
        raise AssertionError("read from Chroma")

    monkeypatch.setattr(store._collection, "get", no_reads)
    a = restarted.ask("How often do tomatoes need watering?").consume()
    assert not a.not_found and "twice a week" in a.text
    ids = [s.hit.id for s in a.sources]
    sims = store.similarities(restarted.embed.get_query_embedding("watering tomatoes"), ids)
    assert set(sims) == set(ids) and all(-1 <= v <= 1 for v in sims.values())
