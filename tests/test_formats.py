"""Books in other formats (EPUB, Word, HTML, Markdown, text) through the real pipeline, and hostile input.

Every book is made by the test itself (zipfile, PyMuPDF); the live-manual EPUBs from ../shared/eval/books2
are used when present. The end-to-end tests ingest through ``Folio`` with a real Chroma and the real
embedder; the bad-input tests call ``read_document`` (the step ingest runs first)."""
from __future__ import annotations

import io
import re
import zipfile

import pymupdf
import pytest

from rag.errors import BadDocumentError
from rag.parse.formats import read_document
from rag.parse.formats.clean import Doc, Shared, clean
from tests import bookfiles as bf
from tests.conftest import EVAL, ROOT
from tests.helpers import assert_citations_valid

MAKERS = {
    "garden.epub": bf.make_epub,
    "garden.docx": bf.make_docx,
    "garden.md": lambda: bf.make_markdown().encode(),
    "garden.html": lambda: bf.make_html().encode(),
    "garden.txt": lambda: bf.make_text().encode(),
}


def _pdf_text(pdf: bytes) -> str:
    with pymupdf.open("pdf", pdf) as d:
        return "\n".join(p.get_text() for p in d)


# --- every format, end to end ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(MAKERS))
def test_each_format_ingests_with_sections_code_tables_and_cited_answers(folio, name):
    if name.endswith(".docx"):
        pytest.importorskip("mammoth", reason="DOCX needs mammoth (requirements.txt)")
    data = MAKERS[name]()
    r = folio.library.ingest(data, name, chunking={"chunker": "section"})  # code listings and tables whole
    assert not r.skipped and r.pages >= 2 and r.chunks >= 4
    book = folio.library.book(r.book_id)
    assert book.title == "Garden and Sky"
    assert book.report["source_format"] == {"epub": "epub", "docx": "docx", "md": "markdown", "html": "html",
                                            "txt": "text"}[name.rsplit(".", 1)[1]]
    paths = [s[0] if isinstance(s, (list, tuple)) else s.path for s in book.sections]
    assert any(p.lower() == "chapter 1 gardening > 1.2 watering" for p in paths), paths
    chunks = folio.library.chunks(r.book_id)
    assert any(c.kind == "code" and "plant.soil += litres" in c.text for c in chunks), [c.kind for c in chunks]
    if not name.endswith(".txt"):  # a text file has no tables
        assert any(c.kind == "table" and "Jupiter" in c.text and "95" in c.text for c in chunks)

    a = folio.ask("How often do tomatoes need watering?").consume()
    assert not a.not_found and "twice a week" in a.text
    assert_citations_valid(a)
    src = next(s for s in a.sources if "twice a week" in s.text)
    assert "1.2 Watering" in src.label.replace("1.2 WATERING", "1.2 Watering") and ", p. " in src.label
    page = next(p for p in folio.library.pages(r.book_id) if "twice a week" in p.text)
    assert src.page_start <= page.number <= src.page_end
    png = folio.reader.page_image(r.book_id, page.number, spans=[(src.hit.char_start, src.hit.char_end)])
    assert png.exists() and png.read_bytes()[:4] == b"\x89PNG"

    uploads = folio.settings.uploads_dir
    ext = {"md": "md", "html": "html", "txt": "txt", "epub": "epub", "docx": "docx"}[name.rsplit(".", 1)[1]]
    assert (uploads / f"{r.book_id}.{ext}").read_bytes() == data  # the original, for re-indexing
    assert (uploads / f"{r.book_id}.pdf").read_bytes()[:5] == b"%PDF-"  # what pages render from
    (r2,) = folio.library.reindex(r.book_id, chunking={"chunker": "section"})  # converts the original again
    assert r2.book_id == r.book_id and r2.chunks == r.chunks and r2.pages == r.pages
    folio.library.delete_book(r.book_id)
    assert not list(uploads.glob(f"{r.book_id}.*"))


