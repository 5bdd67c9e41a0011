"""Lines a layout wrapped, joined back into the lines the text has: a typesetter's hyphenation undone and a
compound's hyphen kept (``dehyphenate``), a justified line MuPDF split at its wide spaces made one again
(``justified_runs``), a typewriter line it split at its runs of spaces made one with them (``mono_runs``), and in a
book Folio laid out itself, lines broken after a hyphen, inside a path, or inside a
code line's long token (``join_hyphen_breaks``, ``join_code_wraps``). Each joined line is one line of the text layer:
its spans, the union of the boxes."""
from __future__ import annotations

import re
from collections import Counter

from ..text.frequency import ordinary
from ..text.labels import PROMPT

WRAPPED = 0.75  # a line reaching this share of its block's width may have been wrapped by the layout
MONO_FONT = re.compile(r"mono|courier|consola|menlo|monaco|inconsolata|code|typewriter|cmtt|lucidaconsole|fixed", re.I)

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


def justified_runs(block: dict) -> dict:
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


def mono_runs(block: dict) -> dict:
    """The pieces MuPDF split one line of typewriter text into at its runs of spaces (R's example
    '> state <- c("tas", "sa",  "qld", …' came as four lines at one height) as one line again, each gap given back as
    the spaces that fill it at the font's width: a listing, or a table set in a typewriter font, keeps its columns."""
    lines: list[dict] = []
    for line in block["lines"]:
        prev = lines[-1] if lines else None
        if prev is not None and mono_line(prev) and mono_line(line):
            a, b = prev["bbox"], line["bbox"]
            size = max(sp.get("size", 0.0) for sp in line["spans"])
            chars = sum(len(sp["text"]) for sp in prev["spans"])
            if abs((a[1] + a[3]) - (b[1] + b[3])) < 0.4 * size and b[0] > a[2] and chars:
                width = (a[2] - a[0]) / chars  # one character's advance
                gap = max(1, round((b[0] - a[2]) / width)) if width > 0 else 1
                merged = {**prev, "spans": list(prev["spans"])}
                last = merged["spans"][-1]
                merged["spans"][-1] = {**last, "text": last["text"] + " " * gap}
                _carry_on(merged, line)
                lines[-1] = merged
                continue
        lines.append(line)
    return {**block, "lines": lines} if len(lines) < len(block["lines"]) else block


def dehyphenate(block: dict) -> dict:
    """A typeset block with each line a typesetter hyphenated carried on with the next (one line: its spans, the
    union of the boxes), the hyphen dropped or kept as ``_hyphen_join`` says (a code line's always kept)."""
    lines: list[dict] = []
    for line in block["lines"]:
        prev = lines[-1] if lines else None
        if prev is not None and prev["spans"] and line["spans"]:
            raw = "".join(s["text"] for s in prev["spans"])
            before = raw.rstrip()
            joint = _hyphen_join(before, "".join(s["text"] for s in line["spans"]).lstrip(), raw != before)
            if joint is not None and mono_line(prev):
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


def mono_line(line: dict) -> bool:
    """Whether every span of ``line`` with text is set in a typewriter font (MuPDF's flag, or the font's name)."""
    return all((s["flags"] & 8) or MONO_FONT.search(s["font"]) for s in line["spans"] if s["text"].strip())


def _carry_on(prev: dict, line: dict) -> None:
    """``line`` appended to ``prev`` (one line of the text layer): its spans after prev's, the union of the boxes."""
    prev["spans"] = prev["spans"] + line["spans"]
    a, b = prev["bbox"], line["bbox"]
    prev["bbox"] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))




def join_code_wraps(block: dict, right: float) -> dict:
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
        if prev is not None and line["spans"] and mono_line(prev) and mono_line(line) and raw[:1].strip() \
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


def _slash_break(text: str, prev: dict, line: dict) -> bool:
    """Whether a prose line ends inside a path or URL the layout broke after its slash ("config/archives/" +
    "live.list.binary"): the slash follows a character of the token, the next line begins with a path's part (it
    has a ".", "/", "_", "-" or a digit: a plain word, as in "a /live/" + "directory", may have followed a space the
    layout broke at), and the line is not code (a code line's own end, "cd /usr/local/", is the end of a command;
    ``join_code_wraps`` rejoins wrapped code)."""
    nxt = "".join(s["text"] for s in line["spans"]).split()
    part = nxt[0].rstrip(".,;:!?)»”\"'") if nxt else ""
    return len(text) > 1 and text.endswith("/") and not text[-2].isspace() and not mono_line(prev) \
        and bool(re.search(r"[./_\-0-9]", part))


def join_hyphen_breaks(block: dict) -> dict:
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
