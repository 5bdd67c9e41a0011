"""Which browser this is: a random id kept in a first-party cookie (``folio_browser``), so each browser has its
own chat list and chat URLs, while a reload or a second tab of the same browser keeps them.

Streamlit reads cookies (``st.context.cookies``) but cannot set them, so the first session of a browser makes the
id and a one-line script component stores it; the id is an owner label, not a credential (access control is the
login's job)."""
from __future__ import annotations

import re
import uuid

import streamlit as st

COOKIE = "folio_browser"
MAX_AGE_S = 400 * 24 * 3600  # browsers cap cookie lifetimes at 400 days
_ID = re.compile(r"^[0-9a-f]{32}$")

_store = st.components.v2.component("folio_browser_cookie", js="""
export default function ({ data }) {
  if (!data || !/^[0-9a-f]{32}$/.test(data.id)) return;
  const have = document.cookie.split('; ').includes(data.name + '=' + data.id);
  if (!have) document.cookie = `${data.name}=${data.id}; path=/; max-age=${data.age}; SameSite=Lax`;
}
""")


def browser_id() -> str:
    """This browser's id (32 hex digits): from its cookie, or new (and stored in the cookie) on its first visit."""
    ss = st.session_state
    if "browser_id" not in ss:
        try:
            got = st.context.cookies.get(COOKIE) or ""
        except Exception:  # noqa: BLE001 - no request context (bare mode): a new id
            got = ""
        got = got if isinstance(got, str) else ""  # (AppTest's context is a stand-in)
        ss["browser_id"] = got if _ID.match(got) else uuid.uuid4().hex
        ss["browser_id_stored"] = bool(_ID.match(got))
    if not ss["browser_id_stored"]:
        with st.sidebar:
            _store(key="folio_browser_cookie", data={"name": COOKIE, "id": ss["browser_id"], "age": MAX_AGE_S})
    return ss["browser_id"]