def test_a_laid_out_book_keeps_every_hyphen_a_line_ends_with(folio):
    """Folio lays EPUB, HTML and Markdown out itself and never hyphenates words, so a line that ends with a hyphen
    ends with one of the text's own: "--apt-ftp-proxy" must not come back as "-apt-ftp-proxy" or "aptftp-proxy"."""
    words = [f"--apt-{i}-proxy" for i in range(240)] + [f"debian-live-{i}" for i in range(240)]
    code = "```\nwhile (n > 0) {\n    n--\n}\nprint('a - b')\n-------\n```\n"
    text = "# Options\n\nThe build takes " + " ".join(words) + " as options. This is it -\nand more.\n\n" + code
    r = folio.library.ingest(text.encode(), "options.md")
    pages = folio.library.pages(r.book_id)
    tokens = " ".join(p.text for p in pages).split()
    missing = [w for w in words if w not in tokens]
    # a word a page break cuts ("--apt-142-" at one page's foot, "proxy" atop the next) is the only loss: one a page
    assert len(missing) < len(pages), missing[:5]
    for p in pages:  # inside a page, a line of that paragraph that ended with a hyphen was joined to the next
        body = [ln for ln in p.text.split("\n") if "--apt-" in ln or "debian-live-" in ln][:-1]
        assert not any(ln.rstrip().endswith("-") for ln in body), p.number
    whole = "\n".join(p.text for p in pages)
    assert "n--\n}" in whole and "\n-------" in whole  # a code block's own line breaks stay
    assert "This is it -and" not in whole  # a free-standing dash is not glued to the next word


def test_a_laid_out_code_line_wrapped_inside_a_path_is_one_line_again(folio):
    """A command longer than the page is wrapped by Folio's layout where the path breaks; the parser joins it back,
    so an answer quotes a command that still runs. A new prompt line stays a line of its own."""
    cmd = '$ echo "deb http://mirror/debian/ sid main" > config/archives/sid.list.chroot'
    text = f"# Archives\n\nAdd the archive:\n\n```\n{cmd}\n$ cat config/archives/sid.list.chroot\n```\n"
    r = folio.library.ingest(text.encode(), "archives.md")
    whole = "\n".join(p.text for p in folio.library.pages(r.book_id))
    assert cmd in whole.split("\n"), whole
    assert "\n$ cat config/archives/sid.list.chroot" in whole


def test_a_laid_out_listing_with_long_lines_is_set_smaller_so_each_line_stays_one_line(folio):
    """A command longer than the page's width at the listing's type size would wrap at a space, and a line broken at
    a space cannot be told from two commands when the page is read back: the listing is set smaller instead."""
    cmds = ['$ lb config --apt-options "--yes -oAcquire::Check-Valid-Until=false"',
            "$ lb config --bootappend-live \"boot=live components keyboard-layouts=de locales=de_CH.UTF-8\"",
            "$ echo alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi"]
    text = "# Options\n\nRun these:\n\n```\n" + "\n".join(cmds) + "\n```\n\nThat is all.\n"
    r = folio.library.ingest(text.encode(), "options.md")
    lines = "\n".join(p.text for p in folio.library.pages(r.book_id)).split("\n")
    assert all(c in lines for c in cmds), lines


def test_a_laid_out_path_wrapped_after_a_slash_in_prose_is_one_word_again(folio):
    """Prose that names a long path is wrapped by Folio's layout after one of its slashes; the page text has the
    path whole ("config/archives/live.list.binary", not "config/archives/ live.list.binary")."""
    paths = [f"config/archives/live{i}.list.binary" for i in range(60)]
    text = ("# Archives\n\nIf you add the same line to " + " or to ".join(f"`{p}`" for p in paths)
            + ", the repository is added. Either this / that\nor the other. "
            + " ".join(f"Put it into the /live{i}/ directory." for i in range(60)) + "\n")
    r = folio.library.ingest(text.encode(), "paths.md")
    whole = "\n".join(p.text for p in folio.library.pages(r.book_id))
    tokens = whole.replace("`", "").split()
    assert sum(any(t.startswith(p) for t in tokens) for p in paths) >= len(paths) - 1, whole[:800]
    pages = folio.library.pages(r.book_id)
    for p in pages:  # inside a paragraph of a page (a page break may cut a path, as it cuts a word), no line ends
        # in a path's slash
        assert not re.search(r"config/(archives/)?\n\S", p.text.replace("`", "")), p.text
    assert "this / that" in whole  # a slash between spaces is no path
    # a word after a path's last slash may have followed a space the layout broke at: not glued on
    assert not re.search(r"/live\d+/directory", whole), re.findall(r"/live\d+/\S+", whole)[:3]


