"""A PDF page's text as Folio reads it: its text blocks in reading order (``text_blocks``), lines a layout wrapped
joined back (a typesetter's hyphenation, Folio's own layout of a hyphen, a path or a code line), superscripts and
spacing accents as the reader expects them (``line_text``, ``accents``), and the page text with its line boxes and
kinds (``page_text``: text, code, table cell)."""
from __future__ import annotations

import re
from collections import Counter
import unicodedata

from ..text.frequency import ordinary
from ..text.labels import PROMPT
from ..types import PAGE_SEP
from . import columns

LINE_TEXT, LINE_CODE, LINE_TABLE = 0, 1, 2  # the 7th value of a line box (3: furniture, see furniture.py)
MONO_FONT = re.compile(r"mono|courier|consola|menlo|monaco|inconsolata|code|typewriter|cmtt|lucidaconsole|fixed", re.I)


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
    ("tabu-" + "lated" → "tabulated", ``_dehyphenate``). A book Folio laid out itself (EPUB, DOCX, HTML …) was
    never hyphenated: the layout breaks lines only after a hyphen the text has ("--apt-" + "ftp-proxy"), so there
    the line is joined with its hyphen kept (``_join_hyphen_breaks``)."""
    import pymupdf

    # ligatures are expanded ("ﬀ" → "ff"): "hausdorﬀsch" must match a question's "hausdorffsch" in BM25, the
    # embedder and the quote check (Geometrie und Topologie has 381 of them)
    flags = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
    blocks = [b for b in page.get_text("dict", flags=flags)["blocks"] if b.get("type") == 0]
    if not laid_out:
        blocks = [_dehyphenate(_justified_runs(b)) for b in blocks]
    else:
        from .formats.layout import MARGIN_X

        right = page.rect.width - MARGIN_X
        blocks = [_join_code_wraps(_join_hyphen_breaks(b), right) for b in blocks]
    return columns.reading_order(blocks, page.rect.width, page.rect.height)


HYPHENS = "-\u00ad\u2010"  # hyphen-minus, soft hyphen, hyphen
# words after which a hyphen at a line's end is a suspended one ("Emacs-" + "or vi-style", "Vor-" + "und
# Nachteile", "pré-" + "ou post-traitement", "low-" + "to middle-income"), each with its language: the break is kept
# unless the joined word is an everyday word of that language ("col-" + "or" is "color", "pho-" + "to" "photo")
SUSPENDED = {"and": "en", "or": "en", "nor": "en", "to": "en", "und": "de", "oder": "de", "bzw": "de",
             "sowie": "de", "bis": "de", "et": "fr", "ou": "fr"}
_FRAGMENT = re.compile(r"[^\W\d_]+$")
_FIRST_WORD = re.compile(r"[^\W\d_]+")
_URL = re.compile(r"://|www\.")
_CAPITALISED = re.compile(r"[^\W\d_][^\W\d_A-ZÀ-Þ]*")  # "Weiß", "Moulineaux": a word of its own after a hyphen
WORD_LANGS = ("en", "de", "fr")  # the languages a piece of a hyphenated word is looked up in


def _everyday(word: str) -> bool:
    return any(ordinary(word.lower(), lang) for lang in WORD_LANGS)


def _hyphen_join(before: str, after: str, spaced: bool = False) -> str | None:
    """How a typeset line ending ``before`` (``spaced``: with a space after its hyphen) carries on with the next
    line's ``after``: "" (the hyphen dropped: a word the typesetter broke, "tabu-" + "lated", "PER-" + "MITTED",
    "La-" + "TeX", "L-gluta-" + "mine", a soft hyphen, or the hyphen a URL was broken with, "gitlab.com/-" +
    "jojo"), "-" (the hyphen kept: a compound, "Schwarz-" + "Weiß", "RRV-T48-" + "infected", "built-in-" +
    "docstrings", "HEK-" + "cells", "78-" + "79", "two- " + "syllable", a URL's own, "rust-" + "lang"), or None (two
    lines: no hyphen at the end, or a suspended hyphen, "Emacs-" + "or vi-style", "low-" + "to middle-income").
    MuPDF's own dehyphenation drops every one ("SchwarzWeiß", "GCFID", "Emacsor"). A compound of two lower-case
    words broken at its hyphen ("self-" + "consciousness") cannot be told from a broken word by its letters
    ("doc-" + "strings" is "docstrings"): it is joined as one word."""
    if len(before) < 2 or before[-1] not in HYPHENS or not after[:1].isalnum():
        return None
    if before[-1] == "\u00ad":  # a soft hyphen is the typesetter's by definition
        return ""
    prior = before[-2]
    token = before[-200:].rsplit(None, 1)[-1]
    if prior == "/":
        return ""
    if not (prior.isalnum() or prior in ")]"):
        return None
    if _URL.search(token):  # a URL is broken only at its own hyphens
        return "-"
    fragment = _FRAGMENT.search(before[-64:-1])
    left = fragment.group(0) if fragment else ""
    word = _FIRST_WORD.match(after)
    right = word.group(0) if word else ""
    lang = SUSPENDED.get(right) if prior.isalpha() and right == after.split()[0].rstrip(".,;:") else None
    if lang is not None:
        return "" if not spaced and ordinary((left + right).lower(), lang) is True else None
    if spaced or not after[0].isalpha() or not prior.isalpha():
        return "-"
    start = len(before) - 1 - len(left)
    earlier = before[start - 1] if start > 0 else ""
    if earlier.isdigit() or (earlier in HYPHENS and earlier and _everyday(left)):  # "built-in-", not "L-gluta-"
        return "-"
    if not after[0].islower():  # a capital after the hyphen: a word of its own, unless the two make an everyday
        # word that is all capitals or runs on in mixed case ("PER-" + "MITTED", "La-" + "TeX")
        whole = _CAPITALISED.fullmatch(right) is None and (left.isupper() or not right.isupper() or len(left) < 2)
        return "" if whole and _everyday(left + right) else "-"
    return "-" if len(left) > 1 and left.isupper() else ""


WORDY = re.compile(r"[^\W\d_]{2}")
JUSTIFIED_GAP = 1.5  # words of one justified line are at most this many type sizes apart


def _justified_runs(block: dict) -> dict:
    """The pieces MuPDF split one justified line into (wide word spaces next to a typewriter word: "The" /
    "function" / "call" / "graphics_toolkit ("qt")" / "selects" …, each a line of its own) as one line again, a space
    between pieces: pieces on one baseline, each close after the one before, that together fill the block's width
    as a justified line does, each with a word (a contents line's dot leader and page number are no words). Pieces
    further apart, or starting where a piece of another line does (a table's columns), stay lines of their own."""
    runs: list[list[dict]] = []
    for line in block["lines"]:
        prev = runs[-1][-1] if runs else None
        if prev is not None and line["spans"] and prev["spans"]:
            size = max(s.get("size", 0.0) for s in line["spans"])
            a, b = prev["bbox"], line["bbox"]
            if abs((a[1] + a[3]) - (b[1] + b[3])) < 0.4 * size and 0 <= b[0] - a[2] <= JUSTIFIED_GAP * size:
                runs[-1].append(line)
                continue
        runs.append([line])
    whole = [run for run in runs if len(run) == 1 and run[0]["bbox"][2] - run[0]["bbox"][0] >= WRAPPED * (
        block["bbox"][2] - block["bbox"][0])]
    if all(len(run) == 1 for run in runs) or not whole:  # a paragraph's other lines were read whole
        return block
    x0, x1 = block["bbox"][0], block["bbox"][2]
    starts = Counter(round(piece["bbox"][0]) for run in runs for piece in run[1:])
    lines: list[dict] = []
    for run in runs:
        if len(run) > 1 and run[-1]["bbox"][2] - run[0]["bbox"][0] >= WRAPPED * (x1 - x0) \
                and all(WORDY.search("".join(s["text"] for s in piece["spans"])) for piece in run) \
                and not any(starts[x] + starts[x - 1] + starts[x + 1] > 1
                            for x in (round(piece["bbox"][0]) for piece in run[1:])):
            line = {**run[0], "spans": list(run[0]["spans"])}
            for piece in run[1:]:
                last = line["spans"][-1]
                if last["text"][-1:].strip() and piece["spans"][0]["text"][:1].strip():
                    line["spans"][-1] = {**last, "text": last["text"] + " "}
                _carry_on(line, piece)
            lines.append(line)
        else:
            lines.extend(run)
    return {**block, "lines": lines}


def _dehyphenate(block: dict) -> dict:
    """A typeset block with each line a typesetter hyphenated carried on with the next (one line: its spans, the
    union of the boxes), the hyphen dropped or kept as ``_hyphen_join`` says (a code line's always kept)."""
    lines: list[dict] = []
    for line in block["lines"]:
        prev = lines[-1] if lines else None
        if prev is not None and prev["spans"] and line["spans"]:
            raw = "".join(s["text"] for s in prev["spans"])
            before = raw.rstrip()
            joint = _hyphen_join(before, "".join(s["text"] for s in line["spans"]).lstrip(), raw != before)
            if joint is not None and _mono(prev):
                joint = "-"  # code keeps its hyphens ("#(ly:make-" + "moment")
            if joint is not None:
                spans = list(prev["spans"])
                while spans and not spans[-1]["text"].strip():
                    spans.pop()
                last = spans[-1]["text"].rstrip()
                spans[-1] = {**spans[-1], "text": last if joint else last[:-1]}
                first = line["spans"][0]
                prev["spans"] = spans
                _carry_on(prev, {**line, "spans": [{**first, "text": first["text"].lstrip()}, *line["spans"][1:]]})
                continue
        lines.append({**line, "spans": list(line["spans"])})
    return {**block, "lines": lines}


def _mono(line: dict) -> bool:
    return all((s["flags"] & 8) or MONO_FONT.search(s["font"]) for s in line["spans"] if s["text"].strip())


def _carry_on(prev: dict, line: dict) -> None:
    """``line`` appended to ``prev`` (one line of the text layer): its spans after prev's, the union of the boxes."""
    prev["spans"] = prev["spans"] + line["spans"]
    a, b = prev["bbox"], line["bbox"]
    prev["bbox"] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))




