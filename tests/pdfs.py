"""Small PDFs the tests make themselves with PyMuPDF."""
from __future__ import annotations

import re

import pymupdf

BOOK = {
    "Chapter 1 Gardening": [
        ("Soil", "Good soil is the foundation of every garden. Loam is a soil that mixes sand, silt and clay in "
                 "balanced amounts. Compost adds organic matter and feeds the worms that aerate the ground."),
        ("Watering", "Tomatoes need deep watering twice a week. Shallow watering makes roots stay near the surface. "
                     "Water in the morning so that leaves dry before night and fungus cannot spread."),
    ],
    "Chapter 2 Astronomy": [
        ("Planets", "A planet is a celestial body that orbits a star and has cleared its orbit. Jupiter is the largest "
                    "planet of the solar system. Saturn is famous for its bright rings of ice."),
        ("Telescopes", "A refracting telescope uses lenses to gather light. A reflecting telescope uses mirrors "
                       "instead. "
                       "Larger apertures collect more light and show fainter galaxies."),
    ],
}


def make_book_pdf(title: str = "Garden and Sky", chapters: dict = BOOK, pad: int = 3, toc: bool = True,
                  running_heads: bool = False) -> bytes:
    """A book with a title page, chapters (big font), sections (bold) and paragraphs, and page labels
    starting at roman numerals for the title page; ``running_heads``: every page after the title page
    has a running header (book title left, page number right) and a footer "Page n of m"."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), title, fontsize=24)
    toc_entries = []
    filler = ("This paragraph is filler text that talks about general matters of the chapter at some length, "
              "so that the document has several chunks per section and spans more than one page. ")
    for chapter, sections in chapters.items():
        page = doc.new_page()
        y = 90
        page.insert_text((72, y), chapter, fontsize=20)
        toc_entries.append([1, chapter, page.number + 1])
        y += 40
        for head, body in sections:
            if y > 600:
                page, y = doc.new_page(), 72
            page.insert_text((72, y), head, fontsize=14, fontname="hebo")
            toc_entries.append([2, head, page.number + 1])
            y += 24
            for text in [body] + [filler] * pad:
                rect = pymupdf.Rect(72, y, 540, y + 110)
                page.insert_textbox(rect, text, fontsize=11)
                y += 110
                if y > 680:
                    page, y = doc.new_page(), 72
    if running_heads:
        for page in list(doc)[1:]:
            page.insert_text((72, 40), title, fontsize=9)
            page.insert_text((520, 40), str(page.number), fontsize=9)
            page.insert_text((260, 815), f"Page {page.number + 1} of {doc.page_count}", fontsize=9)
    if toc:
        doc.set_toc(toc_entries)
    doc.set_page_labels([{"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1},
                         {"startpage": 1, "prefix": "", "style": "D", "firstpagenum": 1}])
    doc.set_metadata({"title": title})
    return doc.tobytes()


def make_encrypted_pdf() -> bytes:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "secret text here")
    return doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="owner", user_pw="user")


def make_image_only_pdf() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 64, 64), False)
    pix.clear_with(200)
    page.insert_image(pymupdf.Rect(72, 72, 300, 300), pixmap=pix)
    return doc.tobytes()


def make_blank_pdf() -> bytes:
    doc = pymupdf.open()
    doc.new_page()
    return doc.tobytes()


def make_corrupt_pdf() -> bytes:
    return b"%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage \x00\x01 not really a pdf\n%%EOF"


def _pixmap(w: int, h: int, rgb: tuple[int, int, int]) -> "pymupdf.Pixmap":
    return pymupdf.Pixmap(pymupdf.csRGB, w, h, bytes(rgb) * (w * h), False)


MARKUP_LINE = "Call __main__ with *args, then <script>alert(1)</script> and ![x](http://example.com/x.png) done."


def make_figure_pdf() -> bytes:
    """Three pages: a raster figure with caption (p. 1), a vector diagram with labels inside and a
    caption (p. 2) next to a code box, and text on p. 3 that refers to both. A small logo repeats on
    every page (decoration). Page 3 also holds Markdown/HTML-looking text."""
    doc = pymupdf.open()
    logo = _pixmap(60, 60, (0, 90, 200))
    logo_xref = 0
    for _ in range(3):
        page = doc.new_page()
        logo_xref = page.insert_image(pymupdf.Rect(500, 20, 560, 80), pixmap=logo) if not logo_xref else \
            page.insert_image(pymupdf.Rect(500, 20, 560, 80), xref=logo_xref)
    p1, p2, p3 = doc[0], doc[1], doc[2]
    p1.insert_text((72, 110), "Chapter 1 Colour samples", fontsize=20)
    p1.insert_textbox(pymupdf.Rect(72, 130, 540, 200), "Painters compare colours against a reference sample. "
                      "The reference sample for this studio is a bright red square printed on matte "
                      "paper.", fontsize=11)
    p1.insert_image(pymupdf.Rect(150, 220, 450, 420), pixmap=_pixmap(300, 200, (220, 20, 20)))
    p1.insert_text((150, 440), "Figure 1.1: A red square used as the reference colour sample.", fontsize=10)
    p1.insert_textbox(pymupdf.Rect(72, 470, 540, 560), "Keep the sample away from sunlight, because ultraviolet "
                      "light fades the pigment within a few months.", fontsize=11)

    p2.insert_text((72, 90), "Chapter 2 Weather", fontsize=20)
    shape = p2.new_shape()
    shape.draw_circle((300, 200), 60)
    shape.draw_line((200, 300), (300, 260))
    shape.draw_line((300, 260), (400, 300))
    shape.draw_bezier((180, 150), (220, 110), (380, 110), (420, 150))
    shape.finish(color=(0, 0, 0), width=1.5)
    shape.commit()
    p2.insert_text((270, 205), "evaporation", fontsize=9)
    p2.insert_text((320, 250), "rainfall", fontsize=9)
    p2.insert_text((150, 345), "Fig. 2. The water cycle diagram.", fontsize=10)
    p2.draw_rect(pymupdf.Rect(72, 380, 540, 440), color=None, fill=(0.9, 0.9, 0.9))
    p2.insert_text((80, 400), "def water_cycle(*args): return evaporate(args)", fontsize=9, fontname="cour")
    p2.insert_text((80, 420), "print(water_cycle(1, 2, 3))", fontsize=9, fontname="cour")
    p2.insert_textbox(pymupdf.Rect(72, 460, 540, 560), "Water evaporates from the sea, condenses into clouds and "
                      "falls back as rain on the mountains.", fontsize=11)

    p3.insert_text((72, 90), "Chapter 3 Notes", fontsize=20)
    p3.insert_textbox(pymupdf.Rect(72, 110, 540, 250), "As shown in Figure 1.1, the reference colour of the studio "
                      "is a saturated red that painters match by eye. The cycle drawn in Fig. 2 explains why "
                      "mountain rivers never run dry.", fontsize=11)
    p3.insert_textbox(pymupdf.Rect(72, 260, 540, 330), MARKUP_LINE, fontsize=11)
    doc.set_metadata({"title": "Studio Handbook"})
    return doc.tobytes()


def make_many_figures_pdf(n: int = 14) -> bytes:
    """``n`` pages, each a captioned raster figure of its own colour ("Figure k: Sample k …") with a paragraph."""
    doc = pymupdf.open()
    for k in range(1, n + 1):
        page = doc.new_page()
        page.insert_text((72, 90), f"Section {k} Colour sample {k}", fontsize=16)
        page.insert_textbox(pymupdf.Rect(72, 110, 540, 180), f"Sample {k} is one of the studio's reference colours; "
                            "painters compare their mixes against it in daylight.", fontsize=11)
        page.insert_image(pymupdf.Rect(150, 200, 450, 400), pixmap=_pixmap(300, 200, (17 * k % 256, 90, 200 - k)))
        page.insert_text((150, 420), f"Figure {k}: Sample {k} of the studio's reference colours.", fontsize=10)
    return doc.tobytes()


def make_hostile_images_pdf() -> bytes:
    """Thousands of tiny images, a huge image, a broken image stream and a drawing that covers the
    whole page: figure extraction must skip or survive all of them."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "A page with very many tiny images in a grid, one per mark.", fontsize=11)
    page.insert_image(pymupdf.Rect(20, 80, 26, 86), pixmap=_pixmap(4, 4, (0, 0, 0)))
    name = re.search(rb"/(\S+) Do", b"".join(doc.xref_stream(x) for x in page.get_contents())).group(1)
    ops = b"".join(b"q 6 0 0 6 %d %d cm /%s Do Q\n" % (20 + (i % 50) * 11, 700 - (i // 50) * 11, name)
                   for i in range(1500))  # one image drawn 1,500 times
    doc.update_stream(page.get_contents()[0], b"".join(doc.xref_stream(x) for x in page.get_contents()) + ops)
    page = doc.new_page()
    page.draw_rect(page.rect, color=(0, 0, 0), fill=(0.95, 0.95, 1.0))
    page.insert_text((72, 100), "This page has a drawing that covers all of it, and a huge photograph.", fontsize=11)
    page.insert_image(pymupdf.Rect(72, 150, 540, 600), pixmap=_pixmap(2400, 1800, (10, 120, 10)))
    page.insert_text((72, 630), "Figure 3: A huge green photograph.", fontsize=10)
    page = doc.new_page()
    page.insert_text((72, 100), "This page holds an image whose data stream is broken.", fontsize=11)
    bad = page.insert_image(pymupdf.Rect(100, 150, 400, 400), stream=_pixmap(50, 50, (200, 0, 0)).tobytes("jpeg"))
    doc.update_stream(bad, b"\xff\xd8\xff garbage, not a jpeg")
    return doc.tobytes()


CODE = ["def countdown(n):", "    if n <= 0:", "        print('Blastoff!')", "    else:", "        print(n)",
        "        countdown(n - 1)"]
TABLE = [("Operator", "Meaning", "Example"), ("+", "addition", "2 + 3"), ("-", "subtraction", "5 - 1"),
         ("*", "product", "4 * 2"), ("/", "division", "8 / 2"), ("%", "remainder", "7 % 3"),
         ("**", "power", "2 ** 8")]


def make_code_pdf() -> bytes:
    """Two sections of prose, one with a code listing in Courier, one with a 3-column table of short cells."""
    doc = pymupdf.open()
    prose = ("A function that calls itself is recursive; the process of executing it is called recursion. "
             "Every recursive function needs a base case that stops the calls. ") * 3
    page = doc.new_page()
    page.insert_text((72, 80), "Recursion", fontsize=18)
    page.insert_textbox(pymupdf.Rect(72, 100, 540, 220), prose, fontsize=11)
    y = 240
    for line in CODE:
        page.insert_text((90, y), line, fontsize=10, fontname="cour")
        y += 14
    page.insert_textbox(pymupdf.Rect(72, y + 10, 540, y + 130), prose, fontsize=11)
    page = doc.new_page()
    page.insert_text((72, 80), "Operators", fontsize=18)
    page.insert_textbox(pymupdf.Rect(72, 100, 540, 200), "Arithmetic operators combine numbers. " * 6, fontsize=11)
    y = 230
    for row in TABLE:
        for x, cell in zip((90, 220, 350), row):
            page.insert_text((x, y), cell, fontsize=10)
        y += 16
    page.insert_textbox(pymupdf.Rect(72, y + 10, 540, y + 120), "Division always gives a float. " * 6, fontsize=11)
    doc.set_toc([[1, "Recursion", 1], [1, "Operators", 2]])
    return doc.tobytes()


def make_unmapped_font_pdf(good_pages: int = 0) -> bytes:
    """Pages set in an embedded TrueType font whose ToUnicode map was removed: MuPDF can only give raw glyph
    ids (control characters and shifted letters), as with real PDFs whose fonts have no Unicode mapping.
    ``good_pages`` ordinary pages come first."""
    import glob

    ttf = sorted(glob.glob("/usr/share/fonts/truetype/**/*.ttf", recursive=True))[0]
    doc = pymupdf.open()
    for i in range(good_pages):
        doc.new_page().insert_text((72, 100), f"Page {i + 1} has ordinary text that anyone can search.", fontsize=11)
    page = doc.new_page()
    page.insert_font(fontname="F0", fontfile=ttf)
    for k in range(8):
        page.insert_text((72, 100 + 20 * k), "This line is set in a font without any unicode map at all.",
                         fontsize=11, fontname="F0")
    for xref, ext, kind, *_ in page.get_fonts():
        if kind == "Type0":
            doc.xref_set_key(xref, "ToUnicode", "null")
    return doc.tobytes()


def make_music_page_pdf() -> bytes:
    """A tutorial's page: prose and a code line, and under them the notes of its music notation, each a glyph or
    two on a line of its own in a font without a Unicode map (as LilyPond's manual sets its examples)."""
    import glob

    ttf = sorted(glob.glob("/usr/share/fonts/truetype/**/*.ttf", recursive=True))[0]
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 90), "A pickup (or anacrusis) is entered with the keyword partial.", fontsize=11)
    page.insert_text((72, 110), "It is followed by a duration: partial 8 is an eighth note.", fontsize=11)
    page.insert_text((72, 130), "relative { partial 8 f8 | c2 d | }", fontsize=10, fontname="Courier")
    page.insert_font(fontname="F0", fontfile=ttf)
    for k in range(40):  # noteheads, clefs and rests: punctuation's glyph ids come out as control characters
        page.insert_text((72 + 11 * k, 200 + 9 * (k % 7)), "!$"[k % 2] * (1 + k % 2), fontsize=11, fontname="F0")
    for xref, ext, kind, *_ in page.get_fonts():
        if kind == "Type0":
            doc.xref_set_key(xref, "ToUnicode", "null")
    return doc.tobytes()


