"""Chunk inspector: how a book is cut (on the page, side by side with another strategy), chunk stats and
lint, what the answerer receives for a chunk under a window/parent setting, a query probe that runs
the chat's own stages, and JSONL export."""
import pandas as pd
import streamlit as st

from pages._inspect_view import first_text_page, settings_label, side_by_side_html
from pages._widgets import histogram, source_parts, spans_html, stats_row
from pages._browser import browser_id
from pages._shared import chunking_picker, escape_markdown, get_service, show_error
from rag.inspector.inspector import decision_text
from rag.chunking import describe
from rag.chunking.lint import CHECKS, counts
from rag.context import DOC_TYPES, format_sources
from rag.query.kinds import QUERY_TYPES
from rag.text.languages import NAMES

svc = get_service()
st.title("🔍 Chunk inspector")
books = [b for b in svc.library.books() if b.status == "ready"]
if not books:
    st.info("No indexed books yet. Add a PDF on the Library page.")
    st.stop()

book = st.selectbox("Book", books, format_func=lambda b: f"{b.title} — {b.chunks} chunks")
cfg = {k: v for k, v in book.chunking.items() if k != "v"}
indexed_name = f"{cfg.get('chunker', 'paragraph')} · {cfg.get('chunk_size', '')} word-pieces"
guess = book.report.get("doc_type", "narrative")
c1, c2 = st.columns([3, 1])
c1.caption(escape_markdown(f"Indexed with {indexed_name} ({describe(cfg.get('chunker', 'paragraph'))}) · "
                           f"model {book.embed_model}"))
c1.caption(escape_markdown("Settings: " + settings_label(cfg)))
choice = c2.selectbox("Book type (adaptive context)", ["auto"] + list(DOC_TYPES),
                      index=(["auto"] + list(DOC_TYPES)).index(book.doc_type or "auto"),
                      format_func=lambda t: f"auto ({guess})" if t == "auto" else t, key=f"doctype_{book.id}")
if (choice if choice != "auto" else "") != book.doc_type:
    svc.library.set_doc_type(book.id, "" if choice == "auto" else choice)
    st.rerun()

chunks = svc.inspector.chunks(book.id)
by_index = {c.chunk_index: c for c in chunks}
t_page, t_stats, t_ctx, t_probe, t_export = st.tabs(  # short labels: all five fit on a phone
    ["📄 Page", "📊 Chunks", "🧩 Context", "🔎 Probe", "⬇️ Export"])

