"""PDF → ParsedBook with PyMuPDF: text per page (1-based number + printed label), section paths.

Checks the file first and raises ``BadDocumentError`` with a reason the user can act on
(not a PDF, damaged, password-protected, no pages, no text layer, too large).
Blocks are kept in the PDF's content order (sort=True is 10x slower on long books). Each line keeps its box
(``Page.lines``) for highlighting; lines inside a figure are its labels, not running text.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

from ..errors import BadDocumentError
from ..types import LINE_FURNITURE, PAGE_SEP, Figure, Page, ParsedBook, Section
from . import columns, furniture, ocr, tables
from .figures import MAX_FIGURES_PER_BOOK, FigureReport, PageFigure, find_regions, render, repeated_images, resolve

MIN_TEXT_CHARS = 20  # fewer extractable characters than this in the whole file = no text layer


# files that start like these are something else, even with "%PDF-" a few bytes in (a PDF stored in them);
# real PDFs only have a little junk (whitespace, a mail header, a BOM) before their signature
CONTAINERS = ("a ZIP/Office file", "a gzip archive", "a 7-Zip archive", "a RAR archive", "a PNG image", "a JPEG image",
              "a GIF image", "a TAR archive")


def _sniff(data: bytes) -> str:
    if data[257:262] == b"ustar":
        return "a TAR archive"
    head = data[:16]
    for magic, kind in ((b"PK\x03\x04", "a ZIP/Office file"), (b"\x89PNG", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"),
                        (b"GIF8", "a GIF image"),
                        (b"\x1f\x8b", "a gzip archive"), (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"), (b"Rar!", "a RAR archive"), (b"{", "a JSON/text file"), (b"<", "an HTML/XML file")):
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
    at = data.find(b"%PDF-", 0, 1024)
    if at < 0:
        raise BadDocumentError(filename, f"this is not a PDF (it looks like {_sniff(data)}). Only PDF files can be added.")
    if at > 0 and _sniff(data) in CONTAINERS:  # e.g. a ZIP that stores a PDF uncompressed: a PDF only inside it
        raise BadDocumentError(filename, f"this is {_sniff(data)} with a PDF inside, not a PDF. Unpack it and add "
                                         "the PDF itself.")


UNMAPPED_SHARE = 0.1  # a page whose visible characters are this much U+FFFD / control characters is unreadable


def unmapped_share(text: str) -> float:
    """Share of a page's visible characters that are not text: U+FFFD (MuPDF's "no Unicode for this glyph")
    or control characters (raw glyph ids). Real text has next to none (private-use symbols such as Symbol-font
    bullets are real glyphs and count as text)."""
    chars = [ch for ch in text if not ch.isspace()]
    if len(chars) < 20:
        return 0.0
    bad = sum(1 for ch in chars if ch == "\ufffd" or ord(ch) < 32)
    return bad / len(chars)


def _quiet_mupdf():
    """MuPDF's own error/warning lines go to its message store, not to stdout (thousands on a bad
    file); ``parse_pdf`` reads them back with ``_mupdf_messages``."""
    import pymupdf

    pymupdf.TOOLS.mupdf_display_errors(False)
    pymupdf.TOOLS.mupdf_display_warnings(False)
    pymupdf.TOOLS.reset_mupdf_warnings()


def _mupdf_messages() -> tuple[int, list[str]]:
    """How many problems MuPDF logged since ``_quiet_mupdf`` (errors, repairs, missing objects — not its
    font-metric notes, which good files have too), and the first few distinct ones."""
    import pymupdf

    lines = [ln for ln in pymupdf.TOOLS.mupdf_warnings(reset=True).splitlines()
             if re.search(r"error|cannot|repair|fail|broken|missing|incorrect|premature", ln, re.I)]
    return len(lines), list(dict.fromkeys(lines))[:3]


def _open(data: bytes, filename: str):
    import pymupdf

    _quiet_mupdf()
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception as e:  # PyMuPDF raises FileDataError / RuntimeError on damaged files
        raise BadDocumentError(filename, f"the PDF is damaged and cannot be read ({type(e).__name__}). "
                                         "Re-export or repair it and upload again.") from None
    if doc.needs_pass:
        raise BadDocumentError(filename, "the PDF is password-protected. Remove the password (e.g. print to PDF) and upload again.")
    if doc.page_count == 0:
        raise BadDocumentError(filename, "the PDF has no readable pages (it may be damaged). Re-export it and upload again.")
    if doc.is_repaired and b"%%EOF" not in data[-4096:]:
        # cut off: no end marker, and MuPDF had to rebuild the file from what is left — it would open as a
        # silently shorter book (a 12-page file cut at 10 % reads as 12 pages with one paragraph)
        raise BadDocumentError(filename, f"the PDF is incomplete (truncated: the file ends without its end marker, "
                                         f"after {len(data) / 1024:.0f} KB). Download or copy it again and upload "
                                         "the complete file.")
    return doc


def _text_blocks(page) -> list[dict]:
    import pymupdf

    flags = (pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_PRESERVE_LIGATURES | pymupdf.TEXT_MEDIABOX_CLIP
             | pymupdf.TEXT_DEHYPHENATE)
    blocks = [b for b in page.get_text("dict", flags=flags)["blocks"] if b.get("type") == 0]
    return columns.reading_order(blocks, page.rect.width)


def _page_text(blocks: list[dict], exclude: set = frozenset()):
    """Page text (blocks joined by blank lines, lines by newlines) without the ``exclude``d
    (block, line) pairs (figure labels). Also returns heading candidates (offset, text, size,
    bold), line boxes (start, end, x0, y0, x1, y1) and each kept block's (offset, bbox)."""
    parts: list[str] = []
    lines_info: list[tuple[int, str, float, bool]] = []
    boxes: list[tuple] = []
    block_at: dict[int, tuple[int, tuple]] = {}
    pos = 0
    for bi, block in enumerate(blocks):
        block_lines = []
        for li, line in enumerate(block["lines"]):
            if (bi, li) in exclude:
                continue
            spans = line["spans"]
            text = "".join(s["text"] for s in spans).rstrip()
            if not text.strip():
                continue
            size = max(s["size"] for s in spans)
            bold = all((s["flags"] & 16) or "Bold" in s["font"] for s in spans if s["text"].strip())
            mono = all((s["flags"] & 8) or MONO_FONT.search(s["font"]) for s in spans if s["text"].strip())
            kind = LINE_TABLE if block.get("table") else LINE_CODE if mono else LINE_TEXT
            block_lines.append((text, size, bold, len(block["lines"]), line["bbox"], kind))
        if not block_lines:
            continue
        btext = "\n".join(t for t, *_ in block_lines)
        if parts:
            pos += len(PAGE_SEP)
        block_at[bi] = (pos, tuple(block["bbox"]))
        line_pos = pos
        for t, size, bold, n, bbox, kind in block_lines:
            if n <= 3 and kind != LINE_TABLE:
                lines_info.append((line_pos, t, size, bold))
            boxes.append((line_pos, line_pos + len(t), *(round(v, 1) for v in bbox), kind))
            line_pos += len(t) + 1
        parts.append(btext)
        pos += len(btext)
    return PAGE_SEP.join(parts), lines_info, tuple(_mark_table_rows(boxes)), block_at