TWO_COLUMNS = {
    "left": ["Left one: the experiment began in spring with twelve plots of tomatoes.",
             "Left two: each plot was watered twice a week at dawn.",
             "Left three: yields were weighed every Friday afternoon."],
    "right": ["Right one: the results show that deep watering doubled the yield.",
              "Right two: shallow watering left the roots near the surface.",
              "Right three: we conclude that deep watering is worth the effort."],
}


def make_two_column_pdf() -> bytes:
    """A title across the page, then two columns written in the order left 1, right 1, left 2, right 2, …
    (as some PDF producers do), then a closing paragraph across the page."""
    doc = pymupdf.open()
    page = doc.new_page()  # 595 x 842
    page.insert_textbox(pymupdf.Rect(72, 60, 523, 100), "A Study of Watering, written across the whole page width",
                        fontsize=14)
    for k, (left, right) in enumerate(zip(TWO_COLUMNS["left"], TWO_COLUMNS["right"])):
        y = 120 + 150 * k
        page.insert_textbox(pymupdf.Rect(72, y, 282, y + 140), (left + " ") * 3, fontsize=10)
        page.insert_textbox(pymupdf.Rect(313, y, 523, y + 140), (right + " ") * 3, fontsize=10)
    page.insert_textbox(pymupdf.Rect(72, 600, 523, 680), "Closing remarks across the page: the garden thanks "
                        "its volunteers for a summer of careful watering and weighing.", fontsize=10)
    return doc.tobytes()


