"""Quote check: every sentence an answer attributes to [n] is matched against source n's text.

"quoted" when the sentence occurs verbatim (whitespace, quotes and case aside), "supported"
when most of its content words occur in the source (paraphrase by an LLM), otherwise
"unmatched"; citing a source that does not exist is "no such source". Extractive answers quote
whole sentences, so they always pass.
"""
from __future__ import annotations

import re

from ..types import QuoteCheck, Source
from ..text.terms import key_terms, stem

# A quoted book's own bracketed numbers (a paper's references "[3]", "[5, 6]") are marked with an invisible word joiner
# after the bracket (``mark_book_brackets``), so that nothing reads them as the answer's citations (the reader's
# citation chips, ``rag.evidence.blocks.cite_segments``); the quote check and the reader take the mark out again.
BOOK_MARK = "\u2060"
_BOOK_BRACKET = re.compile(r"\[(?=\d{1,3}(?:\s*[,;–-]\s*\d{1,3})*\])")


def mark_book_brackets(text: str) -> str:
    """``text`` (quoted from a book) with each bracketed number marked as the book's ("[3]" → "[⁠3]": looks the same)."""
    return _BOOK_BRACKET.sub("[" + BOOK_MARK, text)


def unmark(text: str) -> str:
    return text.replace(BOOK_MARK, "")


# a cited sentence may hold brackets that are no citation ("∀x, y ∈ ∂P : [x, y] ⊆ P", "a[i]")
CITED = re.compile(r"((?:[^\[\]]|\[(?!\d+\])[^\[\]]*\])*?)((?:\s*\[\d+\])+)")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")


def normalise(text: str) -> str:
    t = (
        unmark(text).replace("’", "'")
        .replace("‘", "'")
        .replace("“", '"')
        .replace("”", '"')
        .replace("ﬁ", "fi")
        .replace("ﬂ", "fl")
    )
    return " ".join(t.lower().split())


def _in_book(snippet: str, book_texts: list[str]) -> bool:
    return bool(book_texts) and any(normalise(snippet) in b for b in book_texts)


FENCE = re.compile(r"^```[^\n]*\n.*?^```[ \t]*$", re.S | re.M)


def without_fences(text: str) -> str:
    """``text`` with its fenced blocks (```…```) replaced by a paragraph break."""
    return FENCE.sub("\n", text)


def attributed(text: str, book_texts: list[str] = ()) -> list[tuple[str, list[int]]]:
    """(sentence, [n, ...]) for each citation group in ``text``: the sentence right before it.
    A bracket that the quoted book itself has there ("… Fiji [32].", "a = [1]", a court decision's
    paragraph number "[11] Đối với …") is the book's text, not a citation: it is recognised by
    occurring, with the words before or after it, in ``book_texts`` (normalised), or by its mark
    (``mark_book_brackets``). Fenced blocks (a code listing or table an answer quotes after a cited sentence) hold no
    citations: their brackets are code."""
    text = without_fences(text)
    out: list[tuple[str, list[int]]] = []
    carry = ""
    for m in CITED.finditer(text):
        before = m.group(1)
        if len(before.strip()) >= 12 and _in_book(m.group(0)[-40:], book_texts):
            carry += m.group(0)  # "… Fiji [32]": the book's own bracket, the sentence goes on
            continue
        nums: list[int] = []
        for b in re.finditer(r"\[(\d+)\]", m.group(2)):
            after = text[m.start(2) + b.start():m.start(2) + b.start() + 40]
            if nums and len(after.split()) > 3 and _in_book(after, book_texts):
                break  # "[3] [11] Đối với …": [11] opens the next quoted sentence
            nums.append(int(b.group(1)))
        before = (carry + before).strip()
        carry = ""
        if not before:
            if out:  # "[1][2]" split by the regex: same sentence
                out[-1][1].extend(nums)
            continue
        sentence = SENTENCE_END.split(before)[-1].strip(" \t\n-–—:;,")
        out.append((unmark(sentence), nums))
    return out


def check_quotes(text: str, sources: list[Source], supported_share: float = 0.6) -> list[QuoteCheck]:
    by_n = {s.n: normalise(s.text) for s in sources}
    words_by_n = {n: {stem(w) for w in key_terms(t)} for n, t in by_n.items()}
    checks = []
    for sentence, nums in attributed(text, list(by_n.values())):
        norm = normalise(sentence).rstrip(".!?")
        terms = {stem(w) for w in key_terms(norm)}
        for n in nums:
            if n not in by_n:
                checks.append(QuoteCheck(n, sentence, False, "no such source"))
                continue
            overlap = len(terms & words_by_n[n]) / len(terms) if terms else 1.0
            if norm and norm in by_n[n]:
                checks.append(QuoteCheck(n, sentence, True, "quoted", 1.0))
            elif overlap >= supported_share:
                checks.append(QuoteCheck(n, sentence, True, "supported", round(overlap, 2)))
            else:
                checks.append(QuoteCheck(n, sentence, False, "unmatched", round(overlap, 2)))
    return checks