LINE_TEXT, LINE_CODE, LINE_TABLE = 0, 1, 2  # the 7th value of a line box (3: furniture, see furniture.py)
MONO_FONT = re.compile(r"mono|courier|consola|menlo|monaco|inconsolata|code|typewriter|cmtt|lucidaconsole|fixed", re.I)


TABLE_CAPTION = re.compile(r"^\s*(table|tab\.|tabelle|tableau|tabla|tabella|bảng)\s*[\dIVX]", re.I)


def _with_tables(blocks: list[dict], found: list) -> list[dict]:
    """Blocks with each table's lines replaced by one block of Markdown rows (``"table": True``) where
    the table began; a caption line right above the table ("Table 3 …") moves into that block."""
    def inside(bbox, t) -> bool:
        cx, cy = (bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2
        return t.bbox[0] - 1 <= cx <= t.bbox[2] + 1 and t.bbox[1] - 1 <= cy <= t.bbox[3] + 1

    out: list[dict] = []
    placed: dict[int, dict] = {}
    for block in blocks:
        kept = []
        for line in block["lines"]:
            t = next((k for k, t in enumerate(found) if inside(line["bbox"], t)), None)
            if t is None:
                kept.append(line)
            elif t not in placed:
                placed[t] = _table_block(found[t])
                out.append(placed[t])
        if kept:
            out.append({**block, "lines": kept})
    for k, tb in placed.items():  # the caption just above the table, when it is the last line of its block
        i = out.index(tb)
        prev = out[i - 1] if i else None
        if prev and not prev.get("table") and TABLE_CAPTION.match(_line_text(prev["lines"][0])) \
                and 0 <= found[k].bbox[1] - prev["bbox"][3] <= 40:
            tb["lines"] = prev["lines"] + tb["lines"]
            del out[i - 1]
    return out


def _line_text(line: dict) -> str:
    return "".join(s["text"] for s in line["spans"])


def _table_block(t) -> dict:
    rows = t.markdown()
    boxes = t.row_boxes or [t.bbox] * len(t.rows)
    boxes = boxes[:1] + boxes[:1] + boxes[1:]  # the separator line under the header sits on the header row
    lines = [{"bbox": tuple(b), "spans": [{"text": r, "size": 0.0, "flags": 0, "font": "table"}]}
             for r, b in zip(rows, boxes)]
    return {"type": 0, "bbox": tuple(t.bbox), "lines": lines, "table": True}


def _mark_furniture(pages: list[Page], heights: list[float]) -> list[Page]:
    """Running headers, footers and page numbers get line kind LINE_FURNITURE (kept in the page text)."""
    found = furniture.find([(p.label, p.number, p.text, p.lines, h) for p, h in zip(pages, heights)])
    return [replace(p, lines=tuple((*ln[:6], LINE_FURNITURE) if i in f else ln for i, ln in enumerate(p.lines)))
            if f else p for p, f in zip(pages, found)]


def _mark_table_rows(boxes: list[tuple]) -> list[tuple]:
    """Lines that sit side by side with other short lines on the same baseline, two rows or more in a
    row, are table cells (a two-column page has long lines side by side, so it is not taken)."""
    rows: dict[int, list[int]] = {}
    for i, b in enumerate(boxes):
        rows.setdefault(round((b[3] + b[5]) / 4), []).append(i)  # y centre in 2-pt bands
    cells = {i for ids in rows.values() if len(ids) >= 2 and all(boxes[i][1] - boxes[i][0] <= 40 for i in ids)
             for i in ids}
    bands = sorted(k for k, ids in rows.items() if ids[0] in cells)
    keep = {k for k in bands if any(0 < abs(k - o) <= 12 for o in bands)}
    table = {i for k in keep for i in rows[k]}
    return [(*b[:6], LINE_TABLE) if i in table and b[6] == LINE_TEXT else b for i, b in enumerate(boxes)]


def _near_text(text: str, block_at: dict, rect, skip: int, limit: int = 500) -> tuple[int, str]:
    """The page-local offset of the text block nearest below (else above) a figure, and the text
    of the (up to) two nearest blocks: what surrounds the figure on its page."""
    near = []
    for bi, (off, bb) in block_at.items():
        if bi == skip:
            continue
        gap = bb[1] - rect.y1 if bb[1] >= rect.y1 - 3 else rect.y0 - bb[3]
        if gap > -3:
            near.append((max(gap, 0.0), bb[1] < rect.y0, bi, off))
    near.sort()
    anchor = near[0][3] if near else 0
    ctx = []
    for _, _, bi, off in near[:2]:
        nxt = min((o for o, _ in block_at.values() if o > off), default=len(text))
        ctx.append(" ".join(text[off:nxt].split()))
    return anchor, " ".join(ctx)[:limit]


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


def _image_infos(page) -> list[dict]:
    try:
        return page.get_image_info(xrefs=True)
    except Exception:  # broken image resources: the page's text still counts
        return []


SCAN_SHARE = 0.3  # a page without text whose images cover this much of it is a scanned page


def _scanned(page, infos: list[dict]) -> bool:
    import pymupdf

    area = abs(page.rect) or 1.0
    return sum(abs(pymupdf.Rect(i["bbox"]) & page.rect) for i in infos) >= SCAN_SHARE * area


class _OcrReader:
    """OCR for the pages that need it, in one language per book: the ``language`` setting, else the
    language of the book's text pages, else what the first OCR'd page reads as (re-read when not English)."""

    def __init__(self, doc, language: str, enabled: bool, progress):
        self.doc, self.language, self.enabled, self.progress = doc, language, enabled, progress
        self.confidence: dict[int, float] = {}  # page number → mean word confidence
        self.missed: list[int] = []  # scanned pages left unread (no Tesseract, or it failed)
        self.problem = ""

    def _book_language(self) -> str:
        from ..lang import detect

        n = self.doc.page_count
        sample = " ".join(self.doc[i].get_text() for i in range(0, n, max(1, n // 20)))
        return detect(sample) if len(sample.strip()) >= 500 else ""

    def read(self, page, number: int, total: int):
        """The page's text blocks read by Tesseract, or None (the page stays empty; said in the report)."""
        if not self.enabled or not ocr.available():
            self.missed.append(number)
            self.problem = self.problem or ("OCR is off (RAG_OCR=false)" if not self.enabled else
                                            "Tesseract is not installed")
            return None
        self.progress(number, total, f"Reading scanned page {number} of {total} with OCR")
        try:
            if not self.language:
                self.language = self._book_language()
            got = ocr.ocr_page(page, self.language or "en")
            if not self.language:  # nothing to go by but this page: read it again if it is not English
                from ..lang import detect

                self.language = detect(" ".join(ln["spans"][0]["text"] for b in got.blocks for ln in b["lines"]))
                if ocr.tess_language(self.language) != got.language:
                    got = ocr.ocr_page(page, self.language)
        except ocr.OcrError as e:
            self.missed.append(number)
            self.problem = self.problem or str(e)
            return None
        self.confidence[number] = got.confidence
        return got.blocks


def _mostly_in(rect, bbox) -> bool:
    """Half or more of ``rect`` lies in ``bbox`` (a table's rules are not a figure)."""
    import pymupdf

    r = pymupdf.Rect(rect)
    return abs(r & pymupdf.Rect(bbox)) >= 0.5 * (abs(r) or 1)


def _no_progress(done: int, total: int, note: str) -> None:
    pass


def parse_pdf(data: bytes, filename: str, max_mb: int = 200, extract_figures: bool = True, language: str = "",
              use_ocr: bool = True, progress=_no_progress, find_tables: bool = True) -> ParsedBook:
    """``language`` (a ``rag.lang`` code, empty = detect) picks the OCR language; ``use_ocr`` False leaves
    scanned pages unread; ``progress(page, pages, note)`` is called before each OCR'd page."""
    check_pdf_bytes(data, filename, max_mb)
    doc = _open(data, filename)
    try:
        reader = _OcrReader(doc, language, use_ocr, progress)
        n_tables = 0
        pages: list[Page] = []
        candidates: list[tuple[int, str, float, bool]] = []
        report = FigureReport()
        figures: list[Figure] = []
        images: list[bytes] = []
        infos = [_image_infos(page) for page in doc]
        last: tuple[PageFigure, Figure] | None = None  # the latest figure kept, and its draft
        repeated = repeated_images(infos)
        offset = 0
        heights: list[float] = []
        unmapped: list[int] = []  # pages whose fonts have no Unicode mapping
        for i, page in enumerate(doc):
            found: list[PageFigure] = []
            try:
                blocks = _text_blocks(page)
                label = page.get_label() or str(i + 1)
                page_tables = tables.find(page) if find_tables else []
                if page_tables:
                    blocks = _with_tables(blocks, page_tables)
                    n_tables += len(page_tables)
                if extract_figures and len(figures) < MAX_FIGURES_PER_BOOK:
                    prev = last if last and last[1].page == i and not last[1].caption else None
                    found = resolve(page, find_regions(page, infos[i], repeated, report), blocks, report,
                                    prev[0] if prev else None)
                    found = [f for f in found if not any(_mostly_in(f.rect, t.bbox) for t in page_tables)]
                    if prev and prev[0].caption:  # its caption opens this page
                        prev[1].caption, prev[1].ref = prev[0].caption, prev[0].ref
                        report.captioned += 1
                exclude = set().union(*(f.label_lines for f in found if not f.text_kept))
                text, lines, boxes, block_at = _page_text(blocks, exclude)
            except Exception:  # one damaged page must not lose the book
                text, lines, boxes, block_at, label, found = "", [], (), {}, str(i + 1), []
                report.skipped["unreadable page"] += 1
            bad_fonts = unmapped_share(text) >= UNMAPPED_SHARE
            if bad_fonts or (len(text.strip()) < MIN_TEXT_CHARS and _scanned(page, infos[i])):
                # glyphs without Unicode, or a scanned image: read by OCR, else left empty (said in the report)
                text, lines, boxes, block_at, found = "", [], (), {}, []
                scanned = reader.read(page, i + 1, doc.page_count)
                if scanned is not None:  # OCR'd lines have no real font sizes: no heading candidates
                    text, _, boxes, block_at = _page_text(scanned)
                elif bad_fonts:
                    unmapped.append(i + 1)
            pages.append(Page(number=i + 1, label=label, text=text, offset=offset, lines=boxes,
                              ocr=reader.confidence.get(i + 1, -1.0)))
            heights.append(page.rect.height)
            for f in found:
                if len(figures) >= MAX_FIGURES_PER_BOOK:
                    report.skipped["over the per-book limit"] += 1
                    continue
                if not render(page, f, report):
                    continue
                anchor, context = _near_text(text, block_at, f.rect, f.caption_block)
                if f.caption_block in block_at:
                    anchor = block_at[f.caption_block][0]
                figures.append(Figure(book_id="", index=len(figures), page=i + 1, page_label=label,
                                      bbox=tuple(round(v, 1) for v in f.rect), kind=f.kind, caption=f.caption,
                                      ref=f.ref, labels=f.labels, context=context, anchor=offset + anchor,
                                      width=f.width, height=f.height))
                images.append(f.png)
                last = (f, figures[-1])
                report.found += 1
                report.raster += f.kind == "raster"
                report.vector += f.kind == "vector"
                report.captioned += bool(f.caption)
            for off, t, size, bold in lines:
                candidates.append((offset + off, t, size, bold))
            offset += len(text) + len(PAGE_SEP)
        total_chars = sum(len(p.text.strip()) for p in pages)
        if total_chars < MIN_TEXT_CHARS and unmapped:
            raise BadDocumentError(filename, "the PDF's fonts have no Unicode mapping, so its text comes out as "
                                             f"unreadable symbols (�), and {reader.problem or 'OCR found no text'}. "
                                             f"To read it, {ocr.INSTALL_HINT.replace('ocrmypdf in', 'ocrmypdf --force-ocr in')}.")
        if total_chars < MIN_TEXT_CHARS:
            if reader.missed:
                raise BadDocumentError(filename, f"the PDF has no text layer (its pages are scanned images) and "
                                                 f"{reader.problem}. To read it, {ocr.INSTALL_HINT}.")
            if reader.confidence:
                raise BadDocumentError(filename, "the PDF has no text layer and OCR found no readable text on its "
                                                 f"{len(reader.confidence)} scanned page(s).")
            if any(doc[i].get_images() for i in range(min(doc.page_count, 20))):
                raise BadDocumentError(filename, "the PDF has no text layer: its pages hold only pictures, without "
                                                 "text to read.")
            raise BadDocumentError(filename, "the PDF contains no extractable text.")
        pages = _mark_furniture(pages, heights)
        total = offset - len(PAGE_SEP)
        toc = doc.get_toc(simple=True)
        if len(toc) >= 2:
            sections = _sections_from_toc(toc, pages, total)
        else:
            body = _body_size(doc)
            sections = _sections_from_fonts(candidates, body, total)
        meta_title = (doc.metadata or {}).get("title", "").strip()
        title = meta_title if _good_title(meta_title) else _title_from_first_pages(candidates, pages, filename)
        n_messages, sample = _mupdf_messages()
        fig_report = report.to_dict()
        if unmapped:  # kept as empty pages; the ingest summary names them
            fig_report["unmapped_pages"] = unmapped
        if n_tables:
            fig_report["tables"] = n_tables
        if reader.confidence:
            fig_report["ocr"] = {"pages": len(reader.confidence), "language": reader.language or "en",
                                 "confidence": round(sum(reader.confidence.values()) / len(reader.confidence), 1)}
        missed = [n for n in reader.missed if n not in unmapped]
        if missed:  # scanned pages left unread
            fig_report["scanned_unread"] = {"pages": missed, "why": reader.problem}
        if n_messages:  # the file needed fixing up somewhere: said in the ingest report and by the CLI
            fig_report.update(mupdf_messages=n_messages, mupdf_sample=sample)
        return ParsedBook(title=title, pages=pages, sections=sections, page_count=doc.page_count, figures=figures,
                          figure_images=images, figure_report=fig_report)
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


def parse_file(path: str | Path, max_mb: int = 200, extract_figures: bool = True, **kw) -> ParsedBook:
    p = Path(path)
    return parse_pdf(p.read_bytes(), p.name, max_mb, extract_figures, **kw)
