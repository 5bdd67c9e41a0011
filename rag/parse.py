"""PDF → ParsedBook with PyMuPDF: text per page (1-based number + printed label), section paths.

Checks the file first and raises ``BadDocumentError`` with a reason the user can act on
(not a PDF, damaged, password-protected, no pages, no text layer, too large).
Blocks are kept in the PDF's content order (sort=True is 10x slower on long books).
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from .errors import BadDocumentError
from .types import PAGE_SEP, Page, ParsedBook, Section

MIN_TEXT_CHARS = 20  # fewer extractable characters than this in the whole file = no text layer


def _sniff(data: bytes) -> str:
    head = data[:16]
    for magic, kind in ((b"PK\x03\x04", "a ZIP/Office file"), (b"\x89PNG", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"),
                        (b"GIF8", "a GIF image"), (b"{", "a JSON/text file"), (b"<", "an HTML/XML file")):
        if head.startswith(magic):
            return kind
    try:
        data[:512].decode("utf-8")
        return "a text file"
    except UnicodeDecodeError:
        return "some other binary file"


def check_pdf_bytes(data: bytes, filename: str, max_mb: int) -> None:
    """Cheap checks before opening: size, emptiness, PDF signature."""
    if len(data) == 0:
        raise BadDocumentError(filename, "the file is empty (0 bytes). Upload the PDF again.")
    if len(data) > max_mb * 1024 * 1024:
        raise BadDocumentError(filename, f"the file is {len(data) / 2**20:.0f} MB; the limit is {max_mb} MB "
                                         "(raise RAG_MAX_UPLOAD_MB or split the PDF).")
    if b"%PDF-" not in data[:1024]:
        raise BadDocumentError(filename, f"this is not a PDF (it looks like {_sniff(data)}). Only PDF files can be added.")


def _open(data: bytes, filename: str):
    import pymupdf

    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception as e:  # PyMuPDF raises FileDataError / RuntimeError on damaged files
        raise BadDocumentError(filename, f"the PDF is damaged and cannot be read ({type(e).__name__}). "
                                         "Re-export or repair it and upload again.") from None
    if doc.needs_pass:
        raise BadDocumentError(filename, "the PDF is password-protected. Remove the password (e.g. print to PDF) and upload again.")
    if doc.page_count == 0:
        raise BadDocumentError(filename, "the PDF has no readable pages (it may be damaged). Re-export it and upload again.")
    return doc


def _page_text(page) -> tuple[str, list[tuple[int, str, float, bool]]]:
    """Page text (blocks joined by blank lines) and candidate heading lines (offset, text, size, bold)."""
    import pymupdf

    flags = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_PRESERVE_LIGATURES | pymupdf.TEXT_MEDIABOX_CLIP | pymupdf.TEXT_DEHYPHENATE
    d = page.get_text("dict", flags=flags)
    parts: list[str] = []
    lines_info: list[tuple[int, str, float, bool]] = []
    pos = 0
    for block in d["blocks"]:
        if block.get("type") != 0:
            continue
        block_lines = []
        for line in block["lines"]:
            spans = line["spans"]
            text = "".join(s["text"] for s in spans).rstrip()
            if not text.strip():
                continue
            size = max(s["size"] for s in spans)
            bold = all((s["flags"] & 16) or "Bold" in s["font"] for s in spans if s["text"].strip())
            block_lines.append((text, size, bold, len(block["lines"])))
        if not block_lines:
            continue
        btext = "\n".join(t for t, *_ in block_lines)
        if parts:
            pos += len(PAGE_SEP)
        line_pos = pos
        for t, size, bold, n in block_lines:
            if n <= 3:
                lines_info.append((line_pos, t, size, bold))
            line_pos += len(t) + 1
        parts.append(btext)
        pos += len(btext)
    text = PAGE_SEP.join(parts)
    return text, lines_info


def _sections_from_toc(toc, pages: list[Page], total: int) -> list[Section]:
    marks: list[tuple[int, int, str]] = []  # (offset, level, title)
    for level, title, pno in toc:
        if not (1 <= pno <= len(pages)):
            continue
        page = pages[pno - 1]
        title = " ".join(str(title).split())
        words = title.split()
        m = re.search(r"\s+".join(re.escape(w) for w in words), page.text, re.I) if words else None
        marks.append((page.offset + (m.start() if m else 0), level, title))
    return _sections_from_marks(marks, total)


def _sections_from_marks(marks: list[tuple[int, int, str]], total: int) -> list[Section]:
    marks.sort(key=lambda m: m[0])
    sections: list[Section] = []
    stack: list[tuple[int, str]] = []
    for i, (off, level, title) in enumerate(marks):
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        end = marks[i + 1][0] if i + 1 < len(marks) else total
        if sections and sections[-1].start == off:
            sections[-1] = Section(" > ".join(t for _, t in stack), off, end)
            continue
        sections.append(Section(" > ".join(t for _, t in stack), off, end))
    if not sections or sections[0].start > 0:
        sections.insert(0, Section("", 0, sections[0].start if sections else total))
    return [s for s in sections if s.end > s.start]


def _sections_from_fonts(candidates: list[tuple[int, str, float, bool]], body_size: float, total: int) -> list[Section]:
    heads = [(off, t.strip(), size) for off, t, size, bold in candidates
             if 2 < len(t.strip()) <= 90 and (size >= body_size * 1.15 or (bold and size >= body_size * 1.05))
             and re.search(r"[A-Za-zÀ-ỹ]", t)]
    sizes = sorted({round(s, 1) for _, _, s in heads}, reverse=True)[:3]
    level = {s: i + 1 for i, s in enumerate(sizes)}
    marks = [(off, level.get(round(s, 1), 3), t) for off, t, s in heads]
    return _sections_from_marks(marks, total)


def parse_pdf(data: bytes, filename: str, max_mb: int = 200) -> ParsedBook:
    check_pdf_bytes(data, filename, max_mb)
    doc = _open(data, filename)
    try:
        pages: list[Page] = []
        candidates: list[tuple[int, str, float, bool]] = []
        offset = 0
        for i, page in enumerate(doc):
            try:
                text, lines = _page_text(page)
                label = page.get_label() or str(i + 1)
            except Exception:  # one damaged page must not lose the book
                text, lines, label = "", [], str(i + 1)
            pages.append(Page(number=i + 1, label=label, text=text, offset=offset))
            for off, t, size, bold in lines:
                candidates.append((offset + off, t, size, bold))
            offset += len(text) + len(PAGE_SEP)
        total_chars = sum(len(p.text.strip()) for p in pages)
        if total_chars < MIN_TEXT_CHARS:
            has_images = any(doc[i].get_images() for i in range(min(doc.page_count, 20)))
            if has_images:
                raise BadDocumentError(filename, "the PDF has no text layer (its pages are scanned images). "
                                                 "Run OCR on it first (for example `ocrmypdf in.pdf out.pdf`) and upload the result.")
            raise BadDocumentError(filename, "the PDF contains no extractable text.")
        total = offset - len(PAGE_SEP)
        toc = doc.get_toc(simple=True)
        if len(toc) >= 2:
            sections = _sections_from_toc(toc, pages, total)
        else:
            body = _body_size(doc)
            sections = _sections_from_fonts(candidates, body, total)
        meta_title = (doc.metadata or {}).get("title", "").strip()
        title = meta_title if _good_title(meta_title) else _title_from_first_pages(candidates, pages, filename)
        return ParsedBook(title=title, pages=pages, sections=sections, page_count=doc.page_count)
    finally:
        doc.close()


def _body_size(doc) -> float:
    """Most common font size by characters over (up to) 30 pages."""
    sizes: Counter = Counter()
    for i in range(min(doc.page_count, 30)):
        for block in doc[i].get_text("dict")["blocks"]:
            for line in block.get("lines", []):
                for s in line["spans"]:
                    sizes[round(s["size"], 1)] += len(s["text"])
    return sizes.most_common(1)[0][0] if sizes else 10.0


def _title_from_first_pages(candidates, pages: list[Page], filename: str) -> str:
    """Largest-font short line on the first two pages, else the file name."""
    limit = pages[2].offset if len(pages) > 2 else 10**12
    first = [(size, t.strip()) for off, t, size, _ in candidates if off < limit and 3 < len(t.strip()) <= 80]
    if first:
        return max(first, key=lambda x: x[0])[1]
    return Path(filename).stem.replace("_", " ")


def _good_title(t: str) -> bool:
    return bool(t) and len(t) > 3 and not re.fullmatch(r"(untitled|microsoft word.*|.*\.(docx?|pdf|tex))", t, re.I)


def parse_file(path: str | Path, max_mb: int = 200) -> ParsedBook:
    p = Path(path)
    return parse_pdf(p.read_bytes(), p.name, max_mb)
