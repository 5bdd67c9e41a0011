import pymupdf
import pytest

from rag.errors import BadDocumentError
from rag.parse import parse_pdf
from rag.types import PAGE_SEP
from tests import pdfs
from tests.conftest import eval_pdf


def test_pages_numbered_from_one_with_printed_labels(book_pdf):
    book = parse_pdf(book_pdf, "garden.pdf")
    assert [p.number for p in book.pages] == list(range(1, book.page_count + 1))
    assert book.pages[0].label == "i" and book.pages[1].label == "1"
    assert book.title == "Garden and Sky"


def test_a_bold_line_leading_the_first_block_is_the_title_when_every_line_has_the_body_size():
    """Court precedents set the title in body size, bold, on top of an italic preamble in one block; a bold
    one-line label further down ("Vị trí nội dung án lệ:") is not the title, and lead lines are not sections."""
    doc = pymupdf.open()
    page = doc.new_page()
    y = 72
    for text, font in [("PRECEDENT NO. 55/2022", "hebo"), ("On contracts that break the form rules", "heit"),
                       ("Adopted by the council of judges on 7 September 2022", "heit"),
                       ("and published by decision 323 of 14 October 2022.", "heit")]:
        page.insert_text((72, y), text, fontname=font, fontsize=12)
        y += 14
    page.insert_text((72, y + 40), "Where the rule stands:", fontname="hebo", fontsize=12)
    for i in range(12):
        page.insert_text((72, y + 80 + 14 * i), f"Body text line {i} of the precedent, in the regular face.",
                         fontname="helv", fontsize=12)
    book = parse_pdf(doc.tobytes(), "precedent.pdf")
    assert book.title == "PRECEDENT NO. 55/2022"
    assert not any("PRECEDENT" in s.path for s in book.sections)


def test_a_blank_first_page_and_a_table_of_contents_give_no_title():
    """A manual built without a title page (a blank page, then "Inhaltsverzeichnis" in the largest type) is not
    titled by its table of contents: the largest line of the first two pages with text that is no zone's heading."""
    doc = pymupdf.open()
    doc.new_page()
    toc = doc.new_page()
    toc.insert_text((72, 72), "Inhaltsverzeichnis", fontname="hebo", fontsize=24)
    for i in range(14):
        toc.insert_text((72, 120 + 16 * i), f"{i + 1} Kapitel {i + 1} . . . . . . . . {i + 1}", fontsize=11)
    first = doc.new_page()
    first.insert_text((72, 72), "Über LinuxCNC", fontname="hebo", fontsize=18)
    for i in range(12):
        first.insert_text((72, 110 + 14 * i), f"LinuxCNC steuert Werkzeugmaschinen, Zeile {i} des Textes.", fontsize=11)
    assert parse_pdf(doc.tobytes(), "linuxcnc.pdf").title == "Über LinuxCNC"


def test_a_title_after_blank_pages_is_no_section_around_the_book():
    """Without an outline, headings come from font sizes and the title is no section: the title is looked for on the
    first two pages with text, and so is the title left out of the sections (a second read: two blank pages, then
    the title page, had made "Mein Handbuch" a section around the whole book)."""
    doc = pymupdf.open()
    doc.new_page()
    doc.new_page()
    doc.new_page().insert_text((72, 200), "Mein Handbuch", fontname="hebo", fontsize=28)
    for k in range(1, 4):
        page = doc.new_page()
        page.insert_text((72, 72), f"Kapitel {k} Grundlagen", fontname="hebo", fontsize=18)
        for i in range(20):
            page.insert_text((72, 110 + 14 * i), f"Text des Kapitels {k}, Zeile {i}, in der Grundschrift.",
                             fontsize=11)
    book = parse_pdf(doc.tobytes(), "handbuch.pdf")
    assert book.title == "Mein Handbuch"
    assert not any(s.path.startswith("Mein Handbuch") for s in book.sections)
    assert any("Kapitel 2 Grundlagen" in s.path for s in book.sections)


def test_the_vietnamese_precedents_are_titled_by_their_numbers():
    for name, title in [
        ("an_le_so_552022AL.pdf", "ÁN LỆ SỐ 55/2022/AL"),  # its footnote mark (a superscript 1) left out
        ("an_le_so_672023AL.pdf", "ÁN LỆ SỐ 67/2023/AL"),
    ]:
        assert parse_pdf(eval_pdf(f"vi_anle/{name}").read_bytes(), name).title == title


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


