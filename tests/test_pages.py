"""Every page through Streamlit's AppTest, on a fresh data folder."""
import json
import re
import time

import pytest
from streamlit.testing.v1 import AppTest

from rag.service import Folio
from rag.settings import Settings
from tests.conftest import ROOT


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    d = tmp_path / "data"
    monkeypatch.setenv("RAG_DATA_DIR", str(d))
    return d


def library_with(pdf: bytes, embed, name: str = "garden.pdf") -> Folio:
    """A service on the test's data folder (RAG_DATA_DIR) with one PDF ingested, sharing the loaded embedder."""
    f = Folio(Settings(), embed=embed)
    f.library.ingest(pdf, name)
    return f


def app() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    return at


def answer_text(msg) -> str:
    """An answer's prose as the citation component shows it: its text nodes, each citation as "[n]"."""
    out = []
    for c in msg.get("bidi_component"):
        data = json.loads(c.proto.json or "{}")
        if "parts" in data:
            out.append("".join(p[1] if p[0] == "text" else f"[{p[1]}]" for p in data["parts"]))
    return "\n".join(out)


def texts(at) -> str:
    parts = [m.value for m in at.markdown] + [e.value for e in at.error] + [e.value for e in at.info]
    parts += [e.value for e in at.success] + [c.value for c in at.caption]
    return "\n".join(str(p) for p in parts)


def test_library_page_starts_empty(data_dir):
    at = app().run()
    assert not at.exception
    assert at.title[0].value == "📚 Library"
    assert "No books yet" in texts(at)


def test_library_upload_indexes_in_background_and_reports_bad_files(data_dir, book_pdf):
    at = app().run()
    at.file_uploader[0].set_value([("garden.pdf", book_pdf, "application/pdf"),
                                    ("notes.pdf", b"plain text, not a pdf", "application/pdf")]).run()
    deadline = time.time() + 180
    while time.time() < deadline:
        at.run()
        if "Ready:" in texts(at) and "notes.pdf" in texts(at):
            break
        time.sleep(1)
    assert not at.exception
    out = texts(at)
    assert "Ready:" in out
    assert any("notes.pdf" in e.value and "not a PDF" in e.value for e in at.error)
    df = at.dataframe[0].value
    assert list(df["title"]) == ["Garden and Sky"] and list(df["status"]) == ["ready"]


def test_deleting_a_book_asks_first_and_cancel_keeps_it(data_dir, book_pdf, embed):
    f = library_with(book_pdf, embed, "garden.pdf")
    at = app().run()
    delete = next(b for b in at.button if b.label == "🗑 Delete book")
    delete.click().run()
    assert not at.exception and any("Delete 'Garden and Sky'?" in w.value for w in at.warning)
    assert len(f.library.books()) == 1  # nothing happens before the answer
    at.button(key="library_cancel").click().run()
    assert len(f.library.books()) == 1 and not any("Delete 'Garden" in w.value for w in at.warning)
    next(b for b in at.button if b.label == "🗑 Delete book").click().run()
    at.button(key="library_yes").click().run()
    assert not at.exception and f.library.books() == []


def test_chat_page_streams_cited_answer_and_replays_history(data_dir, book_pdf, embed):
    f = library_with(book_pdf, embed, "garden.pdf")
    at = app()
    at.switch_page("pages/chat.py").run()
    assert not at.exception
    at.chat_input[0].set_value("How often do tomatoes need watering?").run()
    assert not at.exception
    answer = answer_text(at.chat_message[1])
    assert "twice a week" in answer and re.search(r"\[\d+\]", answer)
    assert any(e.label.startswith("\\[1\\] Garden and Sky › ") for e in at.expander)  # the compact source list
    at.run()  # a rerun replays the stored conversation with its sources
    assert len(at.chat_message) == 2 and "twice a week" in answer_text(at.chat_message[1])
    sessions = f.chats.sessions()
    assert len(sessions) == 1 and sessions[0]["title"].startswith("How often")
    assert at.query_params["chat"] == str(sessions[0]["id"])  # the chat's own URL
    at.chat_input[0].set_value("And why in the morning?").run()  # a follow-up: searched in the book just cited
    assert not at.exception and "morning" in answer_text(at.chat_message[3])
    at.chat_input[0].set_value("Who painted the Mona Lisa?").run()
    assert "Not in your books" in answer_text(at.chat_message[5])
    assert any("Closest passages" in c.value for c in at.chat_message[5].caption)
    at.run()  # older turns are compact: their sources wait behind one button
    first = at.chat_message[1]
    assert not first.expander and [b.label for b in first.button][0].startswith("Sources (")
    first.button[0].click().run()
    assert at.chat_message[1].expander


