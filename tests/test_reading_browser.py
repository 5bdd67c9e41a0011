"""The reading room in a real browser (`streamlit run app.py`, Debian chromium driven by Playwright), at 1280 px and
400 px: clicking [1] shows the cited page large with its highlight; the default answer view shows no stage
timings or word-pieces; two browsers see separate chats and a chat's URL reopens it; separate upload results;
running Evaluate leaves the library as `python -m rag books` lists it.
Screenshots go to test-artifacts/."""
import inspect
import os
import re
import shutil

import pymupdf
import pytest

from tests.conftest import ROOT
from tests.servers import free_port, process, venv_bin

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"),
                                reason="Debian chromium not installed (scripts/test.sh installs it)")
SHOTS = ROOT / "test-artifacts"
QUESTION = "How often do tomatoes need watering?"


@pytest.fixture
def reading_app(tmp_path, embed, book_pdf):
    """The app over a library made before it starts: the garden book and a page with a figure."""
    from rag.service import Folio
    from rag.settings import Settings
    from tests.pdfs import make_figure_pdf

    data = tmp_path / "data"
    f = Folio(Settings(data_dir=data), embed=embed)
    f.library.ingest(book_pdf, "garden.pdf")
    f.library.ingest(make_figure_pdf(), "studio.pdf")
    port = free_port()
    env = {**os.environ, "RAG_DATA_DIR": str(data), "HF_HUB_OFFLINE": "1"}
    with process([venv_bin("streamlit"), "run", "app.py", "--server.port", str(port), "--server.headless", "true"],
                 f"http://127.0.0.1:{port}/_stcore/health", timeout=120, log=tmp_path / "streamlit.log",
                 cwd=ROOT, env=env):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright

    assert CHROMIUM, "chromium is required for the browser test"
    SHOTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                              args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                                    "--disable-component-update", "--no-first-run"])
        try:
            yield b
        finally:
            b.close()


def ask(page, url: str, question: str = QUESTION, n: int = 0):
    """Open the Chat page (a new chat) and ask; returns the answer's message once it is complete."""
    from playwright.sync_api import expect

    if url:
        page.goto(url + "/chat")
    box = page.get_by_placeholder("Ask about your books…")
    expect(box).to_be_enabled(timeout=120_000)
    box.fill(question)
    box.press("Enter")
    answer = page.locator('[data-testid="stChatMessage"]').nth(2 * n + 1)
    expect(answer.get_by_text(re.compile(r"^Found in your books|^Likely answer|^Not in your books"))
           ).to_be_visible(timeout=180_000)
    # … and the script run that shows it has ended: a click during that run's last moments can be lost (the phone
    # test's [1] once opened no dialog in a full run)
    expect(page.locator('[data-testid="stStatusWidget"]')).to_be_hidden(timeout=120_000)
    return answer


def highlighted_pixels(png: bytes) -> int:
    """Pixels of the highlight colours (yellow: the cited chunk, orange: the quoted sentence) in a screenshot."""
    pix = pymupdf.Pixmap(png)
    n, data = pix.n, pix.samples
    count = 0
    for i in range(0, len(data) - n + 1, n * 2):  # every other pixel is enough
        r, g, b = data[i], data[i + 1], data[i + 2]
        if r > 220 and 150 < g < 245 and b < 190 and r - b > 60:
            count += 1
    return count