# --- page view: indexed chunks vs another strategy on the same page ---------------------------------
with t_page:
    page_key = f"page_{book.id}"
    if page_key not in st.session_state:  # open on the first page with text, not the cover
        st.session_state[page_key] = min(book.pages, first_text_page(chunks))
    if book.pages > 1:
        page_no = st.slider("Page", 1, book.pages, key=page_key)
        near = range(max(1, page_no - 2), min(book.pages, max(1, page_no - 2) + 4) + 1)
        for col, n in zip(st.columns(len(near)), near):
            with col:
                try:
                    st.image(str(svc.inspector.thumbnail(book.id, n)), width=90)
                except Exception:  # noqa: BLE001 - a page that cannot be drawn still has its button
                    pass
                st.button(f"p. {n}", key=f"thumb_{book.id}_{n}", type="primary" if n == page_no else "secondary",
                          on_click=lambda n=n: st.session_state.update({page_key: n}))
    else:
        page_no = 1
    st.caption("Each chunk has its own colour on the page image and in the text under it; striped text "
               "belongs to two chunks (overlap); dashed boxes are parents; grey text is in no chunk; struck-through "
               "lines are running headers, footers and page numbers, kept out of chunk text and embeddings. A "
               "header set lower than that band (some manuals print one well under the page's top edge) stays in "
               "the chunk, where it helps the search, but is never quoted in an answer or highlighted.")
    with st.expander("Compare two settings", expanded=True):
        lc, rc = st.columns(2)
        with lc:
            use_indexed = st.toggle(f"Left: the indexed chunks ({indexed_name})", True, key=f"lhs_indexed_{book.id}")
            left_cfg = None if use_indexed else chunking_picker(f"lhs_{book.id}", {**cfg, "chunker": "sentence"})
        with rc:
            st.caption("Right: a preview (nothing is re-indexed until you ask)")
            other_cfg = chunking_picker(
                f"cmp_{book.id}", {**cfg, "chunker": "semantic" if cfg.get("chunker") != "semantic" else "hierarchical"}
            )
    pages = svc.inspector.pages(book.id)
    page = pages[int(page_no) - 1]
    left, right = st.columns(2)
    try:
        span = (int(page_no), int(page_no))
        with st.spinner("Chunking this page's sections…"):
            lhs = chunks if left_cfg is None else svc.inspector.preview_chunks(book.id, left_cfg, span)
            other = svc.inspector.preview_chunks(book.id, other_cfg, span)
        lhs_title = (f"Indexed: {indexed_name}" if left_cfg is None
                     else f"Preview: {left_cfg['chunker']} · {left_cfg['chunk_size']} word-pieces")
        for col, title, cs in ((left, lhs_title, lhs),
                               (right, f"Preview: {other_cfg['chunker']} · {other_cfg['chunk_size']} "
                                       f"word-pieces", other)):
            with col:
                here = [c for c in cs if c.char_start < page.offset + len(page.text) and c.char_end > page.offset]
                st.markdown(f"**{escape_markdown(title)}** — {len(here)} chunks on this page")
                st.image(str(svc.inspector.chunk_map(book.id, int(page_no), here)), width="stretch")
                st.html(spans_html(page, here))
        on_this = [c for c in chunks if c.char_start < page.offset + len(page.text) and c.char_end > page.offset]
        if on_this:
            st.caption("Chunks of this page (indexed): pick one to see what the answerer receives for it, "
                       "on the 🧩 Context tab")
            picks = st.columns(min(6, len(on_this)))
            for i, c in enumerate(on_this[:12]):
                picks[i % len(picks)].button(
                    f"#{c.chunk_index}", key=f"pick_{book.id}_{c.chunk_index}",
                    type="primary" if st.session_state.get(f"ctxsel_{book.id}") == c.chunk_index else "secondary",
                    on_click=lambda i=c.chunk_index: st.session_state.update({f"ctxsel_{book.id}": i}))
        if st.button(f"Re-index this book with {other_cfg['chunker']} ({other_cfg['chunk_size']})",
                     key=f"rechunk_{book.id}"):
            svc.library.submit_reindex(book.id, other_cfg, owner=browser_id())
            st.success("Re-indexing in the background; follow it on the Library page.")
    except Exception as e:  # noqa: BLE001 - shown to the user, never a traceback
        show_error(e)

