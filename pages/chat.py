"""Chat: ask the library; answers stream in, then show with clickable [n] that open the cited page in the reader,
their figures, a compact list of sources and their confidence in plain words. Chats are listed in the sidebar,
each at its own URL; a new tab starts a new chat. Older turns render compactly (text and confidence; sources and
figures on request), so the first text of an answer does not wait for a long chat to redraw."""
import streamlit as st

from pages._browser import browser_id
from pages._chats import NOTICE, chat_header, chat_list, confirm_delete_if_asked, current_chat, start_chat
from pages._reader import open_source, reader_if_open
from pages._shared import get_service, overrides, show_error
from pages._widgets import answer_view
from rag.errors import RagError
from rag.library.chats import history
from rag.retrieve.rerank import status as rerank_status

svc = get_service()
s = svc.settings
o = overrides()
owner = browser_id()
chat_id = current_chat(owner)
every_book = svc.library.books()
books = [b for b in every_book if b.status == "ready"]
present = {b.id for b in every_book}

# --- sidebar: chats (drawn last, once this run's question has its chat), scope, the builders' switch and knobs -----
chats_box = st.sidebar.container()
with st.sidebar:
    st.divider()
    scope = st.selectbox("Search in", [None] + [b.id for b in books], key="chat-scope",
                         format_func=lambda i: "Whole library" if i is None else next(b.title for b in books
                                                                                       if b.id == i))
    builder = st.toggle("Show how answers are made", key="show_how",
                        help="For RAG builders: opens each answer's panel of stage timings, scores, windows and "
                             "word-pieces.")
    with st.expander("Retrieval settings"):
        o["retrieve_k"] = st.slider("Candidates per retriever (k)", 1, 50, o.get("retrieve_k", s.retrieve_k))
        o["similarity_threshold"] = st.slider("Similarity threshold", 0.0, 1.0,
                                              float(o.get("similarity_threshold", s.similarity_threshold)), 0.01)
        lo, hi = st.slider("Chunks kept (min..max)", 1, 30, (o.get("min_chunks", s.min_chunks),
                                                            o.get("max_chunks", s.max_chunks)))
        o["min_chunks"], o["max_chunks"] = lo, hi
        o["window"] = st.slider("Neighbour window (± chunks)", 0, 5, o.get("window", s.window))
        o["context_budget_tokens"] = st.slider("Context budget (word-pieces)", 200, 8000,
                                               o.get("context_budget_tokens", s.context_budget_tokens), 100)
        o["answerable_min"] = st.slider("'Not in your books' below (answerable probability)", 0.0, 1.0,
                                        float(o.get("answerable_min", s.answerable_min)), 0.05)
        st.caption("Cross-encoder reranking: " + rerank_status(s.rerank_model))

header = st.container()
notice = st.session_state.pop(NOTICE, None)
if notice:
    st.info(notice, icon="🗂️")
if not books:
    st.info("The library is empty. Add a book (PDF, EPUB, Word, HTML, Markdown or text) on the Library page, then "
            "come back to ask about it.")

messages = svc.chats.messages(chat_id) if chat_id else []
hint = st.empty()
if not messages and books:
    hint.caption("Ask a question about your books. Every answer cites its pages: click a [1] to read the page, "
                 "the passage highlighted.")


def feedback_widget(mid: int, current: int | None, comment: str) -> None:
    """Thumbs on one answer, then (once rated) an optional comment; stored with its metrics."""
    def changed():
        svc.chats.feedback(mid, st.session_state.get(f"fb{mid}"), st.session_state.get(f"fbc{mid}", comment))

    rated = st.feedback("thumbs", key=f"fb{mid}", default=current, on_change=changed)
    if rated is not None or comment:
        st.text_input("Comment", comment, key=f"fbc{mid}", on_change=changed, label_visibility="collapsed",
                      placeholder="What was good or wrong? (optional)")


open_turns = st.session_state.get("open_turns", set())
last_answer_id = max((m["id"] for m in messages if m["answer"]), default=None)
for m in messages:  # the conversation so far: the latest answer in full, older ones compact
    with st.chat_message(m["role"]):
        if not m["answer"]:
            st.text(m["content"])  # the user's words (or a stored error) are text, never Markdown or HTML
            continue
        key = f"m{m['id']}"
        full = m["id"] == last_answer_id or key in open_turns
        clicked = answer_view(m["answer"], key, full, builder, present)
        if clicked:
            open_source(m["answer"], *clicked)
        feedback_widget(m["id"], m.get("feedback"), m.get("comment") or "")

question = st.chat_input("Ask about your books…", disabled=not books)
if question:
    hint.empty()
    if not chat_id:
        chat_id = start_chat(owner, question)
    elif not messages:
        svc.chats.rename(chat_id, question)
    turns, last = history(messages)
    cited = {c["n"] for c in (last or {}).get("checks") or []}
    follow = [x for x in (last or {}).get("sources") or [] if x["n"] in cited]  # where a follow-up looks first
    follow_books = sorted({x["book_id"] for x in follow}) or None
    follow_chunks = [f"{x['book_id']}:{i}" for x in follow for i in x["chunk_indices"]] or None
    with st.chat_message("user"):
        st.text(question)
    svc.chats.add_message(chat_id, "user", question)
    with st.chat_message("assistant"):
        try:
            warming = svc.warm_seconds is None and not svc.warm_error  # the models still load after a start
            with st.spinner("Loading the search models, then searching (only after a start)…" if warming
                            else "Searching your books…"):
                stream = svc.ask(question, history=turns, book_id=scope, follow_books=follow_books,
                                 follow_chunks=follow_chunks, **o)
            box, shown = st.empty(), ""
            for piece in stream:  # streamed as plain text: a book's words are never Markdown or HTML
                shown += piece
                box.text(shown)
            mid = svc.chats.save_answer(chat_id, stream.answer)
            with box.container():
                answer_view(stream.answer.to_dict(), f"m{mid}", True, builder, present)
            feedback_widget(mid, None, "")
        except Exception as e:  # noqa: BLE001 - a message, never a traceback
            show_error(e)
            stored = str(e) if isinstance(e, RagError) else f"Something went wrong ({type(e).__name__})."
            svc.chats.add_message(chat_id, "assistant", f"⚠️ {stored}")

with header:
    chat_header(chat_id, owner)
with chats_box:
    chat_list(owner, chat_id)
if not confirm_delete_if_asked():
    reader_if_open()
