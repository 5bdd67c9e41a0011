"""The words a book's own structure is made of, as the passage answerer reads them: a theorem's or an example's label,
where a proof begins, a sentence about the listing before it, a listing line's prompt, and the acknowledgements that
answer nothing (a sentence that thanks someone, a contributor list's credit)."""
from __future__ import annotations

import re

from .sentences import REMARK_WORDS, STATEMENT_WORDS

# a sentence about the listing or table just before it ("In this example, there are two references to the same object.",
# "The output is …", "Hier sieht man …"): the listing, and the sentence that introduces it, come with it
ABOUT_LISTING = re.compile(r"^\s*(?:in (?:this|that|the above) (?:example|code|program|listing|output)|"
                           r"(?:this|that|the above|the) (?:example|code|program|listing|output|result)\b|here\b|"
                           r"in diesem beispiel|dieses beispiel|hier\b|dans (?:cet|cet autre) exemple|cet exemple|"
                           r"ici\b)", re.I)


# a theorem's or definition's label line, with the name a reader asks it by: "Satz 2.1 (Eulersche Polyederformel)",
# "Theorem 3 (Heine–Borel)"; what it states follows it (a heading unit: the statement answers)
NAMED_STATEMENT = re.compile(rf"^(?:{STATEMENT_WORDS}|Théorème|Lemme|Corollaire|Définition|Hauptsatz|Law|"
                             r"Principle)\s+[\dIVX]+(?:\.\d+)*\s*\([^()]{2,80}\)\s*:?\s*$")


# the label of an example, remark or exercise on a line of its own ("Beispiel 12 (Topologische Räume und
# Hausdorff-Räume)", "Example 3.2", "Bemerkung 78"): a heading, never the answer's first line (an example's label led
# the answer to "Wann nennt man einen Raum hausdorffsch?" before the definition)
BLOCK_LABEL = re.compile(rf"^(?:{REMARK_WORDS}|Note|Exercise|Übung|Aufgabe|Exemple|Remarque|Exercice)"
                         r"\s+[\dIVX]+(?:\.\d+)*\s*(?:\([^()]{2,80}\))?\s*:?\s*$")
PROOF = re.compile(r"^(?:Beweis|Proof|Démonstration|Preuve)\b\s*(?:\([^)]*\))?\s*[:.]", re.I)


# a sentence that thanks someone answers no question but "whom do the authors thank?" (a preface's "Vielen Dank für
# die Erlaubnis …" was quoted for "Was sagt die Eulersche Polyederformel?")
THANKS = re.compile(
    r"(?<!should )(?<!could )(?<!would )(?<!shall )(?<!must )(?<!can )(?<!do )(?<!did )(?<!will )(?<!when )"
    r"(?<!if )(?<!as )(?<!how )"
    r"\b(i|we|i'd|we'd)( would| wish to| want to| should like to)?( like to)? thank\b|"
    r"\bthe authors? (would like to |wish to )?thanks?\b|"
    r"\b(many|special|sincere|our|my|warm(est)?|heartfelt) thanks\b|\bthanks (are|go) (also )?(due )?to\b|"
    r"\b(i am|we are|i'm|we're) (very |most |deeply |especially )?(grateful|indebted)\b|\bgratefully acknowledged?\b|"
    r"\b(vielen|herzlichen|besonderen) dank\b|\b(mein(en)?|unser(en)?) dank\b|"
    r"\b(ich|wir) (danke|danken|bedanke|bedanken)\b|\b(möchte|möchten) (ich|wir)\b[^!?]{0,160}\b(be)?danken\b|"
    r"\b(je|nous) (tiens à |tenons à )?remerci(e|ons)\b|\b(je|nous) (tiens|tenons) à remercier\b|"
    r"\bmerci (à|beaucoup)\b|cảm ơn", re.I)


# a contributor list's item (a list item, not a sentence) credits a person ("• Kelli Kratzer spotted one of the
# typos.", "• Man-Yong Lee sent in a correction to the example code in Section 2.4.", "• Jean-Philippe Rey at Ecole
# Centrale Paris sent a number of patches"): a preface's acknowledgement, no answer (22 of them were quoted for the
# follow-up "show me an example"; one answered "Wie viele Einwohner hat Paris?")
CREDIT = re.compile(r"^[•*\-–]?\s*(?!(?:the|a|an|this|these|our|their|its)\s)(?-i:[A-Z][\w.'’-]*)"
                    r"(?:\s+(?-i:[A-Z][\w.'’-]*)){1,3}"
                    r"(?:\s+(?:at|of|from)\s+(?-i:[A-Z][\w.'’&-]*)(?:\s+(?-i:[A-Z][\w.'’&-]*)){0,4})?"
                    r"\s+(?:has |have |also |kindly )?"
                    r"(?:sent|submitted|pointed out|spotted|found|made|suggested|wrote|fixed|corrected|contributed|"
                    r"helped|provided|translated|caught|noticed|reported|proofread|reviewed)\b", re.I)

PROMPT = re.compile(r"^(?:[$#%] |>>> |\.\.\. |C:\\>)")  # a shell or Python prompt starts a line of its own (a
# listing's line, read by the parse and by the passage answerer)