def test_a_bold_sentence_is_no_heading():
    from rag.parse.sections import sections_from_fonts

    candidates = [(0, "Pronouns", 16.0, True, False),
                  (100, "Objective case pronouns work as the object of a verb.", 12.0, True, False),
                  (200, "by heart (from memory) She knows all of the words to the song by heart.", 12.0, True, False),
                  (300, "Why use auto scripts? What do they do?", 14.0, True, False),
                  (400, "Semicolons", 16.0, True, False)]
    titles = [s.path.split(" > ")[-1] for s in sections_from_fonts(candidates, 11.0, 500)]
    assert titles == ["Pronouns", "Why use auto scripts? What do they do?", "Semicolons"], titles


def _word_processor_book() -> bytes:
    """A book as word processors export it: the cover's author line padded with blank lines in one block, each
    chapter's "Chapter n" label and name in the same block as its paragraph, a run-in bold term opening a line."""
    doc = pymupdf.open()
    bold, regular = pymupdf.Font("hebo"), pymupdf.Font("helv")
    page = doc.new_page()
    page.insert_text((72, 120), "Garden Notes", fontname="hebo", fontsize=40)
    for i in range(6):
        page.insert_text((72, 142 + 17 * i), " ", fontname="helv", fontsize=14)
    page.insert_text((72, 244), "By A. Writer", fontname="helv", fontsize=14)
    for n, name in enumerate(["Watering", "Pruning"], 1):
        page = doc.new_page()
        page.insert_text((72, 72), f"Chapter {n}", fontname="hebo", fontsize=14)
        page.insert_text((72, 102), name, fontname="hebo", fontsize=24)
        y = 120
        for i in range(6):
            page.insert_text((72, y), f"Body line {i} about {name.lower()} and how plants grow in the garden.",
                             fontname="helv", fontsize=12)
            y += 14
        tw = pymupdf.TextWriter(page.rect)
        tw.append((72, y), "Compost", font=bold, fontsize=14)
        tw.append(tw.last_point, " rots down into soil when you leave it and turn it.", font=regular, fontsize=12)
        tw.write_text(page)
        for i in range(4):
            page.insert_text((72, y + 14 * (i + 1)), f"More body line {i} on the same subject, in the body size.",
                             fontname="helv", fontsize=12)
    return doc.tobytes()


def test_word_processor_headings_are_found_and_the_title_wraps_nothing():
    book = parse_pdf(_word_processor_book(), "garden.pdf")
    assert book.title == "Garden Notes"
    paths = [s.path for s in book.sections]
    assert "Chapter 1 Watering" in paths and "Chapter 2 Pruning" in paths, paths
    assert not any(p.startswith("Garden Notes") for p in paths), paths  # the title is the book's name
    assert not any("Compost" in p for p in paths), paths  # a run-in term opens a sentence, not a section
    pruning = next(s for s in book.sections if s.path == "Chapter 2 Pruning")
    assert "Body line 0 about pruning" in book.text[pruning.start:pruning.end]


def test_grammar_matters_is_titled_and_its_comma_splices_have_their_own_section():
    book = parse_pdf(eval_pdf("en_grammar_matters_116p_ccby.pdf").read_bytes(), "en_grammar_matters_116p_ccby.pdf")
    assert book.title == "Grammar Matters"
    at = book.text.index("it is called a comma splice")
    assert next(s.path for s in book.sections if s.start <= at < s.end).endswith("Comma Splices")


def _zip_holding(pdf: bytes) -> bytes:
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:  # stored: "%PDF-" lies ~40 bytes in
        z.writestr("book.pdf", pdf)
    data = buf.getvalue()
    assert 0 < data.find(b"%PDF-") < 1024
    return data


def test_a_pdf_with_a_little_junk_before_its_signature_is_still_a_pdf(book_pdf):
    assert parse_pdf(b"\r\n  " + book_pdf, "junk.pdf").page_count >= 3


@pytest.mark.parametrize("maker, reason", [
    (pdfs.make_corrupt_pdf, "damaged"),
    (pdfs.make_encrypted_pdf, "password-protected"),
    (pdfs.make_image_only_pdf, "no text layer"),
    (pdfs.make_blank_pdf, "no extractable text"),
    (lambda: b"", "empty"),
    (lambda: b"Just some notes, saved with the wrong extension.\n", "not a PDF"),
    (lambda: b"PK\x03\x04" + b"\x00" * 100, "ZIP/Office"),
    (lambda: _zip_holding(pdfs.make_book_pdf()), "ZIP/Office file with a PDF inside"),
])
def test_bad_files_get_a_reason_naming_the_file(maker, reason):
    with pytest.raises(BadDocumentError) as e:
        parse_pdf(maker(), "bad-file.pdf")
    assert "bad-file.pdf" in str(e.value) and reason in str(e.value)


def test_too_large_files_are_refused_before_parsing():
    with pytest.raises(BadDocumentError, match="limit is 1 MB"):
        parse_pdf(b"%PDF-1.7\n" + b"0" * (2 * 1024 * 1024), "huge.pdf", max_mb=1)


