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
    """Does ``text`` hold what a question that wants ``want`` asks for — and, when the question names its subject
    ("When was Mozart born?"), about that subject? A year in a passage that does not name Mozart does not say
    when Mozart was born."""
    if want == "year":
        found = bool(_YEAR.search(text))
    elif want == "maker":
        found = bool(_MADE_BY.search(text))
    else:
        return True
    subject = names(question)
    return found and (not subject or any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text, re.I) for w in subject))
