import pytest

from rag.errors import BadDocumentError
from rag.parse import parse_pdf
from rag.types import PAGE_SEP
from tests import pdfs


def test_pages_numbered_from_one_with_printed_labels(book_pdf):
    book = parse_pdf(book_pdf, "garden.pdf")
    assert [p.number for p in book.pages] == list(range(1, book.page_count + 1))
    assert book.pages[0].label == "i" and book.pages[1].label == "1"
    assert book.title == "Garden and Sky"


def test_page_offsets_index_the_book_text(book_pdf):
    book = parse_pdf(book_pdf, "garden.pdf")
    text = book.text
    for p in book.pages:
        assert text[p.offset:p.offset + len(p.text)] == p.text
    assert len(text) == sum(len(p.text) for p in book.pages) + len(PAGE_SEP) * (len(book.pages) - 1)


def test_headings_become_section_paths(book_pdf):
    book = parse_pdf(book_pdf, "garden.pdf")
    paths = [s.path for s in book.sections]
    assert "Chapter 1 Gardening > Watering" in paths
    assert "Chapter 2 Astronomy > Telescopes" in paths
    watering = next(s for s in book.sections if s.path.endswith("Watering"))
    assert book.text[watering.start:watering.end].startswith("Watering")
    # sections tile the text without overlap
    for a, b in zip(book.sections, book.sections[1:]):
        assert a.end <= b.start


def test_headings_from_fonts_when_pdf_has_no_outline():
    book = parse_pdf(pdfs.make_book_pdf(toc=False), "no-toc.pdf")
    paths = [s.path for s in book.sections]
    assert any(p.endswith("Planets") and "Astronomy" in p for p in paths), paths


@pytest.mark.parametrize("maker, reason", [
    (pdfs.make_corrupt_pdf, "damaged"),
    (pdfs.make_encrypted_pdf, "password-protected"),
    (pdfs.make_image_only_pdf, "no text layer"),
    (pdfs.make_blank_pdf, "no extractable text"),
    (lambda: b"", "empty"),
    (lambda: b"Just some notes, saved with the wrong extension.\n", "not a PDF"),
    (lambda: b"PK\x03\x04" + b"\x00" * 100, "ZIP/Office"),
])
def test_bad_files_get_a_reason_naming_the_file(maker, reason):
    with pytest.raises(BadDocumentError) as e:
        parse_pdf(maker(), "bad-file.pdf")
    assert "bad-file.pdf" in str(e.value) and reason in str(e.value)


def test_too_large_files_are_refused_before_parsing():
    with pytest.raises(BadDocumentError, match="limit is 1 MB"):
        parse_pdf(b"%PDF-1.7\n" + b"0" * (2 * 1024 * 1024), "huge.pdf", max_mb=1)


def test_truncated_pdf_is_repaired_or_refused_clearly(book_pdf):
    half = book_pdf[: len(book_pdf) // 2]
    try:
        book = parse_pdf(half, "truncated.pdf")
    except BadDocumentError as e:
        assert "truncated.pdf" in str(e)
    else:
        assert book.page_count >= 1