def test_chat_page_with_empty_library(data_dir):
    at = app()
    at.switch_page("pages/chat.py").run()
    assert not at.exception
    assert "library is empty" in texts(at)


def test_inspector_compares_strategies_lints_and_shows_the_answerers_context(data_dir, book_pdf, embed):
    f = library_with(book_pdf, embed)
    r = f.library.books()[0]
    at = app()
    at.switch_page("pages/inspector.py").run()
    assert not at.exception
    # page view: the indexed chunks and a preview of another strategy, each as a page map and coloured text
    images = at.get("image")
    assert len(images) >= 2
    assert any("Preview: semantic" in m.value for m in at.markdown)
    htmls = at.get("html")
    assert len(htmls) >= 2 and "chunk-spans" in htmls[0].value
    # two previews side by side: sentence on the left, hierarchical on the right
    at.toggle(key=f"lhs_indexed_{r.id}").set_value(False).run()
    at.selectbox(key=f"cmp_{r.id}_chunker").set_value("hierarchical").run()
    assert not at.exception
    titles = [m.value for m in at.markdown if m.value.startswith("**Preview")]
    assert titles[0].startswith("**Preview: sentence") and titles[1].startswith("**Preview: hierarchical")
    at.toggle(key=f"lhs_indexed_{r.id}").set_value(True).run()
    # stats and lint
    assert any(m.label == "chunks" and int(m.value) == r.chunks for m in at.metric)
    lint = next(d.value for d in at.dataframe if "check" in d.value.columns and len(d.value.columns) == 2)
    assert set(lint["check"]) == {"mid_sentence", "heading_only", "split_block", "near_duplicate", "too_small",
                                  "too_large"}
    table = next(d.value for d in at.dataframe if "preview" in d.value.columns)
    assert len(table) == r.chunks
    # the context tab: a wider fixed window gives the answerer more text
    at.radio(key=f"ctxmode_{r.id}").set_value("fixed").run()
    at.number_input(key=f"ctxsel_{r.id}").set_value(2).run()
    at.slider(key="inspector_window").set_value(0).run()
    narrow = next(t.value for t in at.text if t.value.startswith("[1] "))
    at.slider(key="inspector_window").set_value(2).run()
    assert not at.exception
    wide = next(t.value for t in at.text if t.value.startswith("[1] "))
    assert len(wide) > len(narrow) and f.inspector.chunks(r.id)[2].text in wide
    # the query probe: candidates with their scores, two settings and the difference of their contexts
    at.text_input(key="probe_q").set_value("How often do tomatoes need watering?").run()
    assert not at.exception
    cand = next(d.value for d in at.dataframe if "fused" in d.value.columns)
    assert len(cand) > 0 and cand["kept"].any()
    assert any("Difference of the final context" in m.value for m in at.markdown)


def test_inspector_with_empty_library(data_dir):
    at = app()
    at.switch_page("pages/inspector.py").run()
    assert not at.exception and "No indexed books" in texts(at)


def test_chat_shows_figures_opens_pages_and_keeps_book_text_literal(data_dir, embed):
    from tests.pdfs import MARKUP_LINE, make_figure_pdf

    library_with(make_figure_pdf(), embed, "studio.pdf")
    at = app()
    at.switch_page("pages/chat.py").run()
    at.chat_input[0].set_value("What is the reference colour of the studio?").run()
    assert not at.exception
    msg = at.chat_message[1]
    assert answer_text(msg).startswith("As shown in Figure 1.1") or "[1]" in answer_text(msg)
    assert any(t.value.startswith("Figure 1.1: A red square") for t in msg.text)  # the figure's caption
    assert len(msg.get("image")) >= 1  # the figure (pages open in the reader, not under the answer)
    figure_button = next(b for b in msg.button if b.key and "-f0" in b.key)
    figure_button.click().run()
    assert not at.exception
    assert any("The figure is framed" in c.value for c in at.caption)  # the reader: the figure's page
    at.run()  # the history replays the figures
    assert any(t.value.startswith("Figure 1.1: A red square") for t in at.chat_message[1].text)

    at.chat_input[0].set_value("What do you call __main__ with args and a script?").run()
    assert not at.exception
    # the answer and its passages are text: the book's characters exactly, never Markdown
    assert MARKUP_LINE.split(" and ")[0] in answer_text(at.chat_message[3])
    assert not any("__main__" in m.value for m in at.chat_message[3].markdown)