def _join_code_wraps(block: dict, right: float) -> dict:
    """A code line the layout wrapped inside a token carries on with its continuation (one line): a line of code
    that fills the width up to the right margin and ends where the layout breaks a long token ("/", "-", "=", "."),
    followed by an unindented line at the block's left edge ("… > config/archives/" + "sid.list.chroot"). A line
    broken at a space is left as two (which space, if any, cannot be told), as are indented lines and prose."""
    lines: list[dict] = []
    ends: list[float] = []  # the right edge of each kept line's last physical line
    x0 = block["bbox"][0]
    for line in block["lines"]:
        prev = lines[-1] if lines else None
        raw = "".join(s["text"] for s in line["spans"])
        if prev is not None and line["spans"] and _mono(prev) and _mono(line) and raw[:1].strip() \
                and abs(line["bbox"][0] - x0) < 1.0 and not PROMPT.match(raw):
            before = "".join(s["text"] for s in prev["spans"])
            size = max(s["size"] for s in prev["spans"])
            if before[-1:] in "/-=.,:" and before[-1:] and ends[-1] >= right - 3 * 0.6 * size:
                _carry_on(prev, line)
                ends[-1] = line["bbox"][2]
                continue
        lines.append({**line, "spans": list(line["spans"])})
        ends.append(line["bbox"][2])
    return {**block, "lines": lines}


