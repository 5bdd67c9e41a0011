"""Definition questions ("What is a tuple in Python?", "Was ist ein Homöomorphismus?", "Wann heißt … kompakt?",
"Qu'est-ce qu'un système live ?", "Án lệ là gì?"): the term asked about, and a pattern for the sentences that
define it ("A tuple is …", "tuple: …", "f heißt Homöomorphismus, wenn …", "Un système live signifie …")."""
from __future__ import annotations

import functools
import re

from ..text.sentences import quotable

DEFINE_Q = re.compile(r"^\s*(?:what|who)(?:\s+(?:is|are|was|were)|['’]s)\s+(?:meant\s+by\s+)?(?:an?\s+|the\s+)?(.+?)"
                      r"\s*\??\s*$|^\s*define\s+(.+?)\s*\??$|"
                      r"^\s*how\s+(?:is|are)\s+(?:an?\s+|the\s+)?(.+?)\s+defined(?:\s+(?:in|for)\s+[^?]+)?\s*\??\s*$|"
                      r"^\s*what\s+does\s+(?:an?\s+|the\s+)?(.+?)\s+mean(?:\s+(?:in|for)\s+[^?]+)?\s*\??\s*$", re.I)
_DE_ARTICLE = r"(?:eine?[nrms]?\s+|der\s+|die\s+|das\s+|den\s+)?"
DEFINE_Q_DE = re.compile(r"^\s*was\s+(?:ist|sind|bedeutet|versteht man unter)\s+" + _DE_ARTICLE + r"(.+?)\s*\??\s*$|"
                         r"^\s*wie\s+(?:ist|sind|wird|werden)\s+" + _DE_ARTICLE + r"(.+?)\s+definiert\s*\??\s*$|"
                         r"^\s*wie\s+definiert\s+man\s+" + _DE_ARTICLE + r"(.+?)\s*\??\s*$", re.I)
WHEN_CALLED_DE = re.compile(r"^\s*wann\s+(?:heißt|heißen|nennt man)\s+.*?(\w+)\s*\??\s*$|"
                            # "Was heißt es, dass ein Raum hausdorffsch ist?" asks what "hausdorffsch" means (tour 35)
                            r"^\s*was\s+(?:heißt|bedeutet)\s+es\s*,?\s+(?:dass|wenn)\s+.+?\s(\w+)\s+(?:ist|sind)\s*\??\s*$",
                            re.I)
# "Qu'est-ce qu'un système live ?", "C'est quoi, concrètement, un paquet ?", "Que signifie « chroot » ?"
_FR_ARTICLE = r"(?:une?\s+|les?\s+|la\s+|l['’]\s*|des\s+)?"
DEFINE_Q_FR = re.compile(r"^\s*(?:qu['’]est[- ]ce\s+que\s+c['’]est\s+(?:que\s+|qu['’]\s*)?|"
                         r"qu['’]est[- ]ce\s+qu(?:e\s+|['’]\s*)|c['’]est\s+quoi\s*,?\s*(?:[\w-]+\s*,\s*)?|"
                         r"que\s+(?:signifie|veut\s+dire|désigne)\s+|comment\s+(?:est|sont)\s+défini(?:e|s|es)?\s+|"
                         r"comment\s+définit[- ]on\s+)" + _FR_ARTICLE +
                         r"[«“\"]?\s*(.+?)\s*[»”\"]?\s*\??\s*$", re.I)
# "Án lệ là gì?"
DEFINE_Q_VI = re.compile(r"^\s*(.+?)\s+là\s+gì\s*\??\s*$", re.I)

# a bare term typed as a question ("recursion", "state diagram?", "Homöomorphismus"): looked up as "what is it?"
TERM_ONLY = re.compile(r"^\s*([^\W\d_][\w’'-]*(?:\s+[\w’'-]+){0,2})\s*\??\s*$")
# not a term: question words, requests and chat words ("What's recursion", "explain recursion", "thanks", "and Python")
QUESTION_WORD = re.compile(r"^(?:what|what['’]?s|who|how|why|when|where|which|is|are|do|does|can|was|wer|wie|warum|"
                           r"wann|wo|welche\w*|ist|sind|que|qui|quoi|comment|pourquoi|quand|où|quel\w*|est|define|"
                           r"explain|list|summari[sz]e|tell|show|give|describe|compare|find|erkläre?|zeige?|liste|"
                           r"explique[rz]?|and|or|und|oder|et|ou|thanks?|danke|merci|ok|okay|yes|no|ja|nein|oui|non|"
                           r"more|mehr|plus|continue|weiter|please|bitte)$", re.I)

# "What is a tuple in Python?" defines "tuple": a trailing "in/im/for/bei …" names the context, not the term
QUALIFIER = re.compile(r"\s+(?:in|im|in der|in den|for|within|bei|beim|dans|pour|trong)\s+.+$|"
                       r"\s+en\s+(?-i:[A-ZÀ-ÖØ-Þ]).*$", re.I)  # "… en Python" (not "mise en page")