def test_a_source_opens_the_reader_at_its_page_with_previous_next_and_jump(data_dir, book_pdf, embed):
    f = library_with(book_pdf, embed, "garden.pdf")
    at = app()
    at.switch_page("pages/chat.py").run()
    at.chat_input[0].set_value("How often do tomatoes need watering?").run()
    opens = [b for b in at.chat_message[1].button if b.key and b.key.endswith("-o1")]
    opens[0].click().run()
    assert not at.exception
    images = at.get("image")
    assert len(images) == 1 and any("Yellow: the cited passage" in c.value for c in at.caption)
    where = next(c.value for c in at.caption if "of 5 in the file" in c.value)
    at.button(key="reader-next").click().run()
    after = next(c.value for c in at.caption if "of 5 in the file" in c.value)
    assert after != where
    at.selectbox(key="reader_jump").set_value(1).run()
    assert any("page 1 of 5 in the file" in c.value for c in at.caption)
    assert at.button(key="reader-prev").disabled
    assert {d.label for d in at.get("download_button")} == {"This page (PDF)", "Whole book, opens at this page"}
    # the book's original damaged meanwhile: the reader says so and shows the page's text
    from rag.library.ingest import original_path

    book = f.library.books()[0]
    original_path(f.settings, book.id).write_bytes(b"%PDF-1.7 damaged")
    at.selectbox(key="reader_jump").set_value(5).run()  # a page not drawn (cached) before
    assert not at.exception and any("could not be drawn" in w.value for w in at.warning)
    # the book deleted while its chat is open: the answer stays, its pages say why they cannot open
    f.library.delete_book(book.id)
    at.session_state["reader_open"] = True  # its [1] clicked (the component's click, as AppTest cannot click it)
    at.run()
    assert not at.exception
    assert any("no longer in your library" in e.value for e in at.error)
    at.run()  # the reader opens only when asked: it does not come back by itself
    assert not any("no longer in your library" in e.value for e in at.error)
    assert any("No longer in your library: Garden and Sky" in c.value for c in at.caption)
    assert all(b.disabled for b in at.chat_message[1].button if b.key and "-o" in b.key)


def test_the_answer_view_keeps_how_it_was_made_behind_one_expander(data_dir, book_pdf, embed):
    library_with(book_pdf, embed, "garden.pdf")
    at = app()
    at.switch_page("pages/chat.py").run()
    at.chat_input[0].set_value("How often do tomatoes need watering?").run()
    msg = at.chat_message[1]
    shown = " ".join([c.value for c in msg.caption] + [m.value for m in msg.markdown] + [t.value for t in msg.text])
    assert not re.search(r"\d ms\b|word-pieces|similarity|fused|⏱|🧩", shown), shown
    assert any(c.value.startswith("Found in your books · ") for c in msg.caption)  # the one confidence, in words
    assert [e.label for e in msg.expander].count("How this answer was made") == 1 and not msg.dataframe
    at.toggle(key="show_how").set_value(True).run()  # the builders' switch opens it
    frames = [d.value for d in at.chat_message[1].dataframe]
    assert any("stage" in d.columns for d in frames) and any("fused score" in d.columns for d in frames)
    assert any(t.value.startswith("Searched for: ") for t in at.chat_message[1].text)
    at.chat_input[0].set_value("???").run()  # nothing to search: the details say so, not "context ? · ? question"
    details = " ".join(t.value for t in at.chat_message[3].text)
    assert "Nothing was searched" in details and "?" not in details.replace("???", ""), details