@pytest.mark.parametrize("share", [0.1, 0.5, 0.9, 0.99])
def test_truncated_pdf_is_refused_not_ingested_as_a_shorter_book(book_pdf, share):
    with pytest.raises(BadDocumentError, match="truncated") as e:
        parse_pdf(book_pdf[: int(len(book_pdf) * share)], "truncated.pdf")
    assert "truncated.pdf" in str(e.value)


def test_a_truncated_pdf_that_cannot_be_opened_at_all_says_it_is_truncated_in_plain_words():
    """Tour 42: the first 200 KB of a book had been refused as "damaged and cannot be read (FileDataError)"."""
    path = eval_pdf("en_grammar_matters_116p_ccby.pdf")
    with pytest.raises(BadDocumentError) as e:
        parse_pdf(path.read_bytes()[:200_000], path.name)
    assert "truncated" in str(e.value) and "Error" not in str(e.value)


def test_a_real_paper_cut_at_90_percent_is_refused():
    path = eval_pdf("en_plos_one_0196757_14p_ccby.pdf")
    data = path.read_bytes()
    assert parse_pdf(data, path.name).page_count == 14
    with pytest.raises(BadDocumentError, match="truncated"):
        parse_pdf(data[: int(len(data) * 0.9)], path.name)


def test_fonts_without_unicode_mapping_are_refused_not_ingested_as_symbols(monkeypatch):
    monkeypatch.setenv("RAG_TESSERACT", "/nonexistent/tesseract")  # no OCR to fall back on
    with pytest.raises(BadDocumentError, match="no Unicode mapping") as e:
        parse_pdf(pdfs.make_unmapped_font_pdf(), "glyphs.pdf")
    assert "glyphs.pdf" in str(e.value) and "OCR" in str(e.value)


def test_pages_without_unicode_mapping_are_named_and_left_empty(monkeypatch):
    monkeypatch.setenv("RAG_TESSERACT", "/nonexistent/tesseract")
    book = parse_pdf(pdfs.make_unmapped_font_pdf(good_pages=2), "mixed.pdf")
    assert book.figure_report["unmapped_pages"] == [3] and book.pages[2].text == ""
    assert "ordinary text" in book.pages[0].text


def test_pages_without_unicode_mapping_are_read_by_ocr_when_tesseract_is_there():
    from rag.parse import ocr

    if not ocr.available():
        pytest.skip("Tesseract is not installed (scripts/test.sh installs it)")
    book = parse_pdf(pdfs.make_unmapped_font_pdf(good_pages=2), "mixed.pdf")
    assert "unmapped_pages" not in book.figure_report and book.pages[2].ocr > 70
    assert "set in a font without any unicode map" in book.pages[2].text.replace("Unicode", "unicode")


def test_two_column_pages_are_read_column_by_column():
    book = parse_pdf(pdfs.make_two_column_pdf(), "columns.pdf")
    text = " ".join(book.pages[0].text.split())
    order = [text.index(x) for x in ["A Study of Watering"] + [s.split(":")[0] for s in pdfs.TWO_COLUMNS["left"]]
             + [s.split(":")[0] for s in pdfs.TWO_COLUMNS["right"]] + ["Closing remarks"]]
    assert order == sorted(order), text[:400]


def test_a_side_column_is_read_before_the_main_column_whose_sentence_goes_on_overleaf():
    """A journal's first page: citation, dates and funding in a narrow column beside the abstract. Read in the PDF's
    order they stood between "The weighing showed that" and its end on the next page."""
    book = parse_pdf(pdfs.make_sidebar_pdf(), "article.pdf")
    first = " ".join(book.pages[0].text.split())
    assert first.index("Competing interests") < first.index("Abstract.")
    assert first.endswith("The weighing showed that")
    from rag.chunking import chunk_book
    from rag.settings import Settings

    chunks = chunk_book(book, "article", Settings())
    joined = " ".join(" ".join(c.text.split()) for c in chunks)
    assert "The weighing showed that deep watering doubled the yield" in joined


def test_a_page_of_terms_level_with_their_descriptions_keeps_its_order():
    from rag.parse.columns import side_column

    book = parse_pdf(pdfs.make_sidebar_pdf(term_list=True), "options.pdf")
    text = " ".join(book.pages[0].text.split())
    assert [text.index(f"--option-{k}") for k in range(6)] == sorted(text.index(f"--option-{k}") for k in range(6))
    assert text.index("--option-1") < text.index("Description of option 0") < text.index("--option-2") or \
        text.index("Description of option 0") < text.index("--option-1")
    doc = pymupdf.open(stream=pdfs.make_sidebar_pdf(term_list=True), filetype="pdf")
    page = doc[0]
    assert side_column([b for b in page.get_text("dict")["blocks"] if b.get("type") == 0], page.rect.width,
                       page.rect.height) is None


