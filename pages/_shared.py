"""UI helpers shared by the pages: the service singleton, sidebars, errors, escaping (answers and sources are
drawn by ``pages._widgets``).
No pipeline logic here: everything goes through ``rag.service.Folio``."""
from __future__ import annotations

import logging
import re

import streamlit as st

from rag.errors import RagError
from rag.settings import Settings

log = logging.getLogger("folio.ui")


def _run_through_the_app() -> None:
    """Streamlit starts an app that has a ``pages/`` folder in its old multipage mode, until ``st.navigation`` has
    run once in the process: a first request for a page's URL (a chat link, ``/chat?chat=12``) would run that page
    alone — no shared sidebar, every module of pages/ listed as a page. The first page run of the process (every
    page imports this module) switches the process to ``st.navigation`` and reruns through app.py."""
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    if PagesManager.uses_pages_directory and get_script_run_ctx(suppress_warning=True) is not None:
        PagesManager.uses_pages_directory = False
        st.rerun()


_run_through_the_app()


@st.cache_resource(show_spinner=False)
def _service(data_dir: str):
    from rag.service import Folio

    return Folio(Settings())


def warm_up_in_background() -> None:
    """Load the models in a background thread once per process, after the first page has been sent
    (app.py calls this last), so neither the first paint nor the first question waits for them."""
    get_service().start_warm_up()


def get_service():
    """One service per process and data folder (RAG_DATA_DIR)."""
    from pages._auth import require_access  # issue 21: also when Streamlit runs a page without app.py

    require_access()
    return _service(str(Settings().data_dir.resolve()))


def overrides() -> dict:
    """Per-browser-session settings chosen in the sidebars (answer backend, retrieval knobs)."""
    return st.session_state.setdefault("overrides", {})


def show_error(e: Exception) -> None:
    """A RagError's message is for the user; anything else is logged and summarised."""
    if isinstance(e, RagError):
        st.error(str(e), icon="⚠️")
    else:
        log.exception("unexpected error")
        st.error(f"Something went wrong ({type(e).__name__}). The details are in the server log; "
                 "your library is unchanged.", icon="⚠️")


def library_sidebar() -> None:
    svc = get_service()
    books = svc.library.books()
    ready = [b for b in books if b.status == "ready"]
    with st.sidebar:
        st.caption(f"📚 {len(ready)} book(s), {sum(b.chunks for b in ready)} chunks · "
                   f"{svc.settings.embed_model}")
        busy = [j for j in svc.library.jobs() if j.active]
        if busy:
            st.caption(f"⏳ indexing {len(busy)} file(s)…")


def backend_sidebar() -> None:
    s = get_service().settings
    o = overrides()
    with st.sidebar.expander("Answer backend", expanded=False):
        options = ["extractive", "openai", "ollama"]
        labels = {"extractive": "Extractive (offline, no LLM)", "openai": "OpenAI-compatible server",
                  "ollama": "Ollama"}
        current = o.get("answer_backend", s.answer_backend)
        choice = st.radio("Backend", options, index=options.index(current), format_func=labels.get,
                          key="backend_choice")
        o["answer_backend"] = choice
        if choice == "openai":
            o["llm_base_url"] = st.text_input("Base URL", o.get("llm_base_url", s.llm_base_url))
            o["llm_model"] = st.text_input("Model", o.get("llm_model", s.llm_model))
        elif choice == "ollama":
            o["ollama_base_url"] = st.text_input("Ollama URL", o.get("ollama_base_url", s.ollama_base_url))
            o["ollama_model"] = st.text_input("Model", o.get("ollama_model", s.ollama_model))


# Markdown punctuation; "." only after a digit ("1." starts a list), ":" only before a letter (":smile:",
# ":red[…]", ":material/…:" are Streamlit syntax), so ordinary "file.pdf: Ready" stays readable in the source
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-!|<>~$=^]|(?<=\d)\.|:(?=[A-Za-z]))")


def escape_markdown(text: str) -> str:
    """Book text as literal text inside Markdown: every character Markdown (or Streamlit's
    extensions: :emoji:, :red[...], $math$) could read as syntax is backslash-escaped, so
    `__main__`, `*args`, `<script>` and `![x](http://…)` show exactly as written."""
    return _MD_SPECIAL.sub(r"\\\1", text)


def chunking_picker(key: str, current: dict | None = None) -> dict:
    """Strategy and sizes for one book (at upload, re-index or in the inspector's comparison);
    returns only what differs from the defaults in ``current`` (or the settings)."""
    from rag.chunking import STRATEGIES, describe

    s = get_service().settings
    cur = {**s.chunking_config(), **(current or {})}
    names = list(STRATEGIES)
    c1, c2 = st.columns([2, 1])
    chunker = c1.selectbox("Chunking strategy", names, index=names.index(cur.get("chunker", "paragraph"))
                           if cur.get("chunker") in names else 0, format_func=lambda n: f"{n} — {describe(n)}",
                           key=f"{key}_chunker")
    size = c2.number_input("Chunk size (word-pieces)", 32, 250, int(cur.get("chunk_size", s.chunk_size)), step=8,
                           key=f"{key}_size")
    out = {"chunker": chunker, "chunk_size": int(size)}
    if chunker in ("paragraph", "token"):
        out["chunk_overlap"] = int(st.number_input("Overlap (word-pieces)", 0, 100, int(cur.get("chunk_overlap", 0)),
                                                   key=f"{key}_overlap"))
    elif chunker == "sentence":
        out["sentence_overlap"] = int(st.number_input("Overlap (sentences)", 0, 5, int(cur.get("sentence_overlap", 1)),
                                                      key=f"{key}_soverlap"))
    elif chunker == "semantic":
        out["semantic_percentile"] = float(st.slider("Break above this percentile of sentence distances", 50.0, 99.0,
                                                     float(cur.get("semantic_percentile", 90.0)), key=f"{key}_pct"))
    elif chunker == "hierarchical":
        out["parent_size"] = int(
            st.number_input(
                "Parent size (word-pieces)", 256, 4096, int(cur.get("parent_size", 1024)), step=128, key=f"{key}_parent"
            )
        )
    return out
