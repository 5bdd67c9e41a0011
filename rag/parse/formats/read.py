"""``read_document``: any accepted upload → the PDF the pipeline parses (a PDF passes through unchanged)."""
from __future__ import annotations

from ...errors import BadDocumentError
from ..checks import ACCEPTED, check_pdf_bytes
from .converted import Converted
from .sniff import sniff

__all__ = ["ACCEPTED", "read_document"]


def read_document(data: bytes, filename: str, max_mb: int) -> Converted:
    """Detect the format by content and convert it; raises ``BadDocumentError`` with a reason for anything
    that cannot be read (empty, too large, unknown, damaged, DRM, hostile)."""
    if len(data) == 0:
        raise BadDocumentError(filename, "the file is empty (0 bytes). Upload it again.")
    if len(data) > max_mb * 1024 * 1024:
        raise BadDocumentError(filename, f"the file is {len(data) / 2**20:.0f} MB; the limit is {max_mb} MB "
                                         "(raise RAG_MAX_UPLOAD_MB or split the book).")
    kind, text = sniff(data, filename)
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
