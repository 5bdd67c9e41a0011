"""Chunk inspector (first cut): a book's chunks in a table; the selected chunk inside its
before/after window, window size adjustable live."""
import pandas as pd
import streamlit as st

from pages._shared import escape_markdown, get_service

svc = get_service()
st.title("🔍 Chunk inspector")
books = [b for b in svc.books() if b.status == "ready"]
if not books:
    st.info("No indexed books yet. Add a PDF on the Library page.")
    st.stop()

book = st.selectbox("Book", books, format_func=lambda b: f"{b.title} — {b.chunks} chunks")
st.caption("Chunking: " + ", ".join(f"{k}={v}" for k, v in book.chunking.items()) + f" · model {book.embed_model}")
chunks = svc.chunks(book.id)
df = pd.DataFrame([{
    "index": c.chunk_index, "page": c.pages_label, "tokens": c.tokens, "section": c.section,
    "preview": " ".join(c.text.split())[:120],
} for c in chunks])
c1, c2, c3 = st.columns(3)
c1.metric("Chunks", len(chunks))
c2.metric("Mean word-pieces", f"{df['tokens'].mean():.0f}")
c3.metric("Max word-pieces", int(df["tokens"].max()))
event = st.dataframe(df, hide_index=True, width="stretch", height=320, on_select="rerun",
                     selection_mode="single-row", key=f"chunks-{book.id}")
rows = event.selection.rows if event and event.selection else []
selected = chunks[rows[0]] if rows else chunks[0]

window = st.slider("Window (± neighbour chunks)", 0, 5, 1, key="inspector_window")
st.subheader(f"Chunk {selected.chunk_index} · {escape_markdown(selected.pages_label)} · {selected.tokens} word-pieces")
st.caption(f"Section: {escape_markdown(selected.section) or '—'} · characters {selected.char_start}–{selected.char_end}")
for c in svc.window(book.id, selected.chunk_index, window):
    if c.chunk_index == selected.chunk_index:
        st.success(escape_markdown(c.text), icon="🎯")
    else:
        where = "before" if c.chunk_index < selected.chunk_index else "after"
        with st.container(border=True):
            st.caption(f"{where} · chunk {c.chunk_index} · {escape_markdown(c.pages_label)} · {c.tokens} word-pieces")
            st.text(c.text)
