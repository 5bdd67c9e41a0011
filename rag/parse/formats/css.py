"""Class hints read from a book's stylesheet: which classes set code, hide text, set bold. Nothing in the CSS is
fetched or applied (``rag.parse.formats.clean`` writes its own safe HTML)."""
from __future__ import annotations

import re

_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_MONO = re.compile(r"font-family\s*:[^;]*(monospace|courier|mono\b|consol|inconsolata|menlo|typewriter)", re.I)
_NONE = re.compile(r"display\s*:\s*none", re.I)
_BOLD = re.compile(r"font-weight\s*:\s*(bold|bolder|[6-9]00)", re.I)


def css_hints(css: str) -> tuple[set[str], set[str], set[str]]:
    """Classes a stylesheet sets in a monospace font (code), hides (``display: none``) and sets in bold.
    Only simple selectors ending in ``.class`` are read; nothing in the CSS is fetched or applied."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    code, hidden, bold = set(), set(), set()
    for m in _RULE.finditer(css):
        body = m.group(2)
        found = [s for s, rx in ((code, _MONO), (hidden, _NONE), (bold, _BOLD)) if rx.search(body)]
        for sel in m.group(1).split(",") if found else ():
            last = sel.strip().split()[-1] if sel.strip() else ""
            cm = re.fullmatch(r"[a-zA-Z0-9]*\.([\w-]+)", last)
            for s in found if cm else ():
                s.add(cm.group(1))
    return code, hidden, bold
