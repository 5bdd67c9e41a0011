"""One odd book never breaks the library (issue 21): a book whose text is letters is refused before it is
committed; one that an older version let in is marked failed (with the reason) when its BM25 index is built, and
every other book, later ingests and questions go on; each per-book file (vector file, figures, page images) that
fails to load or build fails for its book only. Real Chroma, real PDFs, real files."""
import random

import pytest

from rag.errors import BadDocumentError, RagError
from tests import pdfs
from tests.fuzz_pdfs import shuffled_chars

WATERING = "How often do tomatoes need watering?"
KITCHEN = pdfs.make_book_pdf("Kitchen", {"Chapter 1 Cooking": [("Bread", "Bread needs flour, water, salt and yeast. "
                                                                 "Knead the dough for ten minutes.")]})


def letters() -> bytes:
    """The issue's file: every character its own text object, in shuffled order."""
    return shuffled_chars(random.Random(7), 2)


def answers_watering(folio) -> None:
    a = folio.ask(WATERING).consume()
    assert not a.not_found and "twice a week" in a.text, a.text


def test_a_book_of_shuffled_letters_is_refused_before_it_is_committed(folio, book_pdf):
    with pytest.raises(BadDocumentError, match="single letters") as e:
        folio.library.ingest(letters(), "letters.pdf")
    assert "letters.pdf" in str(e.value) and "OCR" in str(e.value)
    assert folio.library.books() == [] and not list(folio.settings.uploads_dir.glob("*.pdf"))
    folio.library.ingest(book_pdf, "garden.pdf")
    answers_watering(folio)


def test_text_without_a_word_to_search_is_refused(folio):
    doc = pdfs.pymupdf.open()
    doc.new_page().insert_textbox(pdfs.pymupdf.Rect(72, 72, 540, 700), "... !!! ??? --- *** ;;; " * 80)
    with pytest.raises(BadDocumentError, match="no words to search"):
        folio.library.ingest(doc.tobytes(), "dots.pdf")
    assert folio.library.books() == []


def test_a_letters_book_from_an_older_version_is_marked_failed_and_nothing_else_stops(folio, book_pdf, monkeypatch):
    """The issue: such a book committed as ready made every later BM25 build raise (bm25s: max() of an empty
    sequence) — later ingests and questions failed. Now it is marked failed with the reason; all else goes on."""
    import rag.library.ingest as ingest

    with monkeypatch.context() as m:  # what an older version did: no check before the commit, no BM25 yet
        m.setattr(ingest, "unindexable_reason", lambda text, language="": None)
        bad = ingest.ingest_pdf(letters(), "letters.pdf", folio.settings, folio.catalog, folio.store, folio.embed)
        good = ingest.ingest_pdf(book_pdf, "garden.pdf", folio.settings, folio.catalog, folio.store, folio.embed)
    assert {b.status for b in folio.library.books()} == {"ready"}

    answers_watering(folio)  # the question builds BM25 over both books: the letters book is taken out
    b = folio.library.book(bad.book_id)
    assert b.status == "failed" and "single letters" in b.error and "delete it" in b.error
    assert [f.id for f in folio.library.failed()] == [bad.book_id]
    assert folio.library.book(good.book_id).status == "ready"

    import os
    import subprocess
    import sys

    from tests.conftest import ROOT

    listed = subprocess.run([sys.executable, "-m", "rag", "books"], cwd=ROOT, capture_output=True, text=True,
                            env={**os.environ, "RAG_DATA_DIR": str(folio.settings.data_dir), "PYTHONPATH": str(ROOT)})
    row = next(ln.split("\t") for ln in listed.stdout.splitlines() if ln.startswith(bad.book_id))
    assert row[1] == "failed" and "single letters" in row[5]  # the CLI lists it with why

    k = folio.library.ingest(KITCHEN, "kitchen.pdf")  # later ingests go through
    assert folio.library.book(k.book_id).status == "ready"
    assert "ten minutes" in folio.ask("How long should I knead bread dough?").consume().text

    job = folio.library.submit_reindex(bad.book_id, owner="me")  # its re-index says why, and it stays listed
    folio.library.queue.wait(120)
    assert job.state == "failed" and "single letters" in job.error
    assert folio.library.book(bad.book_id).status == "failed"
    folio.library.delete_book(bad.book_id)
    assert folio.library.failed() == [] and len(folio.library.books()) == 2
    answers_watering(folio)


