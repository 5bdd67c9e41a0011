"""Chats as in the chat apps people use: the chat list in the sidebar (new chat, search by title, most recent first),
each chat at its own URL (``?chat=12`` reopens it in any tab of the same browser), rename and delete in the chat's
header; a new browser tab starts a new chat and never appends to an old one.

Which chat a tab shows is ``st.session_state["chat_id"]`` (None: a new chat, stored when its first question is
asked); chats belong to the browser (``pages._browser``)."""
from __future__ import annotations

import streamlit as st

from pages._shared import escape_markdown, get_service

KEY = "chat_id"
NOTICE = "chat_notice"
CONFIRM = "chat_confirm_delete"
DELETED = "chat_deleted"
LIST_LIMIT = 30


def current_chat(owner: str) -> int | None:
    """The chat this tab shows: on a tab's first run the one its URL names (when it is this browser's), else a new
    chat; a chat deleted meanwhile (in another tab) gives way to a new one, with a notice. Keeps the URL in step."""
    svc = get_service()
    ss = st.session_state
    if KEY not in ss:
        ss[KEY] = None
        wanted = st.query_params.get("chat")
        if wanted:
            chat = svc.chats.get(int(wanted), owner) if wanted.isdigit() else None
            if chat:
                ss[KEY] = chat["id"]
            else:
                ss[NOTICE] = (f"Chat {wanted} is not there: it was deleted, or it was started in another browser. "
                              "This is a new chat; your chats are listed in the sidebar.")
    elif ss[KEY] is not None and svc.chats.get(ss[KEY], owner) is None:
        ss[NOTICE] = "That chat was deleted (in another tab?). This is a new chat."
        ss[KEY] = None
    if ss[KEY] is None:
        if "chat" in st.query_params:
            del st.query_params["chat"]
    elif st.query_params.get("chat") != str(ss[KEY]):
        st.query_params["chat"] = str(ss[KEY])
    return ss[KEY]


def start_chat(owner: str, question: str) -> int:
    """Store a new chat, titled by its first question, and give this tab its URL."""
    cid = get_service().chats.new(question, owner)
    st.session_state[KEY] = cid
    st.query_params["chat"] = str(cid)
    return cid


def new_chat() -> None:
    st.session_state[KEY] = None
    st.session_state.pop("open_turns", None)


def _open(cid: int) -> None:
    st.session_state[KEY] = cid
    st.session_state.pop("open_turns", None)


def chat_list(owner: str, current: int | None) -> None:
    """The chat list (the page draws it in the sidebar): new chat, search by title, this browser's chats, the open
    one highlighted."""
    svc = get_service()
    ss = st.session_state
    if not ss.get("chats_claimed"):  # chats from before owners: this browser's
        svc.chats.claim(owner)
        ss["chats_claimed"] = True
    st.button("New chat", icon=":material/edit_square:", on_click=new_chat, width="stretch", key="chat-new")
    query = st.text_input("Search chats", key="chat-search", placeholder="Search chats",
                          label_visibility="collapsed", icon=":material/search:")
    chats = svc.chats.sessions(owner, query, limit=LIST_LIMIT + 1)
    if not chats:
        st.caption("No chat has these words in its title." if query.strip() else
                   "Your chats will be listed here.")
    for c in chats[:LIST_LIMIT]:
        st.button(escape_markdown(c["title"]), key=f"chat-{c['id']}", on_click=_open, args=(c["id"],),
                  type="secondary" if c["id"] == current else "tertiary", width="stretch")
    if len(chats) > LIST_LIMIT:
        st.caption("Older chats: search for them by title.")


def _rename(cid: int) -> None:
    title = st.session_state.get(f"chat-title-{cid}", "")
    if title.strip():
        get_service().chats.rename(cid, title)


def _ask_delete(cid: int) -> None:
    st.session_state[CONFIRM] = cid


def chat_header(current: int | None, owner: str) -> None:
    """The open chat's title with its menu (rename, delete)."""
    svc = get_service()
    chat = svc.chats.get(current, owner) if current is not None else None
    with st.container(horizontal=True, vertical_alignment="center", gap="small", key="chat-header"):
        st.subheader(escape_markdown(chat["title"]) if chat else "New chat", anchor=False, width="stretch")
        if chat:
            with st.popover("", icon=":material/more_horiz:", help="Rename or delete this chat", key="chat-menu"):
                st.text_input("Title", chat["title"], key=f"chat-title-{current}", on_change=_rename,
                              args=(current,), max_chars=80)
                st.button("Rename", on_click=_rename, args=(current,), icon=":material/edit:", key="chat-rename")
                st.button("Delete this chat", on_click=_ask_delete, args=(current,), icon=":material/delete:",
                          key="chat-delete")


def _delete(cid: int) -> None:
    get_service().chats.delete(cid)
    st.session_state[DELETED] = True
    if st.session_state.get(KEY) == cid:
        new_chat()


@st.dialog("Delete this chat?")
def _confirm_delete(cid: int) -> None:
    if st.session_state.pop(DELETED, False):  # deleted by the button below: close, back to the page
        st.rerun()
    chat = get_service().chats.get(cid)
    st.text(chat["title"] if chat else f"Chat {cid}")
    st.caption("Its questions, answers and feedback are removed; the books stay in the library.")
    with st.container(horizontal=True, gap="small"):
        st.button("Delete", type="primary", icon=":material/delete:", key="chat-delete-yes", on_click=_delete,
                  args=(cid,))
        if st.button("Keep it", key="chat-delete-no"):
            st.rerun()


def confirm_delete_if_asked() -> bool:
    """The delete confirmation, in the run its button asked for it (one dialog per run: True when it is shown;
    its own buttons rerun it alone, and a later run of the page leaves it closed)."""
    cid = st.session_state.pop(CONFIRM, None)
    st.session_state.pop(DELETED, None)
    if cid is None:
        return False
    _confirm_delete(cid)
    return True
