"""A figure's panel labels: the short letter-labelled items ("(a) Kreis mit zwei Wegen", "(b) Torus mit drei Wegen")
set right above its caption ("Abbildung 3.3: Beispiele für (nicht)-Homotopie von Wegen") name the pictures of its
panels; they answer nothing, and a passage of them alone is no answer (tour 51 quoted them as the second passage on
the fundamental group). Steps above a screenshot's caption ("1. Open the File menu.") are not: they are numbered,
end like sentences, or a sentence leads into them."""
from __future__ import annotations

import re

from ..text.captions import caption_key

PANEL_LABEL_WORDS = 12  # a panel's label is this short
PANEL = re.compile(r"^\(?(?:[a-z]|[ivx]{1,4})\)\s", re.I)  # "(a) …", "b) …", "(iii) …"


def panel_labels(us: list) -> set[int]:
    """Indices of ``us`` (``units``) that are panel labels: a run of short letter-labelled items, none ending like a
    sentence, that a figure's caption follows and no sentence ending in a colon introduces."""
    out: set[int] = set()
    for k, u in enumerate(us):
        key = caption_key(u.text)
        if key is None or key.startswith("tab"):
            continue
        i = k - 1
        while i >= 0 and us[i].kind == "item" and PANEL.match(us[i].text) \
                and len(us[i].text.split()) <= PANEL_LABEL_WORDS and not us[i].text.rstrip().endswith((".", ":", ";")):
            i -= 1
        if i < k - 1 and not (i >= 0 and us[i].text.rstrip().endswith(":")):
            out |= set(range(i + 1, k))
    return out
