"""UI helpers shared by the pages: the service singleton, sidebars, source rendering.
No pipeline logic here: everything goes through ``rag.service.Folio``."""
from __future__ import annotations

import logging

import streamlit as st

from rag.errors import RagError
from rag.settings import Settings

log = logging.getLogger("folio.ui")


@st.cache_resource(show_spinner=False)
def _service(data_dir: str):
    from rag.service import Folio

    return Folio(Settings())


def get_service():
    """One service per process and data folder (RAG_DATA_DIR)."""
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
    books = svc.books()
    ready = [b for b in books if b.status == "ready"]
    with st.sidebar:
        st.caption(f"📚 {len(ready)} book(s), {sum(b.chunks for b in ready)} chunks · "
                   f"{svc.settings.embed_model}")
        busy = [j for j in svc.jobs() if j.active]
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


def render_sources(answer: dict) -> None:
    """Sources of a stored answer (``Answer.to_dict()``), under the answer."""
    sources = answer.get("sources") or []
    if not sources:
        return
    with st.expander(f"Sources ({len(sources)})", expanded=False):
        for s in sources:
            ctx = s.get("context_label")
            ctx = f" (context {ctx})" if ctx and ctx != s["pages_label"] else ""
            st.markdown(f"**[{s['n']}] {s['book_title']}, {s['pages_label']}**{ctx} · "
                        f"similarity {s['similarity']:.2f} · fused score {s['score']:.4f} · "
                        f"section: {s['hit']['section'] or '—'}")
            st.caption(" ".join(s["hit"]["text"].split())[:700])
    trace = answer.get("trace") or {}
    if trace:
        st.caption("⏱ " + " · ".join(f"{k} {v:.0f} ms" for k, v in trace.items())
                   + f" · query: “{answer.get('query', '')}”")
