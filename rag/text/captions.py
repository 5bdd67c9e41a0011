"""Caption and reference patterns in the languages we hold (English, German, Vietnamese).

A caption starts a text block: "Figure 2.1:", "Fig 3.", "Table 4", "Abbildung 1.3:", "Tabelle 2",
"Hình 2", "Bảng 1". A reference is the same words inside running text ("see Figure 3.2",
"in Fig. 4", "Abbildung 2.1 zeigt"). Both reduce to one key, "figure 2.1" or "table 4", so a
reference finds its figure wherever it sits.
"""
from __future__ import annotations

import re

_FIGURE_WORDS = r"Figures?|Figs?\.?|Abbildung(?:en)?|Abb\.|Hình|Tables?|Tabellen?|Bảng"
_NUMBER = r"(?>\d+(?:[.\-–]\d+)*)[a-z]?"

# caption: the word and number open the block, then punctuation (or a dash, or the end of the line)
CAPTION = re.compile(rf"^\s*(?P<word>{_FIGURE_WORDS})\s*(?P<num>{_NUMBER})\s*(?:[.:]|[-–—]\s|\s*$|\s*\n)",
                     re.IGNORECASE)
REFERENCE = re.compile(rf"\b(?P<word>{_FIGURE_WORDS})\s*(?P<num>{_NUMBER})(?![\w])", re.IGNORECASE)

_TABLE_WORDS = ("tab", "bảng")


def _key(word: str, num: str) -> str:
    family = "table" if word.lower().startswith(_TABLE_WORDS) else "figure"
    num = num.replace("–", "-").rstrip(".").lower()
    return f"{family} {num}"


def caption_key(text: str) -> str | None:
    """The reference key of a caption block ("figure 2.1"), or None when the text is not a caption."""
    m = CAPTION.match(text)
    return _key(m.group("word"), m.group("num")) if m else None


def reference_keys(text: str) -> list[str]:
    """Keys of the figures and tables ``text`` refers to, in order, without repeats."""
    out: list[str] = []
    for m in REFERENCE.finditer(text):
        k = _key(m.group("word"), m.group("num"))
        if k not in out:
            out.append(k)
    return out


def named_figures(text: str) -> list[tuple[str, str]]:
    """(key, word) for each figure or table ``text`` names: [("figure 5.1", "abbildung")]."""
    out: list[tuple[str, str]] = []
    for m in REFERENCE.finditer(text):
        k = (_key(m.group("word"), m.group("num")), m.group("word").lower())
        if k not in out:
            out.append(k)
    return out


def same_word(word: str, caption: str) -> bool:
    """Whether a caption starts with the word a question used ("Abb." ~ "Abbildung", "Fig" ~ "Figure")."""
    return caption[:3].lower() == word[:3].lower()


def clean_caption(text: str, limit: int = 400) -> str:
    t = " ".join(text.split())
    return t if len(t) <= limit else t[:limit].rsplit(" ", 1)[0] + "…"