@pytest.mark.parametrize("name", ["garden.epub", "garden.docx"])
def test_book_images_become_captioned_figures_an_answer_shows(folio, name):
    if name.endswith(".docx"):
        pytest.importorskip("mammoth", reason="DOCX needs mammoth (requirements.txt)")
    r = folio.library.ingest(MAKERS[name](), name)
    figs = folio.library.figures(r.book_id)
    assert len(figs) == 1 and figs[0].kind == "raster" and figs[0].caption == bf.CAPTION
    assert (folio.settings.data_dir / figs[0].path).read_bytes()[:4] == b"\x89PNG"
    a = folio.ask("What do the orbits of the inner planets around the Sun look like?").consume()
    assert figs[0].id in [f.id for f in a.figures]


def test_epub_with_fragment_in_spine_and_wrong_extension_is_read_by_content(folio):
    data = bf.make_epub(spine_fragment=True)
    with pytest.raises(Exception):
        pymupdf.open("epub", data).load_page(0)  # MuPDF itself refuses such a book
    r = folio.library.ingest(data, "garden.pdf")  # named .pdf, but it is an EPUB
    assert folio.library.book(r.book_id).report["source_format"] == "epub"
    text = " ".join(p.text for p in folio.library.pages(r.book_id))
    assert "Saturn is famous for its bright rings" in text and "Loam mixes sand" in text