# --- stats and lint ------------------------------------------------------------------------------------
with t_stats:
    which = st.radio("Chunks of", ["indexed", "another strategy (whole book preview)"], horizontal=True,
                     key=f"statsof_{book.id}")
    shown, label = chunks, indexed_name
    if which != "indexed":
        stat_cfg = chunking_picker(f"stat_{book.id}", cfg)
        try:
            with st.spinner("Chunking the whole book…"):
                shown = svc.inspector.preview_chunks(book.id, stat_cfg)
            label = f"{stat_cfg['chunker']} · {stat_cfg['chunk_size']} (preview)"
        except Exception as e:  # noqa: BLE001
            show_error(e)
    row = stats_row(shown)
    cols = st.columns(len(row))
    for col, (k, v) in zip(cols, row.items()):
        col.metric(k, v)
    st.altair_chart(histogram(shown, f"Word-pieces per chunk — {label}"), width="stretch")
    findings = svc.inspector.lint(book.id, shown)
    st.markdown("**Chunk-quality lint**")
    n = counts(findings)
    st.dataframe(pd.DataFrame([{"check": k, "chunks": n[k]} for k in CHECKS]), hide_index=True)
    if findings:
        fdf = pd.DataFrame([{"chunk": f.chunk_index, "check": f.check, "detail": f.detail} for f in findings])
        ev = st.dataframe(fdf, hide_index=True, width="stretch", height=220, on_select="rerun",
                          selection_mode="single-row", key=f"lint_{book.id}_{label}")
        sel = ev.selection.rows if ev and ev.selection else []
        if sel:
            c = next((x for x in shown if x.chunk_index == findings[sel[0]].chunk_index), None)
            if c:
                st.caption(escape_markdown(f"Chunk {c.chunk_index} · {c.pages_label} · {c.tokens} word-pieces · "
                                           f"{c.kind} · {c.section}"))
                st.text(c.text)
    st.markdown("**All chunks**")
    df = pd.DataFrame([{"index": c.chunk_index, "page": c.pages_label, "tokens": c.tokens, "kind": c.kind,
                        "parent": c.parent if c.parent >= 0 else None, "section": c.section,
                        "preview": " ".join(c.text.split())[:120]} for c in shown])
    ev = st.dataframe(df, hide_index=True, width="stretch", height=300, on_select="rerun",
                      selection_mode="single-row", key=f"chunks_{book.id}_{label}")
    rows = ev.selection.rows if ev and ev.selection else []
    if rows and which == "indexed" and st.session_state.get(f"_picked_{book.id}") != rows[0]:
        st.session_state[f"_picked_{book.id}"] = rows[0]  # a new click in the list (not the one before)
        st.session_state[f"ctxsel_{book.id}"] = shown[rows[0]].chunk_index
    if rows and which == "indexed":
        st.caption("Selected: see it in its context on the 🧩 Context tab.")

# --- what the answerer receives for one chunk -------------------------------------------------------------
with t_ctx:
    c1, c2 = st.columns([1, 2])
    st.session_state.setdefault(f"ctxsel_{book.id}", 0)  # set by a click on the page or in the list
    sel = c1.number_input("Chunk", 0, len(chunks) - 1, key=f"ctxsel_{book.id}")
    question = c2.text_input("Question (optional: scores neighbours and sets the question type)", key=f"ctxq_{book.id}")
    c1, c2, c3, c4 = st.columns(4)
    mode = c1.radio("Context", ["adaptive", "fixed"], key=f"ctxmode_{book.id}",
                    help="adaptive: sized from question and book type, parents for hierarchical books; fixed: ±window")
    window = c2.slider("Window (± chunks)", 0, 5, svc.settings.window, key="inspector_window")
    qtype = c3.selectbox("Question type", ["(detect)"] + list(QUERY_TYPES), key=f"ctxqt_{book.id}")
    budget = c4.number_input("Budget (word-pieces)", 200, 8000, svc.settings.context_budget_tokens, step=100,
                             key=f"ctxb_{book.id}")
    try:
        src = svc.inspector.context_preview(book.id, int(sel), question, "" if qtype == "(detect)" else qtype,
                                  context_mode=mode, window=window, context_budget_tokens=int(budget))
        st.info(escape_markdown(src.plan.get("summary", "")), icon="🧩")
        source_parts(src, by_index)
        block = format_sources([src])
        st.markdown(f"**Exactly what the answerer receives** ({svc.inspector.count_tokens(block)} word-pieces)")
        st.text(block)
    except Exception as e:  # noqa: BLE001
        show_error(e)

