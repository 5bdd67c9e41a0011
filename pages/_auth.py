"""Access rules the app enforces itself (issue 21), before any page is built (app.py calls ``require_access``
ahead of st.navigation, so it holds for every page). Behind the login gate (``serve.py``) every request has
signed in already; otherwise only this machine may use the app: a browser from another address (Streamlit
started on a network address without going through the gate) gets a refusal saying how to serve it safely."""
from __future__ import annotations

import streamlit as st

from rag.auth import gate
from rag.auth.serving import is_loopback


def require_access() -> None:
    """Stops the run (after a refusal) unless this browser may use the app; called by app.py and get_service()
    (Streamlit runs a page file without app.py for the first request of a new server that asks for a page)."""
    if gate.ACTIVE:
        return
    ip = st.context.ip_address  # None on this machine; not an address at all in AppTest (no browser)
    if not isinstance(ip, str) or is_loopback(ip):
        return
    # the only page there is (st.navigation also ends Streamlit's serving of pages/*.py as pages of their own)
    st.navigation([st.Page(_refused, title="Folio")], position="hidden").run()
    st.stop()


def _refused() -> None:
    st.error("Folio is not served to the network without a password. On the server, set one "
             "(`python -m rag set-password`) and start Folio with `scripts/run.sh --network`.", icon="🔒")


def sign_out_link() -> None:
    """Behind the login gate: a "Sign out" link in the sidebar (same tab; a link_button would open a new one)."""
    if gate.ACTIVE:
        st.sidebar.html('<a href="/logout" target="_self">Sign out</a>')
