"""The asking part of a long question: people paste a paragraph of background and end with what they want to
know. The embedding model reads only its first 256 word-pieces, so a long question would be searched for its
preamble. A question longer than ``max_words`` is searched for its sentences that ask (ending in "?", "？" or
"؟"), with the sentence before a very short one ("Why?"); without such a sentence, for its last ``max_words``
words. Shorter questions are searched as they are. The names the rest of a long question keeps coming back to ("I
started learning Python … a short Python script … So I installed Python …") go with the asking part: "How do I open a
file and read it line by line? (Python)" is about Python, not about any book that reads files."""
from __future__ import annotations

import re

_SENTENCE = re.compile(r"[^.!?。？！؟]+[.!?。？！؟]*")


NAMED_AGAIN, NAMES_KEPT = 2, 3  # a name the background uses this often goes with the asking part (at most so many)


def asking_part(question: str, max_words: int = 60) -> str:
    words = question.split()
    if len(words) <= max_words:
        return question
    part = _asking(question, words, max_words)
    return f"{part} ({' '.join(kept)})" if (kept := _background_names(question, part)) else part


def _background_names(question: str, part: str) -> list[str]:
    """The names (``terms.names``) the question uses at least ``NAMED_AGAIN`` times that its asking part lacks, most
    used first."""
    from collections import Counter

    from ..text.terms import names

    found = names(question) - names(part)
    counts = Counter(w for w in re.findall(r"\w+", question) if w in found)
    return [w for w, n in counts.most_common(NAMES_KEPT) if n >= NAMED_AGAIN and w not in part]


def _asking(question: str, words: list[str], max_words: int) -> str:
    sentences = [s.strip() for s in _SENTENCE.findall(question) if s.strip()]
    asks = [i for i, s in enumerate(sentences) if s.endswith(("?", "？", "؟"))]
    if asks:
        keep = set(asks[-2:])
        for i in list(keep):
            if len(sentences[i].split()) < 5 and i > 0:
                keep.add(i - 1)
        part = " ".join(sentences[i] for i in sorted(keep))
        if len(part.split()) <= max_words:
            return part
        return " ".join(part.split()[-max_words:])
    return " ".join(words[-max_words:])
