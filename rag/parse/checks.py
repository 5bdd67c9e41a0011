"""Is it a readable PDF? Cheap byte checks before opening, opening with MuPDF's own messages captured,
and the share of a page's text that is unmapped glyphs. Each refusal is a ``BadDocumentError`` saying why
and what to do."""
from __future__ import annotations

import re

from ..errors import BadDocumentError

ACCEPTED = "PDF, EPUB, Word (.docx), HTML, Markdown and plain-text (UTF-8) files"  # what an upload may be
# files that start like these are something else, even with "%PDF-" a few bytes in (a PDF stored in them);
# real PDFs only have a little junk (whitespace, a mail header, a BOM) before their signature
CONTAINERS = ("a ZIP/Office file", "a gzip archive", "a 7-Zip archive", "a RAR archive", "a PNG image", "a JPEG image",
              "a GIF image", "a TAR archive")


def _sniff(data: bytes) -> str:
    if data[257:262] == b"ustar":
        return "a TAR archive"
    head = data[:16]
    for magic, kind in (
        (b"PK\x03\x04", "a ZIP/Office file"),
        (b"\x89PNG", "a PNG image"),
        (b"\xff\xd8\xff", "a JPEG image"),
        (b"GIF8", "a GIF image"),
        (b"\x1f\x8b", "a gzip archive"),
        (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
        (b"Rar!", "a RAR archive"),
        (b"{", "a JSON/text file"),
        (b"<", "an HTML/XML file"),
    ):
        if head.startswith(magic):
            return kind
    try:
        data[:512].decode("utf-8")
        return "a text file"
    except UnicodeDecodeError:
        return "some other binary file"


EMPTY = ("the file is empty (0 bytes): there is nothing in it to read. If the file on your computer is not empty, "
         "the upload was cut off: add it again.")


def check_pdf_bytes(data: bytes, filename: str, max_mb: int) -> None:
    """Cheap checks before opening: size, emptiness, PDF signature."""
    if len(data) == 0:
        raise BadDocumentError(filename, EMPTY)
    if len(data) > max_mb * 1024 * 1024:
        raise BadDocumentError(filename, f"the file is {len(data) / 2**20:.0f} MB; the limit is {max_mb} MB "
                                         "(raise RAG_MAX_UPLOAD_MB or split the PDF).")
    at = data.find(b"%PDF-", 0, 1024)
    if at < 0:
        raise BadDocumentError(filename, f"this is not a PDF (it looks like {_sniff(data)}). Folio reads {ACCEPTED}.")
    if at > 0 and _sniff(data) in CONTAINERS:  # e.g. a ZIP that stores a PDF uncompressed: a PDF only inside it
        raise BadDocumentError(filename, f"this is {_sniff(data)} with a PDF inside, not a PDF. Unpack it and add "
                                         "the PDF itself.")


UNMAPPED_SHARE = 0.1  # a page whose visible characters are this much U+FFFD / control characters is unreadable


def _bad(ch: str) -> bool:
    return ch == "\ufffd" or ord(ch) < 32 and not ch.isspace()


GLYPH_LINE = 3  # a line of at most this many visible characters, all without Unicode, is a symbol, not text


def unmapped_line(line: str) -> bool:
    """A line whose every visible character is a glyph without Unicode (a music font's notes and clefs)."""
    vis = [ch for ch in line if not ch.isspace()]
    return bool(vis) and all(_bad(ch) for ch in vis)


def symbol_line(line: str) -> bool:
    """A line of at most ``GLYPH_LINE`` glyphs, none of them with Unicode: a symbol set on its own (a note of
    music notation, a formula's sign), not text."""
    return unmapped_line(line) and len("".join(line.split())) <= GLYPH_LINE


SYMBOLS_BESIDE = 100  # symbol lines are set aside only on a page with this much other text


def unmapped_share(text: str) -> float:
    """Share of a page's visible characters that are not text: U+FFFD (MuPDF's "no Unicode for this glyph")
    or control characters (raw glyph ids). Real text has next to none (private-use symbols such as Symbol-font
    bullets are real glyphs and count as text). Lines of a few such glyphs alone are symbols set one by one —
    notes of music notation, a formula's signs — not a font that lost its text: on a page with text besides
    (``SYMBOLS_BESIDE`` characters) they do not count, so a music book's page keeps its own text instead of being
    read by OCR; a page of nothing but short unmapped lines (a table of numbers in such a font) still is."""
    every: list[str] = []
    chars: list[str] = []
    for line in text.split("\n"):
        vis = [ch for ch in line if not ch.isspace()]
        every += vis
        if not symbol_line(line):
            chars += vis
    if len(chars) < SYMBOLS_BESIDE:
        chars = every
    if len(chars) < 20:
        return 0.0
    return sum(1 for ch in chars if _bad(ch)) / len(chars)


def quiet_mupdf():
    """MuPDF's own error/warning lines go to its message store, not to stdout (thousands on a bad
    file); ``parse_pdf`` reads them back with ``mupdf_messages``."""
    import pymupdf

    pymupdf.TOOLS.mupdf_display_errors(False)
    pymupdf.TOOLS.mupdf_display_warnings(False)
    pymupdf.TOOLS.reset_mupdf_warnings()


def mupdf_messages() -> tuple[int, list[str]]:
    """How many problems MuPDF logged since ``quiet_mupdf`` (errors, repairs, missing objects — not its
    font-metric notes, which good files have too), and the first few distinct ones."""
    import pymupdf

    lines = [ln for ln in pymupdf.TOOLS.mupdf_warnings(reset=True).splitlines()
             if re.search(r"error|cannot|repair|fail|broken|missing|incorrect|premature", ln, re.I)]
    return len(lines), list(dict.fromkeys(lines))[:3]


# PDF syntax that only a (partial) revision of the file has: after the last end marker it means the file was cut
# inside an appended revision (or after a linearized file's first-page section), not that junk was appended
_PDF_SYNTAX = re.compile(rb"\b\d+\s+\d+\s+obj\b|\bstartxref\s+\d|\btrailer\s*<<|\bxref\s+\d+\s+\d")


def truncated(data: bytes) -> bool:
    """Does the file end before its end marker? ``%%EOF`` near the end, or followed only by bytes that are no PDF
    syntax (junk a mailer, a download manager or a disk image appended, which readers ignore), means complete."""
    at = data.rfind(b"%%EOF")
    if at < 0:
        return True
    tail = data[at + 5:]
    return len(tail) > 4096 and _PDF_SYNTAX.search(tail) is not None


def open_pdf(data: bytes, filename: str):
    import pymupdf

    quiet_mupdf()
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception:  # PyMuPDF raises FileDataError / RuntimeError on damaged files (its name is no help to a reader)
        if truncated(data):  # tour 42: a PDF cut at 200 KB had read "damaged and cannot be read (FileDataError)"
            raise BadDocumentError(filename, f"the PDF is incomplete (truncated: the file ends without its end "
                                             f"marker, after {len(data) / 1024:.0f} KB) and cannot be read. Download "
                                             "or copy it again and upload the complete file.") from None
        raise BadDocumentError(filename, "the PDF is damaged and cannot be read. Export it again, or repair it, and "
                                         "upload again.") from None
    if doc.needs_pass:
        raise BadDocumentError(filename, "the PDF is password-protected. Remove the password (e.g. print to PDF) and "
                                         "upload again.")
    if doc.page_count == 0:
        raise BadDocumentError(filename, "the PDF has no readable pages (it may be damaged). Re-export it and upload "
                                         "again.")
    if doc.is_repaired and truncated(data):
        # cut off: no end marker, and MuPDF had to rebuild the file from what is left — it would open as a
        # silently shorter book (a 12-page file cut at 10 % reads as 12 pages with one paragraph)
        raise BadDocumentError(filename, f"the PDF is incomplete (truncated: the file ends without its end marker, "
                                         f"after {len(data) / 1024:.0f} KB). Download or copy it again and upload "
                                         "the complete file.")
    return doc
