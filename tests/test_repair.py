"""Start-up repair (``rag.library.repair``): what a crash or an older version left in a real data folder is
removed or marked when the library opens; what another process may be writing right now (young files) is left."""
import os
import time

from rag.library.repair import repair
from tests import pdfs

KITCHEN = pdfs.make_book_pdf("Kitchen", {"Chapter 1 Cooking": [("Bread", "Bread needs flour, water, salt and yeast. "
                                                                 "Knead the dough for ten minutes.")]})
ORPHAN = "0123456789abcdef"  # a book id the catalog does not hold


def age(*paths, seconds: float = 3600) -> None:
    t = time.time() - seconds
    for p in paths:
        os.utime(p, (t, t))


def test_leftovers_are_removed_half_indexed_books_recovered_short_books_marked(folio, book_pdf):
    s = folio.settings
    garden = folio.library.ingest(book_pdf, "garden.pdf")
    kitchen = folio.library.ingest(KITCHEN, "kitchen.pdf")
    bm25 = s.data_dir / "bm25"
    vectors = folio.store.files
    assert any(bm25.iterdir()) and (vectors / f"{garden.book_id}.ids.json").exists()

    left = {
        "bm25 tmp": bm25 / f"{garden.book_id}-abc.tmp",
        "bm25 no meta": bm25 / f"{kitchen.book_id}-old",
        "bm25 orphan": bm25 / f"{ORPHAN}-1234567890",
        "vector tmp": vectors / f"{garden.book_id}.123-456.tmp",
        "vector orphan": vectors / f"{ORPHAN}.npy",
        "vector orphan ids": vectors / f"{ORPHAN}.ids.json",
        "vector orphan sketch": vectors / f"{ORPHAN}.sketch.npz",
        "figures orphan": s.figures_dir / ORPHAN,
        "pages orphan": s.page_cache_dir / ORPHAN,
        "page tmp": s.page_cache_dir / garden.book_id / "p1-abc.tmp",
        "original orphan": s.uploads_dir / f"{ORPHAN}.pdf",
    }
    folders = {"bm25 tmp", "bm25 no meta", "bm25 orphan", "figures orphan", "pages orphan"}
    for name, p in left.items():
        p.parent.mkdir(parents=True, exist_ok=True)
        if name in folders:
            p.mkdir()
            (p / ("folio.json" if name == "bm25 orphan" else "data.bin")).write_text("{}")
        else:
            p.write_bytes(b"x")
    (vectors / f"{kitchen.book_id}.ids.json").unlink()  # a vector file whose ids never got written
    young = s.figures_dir / "fedcba9876543210"  # another process's book, being written now
    young.mkdir(parents=True)
    age(*left.values(), *vectors.iterdir())
    # a crash mid-ingest, and a book whose chunk rows are short (an older version's partial write)
    folio.catalog.begin_book("aaaaaaaaaaaaaaaa", "Half", "half.pdf", s.embed_model, s.chunking_config())
    with folio.catalog._db() as db:
        db.execute("DELETE FROM chunks WHERE book_id = ? AND chunk_index = 0", (kitchen.book_id,))

    fresh = folio.sibling()  # the next start
    report = fresh.repairs
    assert report.recovered == ["aaaaaaaaaaaaaaaa"] and "aaaaaaaaaaaaaaaa" not in {b.id for b in fresh.library.books()}
    assert set(report.failed) == {kitchen.book_id} and "incomplete" in report.failed[kitchen.book_id]
    assert fresh.library.book(kitchen.book_id).status == "failed"
    for name, p in left.items():
        assert not p.exists(), name
    assert not (vectors / f"{kitchen.book_id}.npy").exists()
    assert young.exists() and (vectors / f"{garden.book_id}.npy").exists()
    assert not report.errors and len(report.removed) == len(left) + 1
    a = fresh.ask("How often do tomatoes need watering?").consume()
    assert "twice a week" in a.text
    job = fresh.library.submit_reindex(kitchen.book_id)  # the marked book comes back with a re-index
    fresh.library.queue.wait(120)
    assert job.state == "done" and fresh.library.book(kitchen.book_id).status == "ready"
    assert not fresh.sibling().repairs  # nothing left to do


def test_a_repair_step_that_fails_does_not_stop_the_start(settings):
    from rag.library.catalog import Catalog

    settings.data_dir.mkdir(parents=True)
    (settings.data_dir / "bm25").write_text("a file where a folder belongs")
    cat = Catalog(settings.catalog_path)
    report = repair(cat, settings, None)
    assert not report  # nothing to do, nothing broke
    for f in settings.data_dir.glob("catalog.db*"):  # the catalog itself destroyed under the open library
        f.write_bytes(b"not a database" * 100)
    report = repair(cat, settings, None)
    assert report.errors and all("DatabaseError" in e for e in report.errors)
    assert "step(s) failed" in report.summary()
