"""Small EPUB, Word, HTML, Markdown and text books the format tests make themselves (zipfile, PyMuPDF)."""
from __future__ import annotations

import io
import zipfile

import pymupdf

CHAPTERS = {
    "Chapter 1 Gardening": [
        ("1.1 Soil", "Good soil is the foundation of every garden. Loam mixes sand, silt and clay in balanced "
                     "amounts, and compost feeds the worms that aerate the ground."),
        ("1.2 Watering", "Tomatoes need deep watering twice a week. Shallow watering keeps roots near the surface. "
                         "Water in the morning so that leaves dry before night."),
    ],
    "Chapter 2 Astronomy": [
        ("2.1 Planets", "A planet orbits a star and has cleared its orbit. Jupiter is the largest planet of the solar "
                        "system and Saturn is famous for its bright rings of ice."),
        ("2.2 Telescopes", "A refracting telescope gathers light with lenses; a reflecting telescope uses mirrors. "
                           "Larger apertures collect more light and show fainter galaxies."),
    ],
}
CODE = ("def water(plant, litres=2):\n    if plant.soil < 0.3:\n        plant.soil += litres\n"
        "        log('watered', plant.name)\n    else:\n        log('still moist', plant.name)\n    return plant")
TABLE = [("Planet", "Moons", "Rings"), ("Mercury", "0", "no"), ("Venus", "0", "no"), ("Earth", "1", "no"),
         ("Mars", "2", "no"), ("Jupiter", "95", "faint"), ("Saturn", "146", "bright"), ("Uranus", "28", "dark"),
         ("Neptune", "16", "faint")]
FILLER = ("This paragraph adds general remarks about the chapter so that the book has several chunks per section "
          "and runs over more than one page. ")


def png(w: int = 360, h: int = 240) -> bytes:
    """A picture with some structure (bands of colour), so it is a figure and not a blank box."""
    pm = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, w, h), 0)
    pm.clear_with(230)
    for i in range(0, w, 40):
        pm.set_rect(pymupdf.IRect(i, 0, i + 20, h), (40 + i % 200, 120, 200 - i % 150))
    return pm.tobytes("png")


def section_html(sections, caption: str = "") -> str:
    parts = []
    for j, (head, text) in enumerate(sections):
        parts.append(f"<h2>{head}</h2><p>{text}</p>" + f"<p>{FILLER * 3}</p>")
        if j == 0 and caption:
            parts.append(f'<figure><img src="images/orbit.png" alt="orbits"/><figcaption>{caption}</figcaption>'
                         "</figure>")
    return "".join(parts)


def xhtml(title: str, body: str, lang: str = "en") -> str:
    return ('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n'
            f'<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="{lang}">'
            f'<head><title>{title}</title><link rel="stylesheet" href="style.css"/></head><body>{body}</body></html>')


CAPTION = "The orbits of the inner planets around the Sun, drawn to scale"


def make_epub(title: str = "Garden and Sky", extra_files: dict | None = None, spine_fragment: bool = False,
              chapter_html: dict | None = None, encryption: str | None = None, nav: bool = True,
              lang: str = "en") -> bytes:
    """An EPUB 3 with two chapters (sections, a code listing, a table, a captioned image), a nav document
    and a stylesheet that sets class "listing" in a monospace font. ``spine_fragment`` names the second
    chapter in the spine with a #fragment (as the live-manual EPUBs do)."""
    ch1_title, ch2_title = list(CHAPTERS)
    ch1 = (f'<h1 id="c1">{ch1_title}</h1>' + section_html(CHAPTERS[ch1_title])
           + f'<p class="listing">{CODE.replace(chr(10), "<br/>")}</p>')
    rows = "".join("<tr>" + "".join(f"<{'th' if i == 0 else 'td'}>{c}</{'th' if i == 0 else 'td'}>" for c in r)
                   + "</tr>" for i, r in enumerate(TABLE))
    ch2 = (f'<h1 id="c2">{ch2_title}</h1>' + section_html(CHAPTERS[ch2_title], CAPTION)
           + f"<table>{rows}</table><p>{FILLER}</p>")
    chapters = chapter_html or {"ch1.xhtml": xhtml(ch1_title, ch1, lang), "ch2.xhtml": xhtml(ch2_title, ch2, lang)}
    items = "".join(f'<item id="i{k}" href="{n}" media-type="application/xhtml+xml"/>' for k, n in enumerate(chapters))
    refs = "".join(f'<itemref idref="i{k}"/>' if not (spine_fragment and k == 1) else f'<itemref idref="f{k}"/>'
                   for k in range(len(chapters)))
    if spine_fragment:
        items += '<item id="f1" href="ch2.xhtml#c2" media-type="application/xhtml+xml"/>'
    nav_items = "".join(f'<li><a href="{n}">{t}</a></li>' for n, t in zip(chapters, CHAPTERS)) if not chapter_html \
        else ""
    opf = ('<?xml version="1.0" encoding="utf-8"?>'
           '<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">'
           '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
           f'<dc:identifier id="id">urn:test</dc:identifier><dc:title>{title}</dc:title>'
           f'<dc:language>{lang}</dc:language></metadata><manifest>{items}'
           + ('<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>' if nav else "")
           + '<item id="css" href="style.css" media-type="text/css"/>'
           '<item id="img" href="images/orbit.png" media-type="image/png"/>'
           f'</manifest><spine>{refs}</spine></package>')
    files = {
        "META-INF/container.xml": '<?xml version="1.0"?><container version="1.0" '
                                  'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
                                  '<rootfile full-path="OEBPS/content.opf" '
                                  'media-type="application/oebps-package+xml"/></rootfiles></container>',
        "OEBPS/content.opf": opf,
        "OEBPS/nav.xhtml": xhtml("Contents", f'<nav epub:type="toc"><ol>{nav_items}</ol></nav>'),
        "OEBPS/style.css": ".listing { font-family: 'Courier New', monospace; }\n.hidden-note { display: none }",
        "OEBPS/images/orbit.png": png(),
        **{f"OEBPS/{n}": h for n, h in chapters.items()},
    }
    if encryption:
        files["META-INF/encryption.xml"] = encryption
    files.update(extra_files or {})
    return zip_files(files, mimetype="application/epub+zip")


