""""What do the authors conclude?", "What is the main finding?", "Fasse das Kapitel zusammen": the answer is the
text under a heading that concludes ("Conclusion", "Summary", "Fazit", "Kết luận"), which such a question's words
(about the subject, not about concluding) seldom retrieve."""
from __future__ import annotations

import re

ASKS = re.compile(r"\b(conclu\w*|main (finding|result|message|point)s?|key (finding|result|message)s?|"
                  r"summar\w*|take-?aways?|in (a )?nutshell|fazit|zusammenfass\w*|schlussfolger\w*|"
                  r"hauptergebnis\w*|résum\w*|principa(l|ux) résultats?|kết luận|tóm tắt)\b"
                  # what a study found: "What did the PLOS paper find about …?", "What were the findings?"
                  r"|\bwhat (did|does|do|have|has) (the |this |that |these |their |our )?(\w+ ){0,2}(papers?|study|"
                  r"studies|articles?|authors?|researchers?|experiments?|surveys?)\b[^?]{0,60}?\b"
                  r"(find|found|show|shown|discover(ed)?|demonstrated?|reveal(ed)?)\b"
                  r"|\b(what|which) (were|are) (the |their |its )?(\w+ )?findings\b"
                  r"|\bwas (hat|haben) (die|diese|der|das) (\w+ )?(studie|arbeit|untersuchung|autoren|autor|artikel)\b"
                  r"[^?]{0,60}?\b(herausgefunden|gezeigt|ergeben|festgestellt)\b"
                  r"|^(?=.*\b(l['’]étude|l['’]article|les études|les auteurs|les chercheurs)\b)"
                  r".*\bqu['’].{0,40}\b(trouvé|montré|découvert|démontré)", re.I)
# a heading that concludes (a section path's innermost part, its number left out)
TITLE = re.compile(r"^\W*(\d+(\.\d+)*\.?\s+)?(conclusions?|concluding remarks|summary|summary and conclusions?|"
                   r"discussion and conclusions?|conclusions? and (outlook|future work)|fazit|zusammenfassung|"
                   r"schlussfolgerung(en)?|schluss|résumé|conclusions? générales?|kết luận|tóm tắt)\W*$", re.I)
# what to look for in a chunk's section path before the exact test
MARKS = ("conclu", "summary", "fazit", "zusammenfassung", "schlussfolgerung", "schluss", "résumé", "kết luận",
         "tóm tắt")


def asks_conclusion(question: str) -> bool:
    """Whether the question asks what a text concludes or sums up."""
    return bool(ASKS.search(question))


def concludes(section: str) -> bool:
    """Whether a section path's innermost heading concludes ("Abstract > Conclusion", "3.7 Summary")."""
    return bool(TITLE.match(section.rsplit(">", 1)[-1].strip()))