# "Wie ist die Gauß-Krümmung einer Fläche definiert?" defines "Gauß-Krümmung": an indefinite genitive names what it
# is defined for ("… heißt Gauß-Krümmung von S in s")
OF_ANY_DE = re.compile(r"\s+(?:einer|eines)\s+\S+$", re.I)
POINTING = re.compile(r"^(?:it|this|that|these|those|they|he|she|es|dies|das|so|ce|cela|ça)\b", re.I)
# words a user adds to a question without changing what it asks ("What exactly is …", "Was versteht man eigentlich
# unter …", "Qu'est-ce que c'est exactement …"): left out before the patterns are matched
# the words Folio adds after a question it answers from a book in another language, or after a follow-up: "Was ist
# ein Live-System? (live system)" asks what "Was ist ein Live-System?" asks
TRAILING_WORDS = re.compile(r"\?\s*\([^()]*\)\s*$")
FILLER = re.compile(r"\s*,?\s*(?<![\w-])(?:exactly|actually|really|precisely|basically|eigentlich|genau|überhaupt|"
                    r"denn|exactement|vraiment|précisément|au\s+juste|concrètement)(?![\w-]),?")  # lower case only:
# "Really Simple Syndication", "exactly-once delivery" are terms


def plain(question: str) -> str:
    """The question as the definition patterns read it: no filler words, no words Folio added in brackets."""
    return " ".join(FILLER.sub(" ", TRAILING_WORDS.sub("?", question)).split())


@functools.lru_cache(maxsize=512)  # asked of the same question (and passage) by several stages
def definition_term(question: str) -> str | None:
    """The term a 'What is X?' / 'Was ist X?' / 'Wann heißt … Y?' / 'Qu'est-ce que X ?' / 'X là gì?' question asks
    to define, else None."""
    question = plain(question)
    m = DEFINE_Q.match(question) or DEFINE_Q_DE.match(question) or DEFINE_Q_FR.match(question) \
        or DEFINE_Q_VI.match(question)
    if m:
        term = next(g for g in m.groups() if g).strip()
        term = QUALIFIER.sub("", term) or term
        if m.re is DEFINE_Q_DE and re.search(r"definiert", question, re.I):  # "Wie ist … einer Fläche definiert?"
            term = OF_ANY_DE.sub("", term) or term
        if not POINTING.match(term):  # "What does this error mean?", "How is it defined?": no term named
            return term.strip(" «»“”\"")
        if not WHEN_CALLED_DE.match(question):  # (but "Was bedeutet es, wenn … stetig ist?" names one)
            return None
    m = WHEN_CALLED_DE.match(question)
    if m:
        word = m.group(1) or m.group(2)
        return None if POINTING.match(word) else word  # "Was heißt es, dass das so ist?" names nothing
    return _term_only(question)


def _term_only(question: str) -> str | None:
    m = TERM_ONLY.match(question)
    if not m or QUESTION_WORD.match(m.group(1).split()[0]):
        return None
    return m.group(1)


def _adjective(term: str) -> str | None:
    """"stetige Abbildung" → "stetig": the notes define it as "f heißt stetig" (German adjective + noun)."""
    m = re.match(r"([a-zäöüß]{3,}?)e[nrms]?\s+[A-ZÄÖÜ]\w+$", term)
    return m.group(1) if m else None


# "live-build est développé en utilisant Git", "X is developed by …": a passive says what was done to X, not what
# X is (English -ed, French -é/-ée/-és/-ées, German ge…t participles right after the verb; "is defined as", "is
# called", "est constitué de", "est appelé" still define)
NOT_PASSIVE = (r"(?!\s+(?!(?:defined|called|known|named|termed|composed|made|constitu\w*|appel\w*|défini\w*|"
               r"nomm\w*|compos\w*|form\w*|genannt|definiert)\b)(?:\w+ed|\w+(?:é|ée|és|ées)|ge\w+t)\b)")


