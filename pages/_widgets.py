"""Widgets: book text with its structure (paragraphs, lists, code, tables), the answer view (the answer with
clickable [n], its confidence in plain words, figures, a compact list of sources, and "How this answer was made"
for RAG builders), and the chunk inspector's (chunks over a page's text, token histogram, a source part by part).

Book text is always text: ``st.text``, ``st.code``, a dataframe's cells, or the citation component's text nodes;
labels that Streamlit reads as Markdown (expanders, buttons, captions) get it escaped."""
from __future__ import annotations

import html

import altair as alt
import pandas as pd
import streamlit as st

from pages._shared import escape_markdown
from rag.errors import RagError
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


# --- book text and answers (the Chat page) ------------------------------------------------------------------

def table_frame(rows) -> pd.DataFrame:
    """Table rows (the first the header) as a dataframe of text: cells are shown as written, never as Markdown."""
    rows = [list(r) for r in rows]
    if not rows:
        return pd.DataFrame()
    header, body = rows[0], rows[1:] or [[""] * len(rows[0])]
    names: list[str] = []
    for i, h in enumerate(header):
        name = h.strip() or f"column {i + 1}"
        while name in names:
            name += " "
        names.append(name)
    return pd.DataFrame(body, columns=names, dtype="string")


def book_text(blocks, key: str) -> None:
    """Blocks of book text (``rag.evidence.blocks``): paragraphs and lists as text, code as code, tables as
    tables (``key``: unique per place, for the tables' widgets)."""
    for i, b in enumerate(blocks):
        if b.kind == "code":
            st.code(b.text, language=None, wrap_lines=False)
        elif b.kind == "table":
            st.dataframe(table_frame(b.rows), hide_index=True, width="stretch", key=f"{key}-t{i}")
        else:
            st.text(b.text)


def _source(d: dict):
    """A stored source (``Source.to_dict()``), tolerant of fields added by later versions."""
    from rag.types import Chunk, Source

    d = {k: v for k, v in d.items() if k in Source.__dataclass_fields__}
    d["hit"] = Chunk(**{k: v for k, v in d["hit"].items() if k in Chunk.__dataclass_fields__})
    if d.get("quoted"):
        d["quoted"] = Chunk(**{k: v for k, v in d["quoted"].items() if k in Chunk.__dataclass_fields__})
    return Source(**d)


def _labels(answer: dict) -> dict[int, str]:
    return {int(s["n"]): _source(s).label for s in answer.get("sources") or []}


def answer_body(answer: dict, key: str) -> tuple[int, int] | None:
    """The answer's text: prose with clickable [n] (book text as text nodes), code as code, tables as tables.
    Returns (source number, which of its citations) clicked in this run."""
    from rag.evidence.blocks import answer_blocks

    from pages._citations import cited_prose

    labels = _labels(answer)
    clicked = None
    seen: dict[int, int] = {}
    for i, b in enumerate(answer_blocks(answer.get("text", ""))):
        if b.kind == "para":
            n = cited_prose(b.text, labels, key=f"{key}-p{i}", seen=seen)
            clicked = clicked or n
        else:
            book_text([b], key=f"{key}-b{i}")
    return clicked


def outcome_line(answer: dict) -> None:
    """The one confidence notion, in plain words (the same words the Metrics page uses)."""
    from rag.answer.metrics import confidence_words, outcome

    if (answer.get("context") or {}).get("searched") is False:  # "?!?" or an empty library: nothing was asked
        return
    result = outcome(answer)
    basis = (answer.get("context") or {}).get("basis", "")  # the book's title page or preface answered it
    words = confidence_words(float(answer.get("confidence") or 0.0), result, basis)
    if result == "likely":
        badge = "Likely answer · low confidence"
        st.badge(badge, icon=":material/help:", color="orange")
        words = words.removeprefix(badge).strip()  # the badge says it once: "(67%): the best passage matches, …"
        if words.startswith("(") and "):" in words:  # … and the line under it reads on its own: "67% — the best …"
            pct, rest = words[1:].split("):", 1)
            words = f"{pct} — {rest.strip()}"
    st.caption(escape_markdown(words), help="Confidence = how likely it is that your books answer the question, "
               "calibrated on questions with known answers (the same number the Metrics page shows).")


