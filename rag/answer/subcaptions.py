"""A figure's panel labels: the short list items ("(a) Kreis mit zwei Wegen", "(b) Torus mit drei Wegen") set right
above its caption ("Abbildung 3.3: Beispiele für (nicht)-Homotopie von Wegen") name the pictures of its panels; they
answer nothing, and a passage of them alone is no answer (tour 51 quoted them as the second passage on the
fundamental group)."""
from __future__ import annotations

from ..text.captions import caption_key

PANEL_LABEL_WORDS = 12  # a panel's label is this short


def panel_labels(us: list) -> set[int]:
    """Indices of ``us`` (``units``) that are panel labels: a run of short items that the figure's caption follows."""
    out: set[int] = set()
    for k, u in enumerate(us):
        if caption_key(u.text) is None:
            continue
        i = k - 1
        while i >= 0 and us[i].kind == "item" and len(us[i].text.split()) <= PANEL_LABEL_WORDS:
            out.add(i)
            i -= 1
    return out