def test_chats_have_urls_a_list_and_a_new_tab_starts_a_new_chat(data_dir, book_pdf, embed):
    f = library_with(book_pdf, embed, "garden.pdf")

    def tab(owner: str, chat: int | None = None) -> AppTest:
        at = app()
        at.session_state["browser_id"], at.session_state["browser_id_stored"] = owner, True  # the browser's cookie
        if chat is not None:
            at.query_params["chat"] = str(chat)
        return at.switch_page("pages/chat.py").run()

    a = tab("a" * 32)
    a.chat_input[0].set_value("How often do tomatoes need watering?").run()
    cid = int(a.query_params["chat"])
    assert f.chats.get(cid, "a" * 32)["title"] == "How often do tomatoes need watering?"
    new_tab = tab("a" * 32)  # same browser, a new tab: a new chat, the old one in the list
    assert not new_tab.chat_message and "chat" not in new_tab.query_params
    assert new_tab.button(key=f"chat-{cid}").label.startswith("How often do tomatoes")
    again = tab("a" * 32, cid)  # the chat's URL reopens it
    assert len(again.chat_message) == 2 and "twice a week" in answer_text(again.chat_message[1])
    other = tab("b" * 32, cid)  # another browser: not its chat
    assert not other.chat_message and any("is not there" in i.value for i in other.info)
    assert not [b for b in other.button if b.key == f"chat-{cid}"]
    # search, rename, delete
    new_tab.text_input(key="chat-search").set_value("tomatoes").run()
    assert [b for b in new_tab.button if b.key == f"chat-{cid}"]
    new_tab.text_input(key="chat-search").set_value("parsnip").run()
    assert not [b for b in new_tab.button if b.key == f"chat-{cid}"] and "No chat has these words" in texts(new_tab)
    again.text_input(key=f"chat-title-{cid}").set_value("Watering").run()
    assert f.chats.get(cid)["title"] == "Watering"
    again.button(key="chat-delete").click().run()
    again.button(key="chat-delete-yes").click().run()
    assert not again.exception and f.chats.get(cid) is None and not again.chat_message
    assert "chat" not in again.query_params
    gone = tab("a" * 32, cid)  # the URL of a deleted chat
    assert not gone.exception and any("is not there" in i.value for i in gone.info)


def stored_chat(f, answers: list[dict]):
    """The chat page of a browser's chat holding ``answers`` (stored answer dicts), each after its question, and
    the chat's id."""
    cid = f.chats.new("Stored answers", owner="c" * 32)
    for answer in answers:
        f.chats.add_message(cid, "user", answer["question"])
        f.catalog.chats.add_message(cid, "assistant", answer["text"], answer)
    at = app()
    at.session_state["browser_id"], at.session_state["browser_id_stored"] = "c" * 32, True
    at.query_params["chat"] = str(cid)
    at.switch_page("pages/chat.py").run()
    assert not at.exception
    return at, cid


def test_stored_answers_show_their_outcome_likely_and_from_before_outcomes(data_dir, book_pdf, embed):
    f = library_with(book_pdf, embed, "garden.pdf")
    stored = f.ask("How often do tomatoes need watering?").consume().to_dict()
    likely = {**stored, "outcome": "likely", "confidence": 0.52}
    old = {k: v for k, v in {**stored, "not_found": True, "confidence": 0.2}.items() if k != "outcome"}
    at, cid = stored_chat(f, [likely, old])
    words = [c.value for m in at.chat_message for c in m.caption]
    assert any(w.startswith("52% — the best passage matches") for w in words), words
    badges = [e.value for m in at.chat_message for e in m.markdown if "-badge[" in e.value]
    assert sum("Likely answer · low confidence" in b for b in badges) == 1  # said once, as the badge
    assert not any("Likely answer" in w for w in words)
    assert any(w.startswith("Not in your books · ") for w in words)  # stored before outcomes: its not_found
    nothing = f.ask("?!...").consume().to_dict()  # no words: nothing was asked, so no confidence line under it
    f.chats.add_message(cid, "user", nothing["question"])
    f.catalog.chats.add_message(cid, "assistant", nothing["text"], nothing)
    at.run()
    assert not at.exception
    assert len([c for c in at.chat_message[-1].caption if c.value.startswith("Not in your books")]) == 0


