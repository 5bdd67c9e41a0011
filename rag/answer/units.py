"""A source's text as the reader sees it, in units: sentences, list items, code listings and tables, each with its
exact span in the source text (``units``). Code keeps its lines and indentation (``rag.context.layout``); a glossary's
"term: definition" entries are items; headings and thanks are units never quoted. ``rag.answer.passages`` grows the
passage that answers from them."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..context.layout import blank_before, lefts as left_edges, line_kinds
from ..chunking.zones import BOILERPLATE_LABEL, RECORD
from ..query.conclusions import concludes
from ..query.overview import introduces
from ..text.labels import BLOCK_LABEL, CREDIT, NAMED_STATEMENT, THANKS
from ..text.sentences import glyphs_inside, glyphs_only, page_break, runs_on
from ..types import LINE_CODE as CODE, LINE_TABLE as TABLE, UNSHOWN, Source

# a list item opens its line: a bullet, "1." / "2)" / "(3)", "a)" / "(b)", "(i)" … "(xii)", "Step 3:" is prose
ITEM = re.compile(r"^\s*(?:[-•*–▪◦·●○■□➢►✓]\s|\(?\d{1,2}[.)](?![\d.])\s*|\([a-z]\)\s*|[a-z]\)\s+|"
                  r"\((?:i{1,3}|iv|vi{0,3}|ix|xi{0,2})\)\s*|(?:i{1,3}|iv|vi{0,3}|ix|xi{0,2})\)\s+)(?=\S)", re.I)
# "s)", "2)", "iv)": a list item's mark, or the end of a parenthesis the line before opened and left mid-sentence
# ("… working documents (--mode" + "s) and the layout …", tour 49; not after "Sei x ∈ (0, 1]. Dann gilt:")
CLOSING = re.compile(r"^\s*\w{1,4}\)")
_opened = lambda line: line.count("(") > line.count(")") and not re.search(r"[.!?…:;][)\]»“”\"'’]*\s*$", line)  # noqa: E731
HEADING_WORDS = 7  # a line without an end mark shorter than this may be a heading
# a numbered heading of a second level or deeper ("5.1 Le paquet live-build", "4.6.1 Testing an ISO image")
# (not "3.5 million people …", "1.000 Besucher …": a heading's first word is capitalised, a number has no group of
# three digits after its point)
BARE_NUMBER = re.compile(r"^\s*\d{1,3}(?:\.\d{1,3})*\.?\s*$")  # a heading's number on a line of its own ("4.8")
NUMBERED_HEADING = re.compile(r"^\d{1,3}(?:\.\d{1,3})*\.\d{1,2}\.?\s+[^\W\d_a-zà-ÿ]")
# an entry of a glossary or definition list: a term of at most four words, a colon, its definition
ENTRY = re.compile(r"^\s*[^\s:.,;!?()][^:.,;!?()]{0,40}:\s+\S")
# a finished sentence (its end mark, perhaps inside quotes or brackets); anything else leads on — "… geranial
# (45.11%)" where a page break cut the sentence too
ENDS = re.compile(r"[.!?…][)\]»“”\"'’]*(?:\s*\[\d+\])?\s*$")
MAX_CODE_LINES, MAX_TABLE_ROWS = 30, 16
# a source that opens by closing a bracket it never opened ("PFU) and the essential oils …", where the page set the
# superscript "(1×10⁵" at the end of the block before) opens with the rest of a sentence
CLOSES_UNOPENED = re.compile(r"^[^()\[\]\n]{1,30}[)\]]")
# a reference entry's head: one or more call forms and nothing else ("x = csvread (filename) x = csvread (filename,
# dlm_opt1, . . .)", "[tok, rem] = strtok (str)", "str.split(sep=None, maxsplit=-1)"); the sentences after it say
# what it does
# (a function's name: lower-case first, three characters or more — not "f(x)", "Durations (rhythms)", "Beweis: (…)")
_CALL = r"(?:(?:\[[^\]]{0,80}\]|[A-Za-z_][\w.]*)\s*=\s*)?[a-z_][\w.]{2,}\s*\([^()]{0,120}\)"
SIGNATURE = re.compile(rf"^\s*{_CALL}(?:\s*[;,]?\s+{_CALL})*\s*$")
_LEADING_CALLS = re.compile(rf"^\s*{_CALL}(?:\s+{_CALL})*\s+(?=[A-Z][a-z])")  # "mean (x) mean (x, dim) Compute …"
_NEXT_CALL = re.compile(r"(?<=\))\s+(?=(?:\[[^\]]*\]|[A-Za-z_][\w.]*)\s*(?:=\s*[A-Za-z_][\w.:]*\s*)?\()")


@dataclass
class Unit:
    start: int  # span in the source text
    end: int
    kind: str  # "sentence" | "item" | "code" | "table" | "heading" (the section's title, never quoted) |
    # "boilerplate" (thanks, funding: quoted only when asked) | "fragment" (the rest of a sentence begun before)
    text: str  # whitespace-normalised prose; code and tables line by line (code indented as on the page)
    opens_paragraph: bool = True  # a blank line (or the source's start) comes before it

    @property
    def prose(self) -> bool:
        return self.kind in ("sentence", "item")

    @property
    def finished(self) -> bool:
        """Ends like a whole sentence (a colon, a comma or a bare word lead on to what follows)."""
        return bool(ENDS.search(self.text))


def _glyph_lines(text: str, lines: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """A line of glyphs without characters is text inside a sentence, else a blank line (``glyphs_inside``)."""
    out = list(lines)
    for i, (a, b, kind) in enumerate(lines):
        if kind == "glyphs":
            before = next((text[x:y] for x, y, k in reversed(lines[:i]) if k == "text"), "")
            after = next((text[x:y] for x, y, k in lines[i + 1:] if k not in ("blank", "glyphs", "furniture")), "")
            out[i] = (a, b, "text" if glyphs_inside(before, after) else "blank")
    return out


def units(src: Source) -> list[Unit]:
    """The source's text in reading order as units (see the module doc)."""
    text, kinds, lefts = src.text, line_kinds(src.layout), left_edges(src.layout)
    lines: list[tuple[int, int, str]] = []  # (start, end, kind) of non-blank lines
    pos = 0
    for raw in text.split("\n"):
        a, b = pos, pos + len(raw)
        pos = b + 1
        k, _ = kinds.get(a, (0, 0))
        if not raw.strip():  # a page number the furniture pass blanked is still furniture: a page break
            lines.append((a, b, "furniture" if k in UNSHOWN else "blank"))
            continue
        if glyphs_only(raw) and k != CODE:  # glyphs the PDF gives no characters for (not in a listing): settled below
            lines.append((a, b, "glyphs"))
            continue
        kind = ("code" if k == CODE else "table" if k == TABLE or raw.lstrip().startswith("|")
                else "furniture" if k in UNSHOWN else "text")
        lines.append((a, b, kind))
    lines = _glyph_lines(text, lines)
    blanked = _blanked(text, lines)
    out: list[Unit] = []
    titles = {_title(t) for t in src.hit.section.split(">") if t.strip()}
    following = next_headings(src.hit.section)
    i = 0
    while i < len(lines):
        a, b, kind = lines[i]
        if kind in ("blank", "furniture"):
            i += 1
            continue
        if kind in ("code", "table"):  # a run of such lines, blank lines and page breaks inside it allowed
            j, last = i, i
            while j < len(lines) and lines[j][2] in (kind, "blank", "furniture"):
                if lines[j][2] == kind:
                    last = j
                j += 1
            run = _listing(lines[i:last + 1], kind, blank_before(src.layout))
            if kind == "table":  # the table's caption ("Table 1. Main characteristics …") is prose before its rows
                caption = []
                while run and not text[run[0][0]:run[0][1]].lstrip().startswith("|"):
                    caption.append(run.pop(0))
                if caption:
                    out.append(_unit(text, caption[0][0], caption[-1][1], "sentence"))
                if not run:
                    i = last + 1
                    continue
            shown = "\n".join(" " * kinds.get(s, (0, 0))[1] + text[s:e].strip() if k == kind else ""
                              for s, e, k in run)
            run = [ln for ln in run if ln[2] == kind]
            out.append(Unit(run[0][0], run[-1][1], kind, shown))
            i = last + 1
            continue
        j = i  # a paragraph: text lines up to a blank line or another kind
        while j < len(lines) and lines[j][2] == "text":
            j += 1
            k = j  # … or on past a page break (blank lines, a blanked page number), when its sentence goes on
            while k < len(lines) and lines[k][2] in ("blank", "furniture"):
                k += 1
            if j < k < len(lines) and lines[k][2] == "text" and page_break(blanked[lines[j - 1][1]:lines[k][0]]) \
                    and runs_on(text[lines[j - 1][0]:lines[j - 1][1]], text[lines[k][0]:lines[k][1]]):
                j = k
        first = " ".join(text[a:b].split())
        if j - i > 1 and _stray(first) and text[lines[i + 1][0]:lines[i + 1][1]].lstrip()[:1].isupper() \
                and _after_stray(text, lines, i):  # a music example's lyrics, a word a line ("laid", "am"), ran into
            i += 1  # the sentence after them: "am None of the examples so far …" (tour 39)
            continue
        if j - i > 2 and BARE_NUMBER.match(first) and _title(text[lines[i + 1][0]:lines[i + 1][1]]) in titles:
            out.append(_unit(text, a, lines[i + 1][1], "heading"))  # "4.8" + "Liste d’acronymes, …": its number
            i += 2  # on a line of its own
        elif j - i > 1 and (_numbered_heading(first) or _title(first) in titles or introduces(first)
                            or concludes(first)):  # "5.1 Le paquet …", "Vorwort" atop its first sentence (a chunk
            # boundary, or a page without sections, leaves no blank line between them)
            out.append(_unit(text, a, b, "heading"))
            i += 1
        last = None
        end = text[lines[j - 1][0]:lines[j - 1][1]]
        if j - i > 1 and (_numbered_heading(end) or _title(end) in titles or part_title(end)):  # the next one's,
            # at the end (two chunks joined where a section begins: "… a comma)" + "Run-On Sentences" + its
            # paragraph; an abstract's "… arboviral infection." + "Introduction")
            top = j - 2 if j - i > 2 and BARE_NUMBER.match(text[lines[j - 2][0]:lines[j - 2][1]]) else j - 1
            last = _unit(text, lines[top][0], lines[j - 1][1], "heading")  # with its number on the line before
        # (a kept header: a break)
        out.extend(_prose(blanked, lines[i:top] if last else lines[i:j], titles, following, lefts))
        if last:
            out.append(last)
        i = j
    for prev, u in zip(out, out[1:]):
        u.opens_paragraph = bool(re.search(r"\n\s*\n", text[prev.end:u.start]))
    book = _title(src.book_title) if len(src.book_title.split()) >= 3 else ""  # a line holding the book's title
    for k, u in enumerate(out):  # the section's own heading is no sentence of it (never quoted, never led on from)
        if u.kind in ("sentence", "item") and u.opens_paragraph and not u.finished \
                and (_title(u.text) in titles or introduces(u.text) or concludes(u.text) or PART.match(u.text)
                     or (book and book in _title(u.text))  # "RESEARCH ARTICLE In vitro comparison of …"
                     or _numbered_heading(u.text) or NAMED_STATEMENT.match(u.text) or BLOCK_LABEL.match(u.text)) \
                and (k + 1 == len(out) or out[k + 1].opens_paragraph or text[u.end:u.end + 1] == "\n"):
            u.kind = "heading"
    out = [v for u in out for v in _signatures(text, u)]
    if out and out[0].kind == "sentence" and not text[:out[0].start].strip() \
            and ((src.cut_before and out[0].text[:1].islower()) or CLOSES_UNOPENED.match(out[0].text)):
        out[0].kind = "fragment"  # the rest of a sentence that began before the source: never quoted, never led back to
    return out


