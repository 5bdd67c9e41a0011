"""Folio behind a login, for serving it on the network: Streamlit's ``st.App`` runs app.py with the login gate
(``rag.auth.gate``) in front of every request. Started by ``scripts/run.sh --network`` (or whenever a password is
set), as ``streamlit run serve.py --server.address …``; it refuses to start while no password is set."""
import sys

import streamlit as st
from starlette.middleware import Middleware

from rag.auth.gate import LoginGate
from rag.auth.password import load
from rag.auth.serving import NO_PASSWORD
from rag.errors import RagError
from rag.settings import Settings

DATA_DIR = Settings().data_dir
try:
    if load(DATA_DIR) is None:
        sys.exit(NO_PASSWORD.format(address=st.get_option("server.address") or "every interface"))
except RagError as e:
    sys.exit(str(e))

# app.py's st.navigation names the pages; without this, Streamlit serves the folder pages/ as pages of their own
# (helpers included) to the first session of a new server until app.py has run once (PagesManager's MPA v1 mode)
try:
    from streamlit.runtime.pages_manager import PagesManager

    PagesManager.uses_pages_directory = False
except (ImportError, AttributeError):  # another Streamlit: the gate still guards every request
    pass

app = st.App("app.py", middleware=[Middleware(LoginGate, data_dir=DATA_DIR)])
