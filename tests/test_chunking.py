"""Invariants every chunking must keep."""
import pytest

from rag.chunking import chunk_book
from rag.parse import parse_file, parse_pdf
from rag.settings import Settings
from rag.tokens import count_tokens
from tests.conftest import eval_pdf


def check_invariants(book, chunks, settings):
    text = book.text
    assert [c.chunk_index for c in chunks] == list(range(len(chunks)))
    for c in chunks:
        # the chunk's text is exactly the book text at its character span
        assert text[c.char_start:c.char_end] == c.text
        # ... and the page text at that span when it sits on one page
        p0, p1 = book.pages[c.page_start - 1], book.pages[c.page_end - 1]
        if c.page_start == c.page_end:
            assert p0.text[c.char_start - p0.offset:c.char_end - p0.offset] == c.text
        assert p0.offset <= c.char_start and c.char_end <= p1.offset + len(p1.text)
        assert c.label_start == p0.label and c.label_end == p1.label
        # fits the embedding model
        assert c.tokens == count_tokens(c.text) <= settings.chunk_size
        # a chunk stays inside its section
        sec = next(s for s in book.sections if s.start <= c.char_start < s.end)
        assert c.char_end <= sec.end and c.section == sec.path
    # chunks are in reading order and do not overlap when overlap is 0
    for a, b in zip(chunks, chunks[1:]):
        assert a.char_end <= b.char_start


@pytest.mark.parametrize("size", [64, 120, 200])
def test_invariants_on_generated_book(book_pdf, size):
    s = Settings(chunk_size=size)
    book = parse_pdf(book_pdf, "garden.pdf")
    chunks = chunk_book(book, "b", s)
    assert len(chunks) > 3
    check_invariants(book, chunks, s)
    covered = sum(len(c.text) for c in chunks)
    assert covered > 0.9 * len(book.text.replace(" ", "")) * 0.9  # nearly all text is indexed


@pytest.mark.parametrize("name", ["en_think_python_2e_288p_ccbync.pdf", "de_geotopo_117p_ccbysa.pdf",
                                  "vi_anle/an_le_so_432021AL.pdf", "en_plos_one_0196757_14p_ccby.pdf"])
def test_invariants_on_real_documents(name):
    s = Settings()
    book = parse_file(eval_pdf(name))
    chunks = chunk_book(book, "b", s)
    assert len(chunks) > 5
    check_invariants(book, chunks, s)


def test_vietnamese_diacritics_survive():
    book = parse_file(eval_pdf("vi_anle/an_le_so_432021AL.pdf"))
    assert "ÁN LỆ" in book.text.upper()