def zip_files(files: dict, mimetype: str | None = None) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        if mimetype:
            z.writestr(zipfile.ZipInfo("mimetype"), mimetype, compress_type=zipfile.ZIP_STORED)
        for name, data in files.items():
            z.writestr(name, data)
    return buf.getvalue()


# --- Word ------------------------------------------------------------------------------------------------
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def _w_par(text: str, style: str = "") -> str:
    from html import escape

    ppr = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    return f'<w:p>{ppr}<w:r><w:t xml:space="preserve">{escape(text)}</w:t></w:r></w:p>'


def _w_image(rid: str) -> str:
    return ('<w:p><w:r><w:drawing><wp:inline><wp:extent cx="3429000" cy="2286000"/>'
            '<wp:docPr id="1" name="Picture 1" descr="orbits"/>'
            '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic>'
            f'<pic:blipFill><a:blip r:embed="{rid}"/></pic:blipFill></pic:pic></a:graphicData></a:graphic>'
            '</wp:inline></w:drawing></w:r></w:p>')


def make_docx(title: str = "Garden and Sky", doctype: str = "", extra_body: str = "") -> bytes:
    """A Word document with Heading 1/2 styles, a Code-style listing, a table, an image with a Caption."""
    body = [_w_par(title, "Title")]
    for ch, sections in CHAPTERS.items():
        body.append(_w_par(ch, "Heading1"))
        for head, text in sections:
            body += [_w_par(head, "Heading2"), _w_par(text), _w_par(FILLER * 3)]
        if ch.startswith("Chapter 1"):
            body += [_w_par(line, "Code") for line in CODE.split("\n")]
        else:
            body += [_w_image("rId9"), _w_par(CAPTION, "Caption")]
            rows = "".join("<w:tr>" + "".join(f"<w:tc>{_w_par(c)}</w:tc>" for c in r) + "</w:tr>" for r in TABLE)
            body.append(f"<w:tbl>{rows}</w:tbl>")
    document = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>{doctype}'
                f'<w:document xmlns:w="{W}" xmlns:r="{R}" '
                'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
                'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
                'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture">'
                f'<w:body>{"".join(body)}{extra_body}</w:body></w:document>')
    styles = (f'<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="{W}">'
              + "".join(f'<w:style w:type="paragraph" w:styleId="{sid}"><w:name w:val="{name}"/></w:style>'
                        for sid, name in (("Title", "Title"), ("Heading1", "heading 1"), ("Heading2", "heading 2"),
                                          ("Code", "Code"), ("Caption", "Caption")))
              + "</w:styles>")
    files = {
        "[Content_Types].xml": '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/'
                               'package/2006/content-types"><Default Extension="rels" ContentType="application/'
                               'vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" '
                               'ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/>'
                               '<Override PartName="/word/document.xml" ContentType="application/vnd.'
                               'openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
        "_rels/.rels": '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/'
                       'package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
                       'officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>'
                       '</Relationships>',
        "word/document.xml": document,
        "word/styles.xml": styles,
        "word/_rels/document.xml.rels": '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
                                        'openxmlformats.org/package/2006/relationships"><Relationship Id="rId9" '
                                        'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
                                        'image" Target="media/image1.png"/><Relationship Id="rId8" Type="http://'
                                        'schemas.openxmlformats.org/officeDocument/2006/relationships/styles" '
                                        'Target="styles.xml"/></Relationships>',
        "word/media/image1.png": png(),
        "docProps/core.xml": '<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.'
                             'openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/'
                             f'dc/elements/1.1/"><dc:title>{title}</dc:title><dc:language>en-GB</dc:language>'
                             '</cp:coreProperties>',
    }
    return zip_files(files)


# --- single-file formats ----------------------------------------------------------------------------------
def make_markdown(title: str = "Garden and Sky") -> str:
    out = [f"# {title}\n"]
    for ch, sections in CHAPTERS.items():
        out.append(f"## {ch}\n")
        for head, text in sections:
            out.append(f"### {head}\n\n{text}\n\n{FILLER * 3}\n")
        if ch.startswith("Chapter 1"):
            out.append(f"```python\n{CODE}\n```\n")
        else:
            out.append("| " + " | ".join(TABLE[0]) + " |\n|---|---|---|\n"
                       + "".join("| " + " | ".join(r) + " |\n" for r in TABLE[1:]))
    return "\n".join(out)


def make_html(title: str = "Garden and Sky", body_extra: str = "") -> str:
    rows = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in TABLE)
    body = "".join(f"<h1>{ch}</h1>" + section_html(s) for ch, s in CHAPTERS.items())
    return (f'<!DOCTYPE html><html lang="en"><head><title>{title}</title></head><body>{body}'
            f"<pre>{CODE}</pre><table>{rows}</table>{body_extra}</body></html>")


def make_text(title: str = "Garden and Sky") -> str:
    out = [title, "=" * len(title), ""]
    for ch, sections in CHAPTERS.items():
        out += [ch.upper(), ""]
        for head, text in sections:
            out += [head, "", text, "", FILLER * 3, ""]
        if ch.startswith("Chapter 1"):
            out += ["    " + ln for ln in CODE.split("\n")] + [""]
    return "\n".join(out)
