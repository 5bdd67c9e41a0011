"""What kind of question is it? definition · procedural · comparison · complex · factual — from cue
words in English, German and Vietnamese. Decides how much context a hit gets and on which side."""
from __future__ import annotations

import re

QUERY_TYPES = ("definition", "procedural", "comparison", "complex", "factual")

_CUES = {
    "comparison": [
        r"\bdifferences?\b", r"\bcompare[ds]?\b", r"\bcomparison\b", r"\bvs\.?\b", r"\bversus\b", r"\bbetter than\b",
        r"\bunterschied", r"\bvergleich", r"\bim gegensatz\b", r"\bunterscheide",
        r"khác nhau", r"khác biệt", r"so sánh", r"giống nhau",
    ],
    "procedural": [
        r"^how (do|can|should|would|to)\b", r"\bhow to\b", r"\bsteps?\b", r"\bprocedure\b", r"\binstall", r"\bset up\b",
        r"^wie (kann|können|muss|müssen|soll|sollte|macht|mache|geht|funktioniert)\b", r"\bschritte?\b", r"\bvorgehen",
        r"\banleitung\b", r"làm thế nào", r"làm sao", r"\bcách\b", r"các bước", r"thủ tục", r"quy trình",
    ],
    "definition": [
        r"^what (is|are|does .* mean)\b(?!.*\b(difference|between)\b)", r"\bdefin(e|ition)\b", r"\bmeaning of\b",
        r"\bwhat is meant by\b", r"^was (ist|sind|bedeutet|versteht man)\b", r"\bdefinition\b", r"\bbegriff\b",
        r"\blà gì\b", r"định nghĩa", r"nghĩa là gì", r"khái niệm",
    ],
    "complex": [
        r"^why\b", r"\bexplain\b", r"\bwhat (causes|happens|are the reasons)\b", r"\bimplications?\b",
        r"^warum\b", r"^wieso\b", r"\berkläre", r"\bbegründ", r"tại sao", r"vì sao", r"giải thích", r"lý do",
    ],
}
_COMPILED = {t: [re.compile(p, re.I) for p in ps] for t, ps in _CUES.items()}


def classify(question: str) -> str:
    q = " ".join(question.strip().split())
    for t in ("comparison", "procedural", "definition", "complex"):
        if any(p.search(q) for p in _COMPILED[t]):
            return t
    # several questions in one, or a long multi-clause question
    if q.count("?") > 1 or (len(q.split()) > 25 and re.search(r"\b(and|und|và)\b", q, re.I)):
        return "complex"
    return "factual"
