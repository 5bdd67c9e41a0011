"""Scanned pages → text with Tesseract, page by page and only where a page has no text layer.

The page is rendered as PyMuPDF shows it (its /Rotate applied) and read by the ``tesseract`` program with
automatic page segmentation and orientation detection (``--psm 1``), so pages scanned sideways or upside
down read right. Its TSV output (words with boxes and confidences) becomes the same block/line/span dicts
``page.get_text("dict")`` gives, in page points, so highlighting, furniture and chunking treat OCR'd pages
like any other; the page keeps the mean word confidence.

Tesseract is a system program (Debian: ``tesseract-ocr`` plus ``tesseract-ocr-deu``/``-vie`` for German
and Vietnamese). When it is missing, scanned pages stay unreadable and the message says how to install it.
"""
from __future__ import annotations

import csv
import functools
import io
import os
import shutil
import subprocess
from dataclasses import dataclass

DPI = 300
TIMEOUT_S = 120  # per page
TESS_LANG = {"en": "eng", "de": "deu", "fr": "fra", "es": "spa", "it": "ita", "nl": "nld", "pt": "por", "vi": "vie"}
INSTALL_HINT = ("install Tesseract OCR (Debian/Ubuntu: `sudo apt-get install tesseract-ocr tesseract-ocr-deu "
                "tesseract-ocr-vie`; macOS: `brew install tesseract tesseract-lang`) and add the file again, "
                "or run OCR on it first (for example `ocrmypdf in.pdf out.pdf`)")


class OcrError(RuntimeError):
    """Tesseract is missing or failed on a page."""


@dataclass
class OcrPage:
    blocks: list[dict]  # like page.get_text("dict")["blocks"] (text blocks only)
    confidence: float  # mean word confidence, 0–100
    words: int
    language: str  # the Tesseract language used ("eng", "deu"…)


def _binary() -> str | None:
    return os.environ.get("RAG_TESSERACT") or shutil.which("tesseract")


@functools.lru_cache(maxsize=4)
def _languages(binary: str) -> frozenset[str]:
    try:
        out = subprocess.run([binary, "--list-langs"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    return frozenset(ln.strip() for ln in out.splitlines()[1:] if ln.strip())


def available() -> bool:
    """Tesseract can be run and has at least English."""
    b = _binary()
    return bool(b) and "eng" in _languages(b)


def tess_language(lang: str) -> str:
    """Tesseract's code for a book language, English when that language's data is not installed."""
    b = _binary()
    code = TESS_LANG.get(lang, "eng")
    return code if b and code in _languages(b) else "eng"


LOW_CONFIDENCE = 70.0  # below this, ask Tesseract which way up the page is and read it again turned


def _run(binary: str, png: bytes, args: list[str], check: bool = True) -> str:
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}  # one page at a time; leave the other core to the app
    try:
        run = subprocess.run([binary, "stdin", "stdout", *args], input=png, capture_output=True, timeout=TIMEOUT_S,
                             env=env)
    except (OSError, subprocess.SubprocessError) as e:
        raise OcrError(f"Tesseract failed: {type(e).__name__}") from None
    if run.returncode != 0 and check:
        raise OcrError(f"Tesseract failed: {run.stderr.decode(errors='replace').strip()[:200]}")
    return run.stdout.decode("utf-8", errors="replace")


def _read(page, binary: str, code: str, dpi: int, turn: int) -> OcrPage:
    """OCR of the page rendered turned by ``turn`` degrees; boxes mapped back to page points."""
    import pymupdf

    m = pymupdf.Matrix(dpi / 72, dpi / 72).prerotate(turn)
    pix = page.get_pixmap(matrix=m, colorspace=pymupdf.csGRAY, alpha=False)
    tsv = _run(binary, pix.tobytes("png"), ["--psm", "1", "--dpi", str(dpi), "-l", code, "tsv"])
    origin = (page.rect * m).irect  # the pixmap's top-left in rendered space
    back = ~m * page.derotation_matrix  # pixels → the unrotated page space get_text() uses

    def to_page(box):
        r = pymupdf.Rect(box[0] + origin.x0, box[1] + origin.y0, box[2] + origin.x0, box[3] + origin.y0) * back
        return tuple(round(v, 1) for v in r)

    return _from_tsv(tsv, to_page, code)


def _upright_turn(page, binary: str, dpi: int) -> int:
    """How many degrees to turn the rendered page so its text stands upright (Tesseract's OSD)."""
    import pymupdf

    png = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False).tobytes("png")
    # orientation detection fails on pages with too little text: then nothing is turned
    for line in _run(binary, png, ["--psm", "0", "--dpi", str(dpi)], check=False).splitlines():
        if line.startswith("Rotate:"):
            try:
                return int(line.split(":")[1]) % 360
            except ValueError:
                return 0
    return 0


