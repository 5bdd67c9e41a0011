"""UI helpers shared by the pages: the service singleton, sidebars, source rendering.
No pipeline logic here: everything goes through ``rag.service.Folio``."""
from __future__ import annotations

import logging
import re

import streamlit as st

from rag.errors import RagError
from rag.settings import Settings

log = logging.getLogger("folio.ui")


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


def _fmt_trace(trace: dict) -> str:
    parts = []
    for k, v in trace.items():
        parts.append(f"{k} {int(v)}" if k.endswith("_failed") else f"{k} {v:.0f} ms")
    return " · ".join(parts)


def render_figures(answer: dict, key: str) -> None:
    """The book's figures under an answer: image, caption, page, why, and the whole page on demand."""
    figures = answer.get("figures") or []
    if not figures:
        return
    svc = get_service()
    cols = st.columns(max(3, len(figures)))  # a lone figure keeps a third of the width
    for i, (col, f) in enumerate(zip(cols, figures)):
        with col.container(border=True):
            path = svc.library.file(f["path"])
            if path.exists():
                st.image(str(path), width="stretch")
            st.text(f.get("caption") or f"Figure on p. {f['page_label']}")
            st.caption(f"{escape_markdown(f['book_title'])}, p. {escape_markdown(f['page_label'])} "
                       f"(pdf p. {f['page']}) · {f['kind']} · {escape_markdown(f['why'])}")
            with st.popover(f"Whole page {f['page_label']}", width="stretch"):
                try:
                    st.image(str(svc.reader.page_image(f["book_id"], f["page"])), width="stretch")
                except RagError as e:
                    st.error(str(e))


def render_checks(answer: dict) -> None:
    bad = [c for c in answer.get("checks") or [] if not c["ok"]]
    if bad:
        lines = [f"[{c['n']}] {c['how']}: “{escape_markdown(c['sentence'][:160])}”" for c in bad]
        st.warning(f"{len(bad)} citation(s) could not be matched to the source they cite:  \n" + "  \n".join(lines),
                   icon="⚠️")


def render_sources(answer: dict, key: str = "a") -> None:
    """Sources of a stored answer (``Answer.to_dict()``): label, passage as text, and for each cited
    source its page with the passage highlighted (the whole page on demand)."""
    from rag.types import Source

    sources = answer.get("sources") or []
    if not sources:
        return
    svc = get_service()
    text = answer.get("text", "")
    cited = {c["n"] for c in answer.get("checks") or []}
    title = (f"Closest passages found ({len(sources)}) — they do not answer the question" if answer.get("not_found")
             else f"Sources ({len(sources)})")
    with st.expander(title, expanded=bool(answer.get("not_found"))):
        for s in sources:
            src = Source.from_dict(s)
            ctx = s.get("context_label")
            ctx = f" (context {ctx})" if ctx and ctx != s["pages_label"] else ""
            st.markdown(f"**[{s['n']}] {escape_markdown(src.label)}**")
            st.caption(f"{src.pdf_pages}{escape_markdown(ctx)} · similarity {s['similarity']:.2f} · "
                       f"fused score {s['score']:.4f}", help="Printed page label first; 'pdf p.' is the page number in the file.")
            if src.plan.get("summary"):
                st.caption("🧩 Context: " + escape_markdown(src.plan["summary"]))
            st.text(src.quote[:700])
            if s["n"] in cited:
                try:
                    for page, label, crop in svc.reader.citation_pages(src, text):
                        if st.toggle(f"Whole page {label} (pdf p. {page})", key=f"{key}-full-{s['n']}-{page}"):
                            whole = next(p for p in svc.reader.citation_pages(src, text, crop=False) if p[0] == page)[2]
                            st.image(str(whole), width="stretch")  # rendered only when asked for
                        else:
                            conf = svc.reader.ocr_confidence(src.hit.book_id, page)
                            note = f" (scanned page read by OCR, confidence {conf:.0f}%: check the image)" if conf is not None else ""
                            st.image(str(crop), caption=f"p. {label}: the passage highlighted{note}", width="stretch")
                except RagError as e:
                    st.caption(str(e))
            st.divider()
    trace = answer.get("trace") or {}
    ctx = answer.get("context") or {}
    if ctx:
        st.caption(escape_markdown(f"Context: {ctx.get('mode')} · {ctx.get('query_type')} question"))
    if trace:
        st.caption("⏱ " + _fmt_trace(trace) + f" · query: “{escape_markdown(answer.get('query', ''))}” · "
                   f"answerable {answer.get('confidence', 0):.0%} (calibrated from similarity, coverage of the "
                   "question's rare words and retriever agreement; below the setting's minimum the answer is "
                   "'not in your books')")


def render_answer_extras(answer: dict, key: str) -> None:
    """Everything under an answer's text: quote-check warnings, figures, sources."""
    render_checks(answer)
    render_figures(answer, key)
    render_sources(answer, key)


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
        out["parent_size"] = int(st.number_input("Parent size (word-pieces)", 256, 4096, int(cur.get("parent_size", 1024)),
                                                 step=128, key=f"{key}_parent"))
    return out
