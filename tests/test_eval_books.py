"""Real third-party documents from ../shared/eval (skipped when absent)."""
import re

import pytest

from rag.errors import BadDocumentError
from rag.parse import ocr, parse_file
from tests.conftest import eval_pdf
from tests.helpers import assert_citations_valid


def test_image_only_scan_turned_four_ways_is_read_by_ocr():
    path = eval_pdf("scanned_image_only_rotated_4p_mit.pdf")
    if not ocr.available():
        with pytest.raises(BadDocumentError, match="no text layer.*install Tesseract"):
            parse_file(path)
        pytest.skip("Tesseract is not installed: the refusal was checked, not the reading")
    book = parse_file(path)
    for page in book.pages:  # pages turned 0/180/90/270 degrees all read upright
        assert "Docling bundles PDF document conversion" in page.text and page.ocr > 80


def test_think_python_state_diagram_answer_cites_the_defining_page(folio):
    path = eval_pdf("en_think_python_2e_288p_ccbync.pdf")
    r = folio.library.ingest(path.read_bytes(), path.name)
    assert r.pages == 288 and r.chunks > 500
    a = folio.ask("What is a state diagram?").consume()
    assert not a.not_found
    assert_citations_valid(a)
    first_sentence, n = re.match(r"(.+?)\s*\[(\d+)\]", a.text).groups()
    assert "called a state diagram" in first_sentence
    src = next(s for s in a.sources if s.n == int(n))
    defining = next(p for p in folio.inspector.pages(r.book_id) if "This kind of figure is called a state "
                                                                   "diagram" in p.text)
    assert src.page_start <= defining.number <= src.page_end
    assert defining.label in src.pages_label
    # the book's own diagram under the answer, and the defining page with the passage highlighted
    assert a.figures and a.figures[0].caption.startswith("Figure 2.1") and a.figures[0].kind == "vector"
    (page, label, crop), *_ = folio.reader.citation_pages(src, a.text)
    assert (page, label) == (defining.number, defining.label) and crop.exists()


def test_plos_question_about_fig_2_shows_that_raster_figure(folio):
    path = eval_pdf("en_plos_one_0196757_14p_ccby.pdf")
    r = folio.library.ingest(path.read_bytes(), path.name)
    assert r.figures["raster"] >= 6 and r.figures["captioned"] >= 6
    a = folio.ask("What does Fig 2 show about the infectious capacity of RRV-T48?").consume()
    assert a.figures and a.figures[0].caption.startswith("Fig 2.") and a.figures[0].kind == "raster"
    assert a.figures[0].page == 7 and folio.library.file(a.figures[0].path).exists()


def test_no_think_python_chunk_starts_or_ends_with_a_running_header_or_footer():
    from rag.chunking import chunk_book
    from rag.settings import Settings

    book = parse_file(eval_pdf("en_think_python_2e_288p_ccbync.pdf"), extract_figures=False)
    spans = [(p.offset + a, p.offset + b) for p in book.pages for a, b in p.furniture]
    assert len(spans) > 400  # 495 lines found
    chunks = chunk_book(book, "tp", Settings())
    text = book.text
    for c in chunks:
        body = c.text.strip()
        first = c.char_start + c.text.index(body[:1])  # book offsets of the chunk's first and last characters
        last = c.char_start + len(c.text.rstrip()) - 1
        assert not any(a <= first < b or a <= last < b for a, b in spans), text[first:first + 60]
        for a, b in spans:  # and no running head inside: its characters are blank in the chunk
            if c.char_start <= a < c.char_end:
                assert not c.text[a - c.char_start:min(b, c.char_end) - c.char_start].strip()


def test_a_quote_inside_a_reflowed_paragraph_is_marked_printed_line_by_printed_line():
    # Think Python stores a paragraph's printed lines as one line of text: a quote that starts mid-line on its second
    # printed line had been marked over the whole paragraph's box
    import pymupdf

    from rag.evidence.render import drawn_boxes, locate

    path = eval_pdf("en_think_python_2e_288p_ccbync.pdf")
    page = next(p for p in parse_file(path, extract_figures=False).pages if p.number == 21)
    a, b = locate(page, "Like mathematicians, computer scientists use formal languages to denote ideas (specifically "
                        "computations).")
    with pymupdf.open(path) as doc:
        pdf_page = doc[20]
        first, second = drawn_boxes(pdf_page, page, a, b)
        like = [r for r in pdf_page.search_for("Like math") if abs(r.y0 - first[1]) < 3]
    assert like and abs(first[0] - like[0].x0) < 1  # from "Like math-", at the end of a printed line
    assert second[1] > first[3] - 1 and second[0] < first[0]  # and the whole next printed line, below it
