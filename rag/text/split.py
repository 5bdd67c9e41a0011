"""Sentence boundaries without NLTK: the rules an untrained Punkt tokenizer (what LlamaIndex's ``SentenceSplitter``
uses by default) applies to book text, as a few regular expressions.

Why: ``import nltk`` imports scipy.stats and most of NLTK — about 145 MB of resident memory and a second of start-up
for one sentence splitter (docs/performance.md). A break is a ``.``, ``?`` or ``!`` (with any closing quotes or
brackets) followed by white space, except after an initial or a one-letter abbreviation ("R. Stöcker", "d. h."),
and after a number, an ellipsis or a dot leader unless a capitalised word follows ("19.4. any" is one sentence,
"Exercise 10.2. Write …" two). ``split_sentences`` keeps LlamaIndex's contract: each piece runs to the start of the
next, so the pieces join to the text."""
from __future__ import annotations

import re

_BREAK = re.compile(r"[.?!][\"'’”»)\]]*\s+")
_INITIAL = re.compile(r"^[(\[\"'“„«‘]*[^\W\d_]\.$")  # "R.", "d.", "(a."
_NUMBER = re.compile(r"^[(\[]*\d+(?:[.,]\d+)*\.$")  # "19.4.", "3."


def boundaries(text: str) -> list[int]:
    """Offsets where sentences start (the first is where the text's first word starts)."""
    first = len(text) - len(text.lstrip())
    if first == len(text):
        return []
    starts = [first]
    for m in _BREAK.finditer(text, first):
        end = m.end()
        if end >= len(text):
            break
        t0 = m.start()  # the word the break follows, found backwards (never the whole sentence: no quadratic
        while t0 > starts[-1] and not text[t0 - 1].isspace():  # cost on a contents page of dot leaders)
            t0 -= 1
        tail = text[t0:m.start() + 1]
        nxt = text[end]
        dots = set(tail) == {"."} or tail.endswith("...")  # an ellipsis, or a contents page's dot leader ". . . 17"
        if _INITIAL.match(tail) or (nxt.islower() or not nxt.isalpha()) and (_NUMBER.match(tail) or dots):
            continue
        starts.append(end)
    return starts


def span_tokenize(text: str) -> list[tuple[int, int]]:
    """Sentences as (start, end) offsets, the end before the white space that follows (as Punkt's
    ``span_tokenize``)."""
    starts = boundaries(text)
    return [(a, len(text[:b].rstrip())) for a, b in zip(starts, starts[1:] + [len(text)])]


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text``, each with the white space after it (LlamaIndex's ``chunking_tokenizer_fn``)."""
    starts = boundaries(text)
    if not starts:
        return [text] if text else []
    starts[0] = 0  # the white space before the first sentence stays with it: the pieces join to the text
    return [text[a:b] for a, b in zip(starts, starts[1:] + [len(text)])]
