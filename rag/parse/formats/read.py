"""``read_document``: any accepted upload → the PDF the pipeline parses (a PDF passes through unchanged)."""
from __future__ import annotations

from ...errors import BadDocumentError
from ..checks import ACCEPTED, EMPTY, check_pdf_bytes
from .converted import Converted
from .sniff import sniff

__all__ = ["ACCEPTED", "precheck", "read_document"]


def precheck(data: bytes, filename: str, max_mb: int) -> tuple[str, str | None]:
    """What can be told of a file at once, before it waits its turn to be read: empty, too large, or no book file at
    all (``sniff``: a text file named .pdf, a picture, an archive) raise ``BadDocumentError``; else its format and,
    for a text format, its text (tour 42: a 48-byte text file named .pdf was refused only after the four books
    uploaded with it were ready, three minutes on)."""
    if len(data) == 0:
        raise BadDocumentError(filename, EMPTY)
    if len(data) > max_mb * 1024 * 1024:
        raise BadDocumentError(filename, f"the file is {len(data) / 2**20:.0f} MB; the limit is {max_mb} MB "
                                         "(raise RAG_MAX_UPLOAD_MB or split the book).")
    return sniff(data, filename)


def read_document(data: bytes, filename: str, max_mb: int) -> Converted:
    """Detect the format by content and convert it; raises ``BadDocumentError`` with a reason for anything
    that cannot be read (empty, too large, unknown, damaged, DRM, hostile)."""
    kind, text = precheck(data, filename, max_mb)
    if kind == "pdf":
        check_pdf_bytes(data, filename, max_mb)
        return Converted(pdf=data, source_format="pdf", extension="pdf")
    if kind == "epub":
        from .epub import read_epub

        return read_epub(data, filename)
    if kind == "docx":
        from .word import read_docx

        return read_docx(data, filename)
    if kind == "html":
        from .webpage import read_html

        return read_html(text, filename)
    if kind == "markdown":
        from .markdown import read_markdown

        return read_markdown(text, filename)
    from .plaintext import read_text

    return read_text(text, filename)