def _signatures(text: str, u: Unit) -> list[Unit]:
    """A reference entry's call forms as code, one form a line; when the page runs them into the sentence that
    describes them ("mean (x) mean (x, dim) Compute the mean …"), the two units."""
    if u.kind != "sentence":
        return [u]
    if SIGNATURE.match(u.text):
        return [replace(u, kind="code", text=_NEXT_CALL.sub("\n", u.text))]
    m = _LEADING_CALLS.match(text[u.start:u.end])
    if not m:
        return [u]
    cut = u.start + m.end()
    calls = replace(u, end=cut, kind="code", text=_NEXT_CALL.sub("\n", " ".join(text[u.start:cut].split())))
    return [calls, replace(u, start=cut, text=" ".join(text[cut:u.end].split()), opens_paragraph=False)]


# the parts of a paper or report, in the languages Folio reads ("Results", "Materials and methods", "Ergebnisse")
PART = re.compile(r"^\W*(\d+(\.\d+)*\.?\s+)?(background|objectives?|aims?|methods?|materials and methods|methodology|"
                  r"results?|results and discussion|findings|discussion|hintergrund|ziele?|methoden?|ergebnisse?|"
                  r"diskussion|contexte|objectifs?|méthodes?|matériels? et méthodes|résultats?|discussion)\W*$", re.I)


