"""TeX's maths fonts without a character map: a PDF made by LaTeX with the Computer Modern (or Latin Modern) maths
fonts often gives no Unicode for their glyphs, and MuPDF writes U+FFFD ("�") for "⋃", "∑", "∫", "≤" or a tall
bracket. The fonts' encodings are fixed (TeX's OMS for the symbol fonts, OMX for the extension font), so the glyph's
code says which character it draws: ``characters`` reads those codes (MuPDF's ``TEXT_CID_FOR_UNKNOWN_UNICODE``) and
puts the character in place of each "�", one for one (offsets into the page text stay those of the PDF's glyphs).
Glyphs of other fonts, and codes these tables leave out, stay "�"."""
from __future__ import annotations

import re

UNMAPPED = "\ufffd"

# OMX (cmex10): delimiters in four sizes, their extensible pieces, the big operators in text and display size
_OMX = dict(enumerate("()[]⌊⌋⌈⌉{}⟨⟩|‖/\\"
                      "()()[]⌊⌋⌈⌉{}⟨⟩/\\"
                      "()[]⌊⌋⌈⌉{}⟨⟩/\\/\\"
                      "⎛⎞⎡⎤⎣⎦⎢⎥⎧⎫⎩⎭⎨⎬⎪⏐"
                      "⎝⎠⎜⎟⟨⟩⨆⨆∮∮⨀⨀⨁⨁⨂⨂"
                      "∑∏∫⋃⋂⨄⋀⋁∑∏∫⋃⋂⨄⋀⋁"
                      "∐∐^^^~~~[]⌊⌋⌈⌉{}"
                      "√√√√√⎷│"))
# the tips of a horizontal brace (plain.tex's \braceld, \bracerd, \bracelu, \braceru at 0x7A–0x7D, each a curl
# down or up): an underbrace (\upbracefill: lu, rd, ld, ru) reads "╰╮╭╯", an overbrace "╭╯╰╮" (the rules between the
# tips are drawn, not set)
_OMX.update({0x7A: "╭", 0x7B: "╮", 0x7C: "╰", 0x7D: "╯"})
# OMS (cmsy10): binary operators, relations, arrows, calligraphic capitals (as plain capitals), set operators
_OMS = dict(enumerate("−·×∗÷⋄±∓⊕⊖⊗⊘⊙◯∘∙"
                      "≍≡⊆⊇≤≥⪯⪰∼≈⊂⊃≪≫≺≻"
                      "←→↑↓↔↗↘≃⇐⇒⇑⇓⇔↖↙∝"
                      "′∞∈∋△▽/|∀∃¬∅ℜℑ⊤⊥"  # 0x37: the bar of "↦" (it stands before "→")
                      "ℵABCDEFGHIJKLMNO"
                      "PQRSTUVWXYZ∪∩⊎∧∨"
                      "⊢⊣⌊⌋⌈⌉{}⟨⟩|‖↕⇕\\≀"
                      "√⨿∇∫⊔⊓⊑⊒§†‡¶♣♢♡♠"))
_FONTS = [(re.compile(r"^(?:[A-Z]{6}\+)?(?:CMEX|LMMathExtension|TeX_CM_Maths_Extension|EUEX)", re.I), _OMX),
          (re.compile(r"^(?:[A-Z]{6}\+)?(?:CMB?SY|LMMathSymbols|TeX_CM_Maths_Symbols)", re.I), _OMS)]


def table(font: str) -> dict[int, str] | None:
    """The encoding of a TeX maths font by its name ("CMEX10", "ABCDEF+CMSY7", "LMMathExtension10-Regular")."""
    return next((t for pattern, t in _FONTS if pattern.match(font or "")), None)


def wanted(blocks: list[dict]) -> bool:
    """Whether any span of a TeX maths font has a glyph without a character (then ``characters`` needs the codes)."""
    return any(UNMAPPED in s["text"] and table(s.get("font", ""))
               for b in blocks for line in b.get("lines", ()) for s in line["spans"])


def characters(blocks: list[dict], coded: list[dict]) -> list[dict]:
    """``blocks`` (``page.get_text("dict")``) with each "�" of a TeX maths font's span replaced by the character its
    code in ``coded`` (the same page read with ``TEXT_CID_FOR_UNKNOWN_UNICODE``) draws. A span whose twin in
    ``coded`` is missing or cannot be lined up with it (``aligned``) is left as it is."""
    for b, cb in zip(blocks, coded):
        for line, cline in zip(b.get("lines", ()), cb.get("lines", ())):
            for s, cs in zip(line["spans"], cline["spans"]):
                t = table(s.get("font", "")) if UNMAPPED in s["text"] else None
                codes = aligned(s["text"], cs["text"]) if t is not None else None
                if codes is None:
                    continue
                s["text"] = "".join(t.get(ord(c), ch) if ch == UNMAPPED else ch for ch, c in zip(s["text"], codes))
    return blocks


def aligned(text: str, codes: str) -> str | None:
    """``codes`` (the span read as glyph codes) one for one with ``text``: MuPDF may set a space between two glyphs
    there that the span read as text has not ("z }| {" for the four tips of an overbrace, "����"); such spaces are
    dropped. None when the two do not line up."""
    if len(codes) == len(text):
        return codes
    out, j = [], 0
    for ch in text:
        while ch != " " and j < len(codes) and codes[j] == " ":
            j += 1
        if j >= len(codes):
            return None
        out.append(codes[j])
        j += 1
    return "".join(out) if not codes[j:].strip() else None