def checks_line(answer: dict) -> None:
    bad = [c for c in answer.get("checks") or [] if not c["ok"]]
    if bad:
        names = ", ".join(f"[{c['n']}]" for c in bad)
        st.caption(escape_markdown(f"⚠️ {len(bad)} sentence(s) could not be found in the source they cite "
                                   f"({names}); check them on the page."))


def sources_list(answer: dict, key: str, gone: set[str]) -> None:
    """The sources the answer cites, one line each (book › section, page): the passage on demand, the page one
    click away; the other passages searched behind a switch (a declined question lists its closest ones)."""
    sources = answer.get("sources") or []
    if not sources:
        return
    not_found = answer.get("not_found") or answer.get("outcome") == "not_found"
    st.caption("Closest passages (they do not answer the question)" if not_found else "Sources")
    known = {_source(s).n for s in sources}
    cited = set() if not_found else cited_numbers(answer.get("text") or "", known)
    shown = [s for s in sources if not cited or _source(s).n in cited]
    rest = [s for s in sources if s not in shown]
    for s in shown:
        _source_row(answer, _source(s), key, gone)
    if rest and st.toggle(f"{len(rest)} more passage(s) searched, not quoted", key=f"{key}-rest"):
        for s in rest:
            _source_row(answer, _source(s), key, gone)


def cited_numbers(text: str, known: set[int] | None = None) -> set[int]:
    """The sources an answer's prose cites ([1], [2, 3]) among ``known``; an index in a code block (``t[2]``) is
    no citation."""
    from rag.evidence.blocks import answer_blocks, cite_segments

    return {n for b in answer_blocks(text) if b.kind != "code"
            for kind, n in cite_segments(b.text, known) if kind == "cite"}


def _source_row(answer: dict, src, key: str, gone: set[str]) -> None:
    """One source: its label opening its passage, and the button that opens its page in the reader."""
    from pages._reader import open_source_button

    with st.container(horizontal=True, vertical_alignment="top", gap="small", wrap=False):
        with st.expander(escape_markdown(f"[{src.n}] {src.label}"), key=f"{key}-s{src.n}", on_change="rerun",
                         type="compact", width="stretch") as box:
            if box.open:
                passage(src, key=f"{key}-s{src.n}-text", answer_text=answer.get("text") or "")
        open_source_button(answer, src, key=f"{key}-o{src.n}", disabled=src.book_id in gone)


def passage(src, key: str, answer_text: str = "") -> None:
    """A source's passage with its structure (its pages' line kinds when the book is still there): the chunks that
    hold what the answer quotes from it, else the matching one."""
    from pages._shared import get_service

    try:
        blocks = get_service().reader.quoted_passage(src, answer_text)
    except RagError as e:
        st.caption(escape_markdown(str(e)))
        return
    book_text(blocks, key=key)


def figures_row(answer: dict, key: str, gone: set[str]) -> None:
    """The book's figures under an answer: image, caption, page, and the page in the reader."""
    from pages._reader import open_figure_button
    from pages._shared import get_service

    figures = answer.get("figures") or []
    if not figures:
        return
    svc = get_service()
    cols = st.columns(max(3, len(figures)))  # a lone figure keeps a third of the width
    for i, (col, f) in enumerate(zip(cols, figures)):
        with col.container(border=True):
            path = svc.library.file(f["path"])
            if path.exists():
                st.image(str(path), width="stretch")
            else:
                st.caption("(the figure's image is gone with its book)")
            st.text(f.get("caption") or f"Figure on p. {f['page_label']}")
            st.caption(escape_markdown(f"{f['book_title']}, p. {f['page_label']} · {f['why']}"))
            open_figure_button(f, key=f"{key}-f{i}", disabled=f["book_id"] in gone)


