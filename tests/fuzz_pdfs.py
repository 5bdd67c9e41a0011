"""Hostile PDFs for the ingest fuzz test (tests/test_fuzz_ingest.py) and its full run (bench/fuzz_ingest.py).

``cases(seed)`` lists well over a hundred files, each made on demand from the seed alone — the same bytes on every
run and machine (PyMuPDF writes no random file id here, random choices come from ``random.Random(seed, case)``):
random bytes, valid books with bytes flipped, cut, deleted, duplicated or swapped, junk after the end marker or
before the header, text-less pages, only punctuation or digits, CJK-only and right-to-left text, characters drawn
one text object at a time in shuffled order (the issue 21 case), deeply nested objects, enormous and cyclic
outlines, thousands of tiny images, 10,000 blank pages, self-drawing forms, page-tree cycles, odd page geometry,
invisible text, odd Unicode, JavaScript actions and attachments, broken cross-reference tables.

Each case says what a correct ingest does with it: ``book`` (it must come out as a searchable book), ``refused``
(a ``RagError`` with the reason) or ``either`` (a mutated file: whichever happens, it happens cleanly).
``heavy`` cases take long to parse (the bench runs them; the test suite's subset leaves them out).
"""
from __future__ import annotations

import random
import re
import zlib
from dataclasses import dataclass
from typing import Callable

import pymupdf

WORDS = ("garden soil water river mountain planet telescope window kitchen bread flour market village harbour "
         "engine signal pattern library lantern orchard meadow bridge tunnel castle forest valley winter summer "
         "autumn spring letter number measure balance pressure current voltage circuit battery copper silver "
         "marble granite timber canvas pigment colour shadow mirror crystal feather pebble thunder harvest "
         "compass anchor sailor captain merchant scholar teacher student chapter section theorem example "
         "proof method result figure table evidence argument question answer history").split()


@dataclass(frozen=True)
class Case:
    name: str  # file name (unique)
    family: str
    expect: str  # "book" | "refused" | "either"
    make: Callable[[], bytes]
    heavy: bool = False

    def data(self) -> bytes:
        return self.make()


# --- text and documents ----------------------------------------------------------------------------------------
def sentences(rng: random.Random, n: int) -> str:
    out = []
    for _ in range(n):
        words = [rng.choice(WORDS) for _ in range(rng.randint(6, 14))]
        out.append(" ".join(words).capitalize() + ".")
    return " ".join(out)


def _fix_id(data: bytes) -> bytes:
    """The same bytes every time: PyMuPDF's file id (random) and dates replaced by fixed ones of the same length."""
    token = rb"(<[0-9A-Fa-f]*>|\((?:\\.|[^\\)])*\))"  # a hex or a literal string
    data = re.sub(rb"/ID\s*\[\s*" + token + rb"\s*" + token + rb"\s*\]",
                  lambda m: b"/ID[" + b"".join(t[:1] + b"0" * (len(t) - 2) + t[-1:] for t in (m[1], m[2])) + b"]",
                  data)
    return re.sub(rb"\(D:(\d{14})", b"(D:20260101000000", data)


def save(doc: pymupdf.Document, **kw) -> bytes:
    return _fix_id(doc.tobytes(no_new_id=True, **kw))


def text_book(rng: random.Random, pages: int = 3, title: str = "Fuzz Book") -> bytes:
    """A small valid book: a title, a heading and paragraphs of random sentences per page."""
    doc = pymupdf.open()
    for i in range(pages):
        page = doc.new_page()
        page.insert_text((72, 80), f"Chapter {i + 1} {rng.choice(WORDS).title()}", fontsize=18)
        page.insert_textbox(pymupdf.Rect(72, 110, 540, 700), sentences(rng, 12), fontsize=11)
    doc.set_metadata({"title": title})
    return save(doc)


def _textbox_pages(texts: list[str], fontname: str = "helv", fontsize: float = 11) -> bytes:
    doc = pymupdf.open()
    for t in texts:
        doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 540, 760), t, fontsize=fontsize, fontname=fontname)
    return save(doc)


