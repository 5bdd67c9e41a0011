"""Follow-up questions: does a question stand alone, and the extractive reformulation of one that does not."""
from __future__ import annotations

import re

from ..text.languages import detect
from ..text.terms import key_terms, names

FOLLOW_UP = re.compile(r"\b(it|its|this|that|these|those|they|them|their|he|she|him|her|his|one|ones|same|above|"
                       r"previous|former|latter|more|else|also|example|examples|why|how come|"
                       # German, French, Vietnamese: "Zeig mir ein Beispiel.", "Pourquoi ?", "Ví dụ?" (not the words
                       # that are also articles or frames: "Gibt es …", "das Produkt", "Comment faut-il …", "le plus")
                       r"dies|diese[rsmn]?|dazu|davon|damit|darüber|dafür|dabei|warum|wieso|weshalb|beispiele?|"
                       r"genauer|cela|ça|ceci|celui|celle|pourquoi|exemples?|encore|ví dụ|tại sao|vì sao|nó)\b", re.I)
# "And tuples?", "What about lists?", "Und Kompaktheit?", "Et les paquets ?", "Còn án lệ 43?"
LEADS_ON = re.compile(r"^\s*(and|but|or|so|what about|how about|und|aber|oder|was ist mit|et|mais|ou|"
                      r"qu['’]en est-il|và|còn)\b", re.I)
# "Does this also hold for metric spaces?", "Gilt das auch für metrische Räume?", "Est-ce vrai aussi pour …", "Ça marche
# aussi avec …": a pointing word as the subject, with "also", carries the last turn's subject over to a new case,
# however many terms the question has (not "a function that also …", "Is it also possible …", "Gibt es ein Paket, das
# auch …", "Kann ich das Paket auch …", "Est-ce que … aussi")
ALSO_BACK = re.compile(
    r"^\s*(?:does|do|did|is|are|was|were|can|could|will|would|should)\s+(?:this|that|these|those)\b.*"
    r"\b(?:also|too|as well)\b|"
    r"^\s*[^\W\d_]+\s+(?:das|dies)\s+(?:[^\W\d_]+\s+)?(?:auch|ebenfalls|genauso)\b|"
    r"^\s*(?:est-ce|c['’]est)\s+(?!que\b|qu['’])[^\W\d_]+\s+(?:aussi|également)\b|"
    r"^\s*(?:cela|ça)\s+(?:[^\W\d_]+\s+){0,2}(?:aussi|également)\b", re.I)
ALSO_MAX_TERMS = 5  # a longer question has a subject of its own
# asking words of German and French that are no subject ("Zeig mir …", "Kannst du mir … geben?", "Montre-moi …", "Tu
# peux me montrer …", "Erkläre das genauer")
_ASKING = frozenset("zeig zeige zeigen gib gibt geben erkläre erklär erklären nenne bitte kannst könntest können "
                    "könnten sag sage sagen montre montrez montrer donne donnez donner explique expliquez expliquer "
                    "peux pouvez pourrais pourriez dis dites dire".split())


def is_follow_up(question: str, history: list[tuple[str, str]] = ()) -> bool:
    """A question that cannot stand alone: no terms of its own ("Why?"), one leading on ("And tuples?"), or a
    short one (two terms at most) that points back ("How does it work?"), one that points back with "also" ("Does
    this also hold for metric spaces?"), or a short one that picks up a word of the last turn
    ("Why in the morning?" after an answer about watering in the morning). "What is memoization?" after a
    question on something else stands alone: folding the last question's terms into it would search for both."""
    lang = detect(question)
    terms = _own_terms(question, lang)
    if not terms or LEADS_ON.search(question):
        return True
    if len(terms) <= ALSO_MAX_TERMS and ALSO_BACK.search(question):
        return True
    pointing = FOLLOW_UP.search(question)
    if len(terms) > 2 and not (pointing and len(_subject_terms(terms, lang)) <= 2):
        return False
    if pointing:
        return True
    last = set(key_terms(" ".join(history[-1]))) if history else set()
    return any(t in last for t in terms)


def _own_terms(question: str, lang: str | None = None) -> list[str]:
    """The question's key terms without the function and asking words of its language (``lang``, detected when not
    given: "Zeig mir ein Beispiel" → beispiel)."""
    from ..text.query_terms import function_words

    lang = lang or detect(question)
    frame = function_words(lang) | _ASKING if lang != "en" else frozenset()
    return [t for t in key_terms(question) if t not in frame and t.split("-")[0] not in frame]


EVERYDAY = 5.9  # Zipf: a word this frequent in its language ("one", "after", "made", "get") names no subject


def _subject_terms(terms: list[str], lang: str) -> list[str]:
    """The terms that can name what a question is about: not its language's everyday words. "can I change one after
    I've made it?" (tour 45, after an answer on tuples) has two, "change" and "I've": it points back with "one"."""
    from ..text.frequency import zipf

    return [t for t in terms if (zipf(t, lang) or 0.0) < EVERYDAY]


def points_back(question: str) -> bool:
    """A short question (two terms at most) with a word pointing back ("how do I type one?", "why is it so?")."""
    return len(_own_terms(question)) <= 2 and bool(FOLLOW_UP.search(question))


def fold_history(question: str, history: list[tuple[str, str]]) -> str:
    """Extractive reformulation: a follow-up gets the previous questions' key terms appended."""
    if not history or not is_follow_up(question, history):
        return question
    extra: list[str] = []
    own = set(_own_terms(question))
    for prev_q, _ in reversed(history):
        for t in _own_terms(prev_q):
            if t not in own and t not in extra:
                extra.append(t)
        if extra:
            break
    return f"{question} ({' '.join(extra)})" if extra else question


def continues_chat(question: str, max_terms: int = 3) -> bool:
    """A short question that names no subject of its own ("What cells were used?", "Who funded the study?") most
    likely goes on about what the chat is about: it is searched in the books the last answer cited first (and in
    the whole library when they do not answer it). A question with a name ("What is a Python tuple?") or with
    more to say stands on its own."""
    terms = key_terms(question)
    return 0 < len(terms) <= max_terms and not names(question)

