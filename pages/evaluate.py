"""Evaluate: run a book QA set over one or more query-time configurations in the background; results
table, charts, downloads, and each question as each configuration answered it."""
import json
from pathlib import Path

import altair as alt
import pandas as pd
import streamlit as st

from pages._browser import browser_id
from pages._shared import escape_markdown, get_service, show_error
from rag.errors import RagError
from rag.eval import bookqa
from rag.eval.runs import EVAL_LIBRARY

svc = get_service()
owner = browser_id()  # this browser's runs are its own
st.title("🧪 Evaluate")
st.caption("Ask a question set through the same code path as the chat and measure page-hit, abstention, "
           "quote checks and latency. The set's books go into an evaluation library of its own "
           f"({svc.settings.data_dir / EVAL_LIBRARY}), never into yours; vectors of books you already have are "
           "reused from the embedding cache.")

sets = svc.evaluations.question_sets()
c1, c2 = st.columns(2)
choice = c1.selectbox("Question set", sets + ["Upload a JSONL "
                                              "set…"], format_func=lambda p: p if isinstance(p, str) else p.name)
uploaded = c1.file_uploader("JSONL question set", type=["jsonl"]) if isinstance(choice, str) else None
found = svc.evaluations.books_folder(choice) if not isinstance(choice, str) else None
pdf_dir = c2.text_input("Folder with the set's books", str(found or ""), key=f"eval_folder_{choice}",
                        placeholder="/path/to/the/books", help="Where the set's `file` names are. The shipped sets' "
                        "books: docs/evaluation.md (eval/debian_books.sh fetches the Debian ones).")
configs_text = c2.text_area("Configurations (one per line, `key=value,key=value`; empty line = current settings)",
                            "window=0\nwindow=1\nwindow=2", height=110)

job = svc.evaluations.latest(owner)
if st.button("▶ Run evaluation", disabled=bool(job and job.active), type="primary"):
    try:
        from rag.eval.cli import parse_config

        if isinstance(choice, str):
            if uploaded is None:
                raise RagError("Upload a JSONL question set first (one question per line; see the README).")
            path = Path(svc.settings.data_dir) / "eval_sets" / uploaded.name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(uploaded.getvalue())
        else:
            path = choice
        try:
            items = bookqa.load(path)
        except ValueError as e:
            raise RagError(str(e)) from None
        configs = [parse_config(line) for line in configs_text.splitlines() if line.strip()] or [{}]
        svc.evaluations.start(items, pdf_dir, configs, path.name, owner=owner)
        st.rerun()
    except Exception as e:  # noqa: BLE001 - shown to the user
        show_error(e)


def summary_frame(job) -> pd.DataFrame:
    rows = []
    for r in job.results:
        s = r["summary"]
        rows.append({"config": json.dumps(r["config"]) if r["config"] else "current", "page_hit": s["page_hit"],
                     "evidence_in_sources": s["evidence_in_sources"], "abstention": s["abstention"],
                     "false_abstention": s["false_abstention"], "quote_failures": s["quote_failures"],
                     "mean_confidence": s["mean_confidence"], "p50_ms": s["latency_ms"]["p50"],
                     "p95_ms": s["latency_ms"]["p95"]})
    return pd.DataFrame(rows)


@st.fragment(run_every=1.0)
def progress_panel():
    job = svc.evaluations.latest(owner)
    if job is None:
        return
    if job.active:
        st.progress(job.fraction, text=f"{job.set_name}: {job.done}/{job.total} — {job.message}")
        st.session_state["_eval_running"] = True
    elif st.session_state.pop("_eval_running", False):
        st.rerun()  # draw the results once


progress_panel()
job = svc.evaluations.latest(owner)
if job and job.state == "failed":
    st.error(escape_markdown(job.error), icon="⚠️")
if job and job.state == "done" and job.results:
    st.subheader(f"Results: {job.set_name}")
    df = summary_frame(job)
    st.dataframe(df, hide_index=True, width="stretch")
    long = df.melt(id_vars="config", value_vars=["page_hit", "evidence_in_sources", "abstention", "false_abstention"],
                   var_name="metric", value_name="value")
    st.altair_chart(
        alt.Chart(long)
        .mark_bar()
        .encode(
            x=alt.X("metric:N", title=None),
            y=alt.Y("value:Q", scale=alt.Scale(domain=[0, 1])),
            color="config:N",
            xOffset="config:N",
        ),
        width="stretch",
    )
    st.altair_chart(
        alt.Chart(df)
        .mark_bar()
        .encode(x=alt.X("config:N", title=None), y=alt.Y("p50_ms:Q", title="latency p50 (ms)"), color="config:N"),
        width="stretch",
    )
    d1, d2 = st.columns(2)
    d1.download_button("⬇ CSV", bookqa.to_csv(job.results), file_name="evaluation.csv", mime="text/csv")
    d2.download_button("⬇ JSON", json.dumps(job.results, ensure_ascii=False, indent=1), file_name="evaluation.json",
                       mime="application/json")
    st.subheader("One question, every configuration")
    records = job.results[0]["records"]
    qid = st.selectbox("Question", [q["id"] for q in records],
                       format_func=lambda i: next(f"{i} · {q['question']}" for q in records if q["id"] == i))
    for r in job.results:
        q = next(x for x in r["records"] if x["id"] == qid)
        with st.container(border=True):
            st.caption(f"config {json.dumps(r['config']) if r['config'] else 'current'} · page-hit {q['page_hit']} · "
                       f"evidence among sources {q['evidence_in_sources']} · abstained {q['abstained']} · "
                       f"cited pdf pages {q['cited_pages']} · {q['trace_ms'].get('total', 0):.0f} ms")
            st.text(q["answer"])
            if q.get("sources"):
                st.dataframe(pd.DataFrame(q["sources"]), hide_index=True, width="stretch")  # what it retrieved