SIDEBAR = ["Citation: Gardener A, Planter B (2018) Deep watering of tomatoes.", "Received: October 9, 2017",
           "Accepted: April 19, 2018", "Funding: The garden club paid for the seeds.",
           "Competing interests: The authors have declared that no competing interests exist."]


def make_sidebar_pdf(term_list: bool = False) -> bytes:
    """A journal article's first page: a narrow side column (citation, dates, funding) written after a wide main
    column whose last sentence goes on at the top of page 2. ``term_list``: instead, a page of options, each term
    in a narrow column level with its description in a wide one."""
    doc = pymupdf.open()
    page = doc.new_page()  # 595 x 842
    if term_list:
        for k in range(6):
            y = 80 + 60 * k
            page.insert_textbox(pymupdf.Rect(50, y, 150, y + 40), f"--option-{k}", fontsize=10)
            page.insert_textbox(pymupdf.Rect(170, y, 545, y + 50), f"Description of option {k}: it sets the "
                                f"watering schedule number {k} for every plot in the garden.", fontsize=10)
        return doc.tobytes()
    main = ("Abstract. We watered twelve plots of tomatoes deeply or shallowly for a whole summer and weighed "
            "the yield of each plot every Friday afternoon. ") * 14 + "The weighing showed that"
    page.insert_textbox(pymupdf.Rect(210, 80, 545, 760), main, fontsize=11)
    for k, t in enumerate(SIDEBAR):
        page.insert_textbox(pymupdf.Rect(40, 305 + 70 * k, 165, 365 + 70 * k), t, fontsize=8)
    doc.new_page().insert_textbox(pymupdf.Rect(72, 80, 523, 300), "deep watering doubled the yield of every plot. "
                                  "Shallow watering left the roots near the surface.", fontsize=11)
    return doc.tobytes()