def part_title(line: str) -> bool:
    """Whether a line without an end mark is the title of a part of a book or paper: one that introduces or
    concludes it ("Introduction", "Abstract", "Conclusion"), or one of a paper's ("Results", "Methods")."""
    line = line.strip()
    return not ENDS.search(line) and not ITEM.match(line) and bool(introduces(line) or concludes(line)
                                                                    or PART.match(line))


def _blanked(text: str, lines: list[tuple[int, int, str]]) -> str:
    """``text`` with its furniture lines as spaces (a header the chunk's text keeps is a page break all the same)."""
    spans = [(a, b) for a, b, kind in lines if kind == "furniture" and text[a:b].strip()]
    if not spans:
        return text
    parts, pos = [], 0
    for a, b in spans:
        parts += [text[pos:a], " " * (b - a)]
        pos = b
    return "".join(parts) + text[pos:]


_TYPOGRAPHIC = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", "“": '"', "”": '"', "–": "-", "—": "-"})


def _title(text: str) -> str:
    """A heading as compared: lower-case words, its number left out ("3.1 Requirements", "1. About" → …), typographic
    apostrophes, quotes and dashes written plainly (a PDF's outline writes "d'acronymes" where its page has
    "d’acronymes")."""
    return " ".join(re.sub(r"^\s*[\d.]+\.?\s+", "", text).lower().translate(_TYPOGRAPHIC).split())