def test_one_column_pages_keep_their_order(book_pdf):
    from rag.parse.columns import gutter

    doc = pymupdf.open(stream=book_pdf, filetype="pdf")
    assert all(gutter([b for b in p.get_text("dict")["blocks"] if b.get("type") == 0], p.rect.width) is None
               for p in doc)


def test_parsing_prints_nothing_to_stdout():
    """PyMuPDF's advert for its layout package must not reach a CLI user's output (or --json)."""
    import subprocess
    import sys
    from pathlib import Path

    code = ("from tests.pdfs import make_book_pdf, make_figure_pdf, make_table_pdf\n"
            "from rag.parse import parse_pdf\n"
            "for data in (make_book_pdf(), make_figure_pdf(), make_table_pdf()):\n"
            "    parse_pdf(data, 'x.pdf', 50)\n")
    run = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[1],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout == ""


def test_ligatures_come_out_as_letters():
    """A typeset "ﬀ"/"ﬁ" glyph is read as "ff"/"fi", so "hausdorffsch" in a question meets the book's word."""
    path = eval_pdf("de_geotopo_117p_ccbysa.pdf")
    book = parse_pdf(path.read_bytes(), path.name)
    text = "".join(p.text for p in book.pages)
    assert not [ch for ch in text if "\ufb00" <= ch <= "\ufb06"]
    assert "Ein topologischer Raum X heißt hausdorffsch" in book.pages[11].text.replace("\n", " ")
    assert text.count("Definition") > 50


def test_tex_maths_glyphs_without_a_character_map_are_read_as_the_characters_they_draw():
    """LaTeX's maths fonts (cmex10, cmsy10) often carry no character map: "⋃", "∑" and "↦" came out as "�" in the
    topology notes (tour 38). Their fixed encodings say which character each glyph code draws."""
    path = eval_pdf("de_geotopo_117p_ccbysa.pdf")
    book = parse_pdf(path.read_bytes(), path.name)
    text = "".join(p.text for p in book.pages)
    assert "⋃" in book.pages[18].text and "∑" in book.pages[28].text
    assert "(z1, . . . , zn) |→" in book.pages[28].text
    assert text.count("\ufffd") < 60  # 598 glyphs without a character before, 179 while a horizontal brace's tips
    assert "╰" in book.pages[17].text and "╯" in book.pages[17].text  # stayed (tour 40: 16 "�" in the reader)
    assert "\ufffd" not in book.pages[14].text  # an overbrace's tips whose codes MuPDF spaced out (55 "�" left)


def test_only_a_tex_maths_fonts_unmapped_glyphs_are_replaced():
    from rag.parse import texglyphs

    def blocks(*spans):
        return [{"type": 0, "lines": [{"spans": [{"text": t, "font": f} for t, f in spans]}]}]

    page = blocks(("x \ufffd y", "CMSY10"), ("\ufffd\ufffd", "ABCDEF+CMEX10"), ("\ufffd", "Emmentaler-20"),
                  ("\ufffd", "CMEX10"))
    codes = blocks(("x \x14 y", "CMSY10"), ("\x53\x58", "ABCDEF+CMEX10"), ("\x05", "Emmentaler-20"), ("\x77", "CMEX10"))
    assert texglyphs.wanted(page)
    out = texglyphs.characters(page, codes)
    assert [s["text"] for s in out[0]["lines"][0]["spans"]] == ["x ≤ y", "⋃∑", "\ufffd", "\ufffd"]
    # the codes of an overbrace's four tips with spaces MuPDF set between them: lined up, "╭╯╰╮" (topology notes)
    brace = texglyphs.characters(blocks(("\ufffd" * 4, "CMEX10")), blocks(("z }| {", "CMEX10")))
    assert brace[0]["lines"][0]["spans"][0]["text"] == "╭╯╰╮"
    assert texglyphs.aligned("\ufffd\ufffd", "a b c") is None  # more glyphs than the span: not lined up
    assert not texglyphs.wanted(blocks(("∑ a", "CMEX10"), ("\ufffd", "Emmentaler-20")))


# --- trailing bytes after the end marker (issue 21) ------------------------------------------------------------
@pytest.mark.parametrize("junk", [b"\0" * 5000, bytes(range(256)) * 4096, b"\r\n-- \r\nSent from my phone\r\n" * 400])
def test_bytes_after_the_end_marker_are_ignored_not_called_truncated(book_pdf, junk):
    """A complete PDF followed by junk (1 MB of it, zeros, a mail footer) opens as the whole book."""
    book = parse_pdf(book_pdf + junk, "junk-after-eof.pdf")
    assert book.page_count == parse_pdf(book_pdf, "clean.pdf").page_count
    assert "Tomatoes need deep watering" in " ".join(p.text for p in book.pages)


