"""What a question asks of a paper's administrative paragraphs ("Who funded the study?" → the "Funding: …"
paragraph), and whether a text holds such a paragraph."""
from __future__ import annotations

import re

from ..chunking.zones import BOILERPLATE_LABEL, RECORD

# what the question asks about → the labels of the paragraphs that state it
TOPICS = (
    # ("fund", "funded", "funding", not "fundamental" nor "Fundamentalgruppe": tour 34 quoted a preface's thanks)
    # "Who paid for this research?" asks the same in everyday words (tour 39: declined at 0 %)
    (re.compile(r"\b(fund(?:s|ed|ing|ers?)?|grants?|financ\w*|sponsor\w*|finanzier\w*|förder\w*)\b"
                r"|\bwho (?:paid|pays|is paying|was paying) for (?:the|this|their|that) (?:research|study|studies|work|"
                r"project|paper|trial|experiments?|survey)\b|\bwhere did (?:the|their) money (?:for \w+ )?come from\b"
                r"|\bwer hat (?:die|diese|das|dieses) (?:studie|forschung|arbeit|projekt|untersuchung) bezahlt\b"
                r"|\bqui a payé (?:cette|la|ce|le) (?:étude|recherche|travail|projet)\b", re.I),
     ("funding", "financial disclosure", "finanzierung", "financement")),
    (re.compile(r"\b(acknowledg\w*|thank\w*|danksagung|dank\w*|remerci\w*)\b", re.I),
     ("acknowledgment", "acknowledgement", "danksagung", "remerciements")),
    (re.compile(r"\b(competing|conflicts? of interest|interessenkonflikt\w*|conflits? d'intérêts?)\b", re.I),
     ("competing interest", "conflict of interest", "conflicts of interest", "declaration of interest",
      "interessenkonflikt", "conflit d'intérêt", "conflits d'intérêts")),
    (re.compile(r"\bethic\w*\b", re.I), ("ethics statement",)),
    (re.compile(r"\bdata availab\w*\b", re.I), ("data availability",)),
    (re.compile(r"\b(author contributions?|who contributed)\b", re.I), ("author contribution",)),
    # a journal article's record (``zones.RECORD``): its dates, editor, copyright and how to cite it
    (re.compile(r"\bwhen (?:was|were) (?:it|they|the \w+|this \w+) (?:published|received|accepted|submitted)\b|"
                r"\b(?:publication|submission|acceptance) date\b|\bwho (?:was|is) (?:the|its) (?:academic |handling )?"
                r"editor\b", re.I), ("published", "received", "accepted", "editor", "academic editor")),
    (re.compile(r"\bcopyright\b|\bhow (?:do|should) (?:i|we|you) cite\b", re.I), ("copyright", "citation")),
)


def labels_asked(question: str) -> tuple[str, ...]:
    """The administrative labels a question asks about ('' when it asks about none)."""
    return tuple(label for rx, labels in TOPICS if rx.search(question) for label in labels)


def states(text: str, labels: tuple[str, ...]) -> bool:
    """Whether ``text`` has a paragraph opening with one of ``labels`` ("Funding: …", "Received: October 9, 2017")."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        m = BOILERPLATE_LABEL.match(line)
        if m and any(m.group(1).lower().startswith(label) for label in labels):
            return True
        if RECORD.match("\n".join(lines[i:i + 4])) \
                and any(line.lstrip(" \t•*-").lower().startswith(label) for label in labels):
            return True
    return False