def shuffled_chars(rng: random.Random, pages: int, normal_pages: int = 0) -> bytes:
    """Every character its own text object (BT … ET), drawn in shuffled order: a viewer shows the lines, text
    extraction reads letters one per line. ``normal_pages`` of ordinary text follow."""
    contents = []
    for _ in range(pages):
        items, x, y = [], 72, 740
        for ch in sentences(rng, 10):
            if x > 520:
                x, y = 72, y - 14
            if ch.strip():
                items.append(b"BT /F1 10 Tf 1 0 0 1 %d %d Tm %s Tj ET" % (x, y, _pdf_str(ch)))
            x += 6
        rng.shuffle(items)
        contents.append(b"\n".join(items))
    contents += [text_content(rng) for _ in range(normal_pages)]
    return pages_pdf(contents)


def pages_pdf(contents: list[bytes], xobjects: dict[bytes, bytes] | None = None) -> bytes:
    """A hand-written PDF of one page per content stream (Helvetica as /F1; ``xobjects``: name → stream object
    body, shared by every page)."""
    n = len(contents)
    objs = {1: b"<< /Type /Catalog /Pages 2 0 R >>", 3: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"}
    xo = {}
    for k, (name, body) in enumerate((xobjects or {}).items()):
        objs[4 + k] = body
        xo[name] = 4 + k
    first = 4 + len(xo)
    xres = (b"/XObject << " + b" ".join(b"/%s %d 0 R" % (nm, num) for nm, num in xo.items()) + b" >> ") if xo else b""
    kids = []
    for i, c in enumerate(contents):
        page, content = first + 2 * i, first + 2 * i + 1
        kids.append(b"%d 0 R" % page)
        objs[page] = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> "
                      + xres + b">> /Contents %d 0 R >>" % content)
        objs[content] = stream(c)
    objs[2] = b"<< /Type /Pages /Kids [" + b" ".join(kids) + b"] /Count %d >>" % n
    return raw_pdf(objs)


def html_pages(html: list[str]) -> bytes:
    """Pages laid out by MuPDF's HTML engine (its fallback fonts cover Hebrew, Arabic, CJK)."""
    doc = pymupdf.open()
    for h in html:
        doc.new_page().insert_htmlbox(pymupdf.Rect(72, 72, 540, 760), h)
    return save(doc)