@functools.lru_cache(maxsize=512)  # asked of the same question (and passage) by several stages
def definition_pattern(question: str) -> re.Pattern | None:
    """For 'What is X?' / 'Was ist X?' / 'Wann heißt … Y?' questions: a pattern matching sentences that
    define X (or call something Y)."""
    question = plain(question)  # "What exactly is a monad?" is read as "What is a monad?"
    term = definition_term(question)
    if term is None:
        return None
    t = re.escape(term).replace(r"\-", HYPHEN).replace(r"\ ", HYPHEN)
    if _term_only(question) and not any(p.match(question) for p in (DEFINE_Q, DEFINE_Q_DE, DEFINE_Q_FR, DEFINE_Q_VI,
                                                                         WHEN_CALLED_DE)):
        # a bare term, in whatever language: "recursion is …", "recursion: …", "… heißt Rekursion", "on appelle …"
        return re.compile(rf"(^{t}\s*:|\b(?:called|heißt|heißen|nennt man|appel(?:le|é|ée))\s+(?:\w+\s+)?{t}\b|"
                          rf"^(?:an?\s+|the\s+|eine?[nrms]?\s+|der\s+|die\s+|das\s+|une?\s+|les?\s+|la\s+|l['’])?"
                          rf"{t}\s+(?:is|are|refers to|means|ist|sind|bezeichnet|est|sont|désigne|signifie)\b"
                          rf"{NOT_PASSIVE})", re.I)
    if DEFINE_Q.match(question):
        return re.compile(rf"(^{t}\s*:|\bcalled\s+(?:an?\s+|the\s+)?{t}\b|"
                          rf"^(?:an?\s+|the\s+)?{t}\s+{_USUALLY}(?:is|are|refers to|means|contains|consists of)\b"
                          rf"{NOT_PASSIVE})", re.I)
    if DEFINE_Q_FR.match(question):  # "Un système live signifie …", "On appelle paquet …", "paquet : …"
        return re.compile(rf"(^{t}\s*:|\b(?:appel(?:le|é|ée|és|ées)|nomm(?:e|é|ée))\s+{_FR_ARTICLE}{t}\b|"
                          rf"^{_FR_ARTICLE}{t}\s+(?:est|sont|signifie|désigne|représente|consiste)\b"
                          rf"{NOT_PASSIVE}|{_english(t)})", re.I)
    if DEFINE_Q_VI.match(question):  # "Án lệ là những bản án …"
        return re.compile(rf"(^{t}\s*:|^{t}\s+(?:là|được hiểu là)\b|\bgọi là\s+{t}\b)", re.I)
    if WHEN_CALLED_DE.match(question) and not DEFINE_Q_DE.match(question):
        return re.compile(rf"\b(?:heißt|heißen|nennt man|nennen wir)\s+(?:\w+\s+)?{t}\b", re.I)
    adj = _adjective(term)
    # "unter einem topologischen Raum" is defined as "Ein topologischer Raum ist …"
    forms = _german_forms(term)
    t = forms.replace(r"\-", HYPHEN).replace(r"\s+", HYPHEN)
    loose = _loose(forms.split(r"\s+"))
    called = rf"(?:{t}|{loose}|{re.escape(adj)})" if adj else rf"(?:{t}|{loose})"
    return re.compile(rf"(^{t}\s*:|\b(?:heißt|heißen|nennt man|nennen wir|bezeichnet man als)\s+(?:\w+\s+)?{called}\b|"
                      rf"^(?:eine?[nrms]?\s+|der\s+|die\s+|das\s+)?{t}\s+(?:ist|sind|bezeichnet)\b{NOT_PASSIVE}|"
                      rf"{_english(t)})", re.I)


def _loose(parts: list[str]) -> str:
    """A term's word patterns in order, as a naming sentence may set them: a word in brackets, and after a bracketed
    word up to two more ("X heißt (topologische) n-dimensionale Mannigfaltigkeit" names a topological manifold;
    "f heißt stetige lineare Abbildung" names no "stetige Abbildung")."""
    if len(parts) < 2:
        return parts[0] if parts else ""
    return r"\(?" + r"(?:\)(?:\s+[\w-]+){0,2}[-\s]+|[-\s]+)\(?".join(parts) + r"\)?"


def _german_forms(term: str) -> str:
    """A pattern for ``term`` in any of its German cases: an adjective with any ending ("topologischen" →
    topologisch + e/en/er/es/em), a noun with or without its genitive or plural -s/-n ("Raum", "Raumes")."""
    parts = []
    for w in term.split():
        m = re.fullmatch(r"([a-zäöüß]{3,}?)e[nrms]?", w)
        if m:
            parts.append(re.escape(m.group(1)) + r"e[nrms]?")
        elif w[:1].isupper() and w.isalpha():
            parts.append(re.escape(w) + r"(?:e?[sn])?")
        else:
            parts.append(re.escape(w))
    return r"\s+".join(parts)


HYPHEN = r"[-\s]?"  # "Live-System" is defined as "A live system usually means …", "e-mail" as "email"
_USUALLY = r"(?:(?:usually|generally|normally|often|simply|basically)\s+)?"  # "A live system usually means …"


def _english(t: str) -> str:
    """An English book's definition of the (escaped) term ``t``, for a French or German question asked of it: the
    term is often the same word ("Qu'est-ce qu'un tuple ?" → "A tuple is a sequence of values.")."""
    return rf"^(?:an?\s+|the\s+)?{t}\s+{_USUALLY}(?:is|are|refers to|means)\b{NOT_PASSIVE}"


@functools.lru_cache(maxsize=512)  # asked of the same question (and passage) by several stages
def defines(question: str, text: str) -> bool:
    """Whether ``text`` has a sentence defining what ``question`` asks about."""
    term = definition_term(question)
    if not term:
        return False
    low = re.sub(r"[-\s]+", " ", text.lower())  # "Live-System" is met as "live system", "e-mail" as "email"
    keys = [re.sub(r"[-\s]+", " ", k.lower()) for k in (term, _adjective(term)) if k]
    if not any(k in low or k.replace(" ", "") in low for k in keys):  # most passages: no splitting needed
        return False
    pat = definition_pattern(question)
    return any(pat.search(s) for s in quotable(text))
