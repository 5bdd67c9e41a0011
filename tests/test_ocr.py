"""Scanned pages read by Tesseract (a real `tesseract` process); refused with an install hint without it."""
import pymupdf
import pytest

from rag.errors import BadDocumentError
from rag.parse import ocr, parse_pdf
from tests import pdfs

needs_tesseract = pytest.mark.skipif(not ocr.available(), reason="Tesseract is not installed (scripts/test.sh installs "
                                                                 "it)")

GARDEN = ("The vegetable garden needs compost in autumn.\nTomatoes ripen in the warm weeks of August.\n"
          "Slugs eat the young lettuce at night.")


@needs_tesseract
@pytest.mark.parametrize("rotate", [0, 90, 180])
def test_a_scanned_page_becomes_text_with_its_confidence_and_boxes_on_the_page(rotate):
    book = parse_pdf(pdfs.make_scanned_pdf([GARDEN], rotate=rotate), "scan.pdf")
    page = book.pages[0]
    for word in ("vegetable", "compost", "Tomatoes", "August", "lettuce"):
        assert word in page.text
    assert page.ocr >= 70
    assert book.figure_report["ocr"]["pages"] == 1 and book.figure_report["ocr"]["language"] == "en"
    # boxes in the unrotated page space, like a text layer's, covering the words
    src = pymupdf.open(stream=pdfs.make_scanned_pdf([GARDEN], rotate=rotate))[0]
    bound = src.mediabox + (-2, -2, 2, 2)
    assert page.lines and all(pymupdf.Rect(ln[2:6]) in bound for ln in page.lines)
    start = page.text.index("compost")
    assert page.boxes(start, start + 7)


@needs_tesseract
def test_only_pages_without_text_are_read_by_ocr(book_pdf):
    text_doc = pymupdf.open(stream=book_pdf)
    scan = pymupdf.open(stream=pdfs.make_scanned_pdf([GARDEN]))
    text_doc.insert_pdf(scan)
    book = parse_pdf(text_doc.tobytes(), "mixed.pdf")
    assert [p.ocr >= 0 for p in book.pages] == [False] * (len(book.pages) - 1) + [True]
    assert "compost" in book.pages[-1].text


@needs_tesseract
def test_a_german_scan_is_read_in_german():
    if ocr.tess_language("de") != "deu":
        pytest.skip("Tesseract's German data (tesseract-ocr-deu) is not installed")
    text = ("Die Größe der Fläche ist für die Prüfung wichtig.\nDer Würfel hat gleich lange Kanten und ist "
            "nicht schwer.\nÜber die Straße gehen die Schüler zur Schule.")
    book = parse_pdf(pdfs.make_scanned_pdf([text]), "scan-de.pdf")
    assert book.figure_report["ocr"]["language"] == "de"
    for word in ("Größe", "Fläche", "Prüfung", "Würfel", "Straße", "Schüler"):
        assert word in book.pages[0].text


def test_without_tesseract_a_scan_is_refused_saying_how_to_install_it(monkeypatch):
    monkeypatch.setenv("RAG_TESSERACT", "/nonexistent/tesseract")
    with pytest.raises(BadDocumentError, match="no text layer.*Tesseract is not installed.*apt-get install "
                                               "tesseract-ocr"):
        parse_pdf(pdfs.make_scanned_pdf([GARDEN]), "scan.pdf")


def test_without_tesseract_a_partly_scanned_book_is_ingested_and_names_the_unread_pages(monkeypatch, book_pdf):
    monkeypatch.setenv("RAG_TESSERACT", "/nonexistent/tesseract")
    doc = pymupdf.open(stream=book_pdf)
    doc.insert_pdf(pymupdf.open(stream=pdfs.make_scanned_pdf([GARDEN])))
    book = parse_pdf(doc.tobytes(), "mixed.pdf")
    assert book.figure_report["scanned_unread"]["pages"] == [len(book.pages)]
    assert book.pages[-1].text == "" and book.pages[0].text


def test_ocr_off_leaves_scans_unread():
    with pytest.raises(BadDocumentError, match="OCR is off"):
        parse_pdf(pdfs.make_scanned_pdf([GARDEN]), "scan.pdf", use_ocr=False)


def test_tsv_rows_become_lines_and_blocks():
    tsv = ("level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
           "5\t1\t1\t1\t1\t1\t100\t100\t50\t20\t90\tHello\n5\t1\t1\t1\t1\t2\t160\t100\t60\t20\t80\tworld\n"
           "5\t1\t1\t1\t2\t1\t100\t130\t40\t20\t-1\t \n5\t1\t2\t1\t1\t1\t100\t300\t40\t20\t70\tNext\n")
    got = ocr._from_tsv(tsv, lambda b: tuple(v / 2 for v in b), "eng")
    assert [[ln["spans"][0]["text"] for ln in b["lines"]] for b in got.blocks] == [["Hello world"], ["Next"]]
    assert got.blocks[0]["lines"][0]["bbox"] == (50, 50, 110, 60)
    assert got.words == 3 and got.confidence == 80.0
