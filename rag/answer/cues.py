"""What a sentence's words say of it, for scoring it as an answer: an exercise prompt sets a task and answers
nothing (and so does every item of a section of exercises); a superlative ranks, which a "which is best?" question
asks for; set phrases with a superlative's word rank nothing; a sentence that only points elsewhere holds no answer."""
from __future__ import annotations

import re

# an exercise prompt ("Describe some of the effects of …") does not answer a question
EXERCISE = re.compile(r"^(?:\d+[.)]\s*)?(?:describe|explain|discuss|compare|define|illustrate|list|name|give|write|"
                      r"state|show that|prove|beschreiben sie|erklären sie|zeigen sie|beweisen sie)\b", re.I)


# a section of exercises ("QUESTIONS AND EXERCISES", "5.14. Exercises", "Übungsaufgaben", "Exercices") sets tasks; its
# items ("1. Select from any source several sentences …", "Put into about one hundred words …") answer nothing
# (tour 39: a follow-up's "why would that help?" got a chapter's exercise list)
EXERCISES_SECTION = re.compile(r"^\s*(?:[\d.]+\s*)?(?:(?:questions?|review questions) and exercises|exercises?|"
                               r"problems|übungen|übungsaufgaben|aufgaben|exercices|questions et exercices|bài tập|"
                               # their solutions: "Lösungen der Übungsaufgaben" (tour 40 quoted one for a definition)
                               r"(?:solutions?|lösungen|corrigés?)(?: (?:to|of|der|zu|des|aux) (?:the )?(?:exercises|"
                               r"problems|übungsaufgaben|übungen|aufgaben|exercices))?|"
                               r"answers to (?:the )?exercises)\s*$", re.I)


# "Which oil was the most effective?" is answered by a sentence that ranks ("… provides the most significant
# inhibition"), not by one that only names the oils: superlatives in English, German and French
SUPERLATIVE = re.compile(
    r"\b(most|least|best|worst|highest|lowest|largest|smallest|greatest|strongest|weakest|fastest|slowest|"
    r"biggest|better|worse|more \w+ than|less \w+ than|outperform\w*|superior|"
    r"am (besten|meisten|höchsten|größten|stärksten|schnellsten|wenigsten)|beste[nrs]?|meiste[nrs]?|höchste[nrs]?|"
    r"größte[nrs]?|besser|"
    r"(le|la|les) (plus|moins|meilleure?s?)|meilleure?s?|mieux)\b", re.I)
# set phrases with a superlative's word that rank nothing ("To the best of our knowledge, …", "at least once")
IDIOMS = re.compile(r"\b(?:to the best of (?:our|my|their) knowledge|at (?:the )?(?:least|most|best)|"
                     r"for the most part|nach bestem wissen|au moins|tout au plus)\b", re.I)


def asking(text: str) -> bool:
    """A sentence or item that asks: it ends with a question mark ("2. What are the four effects of pause?", an
    exercise; "Q5: Wie kann ich Großbuchstaben … nutzen?", a FAQ's question)."""
    return text.rstrip().endswith(("?", "？"))


# a sentence that sends the reader elsewhere holds no answer itself: "See the lb_clean man page for a full list of
# options.", "More information on titling can be found in …", "Siehe auch …", "Voir la section …"
_REF = (r"(?:the |this |that |our |its |their |section|chapter|page|figure|fig\.|table|appendix|part|"
        r"(?-i:[\[“\"‘'«A-Z0-9]))")  # what a reference names (a capital: "See Choosing apt or aptitude")
POINTER = re.compile(
    rf"^(?:\(?see (?:also:?\s*)?{_REF}|refer to {_REF}|"
    r"for (?:more|further|additional|complete|full) (?:information|details|explanations?)\b[^,;.]{0,60},\s*see |"
    r"for (?:a |the )?(?:full|complete|detailed) (?:list|description|discussion|account)\b[^,;.]{0,60},\s*see |"
    r"(?:more|further|additional) (?:information|details)\b[^.;]{0,80}\b(?:can be found|is given|are given)|"
    r"siehe |weitere (?:informationen|details|hinweise)\b[^.;]{0,80}\b(?:finden sich|findet man|siehe)|"
    r"voir (?:la |le |les |l['’]|aussi |également |section|chapitre|page|figure|tableau|annexe)|"
    r"pour (?:plus|de plus amples) (?:d['’]informations|de détails)\b[^,;.]{0,60},\s*(?:voir|consultez)|"
    # a GNU manual's reference to another manual: "Music Glossary: Section “tie” in Music Glossary."
    r"(?:[^.:\n]{1,40}:\s*)?section [“\"‘'][^”\"’'\n]{1,80}[”\"’'] in )", re.I)


# a sentence that gives a reason (what "and why?" asks for: ``query.kinds.asks_why``)
GIVES_REASON = re.compile(r"\b(?:because|due to|the reasons? (?:is|are|why)|this is why|that is why|that['’]s why|"
                          r"so that|in order to|therefore|hence|weil|denn|deshalb|daher|deswegen|der grund|"
                          r"aus diesem grund|"
                          r"so dass|sodass|parce que|parce qu['’]|puisque|c['’]est pourquoi|afin de|afin que|"
                          r"pour que|bởi vì|vì vậy|do đó)\b", re.I)
