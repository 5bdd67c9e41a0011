"""Small PDFs the tests make themselves with PyMuPDF."""
from __future__ import annotations

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
        ("Telescopes", "A refracting telescope uses lenses to gather light. A reflecting telescope uses mirrors instead. "
                       "Larger apertures collect more light and show fainter galaxies."),
    ],
}


def make_book_pdf(title: str = "Garden and Sky", chapters: dict = BOOK, pad: int = 3, toc: bool = True) -> bytes:
    """A book with a title page, chapters (big font), sections (bold) and paragraphs, and page labels
    starting at roman numerals for the title page."""
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
