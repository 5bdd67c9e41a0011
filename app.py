"""Folio: upload books and PDFs, see how they were chunked, chat with cited answers.

Entry point (``streamlit run app.py``): registers the pages and the shared sidebar.
"""
import streamlit as st

from pages._auth import require_access, sign_out_link
from pages._shared import backend_sidebar, library_sidebar, warm_up_in_background

st.set_page_config(page_title="Folio", page_icon="📚", layout="wide")
require_access()  # before any page: another machine gets in only through the login gate (serve.py)

pages = [
    st.Page("pages/library.py", title="Library", icon="📚", default=True),
    st.Page("pages/chat.py", title="Chat", icon="💬"),
    st.Page("pages/inspector.py", title="Chunk inspector", icon="🔍"),
    st.Page("pages/evaluate.py", title="Evaluate", icon="🧪"),
    st.Page("pages/metrics.py", title="Metrics", icon="📈"),
]
nav = st.navigation(pages)
sign_out_link()
library_sidebar()
backend_sidebar()
nav.run()
warm_up_in_background()  # after the page is out: models load while the user looks at it