WRAPPED = 0.75  # a line reaching this share of its block's width may have been wrapped by the layout


def _slash_break(text: str, prev: dict, line: dict) -> bool:
    """Whether a prose line ends inside a path or URL the layout broke after its slash ("config/archives/" +
    "live.list.binary"): the slash follows a character of the token, the next line begins with a path's part (it
    has a ".", "/", "_", "-" or a digit: a plain word, as in "a /live/" + "directory", may have followed a space the
    layout broke at), and the line is not code (a code line's own end, "cd /usr/local/", is the end of a command;
    ``_join_code_wraps`` rejoins wrapped code)."""
    nxt = "".join(s["text"] for s in line["spans"]).split()
    part = nxt[0].rstrip(".,;:!?)»”\"'") if nxt else ""
    return len(text) > 1 and text.endswith("/") and not text[-2].isspace() and not _mono(prev) \
        and bool(re.search(r"[./_\-0-9]", part))


def _join_hyphen_breaks(block: dict) -> dict:
    """A block whose lines the layout wrapped after a hyphen carry on with the next line (one line: its spans, the
    union of the boxes), the hyphen kept: "debian-" + "live" → "debian-live", "the -" + "-apt-ftp-proxy" → "the
    --apt-ftp-proxy"; so does a prose line wrapped after a slash inside a path ("config/archives/" +
    "live.list.binary", ``_slash_break``). Only a line that fills its block (the layout broke it) and ends with a
    hyphen inside a word or an option is joined; a short line ("n--" in code) or a free-standing dash ("this is it
    -") keeps its line break."""
    x0, x1 = block["bbox"][0], block["bbox"][2]
    lines: list[dict] = []
    for line in block["lines"]:
        prev = lines[-1] if lines else None
        text = "".join(s["text"] for s in prev["spans"]).rstrip() if prev else ""
        nxt = "".join(s["text"] for s in line["spans"]).lstrip()
        wrapped = prev is not None and prev["bbox"][2] >= x0 + WRAPPED * (x1 - x0)
        inside = len(text) > 1 and text.endswith("-") and (text[-2].isalnum() or text[-2] == "-"
                                                            or (text[-2] == " " and nxt.startswith("-")))
        if wrapped and nxt[:1].strip() and (inside or _slash_break(text, prev, line)):
            last = prev["spans"][-1]
            prev["spans"][-1] = {**last, "text": last["text"].rstrip()}
            _carry_on(prev, line)
            continue
        lines.append({**line, "spans": list(line["spans"])})
    return {**block, "lines": lines}


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
