"""Word documents (.docx) → HTML with mammoth → laid-out PDF.

The archive is checked by ``SafeZip`` and every XML part by ``defusedxml`` (no DTD, no entities) before
mammoth sees anything; mammoth then reads a copy that holds only those checked parts, with its external
file access off, so linked (not embedded) images and files are never opened. Headings come from the
Heading 1–6 styles, code from code styles (Code, Source Code, HTML Preformatted, Verbatim), tables and
embedded images are kept; captions come from the Caption style.
"""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

from ...errors import BadDocumentError
from .builder import BookBuilder
from .converted import Converted
from .safezip import SafeZip

STYLE_MAP = """
p[style-name='Title'] => h1:fresh
p[style-name='Code'] => pre:separator('\\n')
p[style-name='Source Code'] => pre:separator('\\n')
p[style-name='HTML Preformatted'] => pre:separator('\\n')
p[style-name='Plain Text'] => pre:separator('\\n')
p[style-name='Caption'] => p.caption:fresh
r[style-name='Code Char'] => code
r[style-name='Verbatim Char'] => code
r[style-name='HTML Code'] => code
"""
IMG_PREFIX = "folio-image:"


def _checked_copy(z: SafeZip) -> tuple[bytes, dict]:
    """A new ZIP with every part of the document, each XML part parsed once with DTDs and entities forbidden."""
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import ParseError, fromstring

    out = io.BytesIO()
    meta = {}
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as w:
        for name in z.names():
            if name.endswith("/"):
                continue
            data = z.read(name)
            if name.endswith((".xml", ".rels")):
                try:
                    root = fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
                except DefusedXmlException:
                    raise z.bad(f"the Word file's part {name} declares a DTD or entities, which Word never writes "
                                "(they can fetch files or expand without end). It is not read.") from None
                except (ParseError, ValueError) as e:
                    raise z.bad(f"the Word file's part {name} is not valid XML ({e}). The document is damaged; "
                                "save it again from Word.") from None
                if name == "docProps/core.xml":
                    for el in root.iter():
                        tag = el.tag.rsplit("}", 1)[-1] if isinstance(el.tag, str) else ""
                        if tag in ("title", "language") and (el.text or "").strip():
                            meta.setdefault(tag, " ".join(el.text.split()))
            w.writestr(name, data)
    return out.getvalue(), meta


def read_docx(data: bytes, filename: str) -> Converted:
    try:
        import mammoth
    except ImportError:
        raise BadDocumentError(filename, "reading Word files needs the 'mammoth' package, which is not installed. "
                                         "Install the requirements again (pip install -r requirements.txt) or save "
                                         "the document as PDF.") from None
    z = SafeZip(data, filename, "Word file")
    if not z.has("word/document.xml"):
        raise z.bad("the Word file has no word/document.xml; it is damaged or not a Word document.")
    copy, meta = _checked_copy(z)
    b = BookBuilder(filename, "Word file")

    def convert_image(image):
        if (image.content_type or "").lower() not in ("image/png", "image/jpeg", "image/gif"):
            b.images.skipped["image format not shown (only PNG, JPEG, GIF)"] += 1
            return {}
        with image.open() as f:
            blob = f.read(b.images.limits.image_bytes + 1)
        key = f"{IMG_PREFIX}{len(b.images.images)}-{len(blob)}"
        return {"src": key} if b.images.add(key, blob) else {}

    try:
        result = mammoth.convert_to_html(io.BytesIO(copy), style_map=STYLE_MAP,
                                         convert_image=mammoth.images.img_element(convert_image))
    except BadDocumentError:
        raise
    except Exception as e:  # mammoth on a damaged document: KeyError, ValueError, zipfile errors …
        raise z.bad(f"the Word file cannot be read ({type(e).__name__}: {str(e)[:120]}). Save it again from Word "
                    "or export it as PDF.") from None

    def image(src: str):
        return b.images.images.get(src) if src.startswith(IMG_PREFIX) else None

    b.add(result.value, b.doc(image=image))
    title = meta.get("title", "")
    if not title:
        title = next((t for lvl, t, _ in b.flow.headings if lvl == 1), "") or Path(filename).stem.replace("_", " ")
    return b.build("docx", "docx", title, meta.get("language", ""))
