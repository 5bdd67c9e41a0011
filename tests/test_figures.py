"""Figures: extraction (raster, vector, captions, labels, decorations), links, answers, deletion;
page images with highlights; the quote check."""
import json
import os
import subprocess
import sys

import pymupdf
import pytest

from rag.answer.quotecheck import check_quotes
from rag.parse import parse_pdf
from rag.text.captions import caption_key, reference_keys
from rag.types import Chunk, Source
from tests.conftest import ROOT, eval_pdf
from tests.pdfs import make_figure_pdf, make_hostile_images_pdf


@pytest.fixture(scope="module")
def figure_pdf() -> bytes:
    return make_figure_pdf()


def test_captions_and_references_in_three_languages():
    assert caption_key("Figure 2.1.: State diagram.") == "figure 2.1"
    assert caption_key("Fig 3. Viability") == "figure 3"
    assert caption_key("Abbildung 1.3: Veranschaulichung") == "figure 1.3"
    assert caption_key("Hình 2: Sơ đồ") == "figure 2"
    assert caption_key("Bảng 1. Số liệu") == "table 1" and caption_key("Tabelle 2") == "table 2"
    assert caption_key("Table 4: Results") == "table 4"
    assert caption_key("Figure 5.1 shows a stack diagram") is None  # a sentence, not a caption
    assert reference_keys("see Figure 3.2, in Fig. 4 and Abbildung 2.1 zeigt") == [
        "figure 3.2",
        "figure 4",
        "figure 2.1",
    ]


def test_raster_and_vector_figures_with_captions_labels_and_decorations_skipped(figure_pdf):
    book = parse_pdf(figure_pdf, "studio.pdf")
    raster, vector = book.figures
    assert (raster.kind, raster.page, raster.ref) == ("raster", 1, "figure 1.1")
    assert raster.caption.startswith("Figure 1.1: A red square")
    assert pymupdf.Rect(raster.bbox) == pymupdf.Rect(150, 220, 450, 420)
    assert (vector.kind, vector.page, vector.ref) == ("vector", 2, "figure 2")
    assert vector.caption == "Fig. 2. The water cycle diagram."
    assert pymupdf.Rect(vector.bbox).contains(pymupdf.Rect(240, 140, 360, 260))  # the circle
    # words inside the diagram are its labels, not running text
    assert "evaporation" in vector.labels and "rainfall" in vector.labels
    assert "evaporation" not in book.pages[1].text and "rainfall" not in book.pages[1].text
    # the code box and the logo on every page are decorations; the code stays in the text
    skipped = book.figure_report["skipped"]
    assert skipped["image repeated on many pages"] == 3 and skipped["box of text or code"] == 1
    assert "def water_cycle(*args)" in book.pages[1].text
    assert book.figure_report | {"skipped": {}} == {"found": 2, "raster": 1, "vector": 1, "captioned": 2, "skipped": {}}
    for png in book.figure_images:
        assert png.startswith(b"\x89PNG")


def test_line_boxes_cover_the_page_text(figure_pdf):
    book = parse_pdf(figure_pdf, "studio.pdf")
    for page in book.pages:
        for start, end, *box in page.lines:
            assert page.text[start:end].strip() and box[2] > box[0] and box[3] > box[1]
        covered = "".join(page.text[s:e] for s, e, *_ in page.lines)
        assert len(covered) == len(page.text.replace("\n", ""))


def test_hostile_images_are_counted_not_fatal():
    book = parse_pdf(make_hostile_images_pdf(), "hostile.pdf")
    r = book.figure_report
    assert r["skipped"]["tiny image"] >= 1500 and r["skipped"]["page frame or background"] >= 1
    assert any(f.caption.startswith("Figure 3") for f in book.figures)  # the huge image, rendered small
    assert all(max(f.width, f.height) <= 1400 for f in book.figures)