def test_a_damaged_vector_file_is_read_again_from_chroma(folio, book_pdf):
    r = folio.library.ingest(book_pdf, "garden.pdf")
    npy = next(folio.store.files.glob(f"{r.book_id}.npy"))
    npy.write_bytes(b"\x93NUMPY garbage, a half-written file")
    fresh = folio.sibling()  # a new process's view: nothing in memory, the file is read
    answers_watering(fresh)
    import numpy as np

    assert np.load(npy).shape == (r.chunks, folio.store.dim)  # written again, whole


def test_a_book_whose_vectors_are_gone_is_marked_failed_and_the_others_answer(folio, book_pdf):
    garden = folio.library.ingest(book_pdf, "garden.pdf")
    kitchen = folio.library.ingest(KITCHEN, "kitchen.pdf")
    folio.store.delete_book(kitchen.book_id)  # its vectors lost (a Chroma folder from elsewhere, a crash)
    fresh = folio.sibling()
    answers_watering(fresh)
    fresh.ask("How long should I knead bread dough?").consume()
    b = fresh.library.book(kitchen.book_id)
    assert b.status == "failed" and "vectors are missing" in b.error and "Re-index" in b.error
    assert fresh.library.book(garden.book_id).status == "ready"
    job = fresh.library.submit_reindex(kitchen.book_id)
    fresh.library.queue.wait(120)
    assert job.state == "done", job.message
    assert fresh.library.book(kitchen.book_id).status == "ready"
    assert "ten minutes" in fresh.ask("How long should I knead bread dough?").consume().text


def test_a_failed_reindex_leaves_the_book_listed_as_failed_with_why(folio, book_pdf):
    studio = folio.library.ingest(pdfs.make_figure_pdf(), "studio.pdf")
    folio.library.ingest(book_pdf, "garden.pdf")
    blocker = folio.settings.figures_dir / studio.book_id
    blocker.parent.mkdir(parents=True, exist_ok=True)
    import shutil

    shutil.rmtree(blocker)
    blocker.write_bytes(b"a file where the book's figure folder goes")  # its figures cannot be written
    job = folio.library.submit_reindex(studio.book_id, owner="me")
    folio.library.queue.wait(120)
    b = folio.library.book(studio.book_id)
    assert job.state == "failed" and "could not be written" in job.error
    assert b.status == "failed" and b.error.startswith("re-indexing failed: a file of the library could not be")
    answers_watering(folio)  # the other book answers meanwhile
    blocker.unlink()
    job = folio.library.submit_reindex(studio.book_id)
    folio.library.queue.wait(120)
    assert job.state == "done" and folio.library.book(studio.book_id).status == "ready"
    assert len(folio.library.figures(studio.book_id)) == 2


def test_a_page_image_that_cannot_be_drawn_is_an_error_for_that_page_only(folio, book_pdf):
    r = folio.library.ingest(book_pdf, "garden.pdf")
    original = folio.settings.uploads_dir / f"{r.book_id}.pdf"
    original.write_bytes(b"%PDF-1.7 overwritten by something else")
    with pytest.raises(RagError, match="could not be drawn"):
        folio.reader.page_image(r.book_id, 2)
    answers_watering(folio)


def test_a_damaged_figure_vector_leaves_the_other_figures_searchable(folio):
    studio = folio.library.ingest(pdfs.make_figure_pdf(), "studio.pdf")
    with folio.catalog._db() as db:  # one figure's vector cut short (a write from another version)
        db.execute("UPDATE figures SET vector = x'00000000' WHERE book_id = ? AND idx = 0", (studio.book_id,))
    figs, vecs = folio.catalog.figure_vectors([studio.book_id])
    assert [f.index for f in figs] == [1] and vecs.shape[0] == 1
    a = folio.ask("What does the water cycle diagram show?").consume()
    assert a.text.strip()
