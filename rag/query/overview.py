""""What is this book about?", "Worum geht es in dem Buch?", "De quoi parle ce livre ?": a question about a whole
book is answered by the part of it that says what it is about — its abstract, preface, introduction or "About this
manual" — which such a question's words (about books, not about the subject) never retrieve. Only a question that
names its book (by the words of its title) or asks about the one being read is answered so ("What is recursion
about?" names no book)."""
from __future__ import annotations

import re

from ..text.terms import stem

_DOC = (r"(book|paper|manual|article|document|text|study|guide|handbook|report|thesis|tutorial|script|"
        r"buch|handbuch|skript|artikel|studie|anleitung|livre|manuel|document|étude|guide|thèse|"
        r"sách|bài báo|tài liệu|giáo trình)")
ASKS = re.compile(
    rf"\bwhat\s+(is|'s|are)\s+.{{1,80}}?\s+(all\s+)?about\s*\??\s*(\([^()]*\)\s*)?$|"  # (a chat's folded terms)
    rf"\bwhat\s+does\s+(this|the|that)\s+(\S+\s+){{0,5}}?{_DOC}\s+(\w+\s+){{0,3}}(cover|discuss|describe|deal\s+with|"
    rf"teach|explain)\b|"
    rf"\b(summari[sz]e|overview\s+of|introduce|describe)\s+(this|the)\s+{_DOC}\b|"
    rf"\bwhat\s+(is|are)\s+the\s+(topic|subject|purpose|aim|goal|scope)s?\s+of\s+(this|the)\s+{_DOC}\b|"
    rf"\bworum\s+geht\s+es\b|\bwovon\s+handelt\b|\bwas\s+ist\s+(das\s+)?thema\b|"
    rf"\bde\s+quoi\s+(parle|traite)\b|\bquel\s+est\s+le\s+(sujet|thème|but)\s+d|"
    rf"\b(nói|viết)\s+về\s+(gì|cái\s+gì|điều\s+gì)|\bnội\s+dung\s+chính\b", re.I)
# a heading that says what the book is about (a section path's innermost part, its number left out)
TITLE = re.compile(r"^\W*((\d+(\.\d+)*\.?|chapter\s+\d+:?|kapitel\s+\d+:?|chapitre\s+\d+:?)\s+)?"
                   r"(abstract|summary|preface|foreword|introduction|overview|about\s+this\s+(manual|book|document|"
                   r"guide|tutorial)|vorwort|einleitung|einführung|zusammenfassung|kurzfassung|préface|avant-propos|"
                   r"introduction|résumé|à\s+propos\s+de\s+ce\s+(manuel|livre|document)|über\s+dieses\s+"
                   r"(handbuch|buch|dokument)|giới\s+thiệu|lời\s+nói\s+đầu|tóm\s+tắt|mở\s+đầu)\W*$", re.I)
MARKS = ("abstract", "summary", "preface", "foreword", "introduction", "overview", "about this", "vorwort",
         "einleitung", "einführung", "zusammenfassung", "kurzfassung", "préface", "avant-propos", "résumé",
         "propos de ce", "über dieses", "giới thiệu", "lời nói đầu", "tóm tắt", "mở đầu")


# the words of such a question that do not name the book
ASKING = {stem(w) for w in ("about cover covers discuss describe deal teach explain summarize summarise overview "
                            "introduce topic subject purpose aim goal scope worum geht handelt wovon thema quoi "
                            "parle traite sujet thème but nói viết gì cái điều nội dung chính").split()}


def asks_overview(question: str) -> bool:
    """Whether the question asks what a whole book is about."""
    return bool(ASKS.search(question))


def introduces(section: str) -> bool:
    """Whether a section path's innermost heading says what the book is about ("Preface", "1.1 About this
    manual", "Abstract")."""
    return bool(TITLE.match(section.rsplit(">", 1)[-1].strip()))


OPENING_CHUNKS = 12  # a book without an introducing heading: its first chunks are its account of itself


def opens_book(chunk) -> bool:
    """Whether a chunk is a book's account of itself: under an introducing heading (or a part of one: "About this
    manual > 1. About this manual"), or among the book's first chunks."""
    return introduces(chunk.section) or introduces(chunk.section.split(" > ")[0]) or \
        chunk.chunk_index < OPENING_CHUNKS
