"""What a file is, decided by its content: the name's extension never decides (a renamed EPUB is an EPUB).

ZIP archives are told apart by what they hold (EPUB: ``mimetype`` application/epub+zip or a
META-INF/container.xml; Word: word/document.xml); PDFs by their signature; text by decoding it (UTF-8, or
UTF-16 with a byte-order mark) and then HTML or Markdown by their markers. A text file named like a binary
document (``notes.pdf`` that holds text, often an error page saved by a failed download) is refused rather
than indexed as a book. Anything else is refused with a message that says what it looks like.
"""
from __future__ import annotations

import codecs
import io
import re
import zipfile
from pathlib import Path

from ...errors import BadDocumentError
from ..checks import ACCEPTED, _sniff

MARKDOWN_NAMES = (".md", ".markdown", ".mdown", ".mkd", ".mkdn")
HTML_NAMES = (".html", ".htm", ".xhtml", ".xht")
BINARY_NAMES = {".pdf": "a PDF", ".epub": "an EPUB", ".docx": "a Word file", ".doc": "a Word file"}
_MD_SIGNS = (re.compile(r"^#{1,6}\s+\S", re.M), re.compile(r"^```", re.M),
             re.compile(r"^\s*\|?\s*:?-{3,}:?\s*\|", re.M),
             re.compile(r"\[[^\]\n]+\]\([^)\s]+\)"), re.compile(r"^\s*[-*+]\s+\S", re.M),
             re.compile(r"(\*\*|__)\S[^\n]*?\S\1"), re.compile(r"^\S[^\n]*\n(=+|-+)\s*$", re.M))


def _zip_kind(data: bytes, filename: str) -> str:
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        names = set(zf.namelist())
        mimetype = b""
        if "mimetype" in names and zf.getinfo("mimetype").file_size <= 200:
            mimetype = zf.read("mimetype").strip()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError, RuntimeError):
        raise BadDocumentError(filename, "this is a ZIP archive (as EPUB and Word files are) but it is damaged: its "
                                         "file list cannot be read. Download or export it again.") from None
    if mimetype == b"application/epub+zip" or "META-INF/container.xml" in names:
        return "epub"
    if "word/document.xml" in names:
        return "docx"
    what = ("an Excel workbook" if "xl/workbook.xml" in names else
            "a PowerPoint presentation" if "ppt/presentation.xml" in names else
            "an OpenDocument file" if mimetype.startswith(b"application/vnd.oasis.opendocument") else
            "a ZIP archive")
    raise BadDocumentError(filename, f"this is {what}, not a book file (it looks like a ZIP/Office file). "
                                     f"Folio reads {ACCEPTED}; save or export it as one of those.")


def decode_text(data: bytes) -> str | None:
    """The text of a UTF-8 (BOM optional) or BOM-marked UTF-16 file; None when it is not text."""
    for bom, enc in ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16")):
        if data.startswith(bom):
            try:
                text = data.decode(enc)
                break
            except UnicodeDecodeError:
                return None
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return None
    sample = text[:100_000]
    bad = sum(1 for ch in sample if ord(ch) < 32 and ch not in "\t\n\r\f")
    return None if "\x00" in sample or bad > len(sample) / 100 else text


def _legacy_text(data: bytes) -> bool:
    """Bytes that read as 8-bit text: no NULs, hardly any control bytes."""
    head = data[:8192]
    return b"\0" not in head and sum(1 for c in head if c < 32 and c not in b"\t\n\r\f") <= len(head) // 200


def _looks_html(text: str) -> bool:
    head = text.lstrip()[:4096].lower()
    return head.startswith(("<!doctype html", "<html")) or (
        head.startswith(("<?xml", "<!--", "<!doctype")) and "<html" in head) or (
        head.startswith("<") and ("<body" in head or "<head" in head))


def _looks_markdown(text: str) -> bool:
    sample = text[:200_000]
    return sum(1 for rx in _MD_SIGNS if rx.search(sample)) >= 2


def sniff(data: bytes, filename: str) -> tuple[str, str | None]:
    """(kind, text): kind is "pdf", "epub", "docx", "html", "markdown" or "text"; text is the decoded text of
    the last three. Raises ``BadDocumentError`` for anything else."""
    if data.startswith(b"PK\x03\x04"):
        return _zip_kind(data, filename), None
    if data.find(b"%PDF-", 0, 1024) >= 0:
        return "pdf", None
    suffix = Path(filename).suffix.lower()
    text = decode_text(data)
    if text is None:
        what = _sniff(data)
        if data.startswith(b"\xd0\xcf\x11\xe0"):
            what = "an old Word .doc or other Office 97 file; save it as .docx or PDF"
        elif data.lstrip().startswith(b"{\\rtf"):
            what = "an RTF file; save it as .docx or PDF"
        elif what in ("a text file", "some other binary file") and _legacy_text(data):
            what = "text that is not UTF-8 (Latin-1 or Windows-1252, say); save it as UTF-8"
        raise BadDocumentError(filename, f"this is not a book file Folio can read (it looks like {what}). "
                                         f"Folio reads {ACCEPTED}.")
    kind = ("html" if _looks_html(text) else "markdown" if suffix in MARKDOWN_NAMES or _looks_markdown(text)
            else "html" if suffix in HTML_NAMES and text.lstrip().startswith("<") else "text")
    if suffix in BINARY_NAMES:
        described = {"html": "an HTML/XML file", "markdown": "a Markdown text file", "text": "a text file"}[kind]
        raise BadDocumentError(filename, f"this is not {BINARY_NAMES[suffix]} (it looks like {described}; a failed "
                                         f"download often saves an error page like this). If it really is text, "
                                         f"give it a .txt, .md or .html name and add it again. Folio reads "
                                         f"{ACCEPTED}.")
    return kind, text