def how_made(answer: dict, key: str, expanded: bool) -> None:
    """Everything a RAG builder wants and a reader does not: the query searched, the decision and its evidence,
    stage timings, each source's scores, window and word-pieces, the quote check. Rendered only when open."""
    with st.expander("How this answer was made", key=f"{key}-how", expanded=expanded, on_change="rerun",
                     icon=":material/tune:") as box:
        if not box.open:
            return
        ctx = answer.get("context") or {}
        ans = ctx.get("answerability") or {}
        if ctx.get("searched") is False:  # "???", or an empty library: nothing was looked for
            st.text("Nothing was searched: the question has no words to look for, or no book is ready.")
            return
        st.text(f"Searched for: {answer.get('query', '')}")
        st.text(f"Backend: {answer.get('backend', '')} · context {ctx.get('mode', '?')} · "
                f"{ctx.get('query_type', '?')} question" + (f" · language {ctx['language']}" if ctx.get("language")
                                                           else ""))
        if ans:
            st.text(f"P(the books answer it) = {ans.get('probability', answer.get('confidence', 0)):.3f} "
                    f"(answer at ≥ {ans.get('min', 0):.2f})")
            feats = {k: v for k, v in ans.items() if k not in ("probability", "min")}
            if feats:
                st.dataframe(pd.DataFrame([feats]), hide_index=True, width="stretch", key=f"{key}-feat")
        trace = answer.get("trace") or {}
        if trace:
            st.dataframe(pd.DataFrame([{"stage": k, "ms": round(float(v), 1)} for k, v in trace.items()]),
                         hide_index=True, width="stretch", key=f"{key}-trace")
        rows = []
        for s in answer.get("sources") or []:
            src = _source(s)
            rows.append({"n": src.n, "book": src.book_title, "chunk": src.hit.chunk_index, "pages": src.pages_label,
                         "context pages": s.get("context_label", ""), "similarity": round(src.similarity, 3),
                         "fused score": round(src.score, 4), "word-pieces": (src.plan or {}).get("tokens"),
                         "window": (src.plan or {}).get("summary", "")})
        if rows:
            st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key=f"{key}-src")
        checks = answer.get("checks") or []
        if checks:
            st.dataframe(pd.DataFrame([{"n": c["n"], "how": c["how"], "overlap": round(c.get("overlap", 0), 2),
                                        "sentence": c["sentence"]} for c in checks]),
                         hide_index=True, width="stretch", key=f"{key}-chk")


def gone_books(answer: dict, present: set[str]) -> set[str]:
    """Books an answer cites or shows that are no longer in the library."""
    ids = {s["book_id"] for s in answer.get("sources") or []} | {f["book_id"] for f in answer.get("figures") or []}
    return ids - present


def _open_turn(key: str) -> None:
    st.session_state.setdefault("open_turns", set()).add(key)


def answer_view(answer: dict, key: str, full: bool, builder: bool, present: set[str]) -> tuple[int, int] | None:
    """One answer as a reader sees it. ``full``: sources, figures and the "how" panel (the latest answer); else
    compact (an older turn: its text and confidence, the rest behind one button; no images, nothing heavy).
    ``present``: the ids of the books in the library. Returns the [n] clicked in this run (n, which of its [n])."""
    clicked = answer_body(answer, key)
    outcome_line(answer)
    gone = gone_books(answer, present)
    if gone:
        titles = sorted({s["book_title"] for s in answer.get("sources") or [] if s["book_id"] in gone})
        st.caption(escape_markdown(f"📕 No longer in your library: {', '.join(titles) or 'a book cited here'} — "
                                   "its pages cannot be opened; its passages are shown as they were quoted."))
    if full:
        checks_line(answer)
        figures_row(answer, key, gone)
        sources_list(answer, key, gone)
        how_made(answer, key, builder)
    elif answer.get("sources"):
        n = len(answer.get("sources") or [])
        figs = len(answer.get("figures") or [])
        label = f"Sources ({n})" + (f" and figures ({figs})" if figs else "")
        st.button(label, key=f"{key}-more", type="tertiary", icon=":material/expand_more:", on_click=_open_turn,
                  args=(key,))
    return clicked