def test_a_file_cut_inside_an_appended_revision_is_still_truncated(book_pdf, tmp_path):
    """The first revision's end marker is there, but the appended update (a page of text) is cut in half."""
    import pymupdf

    path = tmp_path / "updated.pdf"
    path.write_bytes(book_pdf)
    doc = pymupdf.open(path)
    page = doc.new_page()
    for i in range(40):
        page.insert_text((72, 72 + i * 18), f"Appended line {i} with enough words to make the update large.")
    doc.save(path, incremental=True, encryption=pymupdf.PDF_ENCRYPT_KEEP)
    doc.close()
    data = path.read_bytes()
    first_end = data.find(b"%%EOF") + 5
    assert data.count(b"%%EOF") == 2 and len(data) - first_end > 8192
    with pytest.raises(BadDocumentError, match="truncated"):
        parse_pdf(data[: first_end + (len(data) - first_end) // 2], "cut-update.pdf")


def test_superscript_digits_stay_superscripts_one_for_one():
    import pymupdf

    from rag.parse.lines import page_text as _page_text, superscript, text_blocks as _text_blocks

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_htmlbox(pymupdf.Rect(50, 50, 500, 200),
                        "<p>The cells were infected with 1×10<sup>5</sup> PFU for 2 h, the 1<sup>st</sup> day.</p>")
    text = _page_text(_text_blocks(page))[0]
    assert "1×10⁵ PFU" in text and "1st day" in text  # an exponent is not a digit more; letters stay letters
    assert superscript("-12") == "⁻¹²" and len(superscript("+3")) == 2  # one for one: page offsets unchanged
    from rag.parse.lines import line_text

    def span(text, sup=False, size=None):
        return {"text": text, "flags": 1 if sup else 0, "size": size or (7.0 if sup else 10.0)}
    # a hyphen set high between two words is a hyphen; an exponent's sign, with letters or digits, is not
    assert line_text([span("heißt Gauß"), span("-", True), span("Krümmung von S")]) == "heißt Gauß-Krümmung von S"
    assert line_text([span("f"), span("-1", True), span("(U)")]) == "f⁻¹(U)"
    assert line_text([span("f(x) = λe"), span("-λx", True), span(" and 2"), span("-", True), span("n", True)]) \
        == "f(x) = λe⁻λx and 2⁻n"
    # a word MuPDF flags as raised but set at the line's size is no superscript (Geometrie und Topologie, p. 94)
    assert line_text([span("heißt"), span(" Gauß-Krümmung 2", True, 10.0), span(" von S")]) \
        == "heißt Gauß-Krümmung 2 von S"


def test_a_spacing_accent_after_its_letter_is_joined_to_it():
    import pymupdf

    from rag.parse.lines import accents, page_text as _page_text, text_blocks as _text_blocks

    assert accents("Se´lambarom, Re´gion, Franc¸ois, Universite´ de la Re´union") == \
        "Sélambarom, Région, François, Université de la Réunion"
    assert accents("na¨ıve") == "naïve"
    assert accents("don´t and 5´ and x¸") == "don´t and 5´ and x¸"  # an acute as an apostrophe, a minute: as they are
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((50, 80), "Funding: Re\u00b4gion Ile-de-France to Jimmy Se\u00b4lambarom.")
    text, _, boxes, _ = _page_text(_text_blocks(page))
    assert "Région Ile-de-France to Jimmy Sélambarom." in text
    assert all(0 <= b[0] <= b[1] <= len(text) for b in boxes)  # line offsets are those of the joined text


def test_a_papers_body_is_not_part_of_its_abstract():
    """Where the heading sizes make every heading after "Abstract" a part of it (a structured abstract's
    "Background", "Results" are), the body from "Introduction" on stands beside the abstract: citations read
    "Discussion", not "Abstract › Discussion"."""
    from rag.parse.sections import sections_from_marks

    marks = [(0, 1, "Abstract"), (10, 2, "Background"), (20, 2, "Results"), (30, 2, "Introduction"),
             (40, 2, "Methods"), (50, 3, "Cell culture"), (60, 2, "Discussion"), (70, 2, "Conclusion")]
    paths = [s.path for s in sections_from_marks(marks, 80)]
    assert paths == ["Abstract", "Abstract > Background", "Abstract > Results", "Introduction", "Methods",
                     "Methods > Cell culture", "Discussion", "Conclusion"], paths
    book = [(0, 1, "1 Introduction"), (10, 2, "1.1 Summary"), (20, 1, "2 Methods")]  # no abstract: as it was
    assert [s.path for s in sections_from_marks(book, 30)] == ["1 Introduction", "1 Introduction > 1.1 Summary",
                                                                    "2 Methods"]


def test_a_page_of_music_notation_keeps_its_own_text():
    """Its notes are glyphs without Unicode, a line each: the page is not read by OCR (which garbled LilyPond's code,
    "gis16" → "gisi6"). The glyphs stay in the text as they are (a formula's lone "�" tells the reader a sign is
    missing there; leaving it out would change the formula without a trace)."""
    book = parse_pdf(pdfs.make_music_page_pdf(), "music.pdf")
    page = book.pages[0]
    assert page.ocr == -1.0 and "unmapped_pages" not in book.figure_report
    assert "entered with the keyword partial" in page.text and "partial 8 f8" in page.text


def test_symbols_set_one_by_one_do_not_make_a_page_unreadable():
    """A music book's page: prose and code lines, and the notes of its notation as lines of one or two glyphs
    without Unicode. It keeps its own text (it was read by OCR, which garbled its code: "gis16" → "gisi6")."""
    from rag.parse.checks import UNMAPPED_SHARE, unmapped_share

    prose = ["A pickup (or anacrusis) is entered with the keyword \\partial.", "\\relative { \\partial 8 f''8 |",
             "It is followed by a duration: \\partial 8 is an eighth note, \\partial 4 a quarter note."]
    music = ["\ufffd", "\ufffd\ufffd", "\ufffd \ufffd", "\x07"] * 15
    assert unmapped_share("\n".join(prose + music)) < UNMAPPED_SHARE
    lost = ["\ufffd" * 40 + " " + "\ufffd" * 12] * 5  # a body font without a Unicode map: its words are lost
    assert unmapped_share("\n".join(prose + lost)) >= UNMAPPED_SHARE
    assert unmapped_share("ordinary text of a page, with one odd glyph \ufffd in it") < UNMAPPED_SHARE
    table = ["\x13\x14", "\x15\x16\x17", "\x18"] * 20  # a table of numbers in a font without a Unicode map
    assert unmapped_share("\n".join(["Table 3"] + table)) >= UNMAPPED_SHARE


def test_an_outline_entry_starts_where_its_heading_stands_not_in_the_running_header():
    """Think Python heads each page with its section ("5.14. Exercises") and its outline says "Exercises": the
    section starts at the heading below the Glossary's last lines, number included, not at the page's top (which put
    the Glossary's "return statement: …" under Exercises); an outline title differing in punctuation or apostrophe
    ("Système d'exploitation" / "Système d’exploitation") is found too."""
    from rag.parse.sections import title_offset
    from rag.types import LINE_FURNITURE, Page

    text = "5.14. Exercises\n57\nreturn statement: A statement that ends a function.\n5.14. Exercises\nExercise 5.1."
    head = (0, 15, 0, 0, 100, 10, LINE_FURNITURE)
    num = (16, 18, 0, 12, 10, 20, LINE_FURNITURE)
    page = Page(77, "57", text, 0, (head, num))
    assert title_offset("Exercises", page) == text.index("5.14. Exercises\nExercise")
    assert title_offset("5.14 Exercises", page) == text.index("5.14. Exercises\nExercise")
    fr = Page(3, "3", "1.2 Système d’exploitation\nAMC fonctionne sous Linux.", 0)
    assert title_offset("Système d'exploitation", fr) == 0
    assert title_offset("Installation", fr) is None


def test_private_use_symbols_become_the_characters_they_draw():
    """Word's bullets come from the Symbol font as U+F0B7; TeX's tall brackets as Adobe's pieces U+F8EB…: shown as
    boxes, and a bullet that is no bullet starts no list item."""
    from rag.answer.units import ITEM
    from rag.parse.lines import private_use

    assert private_use("\uf0b7 Use a semicolon between clauses.", "Symbol") == "• Use a semicolon between clauses."
    assert ITEM.match(private_use("\uf0b7 Use a semicolon.", "Symbol"))
    assert private_use("\uf0a7 Square", "Wingdings-Regular") == "▪ Square"
    assert private_use("\uf0b7", "SomeOtherFont") == "\uf0b7"  # which character a font draws there is unknown
    assert private_use("\uf8eb\uf8ec\uf8ed", "CMEX10") == "⎛⎜⎝" and private_use("plain", "Symbol") == "plain"


def test_a_heading_set_inside_a_block_is_a_paragraph_of_its_own():
    from rag.parse.lines import page_text

    def line(i, text, size):
        return {"spans": [{"text": text, "size": size, "flags": 0, "font": "Arial", "origin": (0, 0),
                           "bbox": (0, 0, 1, 1)}], "bbox": (72, 100 + 14 * i, 400, 112 + 14 * i)}

    rows = [("(Fixed by adding a conjunctive adverb)", 12.0), ("the last fix of the list.", 12.0),
            ("Run-On Sentences", 14.5), ("A run-on sentence does not mean", 12.0), ("that it is a long one.", 12.0),
            ("∂x2", 16.0)]  # a formula's larger sign is no heading
    text, heads, boxes, _ = page_text([{"bbox": (72, 100, 400, 200), "lines": [line(i, t, s) for i, (t, s) in
                                                                                enumerate(rows)]}])
    assert "the last fix of the list.\n\nRun-On Sentences\n\nA run-on sentence" in text
    assert "one.\n∂x2" in text
    assert [h[1] for h in heads] == ["Run-On Sentences"]
    assert all(text[a:b] == t for (a, b, *_), (t, _) in zip(boxes, rows))  # line boxes still index the text


def test_a_bullet_set_on_a_line_of_its_own_joins_its_item():
    from rag.parse.lines import page_text

    def line(i, text, x):
        return {"spans": [{"text": text, "size": 12.0, "flags": 0, "font": "Arial", "origin": (x, 0),
                           "bbox": (x, 0, x + 5, 1)}], "bbox": (x, 100 + 14 * i, x + 300, 112 + 14 * i)}

    rows = [("•", 90), ("Mary ordered coffee, Fred ordered a scone.", 108), ("•", 90),
            ("Mary ordered coffee; Fred ordered a scone.", 108), ("■", 90)]  # a proof's end stays as it is
    text, _, boxes, _ = page_text([{"bbox": (90, 100, 400, 200), "lines": [line(i, t, x) for i, (t, x) in
                                                                        enumerate(rows)]}])
    assert text == "• Mary ordered coffee, Fred ordered a scone.\n• Mary ordered coffee; Fred ordered a scone.\n■"
    assert boxes[0][2] == 90  # the item's box starts at its bullet


def test_an_apostrophe_set_as_a_reversed_quotation_mark_inside_a_word_is_an_apostrophe():
    from rag.parse.lines import apostrophes

    assert apostrophes("If you cannot decide between its and it‟s, ask Fred‟s teacher.") == \
        "If you cannot decide between its and it’s, ask Fred’s teacher."
    assert apostrophes("‟quoted‟ stays") == "‟quoted‟ stays"  # at a word's edge it may be a quotation mark


def test_a_side_column_comes_after_the_sentence_the_main_column_finishes_from_the_page_before():
    """Margin notes beside a page that opens mid-sentence: read first, they would split that sentence."""
    from rag.parse.columns import reading_order

    def block(x0, y0, x1, y1, text):
        return {"bbox": (x0, y0, x1, y1), "lines": [{"spans": [{"text": text}]}]}

    main = [block(200, 80, 560, 120, "deep watering doubled the yield of every plot."),
            block(200, 130, 560, 300, "The committee met every week to review the schedule."),
            block(200, 310, 560, 600, "Shallow watering left the roots near the surface.")]
    notes = [block(40, 150, 180, 170, "Key term: yield."), block(40, 300, 180, 320, "See also Chapter 4."),
             block(40, 450, 180, 470, "Note: water at dawn.")]
    order = [b["lines"][0]["spans"][0]["text"] for b in reading_order(main + notes, 612, 792)]
    assert order[0].startswith("deep watering") and order[1:4] == ["Key term: yield.", "See also Chapter 4.",
                                                                   "Note: water at dawn."]
    first = [block(200, 80, 560, 120, "Abstract. We watered twelve plots.")] + main[1:]
    order = [b["lines"][0]["spans"][0]["text"] for b in reading_order(first + notes, 612, 792)]
    assert order[0] == "Key term: yield."  # a page that opens a sentence: the side column first, as on PLOS p. 1


def test_a_typesetters_hyphen_is_dropped_and_a_compounds_kept():
    """A line ending in a hyphen carries on with the next line: a broken word is joined ("tabu-" + "lated"), a
    compound keeps its hyphen (a capital, a digit, an acronym or an earlier hyphen after it: "Schwarz-Weiß",
    "78-79", "GC-FID", "built-in-docstrings"), a suspended hyphen keeps its line ("Emacs- or vi-style", not
    "Emacsor"), and a hyphen a URL was broken with goes."""
    from rag.parse.joins import _hyphen_join
    from rag.parse.lines import page_text as _page_text, text_blocks as _text_blocks

    doc = pymupdf.open()
    page = doc.new_page()
    lines = ["The results were tabu-", "lated in A5 (Schwarz-", "Weiß) on pages 78-", "79 by GC-", "FID using Emacs-",
             "or vi-style keys with built-in-", "docstrings from https://gitlab.com/-", "jojo/amc today."]
    for k, line in enumerate(lines):
        page.insert_text((72, 100 + 14 * k), line, fontsize=11)
    text = _page_text(_text_blocks(page))[0]
    flat = " ".join(text.split())
    assert "tabulated in A5 (Schwarz-Weiß) on pages 78-79 by GC-FID using Emacs- or vi-style keys" in flat
    assert "built-in-docstrings from https://gitlab.com/jojo/amc today." in flat
    assert _hyphen_join("the col-", "or is red") == ""  # "color": a word, no suspended hyphen
    assert _hyphen_join("Vor-", "und Nachteile") is None and _hyphen_join("it -", "is") is None
    assert _hyphen_join("two-", "syllable", spaced=True) == "-"  # a word processor's hyphen, a space after it
    # a book Folio laid out itself keeps every hyphen (test_formats); code keeps its hyphen too
    assert _hyphen_join("Eigen-", "schaften") == ""
    # capitals that make an everyday word together are one word; a capitalised word after a hyphen is its own
    assert _hyphen_join("ARE PER-", "MITTED BY") == "" and _hyphen_join("en La-", "TeX et") == ""
    assert _hyphen_join("GC-", "FID") == "-" and _hyphen_join("Big-", "Oh notation") == "-"
    # an earlier hyphen makes a compound only when the piece after it is a word ("L-gluta-" + "mine" is broken)
    assert _hyphen_join("2 mmol L-gluta-", "mine (Dutscher)") == "" and _hyphen_join("none-too-", "logical") == "-"
    assert _hyphen_join("E-Mail-Adres\u00ad", "se angeben") == ""  # a soft hyphen is always the typesetter's
    assert _hyphen_join("occur in low-", "to middle-income countries") is None  # suspended, also before "to"
    assert _hyphen_join("recorded pre-", "and post-treatment", spaced=True) is None
    assert _hyphen_join("from https://github.com/rust-", "lang/rust") == "-"  # a URL breaks at its own hyphens
    assert _hyphen_join("pho-", "to of it") == ""


def test_a_justified_line_split_at_its_wide_spaces_is_one_line_again():
    """MuPDF splits a justified line at wide word spaces into lines of one word ("The" / "function" / "call" …,
    Octave manual p. 315): they are one line again, with spaces; a table's row (cells level in columns) is not."""
    from rag.parse.lines import page_text as _page_text, text_blocks as _text_blocks

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Graphics are drawn by the toolkit that the graphics function picks for", fontsize=11)
    x = 72
    for word in ["The", "function", "call", "toolkit", "selects", "the", "system,"]:
        page.insert_text((x, 114), word, fontsize=11)
        x += pymupdf.get_text_length(word, fontsize=11) + 15  # a justified line's wide spaces
    page.insert_text((72, 128), "and the other toolkits are chosen the same way, by their names alone.", fontsize=11)
    text, _, boxes, _ = _page_text(_text_blocks(page))
    assert "The function call toolkit selects the system," in text
    assert len([b for b in boxes if b[1] - b[0] > 0]) == 3  # three lines, each one box
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "A table of the three toolkits and the system each of them draws with", fontsize=11)
    for y in (114, 128):
        for x, cell in ((72, "toolkit name"), (190, "drawing system"), (310, "what it needs")):
            page.insert_text((x, y), cell, fontsize=11)
    text = _page_text(_text_blocks(page))[0]
    assert "toolkit name\ndrawing system" in text  # cells level in columns stay cells


def test_a_typewriter_line_split_at_its_runs_of_spaces_is_one_line_with_them():
    """R's manual sets '> state <- c("tas", "sa",  "qld", …' in a typewriter font with runs of spaces, and MuPDF
    reads each run of words between them as a line of its own (tour 30: a 4-line listing shown as 11 lines): the
    pieces on one height are one line again, each gap the spaces that fill it, so a listing or a typewriter table
    keeps its columns. Pieces of another font stay as they are (``justified_runs`` decides about those)."""
    from rag.parse.joins import mono_runs

    def piece(x0: float, text: str, font: str = "CMTT10", y: float = 259.0, cw: float = 5.25) -> dict:
        span = {"text": text, "font": font, "size": 10.0, "flags": 0}
        return {"bbox": (x0, y, x0 + cw * len(text), y + 11), "spans": [span]}

    first = piece(119, '> state <- c("tas", "sa",')
    second = piece(119 + 5.25 * 27, '"qld", "nsw",')  # two character widths after the first piece
    below = piece(193, '"sa",  "nt",', y=272)
    block = {"bbox": (119, 259, 500, 283), "lines": [first, second, below]}
    lines = mono_runs(block)["lines"]
    assert ["".join(s["text"] for s in ln["spans"]) for ln in lines] == \
        ['> state <- c("tas", "sa",  "qld", "nsw",', '"sa",  "nt",']
    assert lines[0]["bbox"][0] == 119 and lines[0]["bbox"][2] == second["bbox"][2]
    prose = {"bbox": (72, 100, 400, 111), "lines": [piece(72, "The", "Times"), piece(120, "function", "Times")]}
    assert mono_runs(prose) is prose