def test_clicking_a_citation_opens_its_page_large_and_highlighted(reading_app, browser):
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    answer = ask(page, reading_app)
    expect(answer).to_contain_text("twice a week")
    # the default answer view is for readers: no stage timings, word-pieces or scores
    shown = answer.inner_text()
    assert not re.search(r"\d ms\b|word-pieces|similarity|fused|⏱|🧩", shown), shown
    assert re.search(r"Found in your books · (high|medium) confidence \(\d+%\)", shown)
    page.screenshot(path=str(SHOTS / "reading_chat_1280.png"))
    answer.get_by_text("How this answer was made").click()  # the builders' details: one click away
    expect(answer.get_by_text(re.compile(r"^Searched for: "))).to_be_visible(timeout=60_000)
    expect(answer.get_by_text(re.compile(r"^P\(the books answer it\) = 0\.\d+"))).to_be_visible()

    answer.locator("button.cite").first.click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible(timeout=60_000)
    expect(dialog.get_by_text(re.compile(r"^\[1\] Garden and Sky › "))).to_be_visible()
    expect(dialog.get_by_text("Yellow: the cited passage · orange: the sentences the answer quotes")
           ).to_be_visible(timeout=60_000)
    img = dialog.locator('[data-testid="stImage"] img').first
    expect(img).to_be_visible()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=img.element_handle(), timeout=60_000)
    natural, shown_width = img.evaluate("i => [i.naturalWidth, i.getBoundingClientRect().width]")
    dialog_width = dialog.bounding_box()["width"]
    assert natural >= 800 and shown_width >= 0.8 * (dialog_width - 80), (natural, shown_width, dialog_width)
    page.wait_for_timeout(1500)  # scrolled to the highlight
    shot = page.screenshot(path=str(SHOTS / "reading_reader_1280.png"))  # (an element screenshot would scroll)
    assert highlighted_pixels(shot) > 2000  # the highlight is on screen, not only somewhere on the page
    where = dialog.get_by_text(re.compile(r"in the file\)$"))
    before = where.inner_text()
    dialog.locator(".st-key-reader-next button").filter(visible=True).click()
    expect(where).not_to_have_text(before, timeout=60_000)
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_have_count(0, timeout=30_000)
    # its own ✕ closes it too: nothing lies over it (tour 49: the title's box took the clicks; Playwright clicks
    # only an element that would receive the click)
    answer.locator("button.cite").first.click()
    expect(dialog.get_by_text("Yellow: the cited passage · orange: the sentences the answer quotes")
           ).to_be_visible(timeout=60_000)
    dialog.get_by_role("button", name="Close", exact=True).click(timeout=10_000)
    expect(page.get_by_role("dialog")).to_have_count(0, timeout=30_000)


def test_the_reader_works_on_a_phone(reading_app, browser):
    from playwright.sync_api import expect

    ctx = browser.new_context(viewport={"width": 400, "height": 800}, device_scale_factor=1)
    page = ctx.new_page()
    answer = ask(page, reading_app)
    page.screenshot(path=str(SHOTS / "reading_chat_400.png"))
    answer.locator("button.cite").first.click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible(timeout=60_000)
    box = dialog.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 400 and box["width"] >= 300  # fits the screen
    img = dialog.locator('[data-testid="stImage"] img').first
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=img.element_handle(), timeout=60_000)
    assert img.evaluate("i => i.getBoundingClientRect().width") >= 700  # drawn wide enough to read; scrolls sideways
    page.wait_for_timeout(1500)
    shot = page.screenshot(path=str(SHOTS / "reading_reader_400.png"))
    assert highlighted_pixels(shot) > 1000  # the passage is scrolled into view
    for key in ("reader-prev", "reader-next"):
        b = dialog.locator(f".st-key-{key} button").filter(visible=True).bounding_box()
        assert b and 0 <= b["x"] and b["x"] + b["width"] <= 400  # the page controls fit the width
    ctx.close()


