"""PDF → ParsedBook (PyMuPDF): checks for bad input, page text with line boxes, sections, figures.

- ``document``: checks, page text in blocks with line boxes, printed labels, section paths
- ``figures``: raster images and vector diagrams on a page, decorations skipped, PNG rendering
- ``captions``: caption and reference patterns (English, German, Vietnamese)
"""
from .document import MIN_TEXT_CHARS, check_pdf_bytes, parse_file, parse_pdf

__all__ = ["MIN_TEXT_CHARS", "check_pdf_bytes", "parse_file", "parse_pdf"]
