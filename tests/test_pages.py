"""Every page through Streamlit's AppTest, on a fresh data folder."""
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


def test_chat_page_streams_cited_answer_and_replays_history(data_dir, book_pdf, embed):
    f = library_with(book_pdf, embed, "garden.pdf")
    at = app()
    at.switch_page("pages/chat.py").run()
    assert not at.exception
    at.chat_input[0].set_value("How often do tomatoes need watering?").run()
    assert not at.exception
    answer = at.chat_message[1].text[0].value
    assert "twice a week" in answer and re.search(r"\[\d+\]", answer)
    assert any("Sources" in e.label for e in at.expander)
    at.run()  # a rerun replays the stored conversation with its sources
    assert len(at.chat_message) == 2 and "twice a week" in at.chat_message[1].text[0].value
    sessions = f.chats.sessions()
    assert len(sessions) == 1 and sessions[0]["title"].startswith("How often")
    at.chat_input[0].set_value("And why in the morning?").run()  # a follow-up: searched in the book just cited
    assert not at.exception and "morning" in at.chat_message[3].text[0].value
    at.chat_input[0].set_value("Who painted the Mona Lisa?").run()
    assert "Not in your books" in at.chat_message[5].text[0].value
    assert any("Closest passages" in e.label for e in at.expander)


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


def test_chat_shows_figures_page_images_and_book_text_literally(data_dir, embed):
    from tests.pdfs import MARKUP_LINE, make_figure_pdf

    library_with(make_figure_pdf(), embed, "studio.pdf")
    at = app()
    at.switch_page("pages/chat.py").run()
    at.chat_input[0].set_value("What is the reference colour of the studio?").run()
    assert not at.exception
    msg = at.chat_message[1]
    assert msg.text[0].value.startswith("As shown in Figure 1.1") or "[1]" in msg.text[0].value
    assert any(t.value.startswith("Figure 1.1: A red square") for t in msg.text[1:])  # the figure's caption
    images = msg.get("image")
    assert len(images) >= 2  # the figure, and the cited page with its passage highlighted
    assert any("passage highlighted" in c for i in images for c in i.captions)
    assert any("Whole page" in t.label for t in at.toggle)
    at.run()  # the history replays the figures
    assert any(t.value.startswith("Figure 1.1: A red square") for t in at.chat_message[1].text)

    at.chat_input[0].set_value("What do you call __main__ with args and a script?").run()
    assert not at.exception
    # the answer and its passages are plain text elements: the book's characters exactly
    assert MARKUP_LINE.split(" and ")[0] in at.chat_message[3].text[0].value
    assert not any("__main__" in m.value for m in at.chat_message[3].markdown)  # never as Markdown


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
    assert rows[1]["not_found"] and rows[1]["confidence"] == 0.0
    f.chats.feedback(rows[0]["message_id"], 0, "too short")  # thumbs down, with a comment
    assert f.chats.metrics()[0]["feedback"] == 0 and f.chats.metrics()[0]["comment"] == "too short"

    at.switch_page("pages/metrics.py").run()
    assert not at.exception
    values = {m.label: m.value for m in at.metric}
    assert values["Answers"] == "2" and values["Not found"] == "50%" and values["Feedback 👍 / 👎"] == "0 / 1"
    assert "How often do tomatoes need watering?" in [t.value for t in at.text][0]  # the lowest-rated first
    at.button(key=f"open{rows[0]['message_id']}").click().run()
    assert not at.exception


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
