"""The asking part of a long question: people paste a paragraph of background and end with what they want to
know. The embedding model reads only its first 256 word-pieces, so a long question would be searched for its
preamble. A question longer than ``max_words`` is searched for its sentences that ask (ending in "?", "？" or
"؟"), with the sentence before a very short one ("Why?"); without such a sentence, for its last ``max_words``
words. Shorter questions are searched as they are."""
from __future__ import annotations

import re

_SENTENCE = re.compile(r"[^.!?。？！؟]+[.!?。？！؟]*")


def asking_part(question: str, max_words: int = 60) -> str:
    words = question.split()
    if len(words) <= max_words:
        return question
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
