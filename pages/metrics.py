"""Metrics: latency percentiles, confidence, not-found and feedback over every answered question,
over time and per book; the lowest-rated and lowest-confidence answers, each opening its chat.

Confidence is the one the chat shows: the calibrated probability that the books answer the question
(``Answer.confidence``), in the same plain words (``rag.answer.metrics.confidence_words``)."""
import altair as alt
import pandas as pd
import streamlit as st

from pages._shared import escape_markdown, get_service
from rag.answer.metrics import BASIS_WORDS, HIGH_CONFIDENCE, UNSAID_WORDS, confidence_words
from rag.eval.metrics import percentile

svc = get_service()
st.title("📈 Metrics")
rows = svc.chats.metrics()
if not rows:
    st.info("No answers yet. Ask something on the Chat page; every answer's latency, confidence and your "
            "feedback are recorded here.")
    st.stop()

df = pd.DataFrame(rows)
# rows migrated from before confidence meant P(answerable), whose answer did not record it: unknown
df["confidence"] = df["confidence"].where(df["confidence"] >= 0)
# an answer from the book's own title page or preface has no P(answerable) to average: its words say what answered
basis = df["confidence_kind"].where(df["confidence_kind"].isin(list(BASIS_WORDS)), "") \
    if "confidence_kind" in df else pd.Series("", index=df.index)
df["confidence"] = df["confidence"].where(basis == "")
if "confidence_kind" in df:  # "?!?" or an empty library: nothing was searched, no confidence to average or rank
    df["confidence"] = df["confidence"].where(~df["confidence_kind"].isin(["no_words", "empty_library"]))
# declined because no passage said the year or who made it: that reason, not the probability, is what the chat said
unsaid = df["confidence_kind"].where(df["confidence_kind"].isin(list(UNSAID_WORDS)), "") \
    if "confidence_kind" in df else pd.Series("", index=df.index)
df["outcome"] = [o or ("not_found" if nf else "answer") for o, nf in zip(df["outcome"], df["not_found"])]
df["created_at"] = pd.to_datetime(df["created_at"])
df["day"] = df["created_at"].dt.strftime("%Y-%m-%d")
n = len(df)
t = df["total_ms"].tolist()
known = df["confidence"].dropna()
rated = df["feedback"].dropna()
with st.container(horizontal=True, wrap=True, gap="medium"):  # four a row on a desktop, two on a phone
    tile = {"width": 150}
    st.metric("Answers", n, **tile)
    for q in (50, 95, 99):
        st.metric(f"Latency p{q}", f"{percentile(t, q) / 1e3:.2f} s", **tile)
    st.metric("High-confidence rate", f"{(known >= HIGH_CONFIDENCE).mean():.0%}" if len(known) else "–", **tile,
              help=f"Share of answers with confidence ≥ {HIGH_CONFIDENCE:.0%}. Confidence = how likely it is that "
                   "your books answer the question (calibrated), the number the chat shows with each answer.")
    st.metric("Mean confidence", f"{known.mean():.0%}" if len(known) else "–", **tile,
              help="The average of the confidence the chat shows with each answer.")
    st.metric("Not found", f"{df['not_found'].mean():.0%}", **tile)
    st.metric("Slow answers", f"{df['slow'].mean():.0%}", help=f"over {svc.settings.slow_answer_ms / 1e3:.1f} s",
              **tile)
    st.metric("Feedback 👍 / 👎", f"{int((rated == 1).sum())} / {int((rated == 0).sum())}", **tile)
    st.metric("Quote-check failures", int(df["quote_failures"].sum()), **tile)
    st.metric("First text p50", f"{percentile(df['first_token_ms'].tolist(), 50) / 1e3:.2f} s", **tile)
    st.metric("Low-similarity rate", f"{df['low_similarity'].mean():.0%}", **tile,
              help=f"average similarity < {svc.settings.low_similarity}")

st.subheader("Over time")
daily = df.groupby("day").agg(p50=("total_ms", lambda x: percentile(list(x), 50)),
                              p95=("total_ms", lambda x: percentile(list(x), 95)),
                              confidence=("confidence", "mean"), not_found=("not_found", "mean"),
                              answers=("total_ms", "size")).reset_index()
lat = daily.melt(id_vars="day", value_vars=["p50", "p95"], var_name="percentile", value_name="ms")
st.altair_chart(alt.Chart(lat).mark_line(point=True).encode(x="day:N", y=alt.Y("ms:Q", title="latency (ms)"),
                                                           color="percentile:N"), width="stretch")
rates = daily.melt(id_vars="day", value_vars=["confidence", "not_found"], var_name="rate", value_name="value")
st.altair_chart(alt.Chart(rates).mark_line(point=True).encode(x="day:N",
                                                             y=alt.Y("value:Q", scale=alt.Scale(domain=[0, 1])),
                                                             color="rate:N"), width="stretch")

st.subheader("Per book")
titles = {b.id: b.title for b in svc.library.books()}
per_book = df.explode("book_ids").dropna(subset=["book_ids"])
if not per_book.empty:
    per_book["book"] = per_book["book_ids"].map(lambda i: titles.get(i, i))
    agg = per_book.groupby("book").agg(answers=("total_ms", "size"), confidence=("confidence", "mean"),
                                       p50_ms=("total_ms", "median"),
                                       thumbs_up=("feedback", lambda x: int((x == 1).sum())),
                                       thumbs_down=("feedback", lambda x: int((x == 0).sum()))).reset_index()
    st.altair_chart(alt.Chart(agg).mark_bar().encode(x=alt.X("confidence:Q", scale=alt.Scale(domain=[0, 1])),
                                                     y=alt.Y("book:N", title=None)), width="stretch")
    st.dataframe(agg, hide_index=True, width="stretch")

QUESTION_SHOWN = 300  # characters of a weak answer's question shown
st.subheader("Weakest answers")
# 👎 first, then the unrated by confidence, lowest first; a 👍 answer is no weak one (tour 34 found one on top)
weak = df.assign(rank=df["feedback"].map({0.0: 0, 1.0: 2}).fillna(1)).sort_values(["rank", "confidence"],
                                                                                 na_position="last").head(10)
for i, r in weak.iterrows():
    with st.container(border=True):
        fb = {1.0: "👍", 0.0: "👎"}.get(r["feedback"], "no feedback")
        q = r["question"]  # a pasted page of text is shown by its start (tour 37: 2,000 characters in full)
        st.text(q if len(q) <= QUESTION_SHOWN else q[:QUESTION_SHOWN].rsplit(" ", 1)[0] + f" … ({len(q):,} characters)")
        a, b = st.columns([5, 1])
        conf = (confidence_words(0.0, r["outcome"], basis[i] or unsaid[i]) if basis[i] or unsaid[i]
                else confidence_words(r["confidence"], r["outcome"]) if pd.notna(r["confidence"])
                else "confidence not recorded")
        a.caption(escape_markdown(f"{conf} · {r['total_ms'] / 1e3:.2f} s · {fb}"))
        if b.button("Open chat", key=f"open{r['message_id']}"):
            st.session_state["chat_id"] = int(r["session_id"])
            st.switch_page("pages/chat.py", query_params={"chat": str(int(r["session_id"]))})
