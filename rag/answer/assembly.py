"""How an answer's chosen passages are put together: two passages of one source a short gap apart are read as one,
in the book's order (``bridge_gaps``), and a further passage does not begin in the middle of a list or of a sentence
begun before its source (``mid_list``)."""
from __future__ import annotations

import re

from .cues import asking
from .passages import Passage


def bridge_gaps(chosen: list[Passage], taken: dict[int, list[tuple[int, int]]], us: dict[int, list],
                gap: int) -> list[Passage]:
    """A chosen passage at most ``gap`` units after or before an earlier-chosen one of the same source (no heading
    between) joins it, with what stands between them, in the book's order (the listing and the sentence that explain
    it: "… returns a file object" + ">>> fin = open('words.txt')" + "fin is a common name …" + "The file object
    provides … readline"; a Conclusion's two paragraphs as the paper has them). A passage further away stays a
    passage of its own, after the best one."""
    if gap <= 0:
        return chosen
    spans = {}
    seen: dict[int, int] = {}
    for p in chosen:
        i = seen.get(p.n, 0)
        spans[id(p)] = taken[p.n][i]
        seen[p.n] = i + 1
    out: list[Passage] = []
    merged: set[int] = set()
    for i, p in enumerate(chosen):
        if id(p) in merged:
            continue
        a, b = spans[id(p)]
        anchor = a + p.anchor
        grew = True
        while grew:  # what follows it, or leads up to it, in the same section: read in the book's order
            grew = False
            for q in chosen[i + 1:]:
                qa, qb = spans[id(q)]
                if q.n != p.n or id(q) in merged:
                    continue
                if qa <= b and a <= qb:  # inside what it grew to by joining another (a passage between two
                    a, b = min(a, qa), max(b, qb)  # joined ones): quoted once, not again after it (tour 39)
                    merged.add(id(q))
                    grew = True
                    continue
                after, before = 0 <= qa - b - 1 <= gap, 0 <= a - qb - 1 <= gap
                between = us[p.n][b + 1:qa] if after else us[p.n][qb + 1:a] if before else None
                stops = [u for u in between or () if u.kind in ("heading", "boilerplate")
                         or (u.opens_paragraph and asking(u.text))]  # (nor a FAQ's next question)
                if between is not None and not stops:
                    a, b = (a, qb) if after else (qa, b)
                    merged.add(id(q))
                    grew = True
        out.append(Passage(p.n, us[p.n][a:b + 1], anchor - a) if (a, b) != spans[id(p)] else p)
    return out


def mid_list(us: list, k: int) -> bool:
    """Whether unit ``k`` is a list's later item with none before it in the source ("2. false si l'utilisateur …",
    its list begun on the page before), or the rest of a sentence begun before the source."""
    u = us[k]
    m = re.match(r"^\s*\(?(\d{1,2})[.)]\s", u.text)
    return u.kind == "fragment" or (u.kind == "item" and m is not None and int(m.group(1)) > 1
                                    and not (k and us[k - 1].kind == "item"))