# a line of one or two words of letters only (a comma after one at most) among others like it is a picture's words,
# not prose: "am", "in earth,", "laid," — not a formula's "i∈J⊆I" nor "⋃"
_WORDS_LINE = re.compile(r"^[^\W\d_]+(?:['’-][^\W\d_]+)*,?(?: [^\W\d_]+(?:['’-][^\W\d_]+)*,?)?$")


def _stray(line: str) -> bool:
    """A line of one or two words in lower case without an end mark ("am", "in earth,")."""
    return bool(_WORDS_LINE.match(line)) and line[:1].islower()


def _after_stray(text: str, lines: list[tuple[int, int, str]], i: int) -> bool:
    """Whether the text line before line ``i`` (blank lines between allowed) is such a line of words too: words
    scattered a line each, as a music example's lyrics or a diagram's labels come out, not a paragraph's wrapped last
    word."""
    k = i - 1
    while k >= 0 and lines[k][2] in ("blank", "furniture", "glyphs"):
        k -= 1
    return k >= 0 and lines[k][2] == "text" and bool(_WORDS_LINE.match(" ".join(text[lines[k][0]:lines[k][1]].split())))


def _numbered_heading(line: str) -> bool:
    line = line.strip()
    return bool(NUMBERED_HEADING.match(line)) and not ENDS.search(line) and len(line.split()) <= 2 * HEADING_WORDS


