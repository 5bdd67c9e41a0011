"""Library: upload PDFs (ingested in the background), follow progress, list, delete, re-index; each
book's figures and its figure report."""
import streamlit as st

from pages._browser import browser_id
from pages._shared import chunking_picker, escape_markdown, get_service, show_error

FIGURES_PER_PAGE = 12  # figures per page of the gallery (◀ Previous / Next ▶ page through all of them)
FIGURE_WIDTH = 180  # px: a thumbnail, not a full-width picture

svc = get_service()
owner = browser_id()  # this browser's upload results are its own; the books are everyone's
st.title("📚 Library")
embed_status = svc.embed_status()  # known once the model is loaded (the start-up warm-up loads it)
if embed_status is not None and not embed_status.fast:
    st.warning(embed_status.message, icon="🐢")

files = st.file_uploader("Add books (PDF, EPUB, Word .docx, HTML, Markdown, text)", accept_multiple_files=True,
                         key="uploader",
                         help="Each file is checked, parsed, chunked, embedded and indexed in the background. "
                              "You can move to another page meanwhile.")
with st.expander("Chunking for new uploads"):
    st.caption("How new books are cut into chunks. A book can be re-chunked later without uploading it again "
               "(Re-index below, or from the Chunk inspector after comparing strategies).")
    upload_chunking = chunking_picker("upload")
submitted = st.session_state.setdefault("submitted", set())
for f in files or []:
    if f.file_id not in submitted:
        submitted.add(f.file_id)
        try:
            svc.library.submit(f.getvalue(), f.name, chunking=upload_chunking, owner=owner)
        except Exception as e:  # noqa: BLE001 - shown to the user, never a traceback
            show_error(e)


@st.fragment(run_every=1.0)
def progress_panel():
    jobs = svc.library.jobs(owner)
    if not jobs:
        return
    st.subheader("Uploads")
    for j in jobs:
        if j.active:
            icon, what = ("⏳", "queued") if not j.stage else ("⚙️", j.stage)
            with st.container(border=True):
                st.text(f"{icon} {j.filename} — {what}")
                st.progress(j.fraction, text=escape_markdown(j.message or "Waiting for the books before it"))
        elif j.state == "failed":
            st.error(escape_markdown(j.error), icon="⚠️")
        elif j.state == "skipped":
            st.info(escape_markdown(f"{j.filename}: {j.message}"), icon="ℹ️")
        else:
            st.success(escape_markdown(f"{j.filename}: {j.message}"), icon="✅")
    finished = sum(not j.active for j in jobs)
    if finished != st.session_state.get("_finished_jobs", finished):
        st.session_state["_finished_jobs"] = finished
        st.rerun()  # a book is ready (or refused): the book list and the sidebar's count show it now
    st.session_state["_finished_jobs"] = finished
    if not any(j.active for j in jobs) and st.button("Clear finished uploads"):
        svc.library.clear_finished_jobs(owner)
        st.rerun()


progress_panel()

books = svc.library.books()
st.subheader("Books")
if not books:
    if any(j.active for j in svc.library.jobs(owner)):
        st.info("No books yet: the uploads above are being added; each is listed here when it is ready.")
    else:
        st.info("No books yet. Upload a book above (PDF, EPUB, Word, HTML, Markdown or text) to start.")