def test_answers_are_measured_and_the_metrics_page_shows_them(data_dir, book_pdf, embed):
    f = library_with(book_pdf, embed, "garden.pdf")
    at = app()
    at.switch_page("pages/metrics.py").run()
    assert not at.exception and "No answers yet" in texts(at)

    at.switch_page("pages/chat.py").run()
    at.chat_input[0].set_value("How often do tomatoes need watering?").run()
    at.chat_input[0].set_value("Who painted the Mona Lisa?").run()
    assert not at.exception
    rows = f.chats.metrics()
    assert len(rows) == 2 and rows[0]["total_ms"] > 0 and rows[0]["confidence"] > 0 and not rows[0]["not_found"]
    assert rows[1]["not_found"] and rows[1]["outcome"] == "not_found"
    stored = [m["answer"]["confidence"] for s in f.chats.sessions() for m in f.chats.messages(s["id"]) if m["answer"]]
    assert [r["confidence"] for r in rows] == stored  # the one confidence: what the chat showed
    f.chats.feedback(rows[0]["message_id"], 0, "too short")  # thumbs down, with a comment
    assert f.chats.metrics()[0]["feedback"] == 0 and f.chats.metrics()[0]["comment"] == "too short"

    at.switch_page("pages/metrics.py").run()
    assert not at.exception
    values = {m.label: m.value for m in at.metric}
    assert values["Answers"] == "2" and values["Not found"] == "50%" and values["Feedback 👍 / 👎"] == "0 / 1"
    assert values["Mean confidence"] == f"{sum(stored) / 2:.0%}"
    assert "How often do tomatoes need watering?" in [t.value for t in at.text][0]  # the lowest-rated first
    at.button(key=f"open{rows[0]['message_id']}").click().run()
    assert not at.exception

    # an answer from the book's own opening says so, in the chat and here, and is no P(answerable) to average
    at.switch_page("pages/chat.py").run()
    at.chat_input[0].set_value("What is this book about?").run()
    assert not at.exception
    last = [m for s in f.chats.sessions() for m in f.chats.messages(s["id"]) if m["answer"]][-1]["answer"]
    assert f.chats.metrics()[-1]["confidence_kind"] == "overview", (last["query"], last["text"][:200])
    words = [c.value for m in at.chat_message for c in m.caption]
    assert any(w.startswith("Found in your books · its own account") for w in words), words
    at.switch_page("pages/metrics.py").run()
    assert not at.exception
    values = {m.label: m.value for m in at.metric}
    assert values["Answers"] == "3" and values["Mean confidence"] == f"{sum(stored) / 2:.0%}"
    assert any("its own account" in c.value for c in at.caption)

    # tour 34: a 👍 answer led "Weakest answers", and "?!?" was listed as "Not in your books · 0%"
    f.chats.feedback(f.chats.metrics()[-1]["message_id"], 1, "")
    at.switch_page("pages/chat.py").run()
    at.chat_input[0].set_value("?!?").run()
    at.switch_page("pages/metrics.py").run()
    assert not at.exception
    listed = [t.value for t in at.text][:4]
    assert listed[0] == "How often do tomatoes need watering?" and listed[-1] == "What is this book about?", listed
    assert any(c.value.startswith("Not searched · the question has no letters") for c in at.caption)

    # a pasted page of text is listed by its start (tour 37: 2,000 characters printed in full)
    at.switch_page("pages/chat.py").run()
    long = ("Tomatoes need watering and sun, the book says. " * 45).strip()
    at.chat_input[0].set_value(long).run()
    at.switch_page("pages/metrics.py").run()
    assert not at.exception
    shown = [t.value for t in at.text if t.value.startswith("Tomatoes need watering and sun")]
    assert shown and all(len(t) < 400 and t.endswith(f"({len(long):,} characters)") for t in shown), shown


def test_inspector_text_shows_page_furniture_struck_through_and_escaped():
    from pages._widgets import spans_html
    from rag.types import LINE_FURNITURE, Chunk, Page

    text = "<b>Header</b> 12\nBody text of the page."
    page = Page(1, "12", text, 0, ((0, 16, 0, 10, 100, 20, LINE_FURNITURE), (17, len(text), 0, 30, 100, 40, 0)))
    chunk = Chunk(book_id="b", chunk_index=0, text=text[17:], page_start=1, page_end=1, char_start=17,
                  char_end=len(text), section="", tokens=5, label_start="12", label_end="12")
    out = spans_html(page, [chunk])
    assert 'class="furniture"' in out and "&lt;b&gt;Header&lt;/b&gt; 12" in out and "<b>" not in out
    assert "Body text of the page." in out


