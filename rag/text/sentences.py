"""Sentences a reader can be quoted: ``quotable`` splits a passage into whole sentences (``split``: Punkt's
rules without NLTK) with the repairs books need — a numbered block label ("Definition 10", "Beispiel 11", "Figure 2.1:")
at a line start begins a new sentence, a split after an abbreviation ("Fig.", "e.g.", "vgl.") is undone, a very
short piece stays with the sentence before it — and keeps the ones of a quotable length that are mostly
letters."""
from __future__ import annotations

import re

from .captions import caption_key
from .split import span_tokenize, split_sentences

MIN_WORDS, MAX_WORDS = 5, 90  # a quotable sentence's length in words (a caption may be shorter)

# a numbered block's label ("Definition 10", "Beispiel 11 (…)", "Figure 2.1: …") starts a new sentence when it opens
# a line; a block label standing alone on its line ends the text before it too ("… X = R2 Definition 10\nEin
# topologischer Raum X heißt …" is two). Figure and table labels are left alone there: "… shown in Figure 3.1.\n"
STATEMENT_WORDS = r"Definition|Satz|Lemma|Korollar|Folgerung|Proposition|Theorem|Corollary"  # what states
REMARK_WORDS = r"Beispiel|Bemerkung|Example|Remark"  # what illustrates or comments
_BLOCK = rf"(?:{STATEMENT_WORDS}|{REMARK_WORDS})"
_LABEL = rf"(?:{_BLOCK}|Exercise|Aufgabe|Übung|Abbildung|Abb\.|Figure|Fig\.?|Table|Tabelle|Tab\.)[ \t]+\d"
LABEL_LINE = re.compile(rf"\n(?=[ \t]*{_LABEL})|[ \t](?={_BLOCK}[ \t]+\d[\w.]*\w[ \t]*(?:\([^()\n]*\))?[ \t]*\n)")

ABBREVIATION_END = re.compile(r"(?:\b(?:Figs?|Abb|Tab|Eq|Eqs|No|Nr|vs|cf|al|ca|bzw|vgl|z\.B|e\.g|i\.e|S|"
                              r"Dr|Prof|Mr|Mrs|Ms|Hr|Hrn|Dipl|Mme|Mlle)\.)\s*$")  # titles before a name


# a sentence a page break cut: the pages' texts are joined by a blank line, and the page number or running header the
# furniture pass blanked leaves a line of spaces between them ("… For example, to get the\n\n  \n\nlocale files for
# German …"). The sentence goes on when the line before ends a line of prose mid-sentence (four words or more, the
# last a word ending in a lower-case letter, or a comma) and the line after goes on in lower case, its first word
# perhaps with punctuation ("voice. Other …", "persistence.conf) peuvent …", "error, for …") but no list marker
# ("b) …", "ii. …"); a line with code marks (= { } ; < >) or an aligned column (two spaces inside) is no line of prose
# (parentheses are: "(avec leurs propres fichiers"). A blank line without that blanked line is always a paragraph
# break (a heading, a list, an option table).
_RUNS_FROM = re.compile(r"(?:^|\n)[ \t]*(?:[^\W\d_]|[(«“\"'-])(?:[^\n={};<> ]| (?! ))*? \S+ \S+ (?:[^\W\d_]|[’'-])*"
                        r"[a-zà-ÿß,][ \t]*$")
_RUNS_INTO = re.compile(r"^[ \t]*(?![a-z]{1,4}[).][ \t])[a-zà-ÿß][^\s={};<>]*[ \t]+(?:[^\W\d_]|[(«“\"'])"
                        r"(?:[^\n={};<> ]| (?! ))*(?:\n|$)", re.U)
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
_SENTENCE_END = re.compile(r"(?<=[a-zà-ÿß)\]][.!?])[ \t]+(?=[A-ZÀ-Ý])")
# no sentence begins so: a split inside "etc. . .) and remain …" (".bashrc", ":wq", ".NET", "… Puis" do begin one)
_CANNOT_START = re.compile(r"^\s*(?:[,;)\]}]|[.:](?=[\s.,;:)\]}]|$))")
_BLANKED_LINE = re.compile(r"\n[ \t]+\n")  # a line of spaces: furniture the parse blanked (a page number, a header)


UNMAPPED = "\ufffd"  # what PyMuPDF writes for a glyph without a character (a note icon, a formula's big operator)


def glyphs_only(line: str) -> bool:
    """A line made only of glyphs without characters."""
    return bool(line.strip()) and not line.replace(UNMAPPED, "").strip()


_ENDS = re.compile(r"[.!?:][)\]»”\"'’]*\s*$")


def ends_sentence(text: str) -> bool:
    """Whether ``text`` ends a sentence (or a colon that introduces what follows), closing quotes and brackets
    allowed after the mark."""
    return bool(_ENDS.search(text))


def glyphs_inside(before: str, after: str) -> bool:
    """Whether a line of such glyphs stands inside a sentence: the text line before it does not end one and the next
    does not start one ("endliche Teilüberdeckung" / "�" / "i∈J⊆I Ui = X"). Elsewhere (LilyPond's note icons before
    "Note: Each note …") it is nothing to show or quote."""
    before, after = before.rstrip(), after.lstrip()
    return bool(before) and not ends_sentence(before) and bool(after) and not after[:1].isupper()


def page_break(gap: str) -> bool:
    """Whether the white space ``gap`` between two lines is a page break: blank lines holding a blanked one."""
    return not gap.strip() and bool(_BLANKED_LINE.search(gap))