else:
    import pandas as pd  # only with books to list: the empty first page paints sooner

    df = pd.DataFrame([{
        "title": b.title, "pages": b.pages, "chunks": b.chunks, "figures": b.figures, "status": b.status,
        "chunking": ", ".join(f"{k}={v}" for k, v in b.chunking.items()), "embedding model": b.embed_model,
        "ingest s": round(b.ingest_seconds, 1), "added": b.added_at, "file": b.filename, "id": b.id,
    } for b in books])
    st.dataframe(df, hide_index=True, width="stretch", column_config={  # the title in full; the long chunking
        "title": st.column_config.TextColumn(width="large"),  # settings cut (its cell shows them all on hover)
        "chunking": st.column_config.TextColumn(width="medium")})
    with st.container(border=True):
        pick = st.selectbox("Book", books, format_func=lambda b: f"{b.title} ({b.filename})", key="manage_book")
        st.caption("Re-index re-chunks the stored original with the strategy below; vectors of unchanged text "
                   "come from the embedding cache.")
        new_chunking = chunking_picker(f"reindex_{pick.id}", pick.chunking if pick else None)
        c1, c2 = st.columns(2)
        if c1.button("🗑 Delete book"):
            st.session_state["library_confirm"] = ("delete", pick.id, None)
        if c2.button("🔄 Re-index with this chunking"):
            st.session_state["library_confirm"] = ("reindex", pick.id, new_chunking)
        pending = st.session_state.get("library_confirm")
        if pick and pending and pending[1] == pick.id:  # destructive actions are asked twice
            action, _, chunking = pending
            ask = (f"Delete '{pick.title}'? Its chunks, vectors, figures and stored original are removed; chats "
                   "keep their text." if action == "delete" else
                   f"Re-index '{pick.title}' with this chunking? Its current chunks are replaced (the original stays; "
                   "you can re-index again).")
            st.warning(escape_markdown(ask), icon="⚠️")
            y, n = st.columns(2)
            if n.button("Cancel", key="library_cancel"):
                st.session_state.pop("library_confirm", None)
                st.rerun()
            if y.button("Yes, delete" if action == "delete" else "Yes, re-index", type="primary",
                        key="library_yes"):
                st.session_state.pop("library_confirm", None)
                try:
                    if action == "delete":
                        svc.library.delete_book(pick.id)
                        st.toast(f"Deleted {escape_markdown(pick.title)}")
                    else:
                        svc.library.submit_reindex(pick.id, chunking, owner=owner)
                    st.rerun()
                except Exception as e:  # noqa: BLE001 - shown to the user, never a traceback
                    show_error(e)

ready = [b for b in books if b.status == "ready"]
if ready:
    st.subheader("Figures")
    fb = st.selectbox("Figures of", ready, format_func=lambda b: f"{b.title} — {b.figures} figures", key="figures_book")
    rep = fb.report or {}
    if rep:
        skipped = ", ".join(f"{n} {why}" for why, n in (rep.get("skipped") or {}).items()) or "none"
        st.caption(escape_markdown(f"{rep.get('found', 0)} figures ({rep.get('raster', 0)} raster, "
                                   f"{rep.get('vector', 0)} vector), {rep.get('captioned', 0)} with captions. "
                                   f"Skipped as decoration: {skipped}."))
    figs = svc.library.figures(fb.id)
    if figs:
        pages = (len(figs) + FIGURES_PER_PAGE - 1) // FIGURES_PER_PAGE
        key = f"figures_page_{fb.id}"
        at = min(max(st.session_state.get(key, 0), 0), pages - 1)
        lo = at * FIGURES_PER_PAGE
        shown = figs[lo:lo + FIGURES_PER_PAGE]
        prev, where, nxt = st.columns([1, 2, 1])
        prev.button("◀ Previous", key=f"fig_prev_{fb.id}", disabled=at == 0,
                    on_click=lambda: st.session_state.update({key: at - 1}))
        where.caption(f"Figures {lo + 1}–{lo + len(shown)} of {len(figs)}")
        nxt.button("Next ▶", key=f"fig_next_{fb.id}", disabled=at >= pages - 1,
                   on_click=lambda: st.session_state.update({key: at + 1}))
        cols = st.columns(4)
        for i, fig in enumerate(shown):
            with cols[i % 4].container(border=True):
                path = svc.library.file(fig.path)
                if path.exists():
                    st.image(str(path), width=FIGURE_WIDTH)  # small on a phone too (columns stack there)
                st.text(f"{fig.caption} (p. {fig.page_label})" if fig.caption else fig.title)  # title: "Figure on p. 4"