def raw_pdf(objects: dict[int, bytes], root: int = 1) -> bytes:
    """A PDF written by hand: ``objects`` (number → body) and a correct cross-reference table."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    for num in sorted(objects):
        offsets[num] = len(out)
        out += b"%d 0 obj\n" % num + objects[num] + b"\nendobj\n"
    xref, size = len(out), max(objects) + 1
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for i in range(1, size):
        out += b"%010d 00000 n \n" % offsets[i] if i in offsets else b"0000000000 65535 f \n"
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, root, xref)
    return bytes(out)


def stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d %s>>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def _pdf_str(text: str) -> bytes:
    return b"(" + text.encode("latin-1", "replace").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(
        b")", b"\\)") + b")"


def text_content(rng: random.Random, lines: int = 30) -> bytes:
    words = sentences(rng, lines * 2).split()
    per = max(1, len(words) // lines)
    rows = [" ".join(words[i:i + per]) for i in range(0, len(words), per)][:lines]
    body = b"".join(b"1 0 0 1 72 %d Tm %s Tj\n" % (740 - 16 * i, _pdf_str(r)) for i, r in enumerate(rows))
    return b"BT /F1 11 Tf\n" + body + b"ET"


def raw_text_doc(rng: random.Random, page_extra: bytes = b"", catalog_extra: bytes = b"", resources_extra: bytes = b"",
                 content_extra: bytes = b"", more: dict[int, bytes] | None = None, kids: bytes = b"[3 0 R]",
                 count: int = 1) -> bytes:
    """One page of Helvetica text, hand-written, with room for hostile additions."""
    objs = {1: b"<< /Type /Catalog /Pages 2 0 R " + catalog_extra + b">>",
            2: b"<< /Type /Pages /Kids " + kids + b" /Count %d >>" % count,
            3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> "
               + resources_extra + b">> /Contents 5 0 R " + page_extra + b">>",
            4: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            5: stream(text_content(rng) + content_extra)}
    objs.update(more or {})
    return raw_pdf(objs)


# --- mutations of valid files ------------------------------------------------------------------------------------
def flip_bytes(data: bytes, rng: random.Random, n: int) -> bytes:
    b = bytearray(data)
    for _ in range(n):
        i = rng.randrange(len(b))
        b[i] = rng.randrange(256)
    return bytes(b)


def range_op(data: bytes, rng: random.Random, op: str) -> bytes:
    n = len(data)
    a = rng.randrange(n)
    length = rng.randint(1, max(1, n // 10))
    piece = data[a:a + length]
    if op == "delete":
        return data[:a] + data[a + length:]
    if op == "duplicate":
        return data[:a] + piece + piece + data[a + length:]
    b = rng.randrange(n)  # swap two ranges: the later one first
    a, b = sorted((a, b))
    other = data[b:b + length]
    if a + length > b:
        return data
    return data[:a] + other + data[a + length:b] + piece + data[b + length:]


def incremental(rng: random.Random, cut: bool) -> bytes:
    """A book with an appended revision (a page of text); ``cut``: the file ends halfway through that revision."""
    import os
    import tempfile

    fd, path = tempfile.mkstemp(suffix=".pdf")
    os.close(fd)
    try:
        with open(path, "wb") as f:
            f.write(text_book(rng, 2))
        doc = pymupdf.open(path)
        page = doc.new_page()
        for i in range(40):
            page.insert_text((72, 72 + i * 17), sentences(rng, 1)[:90])
        doc.save(path, incremental=True, encryption=pymupdf.PDF_ENCRYPT_KEEP)
        doc.close()
        data = _fix_id(open(path, "rb").read())
    finally:
        os.unlink(path)
    if cut:
        first = data.find(b"%%EOF") + 5
        data = data[: first + (len(data) - first) // 2]
    return data


# --- the cases ----------------------------------------------------------------------------------------------------
def cases(seed: int = 21) -> list[Case]:
    out: list[Case] = []

    def add(family: str, expect: str, make: Callable[[random.Random], bytes], variant: str = "",
            heavy: bool = False) -> None:
        i = len(out)
        name = f"{i:03d}-{family}{'-' + variant if variant else ''}.pdf"
        out.append(Case(name, family, expect, lambda i=i: make(random.Random(seed * 100_003 + i)), heavy))

    for k in range(8):  # random bytes, half of them behind a PDF header
        size = [1, 17, 300, 2048, 9000, 30000, 65536, 5][k]
        add("random_bytes", "refused", lambda r, s=size, h=k % 2: (b"%PDF-1.7\n" if h else b"") + r.randbytes(s),
            str(size))
    for k, n in enumerate((1, 1, 2, 4, 8, 16, 16, 32, 64, 64, 128, 256, 512, 1024, 2048, 4096)):
        add("byte_flips", "either", lambda r, n=n: flip_bytes(text_book(r, 2 + n % 3), r, n), f"{n}x{k}")
    for frac in (0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95, 0.995):
        add("truncated", "refused", lambda r, f=frac: (lambda d: d[: int(len(d) * f)])(text_book(r, 3)), str(frac))
    for k, op in enumerate(("delete", "duplicate", "swap") * 3 + ("delete",)):
        add("byte_ranges", "either", lambda r, op=op: range_op(text_book(r, 3), r, op), f"{op}{k}")
    for size, kind in ((1024, "random"), (1 << 20, "random"), (5000, "zeros"), (300_000, "text"), (64, "nl"),
                       (1 << 20, "pdfish-words")):
        def junk(r, size=size, kind=kind):
            if kind == "random":
                return r.randbytes(size)
            if kind == "zeros":
                return b"\0" * size
            if kind == "nl":
                return b"\n" * size
            if kind == "text":
                return (b"-- \nSent from my phone. " * (size // 22 + 1))[:size]
            return (b"trailer, endobj-ish words: a junk footer, no PDF syntax " * (size // 44 + 1))[:size]
        add("trailing_junk", "book", lambda r, j=junk: text_book(r, 2) + j(r), f"{kind}{size}")
    for k, head in enumerate((b"\xef\xbb\xbf", b"From: someone@example.com\r\nSubject: paper\r\n\r\n",
                              b"   \n\n\t")):
        add("leading_junk", "book", lambda r, h=head: h + text_book(r, 2), str(k))
    for n in (1, 50, 500):
        add("blank_pages", "refused", lambda r, n=n: (lambda d: [d.new_page() for _ in range(n)] and save(d))(
            pymupdf.open()), str(n))
    add("blank_pages", "refused", lambda r: (lambda d: [d.new_page() for _ in range(10_000)] and save(d))(
        pymupdf.open()), "10000", heavy=True)
    for k, chars in enumerate(("...,,;;!!??", "—–-•·*#%&@", "()[]{}<>/\\|")):
        add("punctuation_only", "refused",
            lambda r, c=chars: _textbox_pages([" ".join("".join(r.choice(c) for _ in range(r.randint(1, 6)))
                                                        for _ in range(300)) for _ in range(2)]), str(k))
    for k in range(3):
        add("digits_only", "book", lambda r: _textbox_pages([" ".join(str(r.randint(10, 99999)) for _ in range(250))
                                                             for _ in range(2)]), str(k))
    for font, text in (("china-s", "图书馆里有很多书。学生们在这里学习历史和科学。我们每天阅读新的文章。"),
                       ("china-t", "圖書館裡有很多書。學生們在這裡學習歷史和科學。"),
                       ("japan", "図書館にはたくさんの本があります。学生はここで歴史と科学を勉強します。"),
                       ("korea", "도서관에는 책이 많이 있습니다. 학생들은 여기서 역사와 과학을 공부합니다.")):
        add("cjk_only", "book", lambda r, f=font, t=text: _textbox_pages([t * 12, t * 9], fontname=f), font)
    for k, html in enumerate((
            '<p dir="rtl">' + "הספרייה פתוחה בכל יום. התלמידים לומדים היסטוריה ומדע בספרייה. " * 12 + "</p>",
            '<p dir="rtl">' + "المكتبة مفتوحة كل يوم. يدرس الطلاب التاريخ والعلوم في المكتبة. " * 12 + "</p>",
            "<p>Garden notes in English.</p><p dir=\"rtl\">" + "הגינה יפה מאוד בבוקר. " * 20 + "</p>")):
        add("rtl", "book", lambda r, h=html: html_pages([h, h]), ("he", "ar", "mixed")[k], heavy=k == 1)  # OCR'd
    for k, (pages, normal) in enumerate(((1, 0), (2, 0), (3, 0), (1, 0), (2, 0), (1, 12))):
        add("shuffled_chars", "refused" if not normal else "book",
            lambda r, p=pages, n=normal: shuffled_chars(r, p, n), f"{pages}p{normal}n{k}")
    for depth in (100, 1000, 10_000, 100_000):
        add("deep_nesting", "either",
            lambda r, d=depth: raw_text_doc(r, page_extra=b"/Deep " + b"[" * d + b"]" * d + b" "), str(depth))
    for n in (1000, 5000, 20_000):
        def outline(r, n=n):
            doc = pymupdf.open(stream=text_book(r, 3), filetype="pdf")
            doc.set_toc([[1 + (i % 3 > 0) * (1 + (i % 3 > 1)), f"Entry {i} {r.choice(WORDS)}", 1 + i % 3]
                         for i in range(n)])
            return save(doc)
        add("outline_huge", "book", outline, str(n), heavy=n > 1000)
    add("outline_cycle", "book", lambda r: raw_text_doc(
        r, catalog_extra=b"/Outlines 6 0 R ",
        more={6: b"<< /Type /Outlines /First 7 0 R /Last 8 0 R /Count 2 >>",
              7: b"<< /Title (Alpha) /Parent 6 0 R /Next 8 0 R /Dest [3 0 R /Fit] >>",
              8: b"<< /Title (Beta) /Parent 6 0 R /Next 7 0 R /Prev 7 0 R /First 7 0 R /Dest [3 0 R /Fit] >>"}))
    for n, distinct in ((1000, 1), (3000, 50), (5000, 500)):
        def images(r, n=n, distinct=distinct):
            per_page = 1000
            xobjects = {b"Im%d" % k: stream(bytes(r.randrange(256) for _ in range(12)),
                                            b"/Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace "
                                            b"/DeviceRGB /BitsPerComponent 8 ") for k in range(distinct)}
            contents = []
            for start in range(0, n, per_page):
                draws = [b"q 8 0 0 8 %d %d cm /Im%d Do Q" % (20 + (j % 50) * 11, 560 - (j // 50) * 11 * 0 -
                                                               (j // 50) * 27, j % distinct)
                         for j in range(min(per_page, n - start))]
                contents.append(text_content(r, 8) + b"\n" + b"\n".join(draws))
            return pages_pdf(contents, xobjects)
        add("tiny_images", "book", images, str(n), heavy=n > 3000)
    form = b"<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /X1 6 0 R >> >> "
    add("self_drawing_form", "either", lambda r: raw_text_doc(
        r, resources_extra=b"/XObject << /X1 6 0 R >> ", content_extra=b"\nq /X1 Do Q",
        more={6: stream(b"q /X1 Do Q", form[2:-3])}))
    add("self_drawing_form", "either", lambda r: raw_text_doc(
        r, resources_extra=b"/XObject << /X1 6 0 R >> ", content_extra=b"\nq /X1 Do Q",
        more={6: stream(b"q /X2 Do Q", b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] "
                                       b"/Resources << /XObject << /X2 7 0 R >> >> "),
              7: stream(b"q /X1 Do Q", b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] "
                                       b"/Resources << /XObject << /X1 6 0 R >> >> ")}), "pair")
    add("page_tree_cycle", "either", lambda r: raw_text_doc(r, kids=b"[3 0 R 2 0 R]", count=2))
    add("page_tree_cycle", "either", lambda r: raw_text_doc(
        r, kids=b"[3 0 R 6 0 R]", count=3, more={6: b"<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>"}),
        "nested")
    for k in range(2):
        add("invisible_text", "book", lambda r: raw_text_doc(r, content_extra=b"")
            .replace(b"BT /F1 11 Tf", b"BT 3 Tr /F1 11 Tf"), str(k))
    add("odd_geometry", "either", lambda r: raw_text_doc(r).replace(b"/MediaBox [0 0 612 792]",
                                                                 b"/MediaBox [0 0 0 0]"), "zero")
    add("odd_geometry", "book", lambda r: raw_text_doc(r).replace(b"/MediaBox [0 0 612 792]",
                                                               b"/MediaBox [0 0 14400 14400]"), "huge")
    add("odd_geometry", "either", lambda r: raw_text_doc(r).replace(b"/MediaBox [0 0 612 792]",
                                                                 b"/MediaBox [-5000 -5000 -4000 -4000]"), "offpage")
    for rot in (90, 270):
        add("odd_geometry", "book", lambda r, rot=rot: (lambda d: [p.set_rotation(rot) for p in d] and save(d))(
            pymupdf.open(stream=text_book(r, 2), filetype="pdf")), f"rot{rot}")
    add("long_word", "either", lambda r: _textbox_pages(["".join(r.choice("abcdefghij") for _ in range(3000))]
                                                        + [sentences(r, 10)], fontsize=4), "3k")
    add("long_word", "either", lambda r: _single_line_page("".join(r.choice("abcdefghij") for _ in range(60_000))),
        "60k", heavy=True)
    for k, extra in enumerate(("\u200b\u200b zero\u200bwidth \u200d joiners ", "\u202eevil override\u202c text ",
                               "e\u0301\u0301\u0301 combining marks \u0300\u0300 ")):
        add("unicode_oddities", "book", lambda r, x=extra: html_pages([f"<p>{(x + sentences(r, 2) + ' ') * 8}</p>"]),
            str(k))
    add("odd_metadata", "book", lambda r: _with_metadata(text_book(r, 2), "Title\x00with NUL\nand\x1b[31m escape"))
    add("markup_text", "book", lambda r: _textbox_pages(
        ["# Heading __main__ *args **kwargs <script>alert(1)</script> ![x](http://example.com/x.png) "
         "[link](javascript:alert(1)) :red[colour] $x^2$ " + sentences(r, 8)]))
    add("repeated_pages", "either", lambda r: (lambda t: _textbox_pages([t] * 30))(sentences(r, 10)), "30")
    add("repeated_pages", "either", lambda r: (lambda t: _textbox_pages([t] * 200))(sentences(r, 10)), "200")
    from tests import pdfs

    add("known_bad", "refused", encrypted_rc4, "encrypted")
    add("known_bad", "refused", lambda r: save(pymupdf.open(stream=pdfs.make_image_only_pdf(), filetype="pdf")),
        "image_only")
    add("known_bad", "refused", lambda r: pdfs.make_corrupt_pdf(), "corrupt")
    add("known_bad", "refused", lambda r: _zip_with(text_book(r, 1)), "zip")
    add("broken_xref", "book", lambda r: re.sub(rb"startxref\s+\d+", b"startxref\n17", text_book(r, 2)), "startxref")
    add("broken_xref", "book", lambda r: re.sub(rb"xref\n0 (\d+)", lambda m: b"xref\n0 " + m[1],
                                                raw_text_doc(r)).replace(b"0000000000 65535 f \n", b"garbage!!!\n"),
        "table")
    add("broken_xref", "either", lambda r: raw_text_doc(r).replace(b"trailer", b"tr4iler"), "trailer")
    add("actions", "book", lambda r: raw_text_doc(
        r, catalog_extra=b"/OpenAction << /S /JavaScript /JS (app.alert\\('hi'\\); this.exportDataObject\\(\\)) >> "),
        "javascript")
    add("actions", "book", lambda r: _with_attachment(text_book(r, 2)), "attachment")
    add("actions", "book", lambda r: raw_text_doc(
        r, catalog_extra=b"/OpenAction << /S /Launch /F (calc.exe) >> /AA << /WC << /S /URI /URI "
                         b"(http://example.com/) >> >> "), "launch")
    add("fonts", "either", lambda r: raw_text_doc(r).replace(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Type /Font /Subtype /TrueType /BaseFont /NoSuch /FontDescriptor << /FontFile2 99 0 R >> >>"), "missing")
    add("fonts", "either", lambda r: raw_text_doc(
        r, more={6: stream(b"garbage cmap \x00\x01\x02 begincmap endcmap")}).replace(
        b"/BaseFont /Helvetica >>", b"/BaseFont /Helvetica /ToUnicode 6 0 R >>"), "bad_tounicode")
    add("streams", "either", lambda r: raw_text_doc(r).replace(b"<< /Length", b"<< /Filter /FlateDecode /Length"),
        "bad_flate")
    add("streams", "book", lambda r: raw_pdf({
        1: b"<< /Type /Catalog /Pages 2 0 R >>", 2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> "
           b"/Contents 5 0 R >>",
        4: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        5: (lambda d: stream(d, b"/Filter /FlateDecode "))(zlib.compress(text_content(r)))}), "flate")
    add("streams", "either", lambda r: raw_text_doc(r).replace(b"/Length ", b"/Length 99999999"), "wrong_length")
    add("incremental", "book", lambda r: incremental(r, cut=False), "complete")
    add("incremental", "refused", lambda r: incremental(r, cut=True), "cut")
    add("huge_text_page", "either", lambda r: _textbox_pages([sentences(r, 2500)], fontsize=1.2), "1pt", heavy=True)
    add("huge_text_page", "either", lambda r: _textbox_pages([sentences(r, 400)], fontsize=3), "3pt", heavy=True)
    add("many_text_pages", "book", lambda r: _textbox_pages([sentences(r, 12) for _ in range(1500)]), "1500",
        heavy=True)
    add("table", "book", lambda r: save(pymupdf.open(stream=pdfs.make_table_pdf(), filetype="pdf")))
    while len(out) < 120:  # more mutations of valid books, to reach well over a hundred files
        n = len(out)
        add("byte_flips", "either", lambda r, n=n: flip_bytes(text_book(r, 2), r, 1 + n % 97), f"extra{n}")
    return out


def _rc4(key: bytes, data: bytes) -> bytes:
    box = list(range(256))
    j = 0
    for i in range(256):
        j = (j + box[i] + key[i % len(key)]) % 256
        box[i], box[j] = box[j], box[i]
    out, i, j = bytearray(), 0, 0
    for ch in data:
        i = (i + 1) % 256
        j = (j + box[i]) % 256
        box[i], box[j] = box[j], box[i]
        out.append(ch ^ box[(box[i] + box[j]) % 256])
    return bytes(out)


def encrypted_rc4(rng: random.Random) -> bytes:
    """A text page behind a user password (standard security handler, 40-bit RC4, revision 2), written by hand
    so that its bytes are the same on every run (PyMuPDF's encryption draws a random file id)."""
    import hashlib

    pad = bytes.fromhex("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A")
    file_id = b"folio-fuzz-id-00"
    owner = _rc4(hashlib.md5(b"owner" + pad[:27]).digest()[:5], b"user" + pad[:28])
    perms = -4
    key = hashlib.md5(b"user" + pad[:28] + owner + perms.to_bytes(4, "little", signed=True) + file_id).digest()[:5]
    content = text_content(rng)
    obj_key = hashlib.md5(key + (5).to_bytes(3, "little") + (0).to_bytes(2, "little")).digest()[:10]
    data = raw_pdf({1: b"<< /Type /Catalog /Pages 2 0 R >>", 2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                    3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> "
                       b">> /Contents 5 0 R >>",
                    4: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
                    5: stream(_rc4(obj_key, content)),
                    6: b"<< /Filter /Standard /V 1 /R 2 /O <" + owner.hex().encode() + b"> /U <"
                       + _rc4(key, pad).hex().encode() + b"> /P %d >>" % perms})
    return data.replace(b"/Root 1 0 R >>", b"/Root 1 0 R /Encrypt 6 0 R /ID [<%s> <%s>] >>"
                        % (file_id.hex().encode(), file_id.hex().encode()))


def _single_line_page(text: str) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=2000, height=400)
    page.insert_text((5, 50), text[:20000], fontsize=1)
    page.insert_text((5, 100), text[20000:40000], fontsize=1)
    page.insert_text((5, 150), text[40000:], fontsize=1)
    return save(doc)


def _with_metadata(data: bytes, title: str) -> bytes:
    doc = pymupdf.open(stream=data, filetype="pdf")
    doc.set_metadata({"title": title, "author": "\u202eevil", "subject": "x" * 5000})
    return save(doc)


def _with_attachment(data: bytes) -> bytes:
    doc = pymupdf.open(stream=data, filetype="pdf")
    doc.embfile_add("payload.sh", b"#!/bin/sh\nrm -rf /\n", filename="payload.sh")
    return save(doc)


def _zip_with(data: bytes) -> bytes:
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        info = zipfile.ZipInfo("book.pdf", date_time=(2020, 1, 1, 0, 0, 0))
        z.writestr(info, data)
    return buf.getvalue()


def quick(all_cases: list[Case], per_family: int = 1) -> list[Case]:
    """The suite's bounded subset: the first ``per_family`` light cases of each family."""
    seen: dict[str, int] = {}
    out = []
    for c in all_cases:
        if c.heavy or seen.get(c.family, 0) >= per_family:
            continue
        seen[c.family] = seen.get(c.family, 0) + 1
        out.append(c)
    return out