def test_two_browsers_have_separate_chats_and_a_chat_url_reopens_it(reading_app, browser):
    from playwright.sync_api import expect

    a = browser.new_context(viewport={"width": 1280, "height": 900})
    b = browser.new_context(viewport={"width": 1280, "height": 900})
    pa = a.new_page()
    ask(pa, reading_app)
    expect(pa).to_have_url(re.compile(r"/chat\?chat=\d+$"), timeout=30_000)
    url = pa.url
    title = pa.locator('[data-testid="stSidebar"]').get_by_role("button", name=QUESTION)
    expect(title).to_be_visible(timeout=30_000)
    # the other browser: its own (empty) chat list, and the first browser's chat URL does not open there
    pb = b.new_page()
    pb.goto(reading_app + "/chat")
    expect(pb.get_by_placeholder("Ask about your books…")).to_be_enabled(timeout=60_000)
    expect(pb.get_by_text("Your chats will be listed here.")).to_be_visible(timeout=30_000)
    assert pb.locator('[data-testid="stSidebar"]').get_by_role("button", name=QUESTION).count() == 0
    pb.goto(url)
    expect(pb.get_by_text(re.compile(r"^Chat \d+ is not there"))).to_be_visible(timeout=60_000)
    assert pb.locator('[data-testid="stChatMessage"]').count() == 0
    # the first browser, a new tab: a new chat (nothing appended to the old one), the old one in its list …
    pa2 = a.new_page()
    pa2.goto(reading_app + "/chat")
    expect(pa2.locator('[data-testid="stSidebar"]').get_by_role("button", name=QUESTION)
           ).to_be_visible(timeout=60_000)
    assert pa2.locator('[data-testid="stChatMessage"]').count() == 0
    # … and the chat's URL reopens it
    pa2.goto(url)
    expect(pa2.locator('[data-testid="stChatMessage"]')).to_have_count(2, timeout=60_000)
    expect(pa2.locator('[data-testid="stChatMessage"]').nth(1)).to_contain_text("twice a week")
    pa2.screenshot(path=str(SHOTS / "reading_chat_url.png"))
    a.close()
    b.close()


def test_two_browsers_see_only_their_own_upload_results(reading_app, browser, tmp_path):
    from playwright.sync_api import expect

    from rag.library.books import Library
    from tests.pdfs import make_table_pdf

    assert "owner" in inspect.signature(Library.jobs).parameters
    pdf = tmp_path / "planting.pdf"
    pdf.write_bytes(make_table_pdf())
    a = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    b = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    a.goto(reading_app)
    a.locator("input[type=file]").set_input_files([str(pdf)])
    expect(a.get_by_text(re.compile(r"planting\.pdf: Ready:"))).to_be_visible(timeout=180_000)
    b.goto(reading_app)
    expect(b.get_by_role("heading", name="📚 Library")).to_be_visible(timeout=60_000)
    expect(b.get_by_text(re.compile(r"3 book\(s\)"))).to_be_visible(timeout=60_000)  # the book is everyone's
    b.wait_for_timeout(3000)
    assert b.get_by_text(re.compile(r"planting\.pdf: Ready:")).count() == 0  # the upload result is not


def test_running_evaluate_leaves_the_library_as_python_m_rag_books_lists_it(reading_app, browser, tmp_path):
    import json
    import subprocess
    import sys

    from playwright.sync_api import expect

    from tests.pdfs import make_book_pdf

    env = {**os.environ, "RAG_DATA_DIR": str(tmp_path / "data"), "HF_HUB_OFFLINE": "1"}

    def books() -> str:
        run = subprocess.run([sys.executable, "-m", "rag", "books"], cwd=ROOT, env=env, capture_output=True,
                             text=True, timeout=120)
        assert run.returncode == 0, run.stderr[-2000:]
        return run.stdout  # the books, one per line (id, status, pages, chunks, title)

    before = books()
    assert "garden" in before.lower() or "Garden" in before
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "garden.pdf").write_bytes(make_book_pdf())
    qa = folder / "tiny.jsonl"
    qa.write_text("\n".join(json.dumps(i) for i in [
        {"id": "g1", "question": QUESTION, "file": "garden.pdf", "evidence_pages": [2]},
        {"id": "g2", "question": "Who painted the Mona Lisa?", "file": "garden.pdf", "answerable": False}]))
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(reading_app + "/evaluate")
    expect(page.get_by_role("heading", name="🧪 Evaluate")).to_be_visible(timeout=60_000)
    page.locator('[data-testid="stSelectbox"]').first.click()  # the question-set dropdown
    page.get_by_role("option", name=re.compile("Upload a JSONL")).click()
    page.locator("input[type=file]").set_input_files([str(qa)])
    expect(page.get_by_text("tiny.jsonl")).to_be_visible(timeout=30_000)
    box = page.get_by_label("Folder with the set's books", exact=True)  # not its help button
    box.fill(str(folder))
    box.press("Enter")
    configs = page.get_by_label(re.compile("^Configurations"))
    configs.fill("window=1")
    configs.press("Control+Enter")  # commit the text area now: its rerun must not swallow the button's click
    page.wait_for_timeout(1500)
    run = page.get_by_role("button", name=re.compile("Run evaluation"))
    run.click()
    results = page.get_by_text("Results: tiny.jsonl")
    try:
        expect(results).to_be_visible(timeout=120_000)
    except AssertionError:  # a click lost to a rerun still in flight: the job never started, so ask once more
        if run.is_enabled():
            run.click()
        expect(results).to_be_visible(timeout=120_000)
    expect(page.locator('[data-testid="stDataFrame"]').first).to_be_visible(timeout=60_000)
    page.screenshot(path=str(SHOTS / "evaluate-done.png"), full_page=True)
    assert books() == before  # the user's library, as `python -m rag books` lists it, is what it was


