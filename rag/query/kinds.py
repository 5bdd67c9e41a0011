"""What kind of question is it? definition · procedural · comparison · complex · factual — from cue
words in English, German, French and Vietnamese. Decides how much context a hit gets and on which side."""
from __future__ import annotations

import re

QUERY_TYPES = ("definition", "procedural", "comparison", "complex", "factual")

_CUES = {
    "comparison": [
        r"\bdifferences?\b", r"\bcompare[ds]?\b", r"\bcomparison\b", r"\bvs\.?\b", r"\bversus\b", r"\bbetter than\b",
        r"\bunterschied", r"\bvergleich", r"\bim gegensatz\b", r"\bunterscheide",
        r"khác nhau", r"khác biệt", r"so sánh", r"giống nhau",
        r"\bdifférences?\b", r"\bcompar(?:er|aison|é|ée)s?\b", r"\bplutôt que\b",
    ],
    "procedural": [
        r"^how (do|can|should|would|to)\b", r"\bhow to\b", r"\bsteps?\b", r"\bprocedure\b", r"\binstall", r"\bset up\b",
        r"^wie (kann|können|muss|müssen|soll|sollte|macht|mache|geht|funktioniert)\b", r"\bschritte?\b", r"\bvorgehen",
        r"\banleitung\b", r"làm thế nào", r"làm sao", r"\bcách\b", r"các bước", r"thủ tục", r"quy trình",
        r"^wie \w+ (ich|man|wir)\b",  # "Wie bringe ich …", "Wie richtet man …"
        r"^comment (je |j['’]|on |faire\b|\w+er\b|\w+ir\b|\w+re\b)", r"\bétapes?\b", r"\bprocédure\b",
    ],
    "definition": [
        r"^what (is|are|does .* mean)\b(?!.*\b(difference|between)\b)", r"\bdefin(e|ition)\b", r"\bmeaning of\b",
        r"\bwhat is meant by\b", r"^was (ist|sind|bedeutet|versteht man)\b", r"\bdefinition\b", r"\bbegriff\b",
        r"\blà gì\b", r"định nghĩa", r"nghĩa là gì", r"khái niệm",
        r"^qu['’]est[- ]ce (que|qu['’])", r"^que (signifie|veut dire)\b", r"\bc['’]est quoi\b", r"\bdéfinition\b",
    ],
    "complex": [
        r"^why\b", r"\bexplain\b", r"\bwhat (causes|happens|are the reasons)\b", r"\bimplications?\b",
        r"^warum\b", r"^wieso\b", r"\berkläre", r"\bbegründ", r"tại sao", r"vì sao", r"giải thích", r"lý do",
        r"^pourquoi\b", r"\bexpliqu",
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


# What a question asks for, when its answer must be a kind of thing: a person or organisation, a year, a count.
# A passage without one cannot answer it, whatever words it shares with the question ("Who invented the telephone?"
# against a passage that mentions telephones).
_EXPECTS = {
    "person": re.compile(r"^\s*(?:who|whom|wer|qui|ai)\b|\b(?:which|what) (?:company|person|organi[sz]ation|author)\b|"
                         r"\bwelche (?:firma|person)\b|\bquelle (?:entreprise|personne)\b", re.I),
    "year": re.compile(r"\b(?:what|which) year\b|\bwhen (?:was|were|did)\b|\bin welchem jahr\b|\bwann wurde\b|"
                       r"\ben quelle année\b|\bnăm nào\b", re.I),
    "number": re.compile(r"\bhow (?:many|much)\b|\bwie viele?\b|\bcombien\b|\bbao nhiêu\b", re.I),
}
_NAME = re.compile(r"\b[A-ZÀ-ÖØ-Þ][\wÀ-ÿ'’.-]+(?:\s+[A-ZÀ-ÖØ-Þ][\wÀ-ÿ'’.-]*)+")
_YEAR = re.compile(r"\b(?:1[0-9]|20)\d\d\b")
_NUMBER = re.compile(r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|hundred|thousand|eins|zwei|drei|"
                     r"vier|fünf|un|deux|trois|quatre|cinq)\b", re.I)


def expects(question: str) -> str:
    """"person", "year" or "number" when the answer must be one, else ""."""
    return next((kind for kind, rx in _EXPECTS.items() if rx.search(question)), "")


def holds_answer_type(kind: str, text: str, question: str) -> bool:
    """Whether ``text`` holds something of that kind that the question does not already name."""
    if kind == "year":
        return bool(set(_YEAR.findall(text)) - set(_YEAR.findall(question)))
    if kind == "number":
        return bool(_NUMBER.search(text))
    if kind == "person":
        asked = question.lower()
        return any(m.group(0).lower() not in asked for m in _NAME.finditer(text))
    return True


# a question that asks to be shown an example ("Show me an example.", "Gib mir ein Beispiel", "Un exemple ?"), not one
# that gives one ("How do I, for example, …")
_EXAMPLE = re.compile(r"(?<!\bfor )\bexamples?\b|\bsample code\b|\bcode samples?\b|\bsnippets?\b|"
                      r"(?<!\bzum )\bbeispiel\w*|(?<!\bpar )\bexemples?\b|\bví dụ\b", re.I)


# a book's own example, labelled on a line of its own ("Beispiel 1", "Example 3.2", "Exemple :", "Ví dụ 2")
EXAMPLE_LABEL = re.compile(r"^[ \t]*(?:beispiel|example|exemple|ví dụ)(?:[ \t]*\d|[ \t]*[:(]|[ \t]*$)", re.I | re.M)


# "why" anywhere in a question, not only at its start as a complex question's cue: "and why?", "und warum?"
_WHY = re.compile(r"\b(?:why|warum|wieso|weshalb|pourquoi)\b|\bt(?:ạ|a)i sao\b|\bvì sao\b", re.I)


def asks_why(question: str) -> bool:
    return bool(_WHY.search(question))


def asks_example(question: str) -> bool:
    return bool(_EXAMPLE.search(question))