def make_scanned_pdf(pages: list[str], rotate: int = 0, dpi: int = 150) -> bytes:
    """Image-only pages: each text typeset, rendered to a picture and placed as the whole page (a scan),
    shown turned by ``rotate`` degrees (the page's /Rotate)."""
    src = pymupdf.open()
    for text in pages:
        p = src.new_page()
        p.insert_textbox(pymupdf.Rect(72, 72, 540, 720), text, fontsize=13, fontname="helv")
    out = pymupdf.open()
    for p in src:
        pix = p.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
        page = out.new_page(width=p.rect.width, height=p.rect.height)
        page.insert_image(page.rect, pixmap=pix)
        page.set_rotation(rotate)
    return out.tobytes()


PLANTING = [("Vegetable", "Sow indoors", "Harvest"), ("Tomato", "March", "August"), ("Runner bean", "April", "July"),
            ("Leek", "February", "November"), ("Parsnip", "May", "December")]


def make_table_pdf(rows: list[tuple] = PLANTING, caption: str = "Table 1: When to sow and harvest") -> bytes:
    """A page of prose, a captioned table ruled with lines (row height 18 pt, three columns), more prose."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(72, 60, 540, 130), "The kitchen garden follows the seasons. Each crop has "
                        "its own calendar, and the table below gives the months that work in a cool climate.",
                        fontsize=11)
    page.insert_text((72, 150), caption, fontsize=11)
    x = [72, 220, 360, 500]
    top = 160
    for i, row in enumerate(rows):
        y = top + 18 * i
        for j, cell in enumerate(row):
            page.insert_text((x[j] + 4, y + 13), cell, fontsize=10)
    bottom = top + 18 * len(rows)
    for i in range(len(rows) + 1):
        page.draw_line((x[0], top + 18 * i), (x[-1], top + 18 * i))
    for xx in x:
        page.draw_line((xx, top), (xx, bottom))
    page.insert_textbox(pymupdf.Rect(72, bottom + 20, 540, bottom + 100), "Leeks stand in the ground all winter "
                        "and can be lifted when needed.", fontsize=11)
    return doc.tobytes()
