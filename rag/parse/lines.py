"""A PDF page's text as Folio reads it: its text blocks in reading order (``text_blocks``), lines a layout wrapped
joined back (``joins``: a typesetter's hyphenation, a split justified line, Folio's own layout of a hyphen, a path or
a code line), superscripts and
spacing accents as the reader expects them (``line_text``, ``accents``), and the page text with its line boxes and
kinds (``page_text``: text, code, table cell)."""
from __future__ import annotations

import re
from collections import Counter
import unicodedata

from ..types import LINE_CODE, LINE_TABLE, LINE_TEXT, PAGE_SEP
from . import columns, texglyphs
from .joins import MONO_FONT, dehyphenate, join_code_wraps, join_hyphen_breaks, justified_runs, mono_runs



_SUPERSCRIPT = str.maketrans("0123456789+-−", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻")


def superscript(text: str) -> str:
    """A superscript span's digits and signs as superscript characters, one for one (offsets into the page text
    stay those of the PDF's characters): "1×10" + superscript "5" reads 1×10⁵, not 1×105; a superscript
    reference number stays apart from its word ("virus¹²"). Letters (the "st" of "1st") stay as they are."""
    return text.translate(_SUPERSCRIPT)


SUPERSCRIPT_SIZE = 0.9  # a raised span is a superscript only when set smaller than its line's text

# characters a PDF gives from the Private Use Area: a symbol font's bullets (Word's "Symbol" bullet, Wingdings'
# square, arrowhead and tick) and Adobe's pieces of tall brackets, as the characters they draw; shown as boxes
# otherwise, and a bullet that is no bullet does not start a list item
_SYMBOL_FONT = {"symbol": {0xF0B7: "•"}, "wingdings": {0xF0A7: "▪", 0xF0D8: "➢", 0xF0FC: "✓", 0xF06E: "■"}}
_BRACKET_PIECES = str.maketrans({0xF8EB + i: c for i, c in enumerate("⎛⎜⎝⎡⎢⎣⎧⎨⎩⎪⎮⎞⎟⎠⎤⎥⎦⎫⎬⎭")})


def private_use(text: str, font: str) -> str:
    """``text`` with the Private Use Area characters of ``_SYMBOL_FONT`` (by the span's font) and Adobe's bracket
    pieces (U+F8EB–U+F8FE) as the characters they draw."""
    if not any("\ue000" <= ch <= "\uf8ff" for ch in text):
        return text
    low = font.lower()
    for name, table in _SYMBOL_FONT.items():
        if name in low:
            text = text.translate(table)
    return text.translate(_BRACKET_PIECES)


def line_text(spans: list[dict]) -> str:
    """A line's text from its spans, superscript spans as superscripts (``superscript``). MuPDF flags a span as
    superscript when it sits a little high; only one set smaller than the line's largest type is one (a bold word
    set high is not: "heißt Gauß-Krümmung", not "Gauß⁻Krümmung", which no one searching for the word would find).
    A sign alone set high after a letter and before a word is a hyphen; an exponent's sign stays ("e" + "-λx" →
    e⁻λx)."""
    top = max((s.get("size", 0.0) for s in spans if s["text"].strip()), default=0.0)
    out = []
    for k, s in enumerate(spans):
        text = private_use(s["text"], s.get("font", ""))
        if s.get("flags", 0) & 1 and s.get("size", top) < SUPERSCRIPT_SIZE * top:
            nxt = spans[k + 1] if k + 1 < len(spans) else None
            hyphen = text in ("-", "−", "‐") and out and out[-1][-1:].isalpha() and nxt is not None \
                and not nxt.get("flags", 0) & 1 and nxt["text"][:1].isalpha()
            text = "-" if hyphen else superscript(text)
        out.append(text)
    return "".join(out)


def reads(line: dict) -> str:
    """A text layer line as Folio reads it (``page_text``'s lines, a figure's caption): superscripts, spacing
    accents and apostrophes mended (``line_text``, ``accents``, ``apostrophes``)."""
    return apostrophes(accents(line_text(line["spans"]).rstrip()))


# a spacing accent a PDF set after its letter (LaTeX: "Re´gion", "Franc¸ois", "Universite´") → the accented letter;
# only letters that take that accent, so "don´t" (an acute used as an apostrophe) stays as it is
_ACCENTS = {"´": ("\u0301", "aeiouyAEIOUY"), "¨": ("\u0308", "aeiouyAEIOUY"), "ˆ": ("\u0302", "aeiouAEIOU"),
            "˜": ("\u0303", "aonAON"), "¸": ("\u0327", "cstCST"), "ˇ": ("\u030c", "cszrenCSZREN")}
_SPACING_ACCENT = re.compile(r"(?<=[^\W\d_])([A-Za-z])([´¨ˆ˜¸ˇ])")
_DOTLESS = re.compile(r"([´¨ˆ])ı")  # the accent set before a dotless i belongs to it


def accents(text: str) -> str:
    """Spacing accents after their letter joined to it: 'Se´lambarom' → 'Sélambarom' (a name a reader searches
    for and copies)."""
    if not any(a in text for a in _ACCENTS):
        return text
    text = _DOTLESS.sub(lambda m: unicodedata.normalize("NFC", "i" + _ACCENTS[m.group(1)][0]), text)  # "na¨ıve"

    def join(m: re.Match) -> str:
        mark, letters = _ACCENTS[m.group(2)]
        return unicodedata.normalize("NFC", m.group(1) + mark) if m.group(1) in letters else m.group(0)

    return _SPACING_ACCENT.sub(join, text)


# a reversed-9 quotation mark between two letters is an apostrophe a font mapped wrongly ("it‟s", "Fred‟s")
_REVERSED_APOSTROPHE = re.compile(r"(?<=[^\W\d_])[\u201b\u201f](?=[^\W\d_])")


def apostrophes(text: str) -> str:
    """'it‟s' → 'it’s': an apostrophe set as a reversed-9 quotation mark inside a word (Word's PDFs of some fonts)."""
    return _REVERSED_APOSTROPHE.sub("\u2019", text) if ("\u201f" in text or "\u201b" in text) else text


def text_blocks(page, laid_out: bool = False) -> list[dict]:
    """The page's text blocks in reading order. A word a typesetter hyphenated at a line end is joined
    ("tabu-" + "lated" → "tabulated", ``joins.dehyphenate``). A book Folio laid out itself (EPUB, DOCX, HTML …) was
    never hyphenated: the layout breaks lines only after a hyphen the text has ("--apt-" + "ftp-proxy"), so there
    the line is joined with its hyphen kept (``joins.join_hyphen_breaks``)."""
    import pymupdf

    # ligatures are expanded ("ﬀ" → "ff"): "hausdorﬀsch" must match a question's "hausdorffsch" in BM25, the
    # embedder and the quote check (Geometrie und Topologie has 381 of them)
    flags = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
    blocks = [b for b in page.get_text("dict", flags=flags)["blocks"] if b.get("type") == 0]
    if texglyphs.wanted(blocks):  # "⋃", "∑", "≤" of TeX's maths fonts without a character map, not "�"
        coded = page.get_text("dict", flags=flags | pymupdf.TEXT_CID_FOR_UNKNOWN_UNICODE)["blocks"]
        blocks = texglyphs.characters(blocks, [b for b in coded if b.get("type") == 0])
    if not laid_out:
        blocks = [dehyphenate(justified_runs(mono_runs(b))) for b in blocks]
    else:
        from .formats.layout import MARGIN_X

        right = page.rect.width - MARGIN_X
        blocks = [join_code_wraps(join_hyphen_breaks(b), right) for b in blocks]
    return columns.reading_order(blocks, page.rect.width, page.rect.height)


def _dominant_size(spans: list[dict]) -> float:
    """The size most of a line's characters are set in: a run-in heading's first words ("Compound nouns" in
    14.5 pt, then its sentence in 12 pt) do not make the line a heading's size, nor a small footnote mark a smaller."""
    chars: Counter = Counter()
    for s in spans:
        chars[s["size"]] += len(s["text"].strip()) or 1
    return max(chars, key=lambda size: (chars[size], size))


WORD = re.compile(r"[^\W\d_]{3,}")  # a heading has a word of three letters or more
RAISED = 1.15  # a line of a block set this many times larger than the block's lines mostly are is a heading


def _raised(block_lines: list[tuple]) -> set[int]:
    """Which lines of a block are headings set inside it: each wholly set clearly larger than the block's lines
    mostly are ("Chapter 2" / "Sentences" over their 12 pt paragraph, "Comma Splices" in 14.5 pt between two
    paragraphs, where the word processor made them one block). A run-in heading ("Compound nouns become possessive
    …", its first words larger) is no heading line."""
    usual = Counter(line[1] for line in block_lines).most_common(1)[0][0]
    return {j for j, line in enumerate(block_lines) if line[5] >= RAISED * usual and line[4] == LINE_TEXT
            and WORD.search(line[0])}  # not a formula's large signs ("∂x2", "· · ·") nor a music font's notes


LONE_BULLETS = frozenset("•●▪►")  # not "■" (a proof's end) nor "◦" (composition)


def _bullets_joined(block_lines: list[tuple]) -> list[tuple]:
    """A bullet the page sets as a line of its own (a word processor's list: the symbol in its own font, the item's
    text a tab further) joins the line after it: "• Mary ordered coffee, Fred ordered a scone." is one list item."""
    out: list[tuple] = []
    i = 0
    while i < len(block_lines):
        line = block_lines[i]
        nxt = block_lines[i + 1] if i + 1 < len(block_lines) else None
        if line[0].strip() in LONE_BULLETS and nxt is not None and nxt[4] == LINE_TEXT \
                and nxt[0].strip() not in LONE_BULLETS:
            a, b = line[3], nxt[3]
            box = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
            out.append((f"{line[0].strip()} {nxt[0].lstrip()}", *nxt[1:3], box, *nxt[4:]))
            i += 2
            continue
        out.append(line)
        i += 1
    return out


def page_text(blocks: list[dict], exclude: set = frozenset()):
    """Page text (blocks joined by blank lines, lines by newlines) without the ``exclude``d
    (block, line) pairs (figure labels). Also returns heading candidates (offset, text, size,
    bold, leads a longer block — then a title candidate only), line boxes (start, end, x0, y0, x1, y1)
    and each kept block's (offset, bbox)."""
    parts: list[str] = []
    lines_info: list[tuple[int, str, float, bool, bool]] = []
    boxes: list[tuple] = []
    block_at: dict[int, tuple[int, tuple]] = {}
    pos = 0
    for bi, block in enumerate(blocks):
        block_lines = []
        for li, line in enumerate(block["lines"]):
            if (bi, li) in exclude:
                continue
            spans = line["spans"]
            text = reads(line)
            if not text.strip():
                continue
            inked = [s for s in spans if s["text"].strip()] or spans  # a blank span's size is no heading's
            size = _dominant_size(inked)
            low = min(s["size"] for s in inked)
            bold = all((s["flags"] & 16) or "Bold" in s["font"] for s in inked)
            mono = all((s["flags"] & 8) or MONO_FONT.search(s["font"]) for s in inked)
            kind = LINE_TABLE if block.get("table") else LINE_CODE if mono else LINE_TEXT
            block_lines.append((text, size, bold, line["bbox"], kind, low))
        block_lines = _bullets_joined(block_lines)
        if not block_lines:
            continue
        # a block's size counts its lines with text: word processors pad a cover or a heading with blank lines
        # in the same block, and "Grammar Matters" in 48 pt among 30 blank lines is still a short block's line
        n = len(block_lines)
        raised = _raised(block_lines) if n > 3 and not block.get("table") else set()
        # a heading set inside a block stands as a paragraph of its own: "(Fixed by … a comma)" + "Run-On
        # Sentences" + "A run-on sentence …" are three paragraphs, not one
        seps = ["" if j == 0 else PAGE_SEP if j in raised or j - 1 in raised else "\n" for j in range(n)]
        btext = "".join(sep + t for sep, (t, *_) in zip(seps, block_lines))
        if parts:
            pos += len(PAGE_SEP)
        block_at[bi] = (pos, tuple(block["bbox"]))
        line_pos = pos
        lead_bold = n > 3 and block_lines[0][2] and not all(b for _, _, b, *_ in block_lines)
        for j, (t, size, bold, bbox, kind, _) in enumerate(block_lines):
            line_pos += len(seps[j])
            # short blocks' lines, a block's raised lines, and a bold first line leading a longer block
            # ("ÁN LỆ SỐ 55/2022/AL1" above its italic preamble: a title candidate only) are heading candidates
            if kind != LINE_TABLE and (n <= 3 or j in raised or (j == 0 and lead_bold)):
                lines_info.append((line_pos, t, size, bold, n > 3 and j not in raised))
            boxes.append((line_pos, line_pos + len(t), *(round(v, 1) for v in bbox), kind))
            line_pos += len(t)
        parts.append(btext)
        pos += len(btext)
    return PAGE_SEP.join(parts), lines_info, tuple(_mark_table_rows(boxes)), block_at




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
