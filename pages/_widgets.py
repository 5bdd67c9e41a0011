"""Widgets of the chunk inspector: chunks over a page's text (escaped HTML, never Markdown), token
histogram, a source shown part by part with token counts."""
from __future__ import annotations

import html

import altair as alt
import pandas as pd
import streamlit as st

from rag.evidence.render import palette_hex
from rag.types import Chunk, Page


def spans_html(page: Page, chunks: list[Chunk]) -> str:
    """The page text with each chunk's characters on its colour (the same colours as the page map);
    characters in two chunks (overlap) striped; text in no chunk grey; running headers/footers (page
    furniture, kept out of chunk text) grey and struck through; a small #index at each chunk start.
    Every piece of book text goes through html.escape."""
    end = page.offset + len(page.text)
    here = [c for c in chunks if c.char_start < end and c.char_end > page.offset]
    cuts = {0, len(page.text)}
    furniture = page.furniture
    for a, b in furniture:
        cuts.update((a, b))
    for c in here:
        cuts.update((max(0, c.char_start - page.offset), min(len(page.text), c.char_end - page.offset)))
    cuts = sorted(cuts)
    starts = {c.char_start - page.offset: c for c in here}
    out = []
    for a, b in zip(cuts, cuts[1:]):
        if a in starts:
            c = starts[a]
            tag = f"#{c.chunk_index}" + (f" ▸P{c.parent}" if c.parent >= 0 else "")
            out.append(f'<sup style="font-size:0.7em;color:#333;background:#fff;border:1px solid '
                       f'{palette_hex(c.chunk_index)};border-radius:3px;padding:0 2px">{html.escape(tag)}</sup>')
        cover = [c for c in here if c.char_start - page.offset <= a and c.char_end - page.offset >= b]
        text = html.escape(page.text[a:b])
        if any(x <= a and b <= y for x, y in furniture):
            out.append(f'<span class="furniture" title="running header/footer: kept out of chunks" '
                       f'style="color:#999;text-decoration:line-through">{text}</span>')
        elif not cover:
            out.append(f'<span style="color:#999">{text}</span>')
        elif len(cover) == 1:
            out.append(f'<span style="background:{palette_hex(cover[0].chunk_index)}55">{text}</span>')
        else:
            c1, c2 = palette_hex(cover[0].chunk_index), palette_hex(cover[1].chunk_index)
            out.append(f'<span title="overlap" style="background:repeating-linear-gradient(45deg,{c1}77,{c1}77 4px,'
                       f'{c2}77 4px,{c2}77 8px)">{text}</span>')
    return ('<div style="white-space:pre-wrap;font-family:ui-monospace,monospace;font-size:0.78em;line-height:1.5;'
            'max-height:520px;overflow:auto;border:1px solid #ddd;padding:6px" class="chunk-spans">'
            + "".join(out) + "</div>")


def histogram(chunks: list[Chunk], title: str):
    df = pd.DataFrame({"word-pieces": [c.tokens for c in chunks]})
    return (alt.Chart(df, title=title).mark_bar()
            .encode(alt.X("word-pieces:Q", bin=alt.Bin(step=10)), alt.Y("count()", title="chunks"))
            .properties(height=180))


def stats_row(chunks: list[Chunk]) -> dict:
    toks = [c.tokens for c in chunks] or [0]
    parents = len({c.parent for c in chunks if c.parent >= 0})
    return {"chunks": len(chunks), "mean word-pieces": round(sum(toks) / len(toks)), "min": min(toks), "max": max(toks),
            "code/table chunks": sum(c.kind != "text" for c in chunks), "parents": parents}


def source_parts(src, chunks_by_index: dict[int, Chunk]) -> None:
    """The source part by part: before, the hit, after, each with its word-pieces (cut ones marked)."""
    plan = src.plan or {}
    cut = {int(k): v for k, v in (plan.get("truncated") or {}).items()}
    hit = src.hit.chunk_index
    rows = []
    for i in src.chunk_indices:
        c = chunks_by_index.get(i)
        where = "hit" if i == hit else ("before" if i < hit else "after")
        rows.append({"chunk": i, "part": where, "word-pieces": cut.get(i, c.tokens if c else 0),
                     "cut to fit": i in cut, "page": c.pages_label if c else "", "section": c.section if c else ""})
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