def test_cli_ingests_an_epub(tmp_path):
    import os
    import subprocess
    import sys

    f = tmp_path / "garden.epub"
    f.write_bytes(bf.make_epub())
    env = {**os.environ, "RAG_DATA_DIR": str(tmp_path / "data"), "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, "-m", "rag", "ingest", str(f)], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "Garden and Sky" in p.stdout and "1 figures" in p.stdout


# --- the live-manual EPUBs (real books MuPDF refuses) ---------------------------------------------------
# our own questions (the held-out set eval/qa_books2.jsonl stays out of the tests)
LIVE = {
    "en": ("What is a live system?", "4.1 What is a live system?"),
    "de": ("Wer sind die Autoren des Handbuchs?", "1.3 Autoren"),
    "fr": ("Pourquoi utiliser des scripts auto ?", "6.1.1 Pourquoi utiliser des scripts auto"),
}


@pytest.mark.parametrize("lang", list(LIVE))
def test_live_manual_epubs_answer_in_their_language_with_chapter_and_section(folio, lang):
    path = EVAL / "books2" / f"{lang}_live_manual.epub"
    if not path.exists():
        pytest.skip(f"{path} not present (evaluation material lives in ../shared/eval)")
    question, section = LIVE[lang]
    r = folio.library.ingest(path.read_bytes(), path.name)
    book = folio.library.book(r.book_id)
    assert r.pages > 100 and book.report["language"] == lang and book.report["source_format"] == "epub"
    a = folio.ask(question).consume()
    assert not a.not_found
    assert_citations_valid(a)
    cited = [s.label for s in a.sources if s.n in {c.n for c in a.checks}]
    # book › chapter › section, printed page(s) of the laid-out book
    assert cited and all(lab.count("›") >= 2 and re.search(r", pp?\. \d", lab) for lab in cited), cited
    assert any(section in s.label for s in a.sources), [s.label for s in a.sources]


def test_a_question_is_cited_from_the_edition_in_its_language(folio):
    """The German and French live manuals share their numbered sections: a German question whose words match the
    French edition best is still cited from the German one (``rag.retrieve.translations``)."""
    paths = [EVAL / "books2" / f"{lang}_live_manual.epub" for lang in ("de", "fr")]
    if not all(p.exists() for p in paths):
        pytest.skip("the live-manual EPUBs are not present (evaluation material lives in ../shared/eval)")
    de, fr = (folio.library.ingest(p.read_bytes(), p.name).book_id for p in paths)
    a = folio.ask("Wie baue ich ein Netboot-Image?").consume()
    assert a.sources and {s.book_id for s in a.sources} == {de}, [(s.book_id, s.label) for s in a.sources]
    assert any("Netboot" in s.label or "netboot" in s.text for s in a.sources)
    b = folio.ask("Comment construire une image netboot ?").consume()
    assert b.sources and {s.book_id for s in b.sources} == {fr}


# --- what a hostile or broken file cannot do -------------------------------------------------------------
def test_zip_bomb_is_refused_before_unpacking():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip")
        z.writestr("OEBPS/bomb.xhtml", b"\0" * (40 * 2**20))  # 40 MB of zeros packs to ~40 KB
    with pytest.raises(BadDocumentError, match="ZIP bomb"):
        read_document(buf.getvalue(), "bomb.epub", 200)


def test_too_many_entries_and_too_much_data_are_refused():
    many = bf.zip_files({f"OEBPS/f{i}.xhtml": "x" for i in range(10_001)}, mimetype="application/epub+zip")
    with pytest.raises(BadDocumentError, match="10,002 files"):
        read_document(many, "many.epub", 200)
    big = bf.zip_files({"OEBPS/huge.xhtml": b"\0" * (130 * 2**20)}, mimetype="application/epub+zip")
    with pytest.raises(BadDocumentError, match="limit for one file|ZIP bomb"):
        read_document(big, "big.epub", 200)


def test_entry_that_holds_more_than_its_header_says_is_refused():
    data = bytearray(bf.make_epub())
    z = zipfile.ZipFile(io.BytesIO(bytes(data)))
    info = z.getinfo("OEBPS/ch1.xhtml")
    # shrink the declared size in the local header and the central directory: the stream then holds more data
    lie = (200).to_bytes(4, "little")
    real = info.file_size.to_bytes(4, "little")
    local = info.header_offset
    assert data[local + 22:local + 26] == real
    data[local + 22:local + 26] = lie
    at = data.rfind(b"PK\x01\x02" + bytes(data[data.rfind(b"PK\x01\x02"):][4:6]), 0)  # any central header
    at = bytes(data).find(b"OEBPS/ch1.xhtml", data.find(b"PK\x01\x02")) - 46
    assert data[at:at + 4] == b"PK\x01\x02" and data[at + 24:at + 28] == real
    data[at + 24:at + 28] = lie
    with pytest.raises(BadDocumentError, match="damaged|more data than its header"):
        read_document(bytes(data), "liar.epub", 200)


@pytest.mark.parametrize("damage, reason", [
    (lambda d: d[: len(d) // 2], "damaged"),
    (lambda d: bf.zip_files({"OEBPS/a.xhtml": "<p>x</p>"}, mimetype="application/epub+zip"), "container.xml"),
    (lambda d: bf.zip_files({"META-INF/container.xml": '<container><rootfiles><rootfile full-path="no.opf"/>'
                                                      "</rootfiles></container>"}, mimetype="application/epub+zip"),
     "package file that is not in the book"),
    (lambda d: bf.zip_files({"META-INF/container.xml": "<container><rootfiles", "x": "y"},
                            mimetype="application/epub+zip"), "not valid XML"),
    (lambda d: bf.zip_files({"../../evil.xhtml": "x", "META-INF/container.xml": "<a/>"},
                            mimetype="application/epub+zip"), "unsafe name"),
])
def test_malformed_epubs_are_refused_with_a_reason(damage, reason):
    with pytest.raises(BadDocumentError) as e:
        read_document(damage(bf.make_epub()), "broken.epub", 200)
    assert "broken.epub" in str(e.value) and reason in str(e.value)


ADEPT = ('<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
         'xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData>'
         '<enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/>'
         '<enc:CipherData><enc:CipherReference URI="OEBPS/ch1.xhtml"/></enc:CipherData></enc:EncryptedData>'
         "</encryption>")
FONT_ONLY = ADEPT.replace("http://www.w3.org/2001/04/xmlenc#aes128-cbc", "http://www.idpf.org/2008/embedding") \
    .replace("OEBPS/ch1.xhtml", "OEBPS/fonts/serif.otf")


def test_drm_protected_epub_is_refused_but_font_obfuscation_is_not():
    drm = bf.make_epub(encryption=ADEPT, extra_files={"META-INF/rights.xml": "<rights/>"})
    with pytest.raises(BadDocumentError, match=r"DRM \(Adobe ADEPT"):
        read_document(drm, "locked.epub", 200)
    ok = read_document(bf.make_epub(encryption=FONT_ONLY, extra_files={"OEBPS/fonts/serif.otf": b"\0" * 100}),
                       "fonts.epub", 200)
    assert ok.source_format == "epub" and "Loam mixes sand" in _pdf_text(ok.pdf)


XXE = '<?xml version="1.0"?><!DOCTYPE c [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
LAUGHS = ('<?xml version="1.0"?><!DOCTYPE c [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
          '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>')


@pytest.mark.parametrize("prolog", [XXE, LAUGHS])
def test_xml_entities_are_never_resolved_or_expanded(prolog):
    container = (prolog + '<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
                 '<rootfile full-path="OEBPS/content.opf&x;&d;"/></rootfiles></container>')
    with pytest.raises(BadDocumentError, match="DTD or entities"):
        read_document(bf.make_epub(extra_files={"META-INF/container.xml": container}), "xxe.epub", 200)
    # in (X)HTML chapters the DTD is not read at all: an entity stays unexpanded text
    chapter = prolog + '<html xmlns="http://www.w3.org/1999/xhtml"><body><h1>Entities</h1>' \
                       "<p>Start &x; &d; end of the paragraph, which is long enough to be text.</p></body></html>"
    c = read_document(bf.make_epub(chapter_html={"ch1.xhtml": chapter}), "ent.epub", 200)
    text = _pdf_text(c.pdf)
    assert "Start" in text and "root:" not in text and "lollol" not in text


@pytest.mark.skipif(not __import__("importlib").util.find_spec("mammoth"), reason="DOCX needs mammoth")
def test_docx_with_a_dtd_is_refused():
    with pytest.raises(BadDocumentError, match="DTD or entities"):
        read_document(bf.make_docx(doctype='<!DOCTYPE w [<!ENTITY x SYSTEM "file:///etc/passwd">]>'), "x.docx", 200)


HOSTILE = ('<h1 onclick="alert(1)">Title</h1><script>document.write("SCRIPTTEXT")</script>'
           '<iframe src="https://evil.example/frame">FRAMETEXT</iframe><object data="http://evil.example/x.swf">'
           'OBJECTTEXT</object><embed src="http://evil.example/e"><style>body{background:url(http://evil.example/'
           'bg.png)}</style><p style="background:url(file:///etc/passwd)" onmouseover="steal()">Safe words stay '
           'here in a paragraph.</p><img src="http://evil.example/track.png"><img src="//evil.example/p.png">'
           '<img src="file:///etc/passwd"><img src="/etc/hostname"><a href="javascript:alert(1)">link text</a>'
           '<form action="http://evil.example"><input value="INPUTTEXT"></form><svg><script>SVGSCRIPT</script></svg>'
           '<link rel="stylesheet" href="http://evil.example/s.css"><meta http-equiv="refresh" content="0;url=http://x">')


def test_cleaner_writes_back_only_safe_html():
    out: list[str] = []
    shared = Shared()
    clean(HOSTILE, Doc(image=lambda src: None), shared, out.append)
    html = "".join(out).lower()
    for bad in ("script", "onclick", "onmouseover", "iframe", "object", "embed", "style=\"background", "http",
                "file:", "javascript", "href", "<form", "<input", "<svg", "<meta", "<link", "scripttext", "frametext",
                "objecttext", "inputtext", "/etc/"):
        assert bad not in html, bad
    assert "safe words stay here" in html and "link text" in html and "<h1" in html
    assert shared.left_out["scripts (not run or shown)"] >= 1 and shared.left_out["embedded frames (not run or shown)"]


def test_remote_and_outside_images_are_never_fetched_only_archive_images_shown():
    chapter = bf.xhtml("Images", "<h1>Images</h1><p>A chapter with pictures from many places, only one of them "
                                 'inside the book.</p><img src="images/orbit.png"/><img src="https://evil.example/a.png"/>'
                                 '<img src="../../../etc/passwd"/><img src="file:///etc/passwd"/>' + HOSTILE)
    c = read_document(bf.make_epub(chapter_html={"ch1.xhtml": chapter}), "img.epub", 200)
    with pymupdf.open("pdf", c.pdf) as d:
        assert sum(len(p.get_images()) for p in d) == 1
    assert c.left_out["remote images not fetched"] == 3
    assert c.left_out["images missing from the book or outside it"] >= 2
    assert "SCRIPTTEXT" not in _pdf_text(c.pdf) and "Safe words stay here" in _pdf_text(c.pdf)
    h = read_document(bf.make_html(body_extra=HOSTILE).encode(), "page.html", 200)
    assert h.left_out["remote images not fetched"] == 2 and "SCRIPTTEXT" not in _pdf_text(h.pdf)


def test_pixel_bomb_image_is_skipped_not_decoded():
    import struct
    import zlib

    header = struct.pack(">IIBBBBB", 100_000, 100_000, 8, 2, 0, 0, 0)  # a 10-gigapixel canvas, claimed
    raw = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + header
    bomb = raw + struct.pack(">I", zlib.crc32(raw[12:29])) + b"\0" * 64
    c = read_document(bf.make_epub(extra_files={"OEBPS/images/orbit.png": bomb}), "bomb.epub", 200)
    assert c.left_out["image dimensions refused"] == 1
    with pymupdf.open("pdf", c.pdf) as d:
        assert sum(len(p.get_images()) for p in d) == 0


def test_a_huge_chapter_is_laid_out_in_pieces(monkeypatch):
    from rag.parse.formats import layout

    para = "<p>" + "Word " * 150 + "</p>"
    body = '<h1>Long</h1><p>FIRST-MARK</p>' + para * 1500 + "<p>LAST-MARK</p>"  # ~1.1 MB of HTML, one file
    calls = []
    real = layout.Flow.add
    monkeypatch.setattr(layout.Flow, "add", lambda self, html, new_page=False: (calls.append(len(html)),
                                                                                 real(self, html, new_page))[1])
    c = read_document(bf.make_epub(chapter_html={"ch1.xhtml": bf.xhtml("Long", body)}), "long.epub", 200)
    assert len(calls) >= 4 and max(calls) < 300_000  # pieces of ~200 KB, never the whole chapter
    text = _pdf_text(c.pdf)
    assert "FIRST-MARK" in text and "LAST-MARK" in text and c.pages > 100


def test_a_book_over_the_text_limit_is_refused(monkeypatch):
    from rag.parse.formats import clean as clean_mod
    from rag.parse.formats.limits import Limits

    monkeypatch.setattr(clean_mod.Shared, "__init__", _shared_with(Limits(book_chars=2000)))
    with pytest.raises(BadDocumentError, match="more than 2,000 characters"):
        read_document(bf.make_epub(), "long.epub", 200)


def _shared_with(limits):
    from collections import Counter

    def init(self, limits=limits, chars=0, ids=0, captions=None, left_out=None):
        self.limits, self.chars, self.ids = limits, chars, ids
        self.captions, self.left_out = captions or {}, left_out or Counter()
    return init


@pytest.mark.parametrize("data, name, reason", [
    (b"hello, not a pdf", "notes.pdf", "not a PDF (it looks like a text file"),
    (b"<html><body>403 Forbidden</body></html>", "book.epub", "not an EPUB (it looks like an HTML"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600, "old.doc", "old Word .doc"),
    (bytes(range(256)) * 4, "blob.bin", "not a book file"),
    (b"caf\xe9 au lait, latin-1 text " * 10, "latin1.txt", "not UTF-8"),
    (bf.zip_files({"xl/workbook.xml": "<workbook/>"}), "sheet.xlsx", "Excel workbook"),
    (bf.zip_files({"readme.txt": "hi"}), "files.zip", "ZIP archive"),
    (b"", "empty.epub", "empty"),
])
def test_unknown_or_disguised_files_are_refused_naming_what_they_are(data, name, reason):
    with pytest.raises(BadDocumentError) as e:
        read_document(data, name, 200)
    assert name in str(e.value) and reason in str(e.value)
    if "not" in reason:
        assert "EPUB" in str(e.value) and "Markdown" in str(e.value)  # the accepted formats are listed


@pytest.mark.parametrize("data, name, kind", [
    (b"# Notes\n\nSome *text* with a [link](x.html) and more words to make it a document.\n", "notes", "markdown"),
    (b"Just a plain letter.\n\nDear reader, this is plain text with enough words in it.\n", "letter.md", "markdown"),
    (b"<!DOCTYPE html><html><body><p>A web page with enough words in it to be read.</p></body></html>", "p.txt",
     "html"),
    (b"Plain text, two paragraphs.\n\nThe second paragraph has enough words to be indexed.\n", "notes.txt", "text"),
])
def test_single_file_formats_are_detected_by_content(data, name, kind):
    assert read_document(data, name, 200).source_format == kind


def test_laid_out_inline_code_too_long_for_a_line_and_a_stylesheets_code_paragraph_stay_whole(folio):
    """MuPDF breaks a line only at spaces and hyphens and draws what does not fit past the page's edge, where it is
    lost ("…,plugdev,netdev,p"); a paragraph the book's stylesheet sets as code wrapped at a space ("… boot=live
    components" / "username=live-user"). Both are set smaller instead (the Live manual's EPUB)."""
    param = ("live-config.user-default-groups=audio,cdrom,dip,floppy,video,plugdev,netdev,powerdev,scanner,"
             "bluetooth,fuse")
    cmd = '$ lb config --bootappend-live "boot=live components username=live-user"'
    html = ("<html><head><title>Users</title><style>p.code { font-family: monospace; }</style></head><body>"
            f"<h1>Users</h1><p>Or use <tt>{param}</tt> as a boot parameter.</p>"
            f"<ul><li>In a list: <tt>{param.replace('fuse', 'lp')}</tt> works too.</li></ul>"
            f"<p>Change the user name:</p><p class=\"code\">{cmd}<br/></p><p>That is all.</p></body></html>")
    r = folio.library.ingest(html.encode(), "users.html")
    whole = "\n".join(p.text for p in folio.library.pages(r.book_id))
    assert param in whole and "as a boot parameter" in whole, whole
    assert param.replace("fuse", "lp") in whole.replace("\n", ""), whole  # a list item is narrower: fitted too
    assert cmd in whole.split("\n"), whole


def test_a_list_item_outside_any_list_is_a_bulleted_line_of_its_own():
    """The live manuals wrap each <li class="bullet"> in its own <div>, with no <ul>: laid out bare, the items had
    no marker and read as one run-on paragraph ("Superuser (root) access An up-to-date version of …")."""
    from rag.parse.document import parse_pdf

    items = ["Superuser (root) access", "An up-to-date version of live-build", "A POSIX-compliant shell"]
    body = ("<h1>Installation</h1><p>Building live images has very few requirements:</p>"
            + "".join(f'<div><li class="bullet">{t}</li></div>' for t in items)
            + "<p>Note that Debian is not required.</p><ul><li>kept item one</li><li>kept item two</li></ul>")
    data = bf.make_epub(chapter_html={"ch1.xhtml": bf.xhtml("Installation", body)})
    text = parse_pdf(read_document(data, "live.epub", 50).pdf, "live.pdf").pages[0].text
    lines = [ln.strip() for ln in text.split("\n")]
    for t in items + ["kept item one", "kept item two"]:
        assert f"•  {t}" in lines or f"• {t}" in lines, (t, text)
    assert "Note that Debian is not required." in lines
    assert "A POSIX-compliant shell\n\nNote that" in text  # the paragraph after them is no part of the last item


@pytest.mark.parametrize("lang", ["de", "de-DE"])
def test_a_declined_question_in_the_language_a_book_declares_gets_no_ask_in_english_hint(folio, lang):
    """The German Live Handbuch is mostly English text (its BM25 reads it as English) but declares German: a German
    question it cannot answer is not told that the books are in English (nor in "de-DE")."""
    r = folio.library.ingest(bf.make_epub(title="Garten und Himmel", lang=lang), "garten.epub")
    a = folio.ask("Wie viele Einwohner hat Paris?", book_ids=[r.book_id]).consume()
    assert a.not_found and "Your question is in" not in a.text, a.text


@pytest.mark.parametrize("body, want", [
    ('<table><tr><td><li>alpha</li><li>beta</li></td></tr></table>', ["•  alpha", "•  beta"]),  # the layout's marker
    ('<blockquote><li>one</li><li>two</li></blockquote>', ["•  one", "•  two"]),
    ('<div><li class="bullet">shell</li></div><p><b>Note</b> that Debian is fine.</p>', ["• shell", "",
                                                                                        "Note that Debian is fine."]),
    ('<div><li class="bullet">shell</li></div><div><p><label>Note:</label> Debian is fine.</p></div>',
     ["• shell", "", "Note: Debian is fine."]),
])
def test_a_list_item_gets_one_bullet_and_the_paragraph_after_stays_whole(body, want):
    from rag.parse.document import parse_pdf

    filler = "<p>" + "Filler words for the book to have text. " * 30 + "</p>"
    data = bf.make_epub(chapter_html={"ch1.xhtml": bf.xhtml("T", "<h1>T</h1>" + body + filler)})
    lines = [ln.strip() for ln in parse_pdf(read_document(data, "x.epub", 50).pdf, "x.pdf").pages[0].text.split("\n")]
    at = lines.index(want[0])
    assert lines[at:at + len(want)] == want, lines[:8]