# --- query probe ----------------------------------------------------------------------------------------------
with t_probe:
    q = st.text_input("Question", key="probe_q", placeholder="What is recursion?")
    scope = st.radio("Search", ["this book", "whole library"], horizontal=True, key="probe_scope")
    ca, cb = st.columns(2)
    setups = []
    for col, name, default_mode, default_window in ((ca, "A", "adaptive", 1), (cb, "B", "fixed", 2)):
        with col.container(border=True):
            st.markdown(f"**Setting {name}**")
            m = st.radio("Context", ["adaptive", "fixed"], index=["adaptive", "fixed"].index(default_mode),
                         horizontal=True, key=f"probe_mode_{name}")
            w = st.slider("Window", 0, 5, default_window, key=f"probe_win_{name}")
            thr = st.slider("Similarity threshold", 0.0, 0.8, svc.settings.similarity_threshold, 0.05,
                            key=f"probe_thr_{name}")
            setups.append((name, {"context_mode": m, "window": w, "similarity_threshold": thr}))
    if q.strip():
        try:
            results = {
                name: svc.inspector.probe(q, book.id if scope == "this book" else None, **o) for name, o in setups
            }
            a = results["A"]
            titles = {b.id: b.title for b in books}
            langs = ", ".join(f"{titles.get(k, k)}: {v}" for k, v in a["book_languages"].items())
            st.markdown(escape_markdown(
                f"Question type {a['query_type']} · language {a['language']} · threshold {a['threshold']:.2f} · "
                f"{len(a['candidates'])} candidates" + (" · asks for contents/index/references: those chunks "
                                                        "are searched" if a["asks_for_zone"] else
                                                        " · contents/index/references chunks left out")))
            st.caption(escape_markdown(f"BM25 language per book: {langs}"))
            for lang, found in a.get("translations", {}).items():
                words = "; ".join(f"{w} → " + (", ".join(t for t, held in ts.items() if held) or "none the books hold")
                                  for w, ts in found.items())
                st.caption(escape_markdown(f"Also searched in the {NAMES.get(lang, lang)} books for the words' "
                                           f"translations that they hold "
                                           f"(dictionary): {words}"))
            st.caption(escape_markdown(f"Decision (setting A): {decision_text(a)}; searched {len(a['books'])} "
                                       f"book(s); query “{a['query']}”"))
            st.dataframe(pd.DataFrame([{
                "rank": i + 1, "chunk": x["chunk"].chunk_index, "page": x["chunk"].pages_label,
                "dense sim": round(x["similarity"], 3), "dense rank": x["dense_rank"],
                "BM25": round(x["bm25"], 2), "BM25 rank": x["bm25_rank"], "fused": round(x["fused"], 4),
                "passes threshold": x["passed"], "kept": x["kept"], "text": " ".join(x["chunk"].text.split())[:100],
            } for i, x in enumerate(a["candidates"])]).astype({"dense rank": "Int64", "BM25 rank": "Int64"}),
                hide_index=True, width="stretch", height=280, column_config={
                    "dense rank": st.column_config.NumberColumn(help="Empty: the dense retriever did not return it "
                                                                     "(BM25 did)."),
                    "BM25 rank": st.column_config.NumberColumn(help="Empty: BM25 did not return it (the dense "
                                                                    "retriever did).")})
            st.caption("Sources are numbered here as retrieval ranks them, which is the order the answerer "
                       "receives them in; the chat's built-in answer renumbers the ones it quotes in the order it "
                       "cites them ([1] first), so the same passage can carry another number there.")
            cols = st.columns(2)
            for col, (name, _) in zip(cols, setups):
                r = results[name]
                with col:
                    st.markdown(f"**{name}: {len(r['sources'])} sources, {r['tokens']} word-pieces**")
                    for s in r["sources"]:
                        st.caption(escape_markdown(f"[{s.n}] chunk {s.hit.chunk_index} · {s.pages_label} — "
                                                   f"{s.plan.get('summary', '')}"))
                    with st.expander("Final context"):
                        st.text(r["context"])
            st.markdown("**Difference of the final context (A → B)**")
            if results["A"]["context"] != results["B"]["context"]:
                st.caption("Red: only in A · green: only in B · yellow: changed")
                st.html(side_by_side_html(results["A"]["context"], results["B"]["context"], ("A", "B")))
            else:
                st.caption("The two settings give the same context.")
        except Exception as e:  # noqa: BLE001
            show_error(e)

# --- export ---------------------------------------------------------------------------------------------------
with t_export:
    st.caption("Each line: one chunk's text and metadata (pages, characters, section, kind, parent) with the "
               "settings that produced it. The CLI does the same: `python -m rag chunks BOOK_ID --out FILE`.")
    st.download_button(
        "Download chunks (JSONL)",
        svc.inspector.export_chunks(book.id),
        file_name=f"{book.id}-chunks.jsonl",
        mime="application/jsonl",
    )