def _listing(lines: list[tuple[int, int, str]], kind: str, blank_before: set[int]) -> list[tuple[int, int, str]]:
    """A code listing's or table's lines, with one blank line where the page sets one between two code lines (an APT
    preferences file's stanzas, a function's paragraphs: ``blank_before``); a page break between them is none."""
    out: list[tuple[int, int, str]] = []
    for ln in lines:
        if ln[2] == kind:
            if out and ln[0] in blank_before:
                out.append((ln[0], ln[0], "blank"))
            out.append(ln)
    return out


_MARK = re.compile(r"^\s*(\()?(\d{1,2}|[a-z]|[ivx]{1,4})([.)])", re.I)
_ROMAN = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii"]


def inline_series(before: str, line: str) -> bool:
    """Whether ``line`` opens with the next mark of a series its paragraph began inline: "… (i) 3 h before …; (ii)
    during …;" + "(iii) 2 h, 4 h or 6 h after …" goes on with the sentence, where the page's line happened to
    wrap; it is no list item."""
    m = _MARK.match(line)
    if not m or ENDS.search(before.rstrip()):  # after a finished sentence a mark opens an item ("… follow." + "2. Mix")
        return False
    mark, low = m.group(2), m.group(2).lower()
    if low in _ROMAN and (low != "i" or "(h)" not in before):
        k = _ROMAN.index(low)
        prev = _ROMAN[k - 1] if k else None
    elif mark.isdigit():
        prev = str(int(mark) - 1) if int(mark) > 1 else None
    elif len(mark) == 1 and mark.isalpha():
        prev = chr(ord(mark) - 1) if low != "a" else None
    else:
        return False
    if prev is None:
        return False
    opening, close = m.group(1) or "", m.group(3)
    flags = re.I if mark.isalpha() else 0
    return re.search(rf"(?:^|\s){re.escape(opening + prev + close)}\s", before, flags) is not None


def _number(line: str) -> tuple[int, ...]:
    """A heading's number as a tuple ("6.1.2 Utiliser …" → (6, 1, 2)), () without one."""
    m = re.match(r"^\s*(\d{1,3}(?:\.\d{1,3})*)\.?\s", line)
    return tuple(int(x) for x in m.group(1).split(".")) if m else ()


def next_headings(section: str) -> set[tuple[int, ...]]:
    """The numbers a heading after the section ``section`` names may have: each numbered level's next one and the
    deepest one's first subsection ("6. … > 6.1 … > 6.1.1 …" → 7, 6.2, 6.1.2, 6.1.1.1)."""
    numbers = [n for n in (_number(part.strip()) for part in section.split(">")) if n]
    return {n[:-1] + (n[-1] + 1,) for n in numbers} | ({numbers[-1] + (1,)} if numbers else set())