def test_the_figure_gallery_pages_through_every_figure(data_dir, embed):
    from tests.pdfs import make_many_figures_pdf

    f = library_with(make_many_figures_pdf(14), embed, "samples.pdf")
    book = f.library.books()[0]
    assert book.figures == 14
    at = app().run()
    assert not at.exception
    assert "Figures 1–12 of 14" in texts(at) and len(at.get("image")) == 12
    assert at.button(key=f"fig_prev_{book.id}").disabled
    at.button(key=f"fig_next_{book.id}").click().run()
    assert not at.exception and "Figures 13–14 of 14" in texts(at) and len(at.get("image")) == 2
    assert [t.value for t in at.text if t.value.startswith("Figure")] == [
        f"Figure {k}: Sample {k} of the studio's reference colours. (p. {k})" for k in (13, 14)]
    assert at.button(key=f"fig_next_{book.id}").disabled and "python -m rag" not in texts(at)
    at.button(key=f"fig_prev_{book.id}").click().run()
    assert "Figures 1–12 of 14" in texts(at)


def test_the_inspector_opens_on_the_first_text_page_reads_its_settings_and_picks_chunks_by_click(data_dir, embed,
                                                                                                  book_pdf):
    import pymupdf

    from tests.pdfs import _pixmap

    doc = pymupdf.open(stream=book_pdf)
    cover = doc.new_page(0)  # a cover: a picture, no text
    cover.insert_image(pymupdf.Rect(50, 50, 550, 750), pixmap=_pixmap(200, 300, (30, 60, 120)))
    f = library_with(doc.tobytes(), embed, "covered.pdf")
    book = f.library.books()[0]
    from pages._inspect_view import first_text_page

    first = first_text_page(f.inspector.chunks(book.id))  # the first page with a chunk of ordinary text
    assert first > min(c.page_start for c in f.inspector.chunks(book.id)) >= 2  # past the cover and title page
    at = app()
    at.switch_page("pages/inspector.py").run()
    assert not at.exception
    assert at.slider(key=f"page_{book.id}").value == first  # not the cover
    captions = " ".join(c.value for c in at.caption).replace("\\", "")  # as shown (Markdown escapes out)
    assert "chunker paragraph" in captions and "chunk size 200 word-pieces" in captions and '{"' not in captions
    at.button(key=f"thumb_{book.id}_{first + 1}").click().run()
    assert at.slider(key=f"page_{book.id}").value == first + 1
    pick = next(b for b in at.button if b.key and b.key.startswith(f"pick_{book.id}_"))
    chosen = int(pick.key.rsplit("_", 1)[1])
    pick.click().run()
    assert not at.exception and at.number_input(key=f"ctxsel_{book.id}").value == chosen


def test_the_probe_difference_is_side_by_side_and_escaped():
    from pages._inspect_view import side_by_side_html

    a = "[1] Garden › Soil\nLoam mixes sand and clay.\n<script>alert(1)</script>\nSame line."
    b = "[1] Garden › Soil\nLoam mixes sand, silt and clay.\n**bold** stays literal\nSame line."
    out = side_by_side_html(a, b)
    assert "<script>" not in out and "&lt;script&gt;alert(1)&lt;/script&gt;" in out
    assert "**bold** stays literal" in out and "<strong>" not in out and "<b>" not in out
    assert out.count('class="chg"') >= 2 and 'class="del"' not in out.split("<h5>B</h5>")[1]
    assert out.count("Same line.") == 2 and "max-height" in out  # bounded height, scrolls


def test_an_answer_lists_the_sources_it_cites_and_the_others_behind_a_switch(data_dir, book_pdf, embed):
    f = library_with(book_pdf, embed, "garden.pdf")
    stored = f.ask("How often do tomatoes need watering?").consume().to_dict()
    assert len(stored["sources"]) >= 2
    at, _ = stored_chat(f, [{**stored, "text": "Tomatoes need watering twice a week. [1]"}])
    labels = [e.label for e in at.chat_message[1].expander if e.label.startswith("\\[")]
    assert len(labels) == 1 and labels[0].startswith("\\[1\\]")  # only the cited source
    more = [t for t in at.chat_message[1].toggle]
    assert len(more) == 1 and more[0].label.startswith(f"{len(stored['sources']) - 1} more passage")
    more[0].set_value(True).run()
    assert len([e for e in at.chat_message[1].expander if e.label.startswith("\\[")]) == len(stored["sources"])


def test_an_index_in_code_is_no_citation():
    from pages._widgets import cited_numbers

    text = "Read the first line with `line = fin.readlines()[0]`: [1]\n```\nx = t[2]\n```\nThen close it. [3]"
    assert cited_numbers(text, {1, 2, 3}) == {1, 3}