def test_figures_stored_linked_answered_and_deleted_with_their_book(folio, figure_pdf):
    r = folio.library.ingest(figure_pdf, "studio.pdf")
    assert r.figures["found"] == 2
    figs = folio.library.figures(r.book_id)
    assert [f.ref for f in figs] == ["figure 1.1", "figure 2"]
    for f in figs:
        assert folio.library.file(f.path).read_bytes().startswith(b"\x89PNG")
    # the chunk on page 3 that says "As shown in Figure 1.1" refers to the figure on page 1
    p3 = [c for c in folio.inspector.chunks(r.book_id) if "As shown in Figure 1.1" in c.text]
    links = folio.catalog.figure_links(r.book_id, [c.chunk_index for c in p3])
    assert (0, "ref") in {(fi, rel) for _, fi, rel in links} and (1, "ref") in {(fi, rel) for _, fi, rel in links}
    assert "As shown in Figure 1.1" in figs[0].context  # what the book says about it is indexed with it

    a = folio.ask("What is the reference colour of the studio?").consume()
    assert a.figures and a.figures[0].id == figs[0].id and a.figures[0].page == 1
    assert all(c.ok for c in a.checks) and a.trace["quote_check_failed"] == 0
    a = folio.ask("What does the water cycle diagram show?").consume()
    assert figs[1].id in [f.id for f in a.figures]

    folio.library.reindex(r.book_id)
    assert len(folio.library.figures(r.book_id)) == 2
    folio.library.delete_book(r.book_id)
    assert folio.catalog.figures(r.book_id) == [] and not (folio.settings.figures_dir / r.book_id).exists()


def test_page_image_highlights_the_cited_passage(folio, figure_pdf):
    r = folio.library.ingest(figure_pdf, "studio.pdf")
    a = folio.ask("Why keep the colour sample away from sunlight?").consume()
    src = a.sources[0]
    assert "sunlight" in src.hit.text and src.hit.page_start == 1
    (page, label, crop), = folio.reader.citation_pages(src, a.text)
    (_, _, full), = folio.reader.citation_pages(src, a.text, crop=False)
    assert page == 1 and crop.exists() and full.exists()
    plain = pymupdf.Pixmap(str(folio.reader.page_image(r.book_id, 1, crop=False)))
    lit = pymupdf.Pixmap(str(full))
    assert (plain.width, plain.height) == (lit.width, lit.height) and plain.samples != lit.samples
    assert pymupdf.Pixmap(str(crop)).height < lit.height  # cropped to the passage
    # a yellow-ish highlight sits where the chunk's first line is
    x0, y0, x1, y1 = folio.catalog.page(r.book_id, 1).boxes(src.hit.char_start, src.hit.char_start + 5)[0]
    z = folio.settings.page_image_zoom
    px = lit.pixel(int((x0 + 2) * z), int((y0 + y1) / 2 * z))
    assert px[2] < px[0] - 40, px  # less blue than red: tinted, where the plain page is white or black


def test_quote_check_flags_what_the_source_does_not_say():
    chunk = Chunk("b", 0, "Tomatoes need deep watering twice a week. Water in the morning.", 1, 1, 0, 60)
    src = Source(1, "b", "Book", chunk, chunk.text, [0], 1, 1, "p. 1", 0.1, 0.8)
    checks = check_quotes("Tomatoes need deep watering twice a week. [1] The moon is made of cheese. [1] "
                          "Water in the morning [2].", [src])
    assert [(c.n, c.how) for c in checks] == [(1, "quoted"), (1, "unmatched"), (2, "no such source")]
    paraphrase = check_quotes("Tomatoes require deep watering twice each week [1].", [src])
    assert paraphrase[0].ok and paraphrase[0].how == "supported"


def test_extractive_answers_always_pass_the_quote_check(folio, book_pdf):
    folio.library.ingest(book_pdf, "garden.pdf")
    for q in ("How often do tomatoes need watering?", "What is a planet?", "What does a reflecting telescope use?"):
        a = folio.ask(q).consume()
        assert a.checks and all(c.ok for c in a.checks), a.checks


