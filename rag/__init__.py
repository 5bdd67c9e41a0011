"""Folio's pipeline library (never imports streamlit)."""
import os

# PyMuPDF prints an advert for its layout package to stdout on the first page analysis: not ours to print
os.environ.setdefault("PYMUPDF_SUGGEST_LAYOUT_ANALYZER", "0")