def test_the_library_counts_ready_books_while_others_are_still_processing(reading_app, browser, tmp_path):
    from playwright.sync_api import expect

    from tests.pdfs import make_table_pdf

    small = tmp_path / "planting.pdf"
    small.write_bytes(make_table_pdf())
    big = tmp_path / "long.pdf"
    doc = pymupdf.open()
    words = "garden soil water root leaf light planet orbit star telescope mirror lens compost seed".split()
    for i in range(400):  # long enough that it is still being read when the small one is ready
        page = doc.new_page()
        page.insert_textbox(pymupdf.Rect(60, 60, 540, 780), " ".join(words[(i * 7 + k) % len(words)] + str(k % 97)
                                                                     for k in range(420)), fontsize=9)
    big.write_bytes(doc.tobytes())
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(reading_app)
    sidebar = page.locator('[data-testid="stSidebar"]')
    expect(sidebar).to_contain_text("2 book(s)", timeout=60_000)
    page.locator("input[type=file]").set_input_files([str(small), str(big)])
    expect(page.get_by_text(re.compile(r"planting\.pdf: Ready:"))).to_be_visible(timeout=180_000)
    expect(sidebar).to_contain_text("3 book(s)", timeout=15_000)  # counted while long.pdf is still processing
    assert page.get_by_text(re.compile(r"long\.pdf: Ready:")).count() == 0
    main = page.locator('[data-testid="stMain"]')
    expect(main.get_by_text(re.compile(r"⚙️ long\.pdf — |⏳ long\.pdf — queued"))).to_be_visible()
    assert "✓" not in main.inner_text()  # no check mark on a file still working
    page.screenshot(path=str(SHOTS / "library_counting_while_busy.png"), full_page=True)


def test_the_inspector_works_on_a_phone(reading_app, browser):
    from playwright.sync_api import expect

    page = browser.new_context(viewport={"width": 400, "height": 850}).new_page()
    page.goto(reading_app + "/inspector")
    expect(page.get_by_role("heading", name=re.compile("Chunk inspector"))).to_be_visible(timeout=60_000)
    tabs = page.get_by_role("tab")
    expect(tabs.first).to_be_visible(timeout=60_000)
    assert tabs.count() == 5
    width = page.evaluate("() => document.documentElement.clientWidth")
    for i in range(5):  # every tab is on screen, none behind a scroll arrow
        box = tabs.nth(i).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (i, box, width)
    tabs.nth(3).click()
    expect(page.get_by_placeholder("What is recursion?")).to_be_visible(timeout=30_000)
    tabs.nth(0).click()
    expect(page.get_by_text(re.compile(r"^Chunks of this page"))).to_be_visible(timeout=60_000)
    page.screenshot(path=str(SHOTS / "inspector_400.png"), full_page=True)
