"""A book's section paths (from the PDF outline, else from heading fonts) and its title."""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from ..chunking.zones import section_zone
from ..types import PAGE_SEP, Page, Section

def title_offset(title: str, page: Page) -> int | None:
    """Where an outline entry's heading stands on its page: its words with any punctuation or line break between
    them ("5.14 Exercises" / "5.14. Exercises", ’ for '), at a line's start (with the number before it) if it is found
    there, never in the running header (furniture is blanked: Think Python heads each page with its section); None
    when the page lacks it."""
    words = title.split()
    if not words:
        return None
    pat = r"[\W_]+".join(re.sub(r"['’]", "['’]", re.escape(w)) for w in words)
    text = page.chunk_text
    m = re.search(rf"(?m)^[ \t]*(?P<at>(?:[\dIVXLC]+(?:\.\d+)*[.:)]?[ \t]+)?{pat})", text, re.I) \
        or re.search(rf"(?P<at>{pat})", text, re.I)
    return m.start("at") if m else None  # with its number ("5.14. Exercises")


def sections_from_toc(toc, pages: list[Page], total: int) -> list[Section]:
    marks: list[tuple[int, int, str]] = []  # (offset, level, title)
    for level, title, pno in toc:
        if not (1 <= pno <= len(pages)):
            continue
        page = pages[pno - 1]
        title = " ".join(str(title).split())
        at = title_offset(title, page)
        marks.append((page.offset + (at or 0), level, title))  # not on its page: the page's start
    return sections_from_marks(marks, total)


# a paper's abstract never holds its introduction: where the heading styles make "Introduction" (and the body after
# it) a part of "Abstract", the body is lifted to the abstract's level
ABSTRACT = re.compile(r"^\W*(abstract|summary|zusammenfassung|kurzfassung|résumé|tóm tắt)\W*$", re.I)
INTRODUCTION = re.compile(r"^\W*(\d+\.?\s+)?(introduction|einleitung|einführung|giới thiệu|mở đầu)\W*$", re.I)


def sections_from_marks(marks: list[tuple[int, int, str]], total: int) -> list[Section]:
    marks.sort(key=lambda m: m[0])
    sections: list[Section] = []
    stack: list[tuple[int, str]] = []
    shift = 0  # how many levels the body after a paper's abstract is lifted
    for i, (off, level, title) in enumerate(marks):
        level = max(1, level - shift)
        under = next((lv for lv, t in stack if ABSTRACT.match(t)), None)
        if not shift and under is not None and level > under and INTRODUCTION.match(title):
            shift, level = level - under, under
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


# "Chapter 2", "Part IV", "Kapitel 3", "Chapitre 4", "Lesson 1" on a line of its own, over the chapter's name
NUMBER_LABEL = re.compile(r"(?i)(chapter|part|unit|lesson|appendix|kapitel|teil|anhang|chapitre|partie|annexe|"
                          r"chương|phần|bài)\s+([\dIVXLC]+|[A-Z])\.?")


def _joined(heads: list[tuple[int, str, float]]) -> list[tuple[int, str, float]]:
    """A number label over the name it numbers, with nothing between, is one heading ("Chapter 2" / "Sentences"
    becomes "Chapter 2 Sentences", in the name's size). Two other heading lines in a row stay two: in a paper,
    "Materials and methods" / "Plant material" are a section and its first subsection, set alike."""
    out: list[tuple[int, str, float]] = []
    for off, t, size in heads:
        if out:
            o, pt, _ = out[-1]
            if off - (o + len(pt)) <= len(PAGE_SEP) and NUMBER_LABEL.fullmatch(pt):
                out[-1] = (o, f"{pt} {t}", size)
                continue
        out.append((off, t, size))
    return out


def sections_from_fonts(candidates: list[tuple[int, str, float, bool, bool]], body_size: float,
                        total: int, title: str = "", title_before: int = 0) -> list[Section]:
    """Sections from heading lines told by their size (``candidates`` from ``page_text``): the three largest
    sizes are three levels. The book's ``title`` on its first pages (before offset ``title_before``) is the
    book's name, not a section around the whole book."""
    heads = [(off, t.strip(), size) for off, t, size, bold, lead in candidates
             if not lead and 2 < len(t.strip()) <= 90 and not _sentence(t) and not _continues(t)
             and (size >= body_size * 1.15 or (bold and size >= body_size * 1.05)) and re.search(r"[A-Za-zÀ-ỹ]", t)]
    heads = [h for h in _joined(heads) if not (h[0] < title_before and h[1] == title)]
    sizes = sorted({round(s, 1) for _, _, s in heads}, reverse=True)[:3]
    level = {s: i + 1 for i, s in enumerate(sizes)}
    marks = [(off, level.get(round(s, 1), 3), t) for off, t, s in heads]
    return sections_from_marks(marks, total)


HEADING_MAX_WORDS = 12  # a bold line this long or longer is text set in bold, not a heading


def _continues(line: str) -> bool:
    """The end of a sentence wrapped onto a line of its own ("and articles."): lower-case, ending with a full stop.
    (A heading may start lower-case in a manual: "printf", "lb config".)"""
    line = line.strip()
    return line[:1].islower() and line.endswith(".")


def _sentence(line: str) -> bool:
    """A bold line that is a sentence, not a heading: six words or more ending with a full stop ("Objective case
    pronouns work as the object of a verb."), or a line too long for a heading (a bold idiom and its example: "by
    heart (from memory) She knows all of the words to the song by heart."). A heading may end with a question mark
    ("Why use auto scripts?")."""
    words = line.split()
    return len(words) >= HEADING_MAX_WORDS or (len(words) >= 6 and line.rstrip().endswith("."))


def body_size(doc) -> float:
    """Most common font size by characters over (up to) 30 pages."""
    sizes: Counter = Counter()
    for i in range(min(doc.page_count, 30)):
        for block in doc[i].get_text("dict")["blocks"]:
            for line in block.get("lines", []):
                for s in line["spans"]:
                    sizes[round(s["size"], 1)] += len(s["text"])
    return sizes.most_common(1)[0][0] if sizes else 10.0


def first_pages_end(pages: list[Page]) -> int:
    """Where the first two pages with text end (blank pages before a title page skipped): the title is looked for,
    and left out of the sections, up to here."""
    texted = [p for p in pages if p.text.strip()]
    return texted[2].offset if len(texted) > 2 else 10**12


def title_from_first_pages(candidates, pages: list[Page], filename: str) -> str:
    """Largest-font short line on the first two pages with text (of equal sizes, a bold one first, then the
    earliest), not a zone's heading, else the file name. (A blank first page then a table of contents had made a
    manual's title "Inhaltsverzeichnis", and a question naming the program was scoped to another book.)"""
    limit = first_pages_end(pages)
    first = [(size, bool(bold), t.strip()) for off, t, size, bold, _ in candidates
             if off < limit and 3 < len(t.strip()) <= 80 and not section_zone(t)]
    if first:  # a footnote mark after the title ("ÁN LỆ SỐ 55/2022/AL¹") is not part of it
        return max(first, key=lambda x: x[:2])[2].rstrip("⁰¹²³⁴⁵⁶⁷⁸⁹*†‡ ")
    return Path(filename).stem.replace("_", " ")


def good_title(t: str) -> bool:
    return bool(t) and len(t) > 3 and not re.fullmatch(r"(untitled|microsoft word.*|.*\.(docx?|pdf|tex))", t, re.I)
