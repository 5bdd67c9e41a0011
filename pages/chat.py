"""Chat: ask the library, answers streamed with [n] citations and their sources; sessions kept in SQLite."""
import streamlit as st

from rag.errors import RagError
from rag.types import Answer
from rag.retrieve.rerank import status as rerank_status

from pages._shared import get_service, overrides, render_answer_extras, show_error

svc = get_service()
s = svc.settings
o = overrides()

# --- sidebar: sessions, scope, retrieval knobs -------------------------------------------
with st.sidebar:
    st.subheader("Chats")
    sessions = svc.chats.sessions()
    if st.button("➕ New chat", width="stretch"):
        st.session_state["session_id"] = svc.chats.new()
        st.rerun()
    if sessions:
        ids = [x["id"] for x in sessions]
        cur = st.session_state.get("session_id")
        pick = st.selectbox("Open chat", ids, index=ids.index(cur) if cur in ids else 0,
                            format_func=lambda i: next(x["title"] for x in sessions if x["id"] == i))
        st.session_state["session_id"] = pick
    books = [b for b in svc.library.books() if b.status == "ready"]
    scope = st.selectbox("Search in", [None] + [b.id for b in books],
                         format_func=lambda i: "Whole library" if i is None else next(b.title for b in books if b.id == i))
    with st.expander("Retrieval settings"):
        o["retrieve_k"] = st.slider("Candidates per retriever (k)", 1, 50, o.get("retrieve_k", s.retrieve_k))
        o["similarity_threshold"] = st.slider("Similarity threshold", 0.0, 1.0,
                                              float(o.get("similarity_threshold", s.similarity_threshold)), 0.01)
        lo, hi = st.slider("Chunks kept (min..max)", 1, 30, (o.get("min_chunks", s.min_chunks), o.get("max_chunks", s.max_chunks)))
        o["min_chunks"], o["max_chunks"] = lo, hi
        o["window"] = st.slider("Neighbour window (± chunks)", 0, 5, o.get("window", s.window))
        o["context_budget_tokens"] = st.slider("Context budget (word-pieces)", 200, 8000,
                                               o.get("context_budget_tokens", s.context_budget_tokens), 100)
        o["answerable_min"] = st.slider("'Not in your books' below (answerable probability)", 0.0, 1.0,
                                        float(o.get("answerable_min", s.answerable_min)), 0.05)
        st.caption("Cross-encoder reranking: " + rerank_status(s.rerank_model))

st.title("💬 Chat")
if not books:
    st.info("The library is empty. Add a PDF on the Library page, then come back to ask about it.")

session_id = st.session_state.get("session_id")
messages = svc.chats.messages(session_id) if session_id else []

def feedback_widget(mid: int, current: int | None, comment: str) -> None:
    """Thumbs and an optional comment on one answer, stored with its metrics."""
    def changed():
        svc.chats.feedback(mid, st.session_state.get(f"fb{mid}"), st.session_state.get(f"fbc{mid}", ""))

    c1, c2 = st.columns([1, 5])
    with c1:
        st.feedback("thumbs", key=f"fb{mid}", default=current, on_change=changed)
    with c2:
        st.text_input("Comment", comment, key=f"fbc{mid}", on_change=changed, placeholder="Optional comment",
                      label_visibility="collapsed")


for m in messages:  # replay history with figures and sources on every rerun
    with st.chat_message(m["role"]):
        st.text(m["content"])  # book words (and the user's) are text, never Markdown or HTML
        if m["answer"]:
            render_answer_extras(m["answer"], key=f"m{m['id']}")
            feedback_widget(m["id"], m.get("feedback"), m.get("comment") or "")

question = st.chat_input("Ask about your books…", disabled=not books)
if question:
    if not session_id:
        session_id = st.session_state["session_id"] = svc.chats.new(question[:60])
    elif not messages:
        svc.chats.rename(session_id, question[:60])
    history, last_q, last_answer = [], None, None
    for m in messages:
        if m["role"] == "user":
            last_q = m["content"]
        elif last_q is not None:
            history.append((last_q, m["content"]))
            last_q, last_answer = None, m["answer"]
    last = Answer.from_dict(last_answer) if last_answer else None
    follow_books, follow_chunks = (last.cited_books, last.cited_chunks) if last else (None, None)
    with st.chat_message("user"):
        st.text(question)
    svc.chats.add_message(session_id, "user", question)
    with st.chat_message("assistant"):
        try:
            warming = svc.warm_seconds is None and not svc.warm_error  # the models still load after a start
            with st.spinner("Loading the search models, then searching (only after a start)…" if warming
                            else "Searching the library…"):
                stream = svc.ask(question, history=history, book_id=scope, follow_books=follow_books,
                                 follow_chunks=follow_chunks, **o)
            box, shown = st.empty(), ""
            for piece in stream:  # streamed as plain text: a book's words are never Markdown or HTML
                shown += piece
                box.text(shown)
            mid = svc.chats.save_answer(session_id, stream.answer)
            render_answer_extras(stream.answer.to_dict(), key=f"m{mid}")
            feedback_widget(mid, None, "")
        except Exception as e:  # noqa: BLE001 - a message, never a traceback
            show_error(e)
            stored = str(e) if isinstance(e, RagError) else f"Something went wrong ({type(e).__name__})."
            svc.chats.add_message(session_id, "assistant", f"⚠️ {stored}")