def ocr_page(page, lang: str = "en", dpi: int = DPI) -> OcrPage:
    """Read one PyMuPDF page with Tesseract. Raises ``OcrError`` when Tesseract is missing or fails."""
    binary = _binary()
    if not binary:
        raise OcrError("Tesseract is not installed")
    code = tess_language(lang)
    got = _read(page, binary, code, dpi, 0)
    if got.words and got.confidence < LOW_CONFIDENCE:  # upside down or sideways, which --psm 1 can miss
        turn = _upright_turn(page, binary, dpi)
        if turn:
            again = _read(page, binary, code, dpi, turn)
            got = again if again.confidence > got.confidence else got
    return got


def _from_tsv(tsv: str, to_page, code: str) -> OcrPage:
    """Tesseract TSV → text blocks (one per paragraph) of lines of one span each, boxes in points."""
    lines: dict[tuple, list[tuple]] = {}
    for row in csv.DictReader(io.StringIO(tsv), delimiter="\t", quoting=csv.QUOTE_NONE):
        text = (row.get("text") or "").strip()
        if row.get("level") != "5" or not text:
            continue
        try:
            conf = float(row["conf"])
            x, y, w, h = (int(row[k]) for k in ("left", "top", "width", "height"))
        except (KeyError, TypeError, ValueError):
            continue
        if conf < 0:
            continue
        key = (int(row["block_num"]), int(row["par_num"]), int(row["line_num"]))
        lines.setdefault(key, []).append((text, conf, x, y, x + w, y + h))
    blocks: dict[tuple, dict] = {}
    confs: list[float] = []
    for key in sorted(lines):
        words = lines[key]
        confs += [c for _, c, *_ in words]
        box = to_page((min(w[2] for w in words), min(w[3] for w in words), max(w[4] for w in words),
                       max(w[5] for w in words)))
        text = " ".join(w[0] for w in words)
        size = round(min(box[2] - box[0], box[3] - box[1]) * 0.8, 1) or 10.0  # sideways lines are tall and thin
        line = {"bbox": box, "spans": [{"text": text, "size": size, "flags": 0, "font": "OCR", "bbox": box}]}
        block = blocks.setdefault(key[:2], {"type": 0, "bbox": box, "lines": []})
        block["lines"].append(line)
        b = block["bbox"]
        block["bbox"] = (min(b[0], box[0]), min(b[1], box[1]), max(b[2], box[2]), max(b[3], box[3]))
    return OcrPage(blocks=list(blocks.values()), confidence=round(sum(confs) / len(confs), 1) if confs else 0.0,
                   words=len(confs), language=code)


# --- the pages of one book -----------------------------------------------------------------------

SCAN_SHARE = 0.3  # a page without text whose images cover this much of it is a scanned page


def scanned(page, infos: list[dict]) -> bool:
    import pymupdf

    area = abs(page.rect) or 1.0
    return sum(abs(pymupdf.Rect(i["bbox"]) & page.rect) for i in infos) >= SCAN_SHARE * area


class BookReader:
    """OCR for the pages that need it, in one language per book: the ``language`` setting, else the
    language of the book's text pages, else what the first OCR'd page reads as (re-read when not English)."""

    def __init__(self, doc, language: str, enabled: bool, progress):
        self.doc, self.language, self.enabled, self.progress = doc, language, enabled, progress
        self.confidence: dict[int, float] = {}  # page number → mean word confidence
        self.missed: list[int] = []  # scanned pages left unread (no Tesseract, or it failed)
        self.problem = ""

    def _book_language(self) -> str:
        from ..text.languages import detect

        n = self.doc.page_count
        sample = " ".join(self.doc[i].get_text() for i in range(0, n, max(1, n // 20)))
        return detect(sample) if len(sample.strip()) >= 500 else ""

    def read(self, page, number: int, total: int):
        """The page's text blocks read by Tesseract, or None (the page stays empty; said in the report)."""
        if not self.enabled or not available():
            self.missed.append(number)
            self.problem = self.problem or ("OCR is off (RAG_OCR=false)" if not self.enabled else
                                            "Tesseract is not installed")
            return None
        self.progress(number, total, f"Reading scanned page {number} of {total} with OCR")
        try:
            if not self.language:
                self.language = self._book_language()
            got = ocr_page(page, self.language or "en")
            if not self.language:  # nothing to go by but this page: read it again if it is not English
                from ..text.languages import detect

                self.language = detect(" ".join(ln["spans"][0]["text"] for b in got.blocks for ln in b["lines"]))
                if tess_language(self.language) != got.language:
                    got = ocr_page(page, self.language)
        except OcrError as e:
            self.missed.append(number)
            self.problem = self.problem or str(e)
            return None
        self.confidence[number] = got.confidence
        return got.blocks
