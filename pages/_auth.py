"""Access rules the app enforces itself (issue 21), before any page is built (app.py calls ``require_access``
ahead of st.navigation, so it holds for every page). Behind the login gate (``serve.py``) every request has
signed in already; otherwise only this machine may use the app: a browser from another address (Streamlit
started on a network address without going through the gate) gets a refusal saying how to serve it safely."""
from __future__ import annotations

import streamlit as st

from rag.auth import gate
from rag.auth.serving import is_loopback


def require_access() -> None:
    if gate.ACTIVE:
        st.sidebar.html('<a href="/logout" target="_self">Sign out</a>')  # same tab (a link_button opens a new one)
        return
    ip = st.context.ip_address  # None on this machine (and in AppTest)
    if ip is None or is_loopback(ip):
        return
    st.error("Folio is not served to the network without a password. On the server, set one "
             "(`python -m rag set-password`) and start Folio with `scripts/run.sh --network`.", icon="🔒")
    st.stop()
