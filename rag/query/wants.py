"""What a question's answer must contain, when its words say so plainly: a year ("In what year…", "En quelle
année…") or who made something ("Who founded…", "Qui a inventé…", "Wer hat … entwickelt?").

Such a question is answered by a passage that holds a year, or that says who founded/created/invented/
developed/wrote something — in any book and any language; a passage that merely mentions the names the
question contains does not answer it (the manual that mentions MATLAB does not say when MATLAB appeared).
The decision stage turns an answer into "not in your books" when none of the best passages has what the
question wants (about the subject the question names, when it names one). Cues in English, German, French and
Vietnamese; a question without such cues wants nothing in particular (the check does nothing).
"""
from __future__ import annotations

import re

from ..text.terms import names

_YEAR_Q = re.compile(
    r"\b(in |during )?(what|which) year\b|\bwhat year\b|\bin welchem jahr\b|\bseit welchem jahr\b"
    r"|\b(en |dans )?quelle année\b|\bnăm nào\b|\bvào năm nào\b"
    r"|\bwhen (was|were|did) .{0,60}\b(born|founded|released|invented|created|built|published|introduced|"
    r"established|died|fall|fell|end|ended|begin|began|start|started|launched|discovered|written)\b"
    r"|\bwann wurde .{0,60}\b(geboren|gegründet|veröffentlicht|erfunden|gebaut|eingeführt|entdeckt|gestartet)\b"
    r"|\bquand (a|est|fut|ont|sont) .{0,60}\b(né|née|fondé|fondée|sorti|sortie|inventé|inventée|créé|créée|"
    r"publié|publiée|construit|construite|lancé|lancée|découvert)\b",
    re.I)
_WHO_Q = re.compile(
    r"\bwho (\w+ ){0,2}(founded|created|invented|developed|wrote|designed|started|discovered|built|made)\b"
    r"|\bwer (hat|haben|hatte) .{0,60}\b(gegründet|erfunden|entwickelt|geschrieben|erstellt|entworfen|gebaut|"
    r"entdeckt)\b"
    r"|\bqui (a|ont|avait) (\w+ ){0,2}(fondé|inventé|créé|développé|écrit|conçu|construit|lancé|découvert)\b"
    r"|\bai (đã )?(sáng lập|phát minh|tạo ra|phát triển|viết|thiết kế)\b",
    re.I)
_YEAR = re.compile(r"(?<!\w)(1[5-9]\d\d|20\d\d)(?!\w)")
_MADE_BY = re.compile(
    r"\b(found(ed|er|ers)|creat(ed|or|ors)|invent(ed|or|ors)|develop(ed|er|ers)|wrote|written|author(ed|s)?|"
    r"design(ed|er|ers)|discover(ed|er))\b"
    r"|\b(gegründet|gründer\w*|erfunden|erfinder\w*|entwickelt|entwickler\w*|geschrieben|schrieb|verfasst|"
    r"autor\w*|entworfen|entdeckt)\b"
    r"|\b(fond[ée]e?s?|fondat(eur|rice)s?|cré[ée]e?s?|créat(eur|rice)s?|invent[ée]e?s?|invent(eur|rice)s?|"
    r"développ[ée]e?s?|écrit|auteure?s?|conçue?s?|découvert)\b"
    r"|sáng lập|phát minh|tác giả|phát triển",
    re.I)


def wants(question: str) -> str:
    """'year', 'maker' or '' (nothing particular)."""
    if _YEAR_Q.search(question):
        return "year"
    if _WHO_Q.search(question):
        return "maker"
    return ""


def holds(want: str, text: str, question: str = "") -> bool:
    """Does ``text`` hold what a question that wants ``want`` asks for — and about the question's subject? When the
    question names its subject ("When was Mozart born?"), the passage must name it: a year in a passage that does not
    name Mozart does not say when Mozart was born. When the subject is a common noun ("Who invented the
    telephone?"), one sentence must hold both the year or maker and a word of the subject: "… the great inventors
    who live here in Philadelphia" says nothing of the telephone."""
    pattern = _YEAR if want == "year" else _MADE_BY if want == "maker" else None
    if pattern is None:
        return True
    if not pattern.search(text):
        return False
    subject = names(question)
    if subject:
        return any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text, re.I) for w in subject)
    terms = _subject_terms(question, want)
    if not terms:  # "In what year was it released?": any year
        return True
    from ..text.languages import detect, tokenize
    from ..text.sentences import sentence_spans

    lang = detect(question)
    spans = [(a, b) for a, b in sentence_spans(text, min_words=1)] or [(0, len(text))]
    said = [text[a:b] for a, b in spans if pattern.search(text[a:b])]
    return any(terms & set(tokens) for tokens in tokenize(said, lang)) if said else False


def _subject_terms(question: str, want: str) -> set[str]:
    """The question's content words outside its cue ("Who invented", "In what year was … released"), as BM25
    tokens of its language: what the year or the making must be said of."""
    from ..text.languages import detect, tokenize

    cue = (_YEAR_Q if want == "year" else _WHO_Q).search(question)
    rest = question[:cue.start()] + " " + question[cue.end():] if cue else question
    rest = _MADE_BY.sub(" ", rest)
    return set(tokenize([rest], detect(question))[0]) - set(tokenize(["year years first originally"], "en")[0])
