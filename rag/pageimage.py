"""A book page rendered to PNG (PyMuPDF pixmap) with passages highlighted, cached under data/pages/.

Highlights come from the line boxes stored with each page (``Page.lines``): a span of the page
text maps to the boxes of its lines, so what is highlighted is exactly the chunk's text. A
quoted sentence is located in the page text (whitespace-insensitive) and highlighted stronger.
"""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

from .types import Page

CHUNK_COLOUR = (1.0, 0.93, 0.35)  # soft yellow: the matching chunk
QUOTE_COLOUR = (1.0, 0.62, 0.1)  # orange: the sentence the answer quotes
CROP_MARGIN = 48.0  # points above and below the highlighted lines in a cropped view


def locate(page: Page, sentence: str) -> tuple[int, int] | None:
    """Page-local span of ``sentence`` in the page text, ignoring whitespace differences."""
    words = sentence.split()
    if not words:
        return None
    pattern = r"\s+".join(re.escape(w) for w in words)
    m = re.search(pattern, page.text)
    return (m.start(), m.end()) if m else None


def render_page(pdf: Path, page: Page, spans: list[tuple[int, int]], quotes: list[tuple[int, int]], out_dir: Path,
                zoom: float = 1.5, crop: bool = True) -> Path:
    """PNG of ``page`` with page-local ``spans`` (chunk) and ``quotes`` (sentences) highlighted;
    ``crop`` keeps the band around the highlights (full width). Cached by its inputs."""
    key = hashlib.sha1(repr((page.number, spans, quotes, zoom, crop)).encode()).hexdigest()[:16]
    out = out_dir / f"p{page.number}-{key}.png"
    if out.exists():
        return out
    import pymupdf

    out_dir.mkdir(parents=True, exist_ok=True)
    doc = pymupdf.open(pdf)
    try:
        p = doc[page.number - 1]
        boxes = [(b, CHUNK_COLOUR) for s, e in spans for b in page.boxes(s, e)]
        boxes += [(b, QUOTE_COLOUR) for s, e in quotes for b in page.boxes(s, e)]
        for box, colour in boxes:
            p.draw_rect(pymupdf.Rect(box) + (-1, -1, 1, 1), color=None, fill=colour, fill_opacity=0.35, overlay=True)
        clip = p.rect
        if crop and boxes:
            y0 = min(b[1] for b, _ in boxes) - CROP_MARGIN
            y1 = max(b[3] for b, _ in boxes) + CROP_MARGIN
            clip = pymupdf.Rect(p.rect.x0, max(p.rect.y0, y0), p.rect.x1, min(p.rect.y1, y1))
        pix = p.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), clip=clip, alpha=False)
        tmp = out.with_suffix(".tmp")
        pix.save(str(tmp), output="png")
        tmp.replace(out)
    finally:
        doc.close()
    return out