# a shell variable a manual writes in its prose ("… que nous appelons ci-dessous ${USBSTICK}.") is a word, not a code
# mark: its braces had kept the Live manual's sentence cut by a page break in two, the answer starting "image et …"
_SHELL_VARIABLE = re.compile(r"\$\{\w+\}")


def runs_on(before: str, after: str) -> bool:
    """Whether the sentence at the end of ``before`` goes on at the start of ``after`` across a page break."""
    before, after = _SHELL_VARIABLE.sub("VARIABLE", before[-300:]), _SHELL_VARIABLE.sub("VARIABLE", after)
    line = before.rstrip()
    tail = _SENTENCE_END.split(line)[-1]  # its last sentence alone: an earlier one's "CC50 > 1000" is no code
    return bool(_RUNS_INTO.match(after.lstrip(" \t\n")) and (_RUNS_FROM.search(line) or _RUNS_FROM.search(tail)))


def join_runs(text: str) -> str:
    """``text`` with each page break that cuts a sentence (``runs_on``) made a plain space run of the same length (a
    newline and spaces), so that a splitter that breaks paragraphs at blank lines keeps the sentence in one piece;
    offsets stay those of ``text``."""
    out = None
    for m in _PARAGRAPH_BREAK.finditer(text):
        if page_break(m.group()) and runs_on(text[max(0, m.start() - 300):m.start()], text[m.end():m.end() + 300]):
            out = out if out is not None else list(text)
            out[m.start():m.end()] = "\n" + " " * (m.end() - m.start() - 1)
    return "".join(out) if out is not None else text


def paragraph_spans(text: str) -> list[tuple[int, int]]:
    """Paragraphs of ``text`` as spans: blank lines separate them, unless they hold a blanked line (a page break)
    and the sentence before ``runs_on`` after them (``join_runs``)."""
    joined = join_runs(text)
    spans: list[tuple[int, int]] = []
    pos = 0
    for m in [*_PARAGRAPH_BREAK.finditer(joined), None]:
        end = m.start() if m else len(joined)
        if joined[pos:end].strip():
            spans.append((pos, end))
        if m:
            pos = m.end()
    return spans


def quotable(text: str, min_words: int = MIN_WORDS, max_words: int = MAX_WORDS) -> list[str]:
    """The whole sentences of ``text`` worth quoting, whitespace normalised, in order."""
    out = []
    paras = [piece for a, b in paragraph_spans(text) for piece in LABEL_LINE.split(text[a:b])]
    for para in paras:
        parts: list[str] = []
        for s in join_abbreviations(para, split_sentences(para)) if para.strip() else []:
            s = " ".join(s.split())
            if parts and len(s.split()) < min_words and caption_key(s) is None:
                parts[-1] += " " + s  # "… sei die Topologie …. Sie heißt Produkttopologie." stays one quote
            else:
                parts.append(s)
        for s in parts:
            n = len(s.split())
            letters = sum(ch.isalpha() for ch in s)
            caption = caption_key(s) is not None and n >= 2  # "Abbildung 5.1: Möbiusband" is short but whole
            if (min_words <= n or caption) and n <= max_words and letters >= 0.6 * len(s.replace(" ", "")):
                out.append(s)
    return out


def join_abbreviations(text: str, parts: list[str]) -> list[str]:
    """Undo splits after "Fig.", "e.g.", "vgl." and the like ("… drawn in Fig." + "2 explains …"),
    taking the joined sentence from ``text`` so that it stays a verbatim quote."""
    out: list[tuple[int, int]] = []
    cursor = 0
    for p in parts:
        start = text.find(p, cursor)
        if start < 0:  # the splitter changed the text: keep its parts as they are
            return parts
        end = cursor = start + len(p)
        prev = text[out[-1][0]:out[-1][1]] if out else ""
        if out and (
            ABBREVIATION_END.search(prev) or (len(prev.split()) <= 2 and caption_key(prev)) or _CANNOT_START.match(p)
        ):  # "Fig 2." + caption
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return [text[a:b] for a, b in out]


def sentence_spans(text: str, min_words: int = MIN_WORDS) -> list[tuple[int, int]]:
    """Sentences of ``text`` as exact spans, with ``quotable``'s repairs: a numbered block label starts a sentence,
    a split after an abbreviation is undone, then a piece shorter than ``min_words`` stays with the sentence before
    it (a caption-like piece stands alone)."""
    spans: list[tuple[int, int]] = []
    for p0, p1 in paragraph_spans(text):  # paragraphs: blank lines separate them
        ptext = text[p0:p1]
        cuts = [0] + [m.end() for m in LABEL_LINE.finditer(ptext)] + [len(ptext)]
        for c0, c1 in zip(cuts, cuts[1:]):
            joined: list[tuple[int, int]] = []
            for a, b in span_tokenize(ptext[c0:c1]):
                a, b = p0 + c0 + a, p0 + c0 + b
                prev = text[joined[-1][0]:joined[-1][1]] if joined else ""
                if joined and (ABBREVIATION_END.search(prev) or (len(prev.split()) <= 2 and caption_key(prev))
                               or _CANNOT_START.match(text[a:b])):
                    joined[-1] = (joined[-1][0], b)  # "… drawn in Fig." + "2 explains …"
                else:
                    joined.append((a, b))
            out: list[tuple[int, int]] = []
            for a, b in joined:
                if out and len(text[a:b].split()) < min_words and caption_key(text[a:b]) is None:
                    out[-1] = (out[-1][0], b)
                else:
                    out.append((a, b))
            for a, b in out:
                while a < b and text[a].isspace():
                    a += 1
                while b > a and text[b - 1].isspace():
                    b -= 1
                if b > a:
                    spans.append((a, b))
    return spans