def test_cli_ask_json_and_figures(tmp_path, figure_pdf):
    pdf = tmp_path / "studio.pdf"
    pdf.write_bytes(figure_pdf)
    env = {**os.environ, "RAG_DATA_DIR": str(tmp_path / "data"), "PYTHONPATH": str(ROOT)}

    def run(*args):
        return subprocess.run([sys.executable, "-m", "rag", *args], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=300)

    p = run("ingest", str(pdf))
    assert p.returncode == 0 and "2 figures" in p.stdout, p.stderr
    book_id = p.stdout.split("\t")[0]
    p = run("ask", "What is the reference colour of the studio?", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert set(out) >= {"answer", "not_found", "confidence", "sources", "figures", "checks"}
    s = out["sources"][0]
    assert set(s) >= {"n", "book", "page", "page_label", "section", "char_span", "score", "similarity", "quote"}
    f = out["figures"][0]
    assert f["caption"].startswith("Figure 1.1") and f["kind"] == "raster" and os.path.exists(f["png"])
    p = run("figures", book_id)
    assert p.returncode == 0 and "Figure 1.1" in p.stdout and "Fig. 2." in p.stdout


def _stack_diagram_pdf() -> bytes:
    """A diagram whose frame names are set as text just left of its boxes, with prose above and below."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(72, 60, 540, 140), "Each call of a function gets a frame of its own. The "
                        "frames are drawn as boxes with the name of the function beside each box, and the "
                        "parameters with their values inside the boxes.", fontsize=11)
    shape = page.new_shape()
    for k, y in enumerate((160, 200, 240)):
        shape.draw_rect(pymupdf.Rect(300, y, 420, y + 30))
        shape.draw_line((330, y + 15), (380, y + 15 + k))  # an arrow from a name to its value (slanted)
    shape.finish(color=(0, 0, 0), width=1)
    shape.commit()
    for name, y in (("__main__", 180), ("countdown", 220), ("countdown", 260)):
        page.insert_text((300 - 8 - pymupdf.get_text_length(name, fontsize=9), y), name, fontsize=9)
    page.insert_text((300, 300), "Figure 5.1: Stack diagram.", fontsize=10)
    page.insert_textbox(pymupdf.Rect(72, 320, 540, 400), "The bottom of the stack is the call that returns "
                        "first, and its frame disappears before the others.", fontsize=11)
    return doc.tobytes()


def test_a_figures_crop_keeps_the_labels_set_beside_it():
    book = parse_pdf(_stack_diagram_pdf(), "stack.pdf")
    [fig] = book.figures
    assert fig.caption.startswith("Figure 5.1") and "__main__" in fig.labels and fig.labels.count("countdown") == 2
    assert fig.bbox[0] < 300 - 8 - 30  # grown left over the names (the drawing starts at x = 300)
    assert fig.bbox[1] >= 140  # the paragraph above is not a label
    text = book.pages[0].text
    assert "__main__" not in text and "frame of its own" in text and "returns first" in text


def test_think_python_state_diagram_figure_and_page(folio):
    pdf = eval_pdf("en_think_python_2e_288p_ccbync.pdf")
    book = parse_pdf(pdf.read_bytes(), pdf.name)
    assert book.figure_report["vector"] >= 24 and book.figure_report["captioned"] >= 24
    fig21 = next(f for f in book.figures if f.ref == "figure 2.1")
    assert fig21.page == 32 and fig21.kind == "vector" and "message" in fig21.labels
    fig51 = next(f for f in book.figures if f.ref == "figure 5.1")  # frame names set left of the stack diagram
    assert "__main__" in fig51.labels and "countdown" in fig51.labels and fig51.bbox[0] < 256
    assert "__main__\ncountdown" not in book.pages[fig51.page - 1].text  # labels, not running text


def test_plos_raster_figures():
    pdf = eval_pdf("en_plos_one_0196757_14p_ccby.pdf")
    book = parse_pdf(pdf.read_bytes(), pdf.name)
    refs = {f.ref: f for f in book.figures}
    assert all(f"figure {i}" in refs for i in range(1, 7))
    assert refs["figure 2"].kind == "raster" and refs["figure 2"].page == 7
    assert book.figure_report["skipped"]["image repeated on many pages"] >= 13  # the journal logo


def test_quote_check_tells_the_books_own_brackets_from_citations():
    text = "Outbreaks were reported in Fiji [32] and Samoa. Lists look like a = [1] in code."
    chunk = Chunk("b", 0, text, 1, 1, 0, len(text))
    src = Source(1, "b", "Paper", chunk, chunk.text, [0], 1, 1, "p. 1", 0.1, 0.8)
    checks = check_quotes("Outbreaks were reported in Fiji [32] and Samoa. [1] Lists look like a = [1] in code. "
                          "[1]", [src])
    assert [(c.n, c.how) for c in checks] == [(1, "quoted"), (1, "quoted")], checks


def test_a_cited_sentence_with_brackets_of_its_own_is_quoted_and_marked_whole():
    """"Sei P …, sodass gilt: ∀x, y ∈ ∂P : [x, y] ⊆ P. Dann ist χ(∂P) = 2. [1]": the maths bracket is no citation's end,
    so the whole sentence is checked and marked on the page, not only what follows "]"; a piece an abbreviation cuts
    off ("h." of "d. h.") is not marked (it would mark any "h." of the page)."""
    from rag.answer.quotecheck import attributed
    from rag.evidence.pages import quoted_sentences

    text = ("Sei P ein Polyeder in R³, d. h. ∂P ist ein Komplex, sodass gilt: ∀x, y ∈ ∂P : [x, y] ⊆ P. "
            "Dann ist χ(∂P) = 2.")
    chunk = Chunk("b", 0, text, 1, 1, 0, len(text))
    src = Source(1, "b", "Skript", chunk, chunk.text, [0], 1, 1, "p. 1", 0.1, 0.8)
    answer = text + " [1]"
    assert attributed(answer, [text])[0] == ("Dann ist χ(∂P) = 2.", [1])
    quotes = quoted_sentences(answer, src)
    assert any("[x, y] ⊆ P." in q for q in quotes) and "h." not in quotes
    assert all(c.how == "quoted" for c in check_quotes(answer, [src]))


def test_llm_context_lists_figures_it_may_name():
    from rag.context import format_sources
    from rag.types import FigureHit

    chunk = Chunk(
        "b", 0, "A state diagram shows variables and values.", 31, 31, 0, 44, label_start="11", label_end="11"
    )
    src = Source(1, "b", "Think Python", chunk, chunk.text, [0], 31, 31, "p. 11", 0.1, 0.8)
    fig = FigureHit("b:fig0", "b", "Think Python", 32, "12", "Figure 2.1.: State diagram.", "vector", "f.png", 0.9,
                    "referred to by [1]", [1])
    block = format_sources([src], [fig])
    assert "[1] Think Python, p. 11:\nA state diagram" in block
    assert block.endswith("[FIGURE 1] Figure 2.1.: State diagram. (p. 12)")


def test_quote_check_keeps_a_paragraph_number_that_opens_the_next_quote():
    text = "Tòa án giao nhà đất cho người cao tuổi. [11] Đối với phần móng đá nguyên đơn đã xây dựng trên thửa đất."
    chunk = Chunk("b", 0, text, 1, 1, 0, len(text))
    src = Source(3, "b", "Án lệ", chunk, chunk.text, [0], 1, 1, "p. 1", 0.1, 0.8)
    answer = ("Tòa án giao nhà đất cho người cao tuổi. [3] [11] Đối với phần móng đá nguyên đơn đã xây dựng "
              "trên thửa đất. [3]")
    checks = check_quotes(answer, [src])
    assert [(c.n, c.how) for c in checks] == [(3, "quoted"), (3, "quoted")], checks


def test_optional_vision_descriptions_are_indexed_and_failures_are_not_fatal(settings, embed, figure_pdf):
    """A loopback stand-in for an Ollama vision model (unit test of the request and the plumbing)."""
    import http.server
    import threading

    from rag.service import Folio

    seen = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            seen.append(body)
            content = body["messages"][0]["content"]
            text = (
                "A bright red square on white paper." if "red square" in content[0]["text"] else "A circle with arrows."
            )
            data = json.dumps({"choices": [{"message": {"role": "assistant", "content": text}}]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        s = settings.model_copy(update={"figure_vision_model": "test-vision",
                                        "ollama_base_url": f"http://127.0.0.1:{server.server_port}"})
        f = Folio(s, embed=embed)
        r = f.library.ingest(figure_pdf, "studio.pdf")
        assert r.figures["descriptions"] == {"written": 2, "failed": 0, "error": ""}
        assert seen[0]["model"] == "test-vision"
        assert seen[0]["messages"][0]["content"][1]["image_url"]["url"].startswith("data:image/png;base64,")
        figs = f.library.figures(r.book_id)
        assert (
            figs[0].description == "A bright red square on white paper." and figs[0].description in figs[0].index_text()
        )
    finally:
        server.shutdown()
        server.server_close()
    # the server gone: the book still ingests, the failures are counted
    r = f.library.ingest(figure_pdf, "studio.pdf", force=True)
    assert r.figures["descriptions"]["failed"] == 2 and r.figures["found"] == 2
    assert all(x.description == "" for x in f.library.figures(r.book_id))


def test_a_figure_matches_the_question_on_its_own_only_by_words_of_its_own():
    import numpy as np

    from rag.figures.choose import candidates
    from rag.types import Figure

    cover = Figure("b", 0, 1, "i", (0, 0, 1, 1), "raster", context="Geometrie und Topologie, Skript")
    diagram = Figure("b", 1, 9, "7", (0, 0, 1, 1), "vector", caption="Abbildung 1.2: Zariski-Topologie",
                     context="topologische Räume")
    vecs = np.eye(2, dtype=np.float32)[[0, 0]]  # both as close to the question as can be
    hits = candidates("Was ist ein topologischer Raum?", np.array([1, 0], np.float32), [], ([cover, diagram], vecs),
                      lambda book, chunks: [], {"b": "Geometrie"}, min_similarity=0.45, limit=3)
    assert [(h.caption, h.why) for h in hits] == [("Abbildung 1.2: Zariski-Topologie", "matches the question")]
    # close by its embedding but sharing no word with the question (tours 42, 43): no match
    dedication = Figure("b", 2, 31, "31", (0, 0, 1, 1), "raster", caption="Figure 4.4 – Page de dédicaces")
    hits = candidates("Je rédige ma thèse en anglais dans le cadre d'une cotutelle internationale. Dois-je fournir un "
                      "texte en français ?", np.array([1, 0], np.float32), [], ([dedication], vecs[:1]),
                      lambda book, chunks: [], {"b": "yathesis"}, min_similarity=0.45, limit=3)
    assert hits == []


def _lilypond_page(index: int) -> bytes:
    """One page of LilyPond's Learning manual (0-based ``index``) as a PDF of its own; skipped without ../shared."""
    from tests.conftest import EVAL

    path = EVAL / "books2" / "en_lilypond_learning_221p.pdf"
    if not path.exists():
        pytest.skip(f"{path} not present (evaluation material lives in ../shared/eval)")
    doc = pymupdf.open()
    doc.insert_pdf(pymupdf.open(path), from_page=index, to_page=index)
    return doc.tobytes()


def test_music_notation_is_a_figure_and_its_glyphs_leave_the_text():
    """LilyPond's examples are staff lines and note glyphs without Unicode: each is a figure, however small and
    plain its lines, and its glyphs (U+FFFD in the text layer) are no longer words of the page."""
    page = _lilypond_page(29)  # printed p. 25: "Ties", with two examples
    before = parse_pdf(page, "ties.pdf", extract_figures=False).text.count("\ufffd")
    book = parse_pdf(page, "ties.pdf")
    assert before > 20
    assert len(book.figures) >= 2 and all(f.kind == "vector" and f.bbox[3] - f.bbox[1] < 60 for f in book.figures)
    assert book.text.count("\ufffd") < before / 4
    assert "A tie is created by appending a tilde" in book.text


def test_a_figure_under_an_answer_says_how_it_belongs_to_a_source_the_answer_cites():
    from rag.figures.choose import finalise
    from rag.types import FigureHit

    hit = FigureHit("b:4", "b", "Paper", 8, "8", "Fig 5.", "raster", "f.png", 0.6, "referred to by [7]", [3, 7],
                    ties={3: "on the page of [3]", 7: "referred to by [7]"})
    (kept,) = finalise([hit], [1, 3], None, lambda i: None, 2)
    assert kept.why == "on the page of [3]"  # the answer lists [1] and [3]: [7] is not shown


def test_a_figure_that_only_matches_the_question_must_match_the_answer_in_a_book_it_cites():
    import numpy as np

    from rag.figures.choose import MATCHES, finalise
    from rag.types import FigureHit

    def fig(fid, book, why=MATCHES, sources=()):
        return FigureHit(fid, book, book, 3, "3", "Figure 1.", "raster", "f.png", 0.5, why, list(sources))

    vecs = {"near": np.array([1.0, 0.0]), "far": np.array([0.3, 0.95]), "other": np.array([1.0, 0.0]),
            "named": np.array([0.0, 1.0]), "linked": np.array([0.0, 1.0])}
    hits = [fig("near", "b"), fig("far", "b"), fig("other", "c"), fig("named", "c", "named in the question"),
            fig("linked", "b", "on the page of [1]", [1])]
    kept = finalise(hits, [1], np.array([1.0, 0.0]), vecs.get, 5, cited_books={"b"}, min_similarity=0.45)
    assert sorted(h.id for h in kept) == ["linked", "named", "near"]  # "far" says nothing the answer says; "other"
    # is in a book the answer does not cite; a figure the question names, or one on a cited page, stays
    assert len(finalise(hits, [1], None, vecs.get, 5)) == 5  # no answer text yet: nothing to judge by


def test_a_music_examples_crop_takes_its_notes_and_not_the_text_around_it():
    """The D-major example atop LilyPond's p. 25 has two lines of note glyphs inside its staff lines and more just
    outside: grown over them it is a figure, without the code line above it or the paragraph below."""
    book = parse_pdf(_lilypond_page(29), "ties.pdf")
    tops = sorted(f.bbox[1] for f in book.figures)
    assert len(book.figures) == 4 and tops[0] < 200  # all four examples of the page, the first one included
    assert "\ufffd" not in book.text
    code_end = next(ln for ln in book.pages[0].lines if book.text[ln[0]:ln[1]].strip() == "}")
    assert tops[0] >= code_end[5]  # below the "}" that closes the code above it


def test_a_music_examples_lyrics_are_its_words_not_the_pages():
    """LilyPond's PDF page 42 sets "Girls and boys come out to play" and Dido's Lament a syllable a line under the
    notes: the lyric lines belong to the example (its crop, its words), and the page's text goes from the code's ">>"
    straight on to its next sentence (tour 39 had quoted "am None of the examples so far …"). Each example is one
    figure, not one per staff."""
    book = parse_pdf(_lilypond_page(41), "lyrics.pdf")
    text = " ".join(book.text.split())
    assert "am laid __ in earth, } >> None of the examples so far" in text
    assert "} >> If a syllable extends" in text  # "as bright day; moon doth shine" no longer stand between
    assert len(book.figures) == 2
    assert any("laid" in f.labels and "earth," in f.labels for f in book.figures)
    book = parse_pdf(_lilypond_page(96), "see-also.pdf")  # "See also" in bold right under an example: a heading of
    # the page, no lyric (tour 41)
    assert "See also" in book.text and not any("See also" in f.labels for f in book.figures)


def _drawing_with_courier(listing: bool) -> bytes:
    """A page with a drawing in the middle: a code listing in Courier beside a crossed-box icon (AMC's code boxes),
    or a diagram whose labels are set in Courier (scattered over it)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 72), "The box below shows how a question is written in the source file.", fontname="helv",
                     fontsize=10)
    sh = page.new_shape()
    if listing:
        sh.draw_rect(pymupdf.Rect(100, 150, 520, 260))
        sh.finish(fill=(0.94, 0.94, 0.94), color=None)
        sh.draw_line((70, 160), (90, 180))  # the icon beside it: a crossed box
        sh.draw_line((70, 180), (90, 160))
        sh.draw_rect(pymupdf.Rect(70, 160, 90, 180))
        sh.finish(color=(0.8, 0, 0), width=2)
        lines = ["\\begin{question}{01}", "  \\begin{choicescustom}", "    \\wrongchoice{A }%",
                 "    \\wrongchoice{B }%", "  \\end{choicescustom}", "\\end{question}"]
        for n, line in enumerate(lines):
            page.insert_text((108, 168 + 14 * n), line, fontname="cour", fontsize=10)
    else:
        for x in (120, 200, 280, 360, 440):
            sh.draw_circle((x, 250), 14)
        sh.draw_bezier((280, 264), (300, 320), (330, 330), (360, 330))
        sh.finish(color=(0, 0, 0), width=1)
        for x, y, t in [(428, 194, "main"), (488, 354, "feature"), (100, 290, "a1b2c3"), (410, 230, "HEAD")]:
            page.insert_text((x, y), t, fontname="cour", fontsize=9)
    sh.commit()
    page.insert_text((72, 420), "The answer follows after the box, in the running text of the page.",
                     fontname="helv", fontsize=10)
    return doc.tobytes()


def test_a_code_listing_in_a_figure_region_stays_in_the_text_and_a_diagrams_typewriter_labels_stay_its_own():
    # AMC sets its code boxes beside a crossed-box icon: the listing had left the searched text and, as the figure's
    # words, matched unrelated questions (tour 35); a diagram's Courier labels are still the diagram's (second read)
    book = parse_pdf(_drawing_with_courier(listing=True), "amc.pdf")
    assert "\\wrongchoice{A }%" in book.pages[0].text and all(not f.labels for f in book.figures)
    book = parse_pdf(_drawing_with_courier(listing=False), "git.pdf")
    [fig] = book.figures
    assert "a1b2c3" in fig.labels and "HEAD" in fig.labels and "a1b2c3" not in book.pages[0].text


def test_a_figure_on_a_page_of_the_sources_window_says_so():
    # tour 43: "Figure on p. 71 · on the page of [1]" under a source labelled p. 70 (p. 71 was in its window only)
    import numpy as np

    from rag.figures.choose import candidates
    from rag.types import Chunk, Figure, Source

    hit = Chunk("b", 5, "Post correcting", 70, 70, 0, 15)
    src = Source(1, "b", "AMC", hit, "Post correcting … the teacher's sheet", [5, 6], 70, 71, "p. 70", 1.0, 0.6)
    here, next_page = (Figure("b", i, p, str(p), (0, 0, 1, 1), "raster", caption=f"Figure {i}") for i, p in
                       ((0, 70), (1, 71)))
    links = lambda book, chunks: [(5, 0, "on"), (6, 1, "on")]  # noqa: E731
    hits = candidates("How do I correct by hand?", np.array([1, 0], np.float32), [src],
                      ([here, next_page], np.eye(2, dtype=np.float32)[[0, 0]]), links, {"b": "AMC"},
                      min_similarity=0.45, limit=3)
    assert {h.page: h.why for h in hits} == {70: "on the page of [1]", 71: "on a page of [1]'s passage"}