def _prose(text: str, lines: list[tuple[int, int, str]], titles: set[str] = frozenset(),
           following: set[tuple[int, ...]] = frozenset(), lefts: dict[int, float] | None = None) -> list[Unit]:
    """A paragraph's lines as list items (one per item, continuation lines included) and sentences; a paragraph
    of administrative matter ("Competing interests: …", "Funding: …") is one unit of kind "boilerplate", and so is
    a sentence or item that thanks someone. A heading line after a finished item ends it (an EPUB's list runs into
    the next section's heading and first paragraph with no blank line between: "• aptitude: … will succeed." +
    "8.4.2 Using a proxy with APT" + "One commonly required …"); what follows it is sentences again. So does a line
    that ``lefts`` (line start → left edge on the page) sets left of a finished item's marker: the paragraph after
    the list, with no blank line between (tour 49: Think Python's "This type of flow is called a loop …" after
    "3. If the condition is true, …")."""
    if BOILERPLATE_LABEL.match(text[lines[0][0]:lines[0][1]]) or RECORD.match(text[lines[0][0]:lines[-1][1]]):
        return [_unit(text, lines[0][0], lines[-1][1], "boilerplate")]
    out: list[Unit] = []
    run_start, prev_end = None, 0
    item: list[int] | None = None  # [start, end] of the item being read
    for n, (a, b, _) in enumerate(lines):
        if ITEM.match(text[a:b]) and _title(text[a:b]) in titles and not ENDS.search(text[a:b]):
            # "2. About the Live Systems Project" under that section: its numbered title, no list item (tour 35
            # quoted it as the answer)
            if run_start is not None:
                out.extend(_sentences(text, run_start, prev_end))
                run_start = None
            if item:
                out.append(_unit(text, item[0], item[1], "item"))
                item = None
            out.append(_unit(text, a, b, "heading"))
            prev_end = b
            continue
        if ITEM.match(text[a:b]) and not (run_start is not None and inline_series(text[run_start:prev_end],
                                                                                  text[a:b])) \
                and not (n and CLOSING.match(text[a:b]) and _opened(text[lines[n - 1][0]:lines[n - 1][1]])):
            if run_start is not None:
                out.extend(_sentences(text, run_start, prev_end))
                run_start = None
            if item:
                out.append(_unit(text, item[0], item[1], "item"))
            item = [a, b]
        elif item is not None and ENDS.search(text[item[0]:item[1]]) \
                and (_numbered_heading(text[a:b]) or _title(text[a:b]) in titles):  # (not "… about" + "1.2 GB in …")
            out.append(_unit(text, item[0], item[1], "item"))
            out.append(_unit(text, a, b, "heading"))
            item = None
        elif item is not None and lefts and lefts.get(a, 1e9) < lefts.get(item[0], 0.0) - OUTDENT \
                and ENDS.search(text[item[0]:item[1]]):
            out.append(_unit(text, item[0], item[1], "item"))
            item, run_start = None, a
        elif item is not None:
            item[1] = b
        elif run_start is not None and ENDS.search(text[run_start:prev_end]) and _numbered_heading(text[a:b]) \
                and _number(text[a:b]) in following:  # the outline's next heading inside a paragraph of an EPUB
            out.extend(_sentences(text, run_start, prev_end))  # ("… mise à jour." + "6.1.2 Utiliser les scripts
            out.append(_unit(text, a, b, "heading"))  # auto d'exemple" + "Pour votre commodité …" under 6.1.1,
            run_start = None  # tour 40)
        elif run_start is None:
            run_start = a
        prev_end = b
    if item:
        out.append(_unit(text, item[0], item[1], "item"))
    if run_start is not None:
        out.extend(_sentences(text, run_start, prev_end))
    return [replace(u, kind="boilerplate") if THANKS.search(u.text) or (u.kind == "item" and CREDIT.match(u.text))
            else u for u in out]


def by_lines(src: Source, us: list[Unit], keep) -> list[Unit]:
    """``us`` with each prose unit that has a line ``keep`` accepts split into its lines (a title page's one long
    "sentence": title, authors, publisher, each a line of its own)."""
    out: list[Unit] = []
    for u in us:
        raw = src.text[u.start:u.end]
        lines = [(u.start + m.start(), u.start + m.end()) for m in re.finditer(r"[^\n]+", raw) if m.group().strip()]
        if u.prose and len(lines) > 1 and any(keep(" ".join(src.text[a:b].split())) for a, b in lines):
            out += [replace(_unit(src.text, a, b, "sentence"), opens_paragraph=False) for a, b in lines]
            out[-len(lines)].opens_paragraph = u.opens_paragraph
        else:
            out.append(u)
    return out


OUTDENT = 4.0  # points left of a list item's marker that a line begins at to be no longer the item's


def _unit(text: str, a: int, b: int, kind: str) -> Unit:
    return Unit(a, b, kind, " ".join(text[a:b].split()))


def _sentences(text: str, a: int, b: int) -> list[Unit]:
    from ..text.sentences import sentence_spans

    return [_unit(text, a + s, a + e, "sentence") for s, e in sentence_spans(text[a:b])]
