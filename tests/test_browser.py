"""End to end in a real browser: `streamlit run app.py`, Debian chromium driven by Playwright.
Upload a PDF, wait for it to be indexed, ask, see a streamed answer with citations and sources."""
import os
import re
import shutil

import pytest

from tests.conftest import ROOT
from tests.servers import free_port, process, venv_bin

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"),
                                reason="Debian chromium not installed (scripts/test.sh installs it)")


@pytest.fixture
def app_url(tmp_path):
    port = free_port()
    env = {**os.environ, "RAG_DATA_DIR": str(tmp_path / "data"), "HF_HUB_OFFLINE": "1"}
    with process([venv_bin("streamlit"), "run", "app.py", "--server.port", str(port)],
                 f"http://127.0.0.1:{port}/_stcore/health", timeout=120, log=tmp_path / "streamlit.log",
                 cwd=ROOT, env=env):
        yield f"http://127.0.0.1:{port}"


def test_upload_ask_and_see_cited_answer(app_url, tmp_path, book_pdf):
    from playwright.sync_api import expect, sync_playwright

    from tests.pdfs import make_figure_pdf

    assert CHROMIUM, "chromium is required for the browser test"
    pdf = tmp_path / "garden.pdf"
    pdf.write_bytes(book_pdf)
    studio = tmp_path / "studio.pdf"
    studio.write_bytes(make_figure_pdf())
    shots = ROOT / "test-artifacts"
    shots.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                                          "--disable-component-update", "--no-first-run"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        try:
            page.goto(app_url)
            expect(page.get_by_role("heading", name="📚 Library")).to_be_visible(timeout=60_000)
            page.locator("input[type=file]").set_input_files([str(pdf), str(studio)])
            expect(page.get_by_text(re.compile(r"garden\.pdf: Ready:"))).to_be_visible(timeout=180_000)
            expect(page.get_by_text(re.compile(r"studio\.pdf: Ready: 3 pages, \d+ chunks, 2 "
                                               r"figures"))).to_be_visible(timeout=120_000)
            expect(page.get_by_text(re.compile(r"2 book\(s\), \d+ chunks"))).to_be_visible(timeout=30_000)
            page.screenshot(path=str(shots / "library.png"), full_page=True)

            page.get_by_role("link", name="Chat").click()
            box = page.get_by_placeholder("Ask about your books…")
            expect(box).to_be_enabled(timeout=60_000)
            box.fill("How often do tomatoes need watering?")
            box.press("Enter")
            answer = page.locator('[data-testid="stChatMessage"]').nth(1)
            expect(answer).to_contain_text("twice a week", timeout=120_000)
            expect(answer).to_contain_text(re.compile(r"\[\d+\]"))
            expect(answer).to_contain_text(re.compile(r"\[\d+\] Garden and Sky › .*pp?\. \d"))  # the sources
            page.screenshot(path=str(shots / "chat.png"), full_page=True)

            # the book's figure under the answer, and the cited page with the passage highlighted
            box.fill("What is the reference colour of the studio?")
            box.press("Enter")
            answer = page.locator('[data-testid="stChatMessage"]').nth(3)
            expect(answer).to_contain_text("Figure 1.1: A red square", timeout=120_000)
            figure = answer.locator('[data-testid="stImage"] img').first
            expect(figure).to_be_visible()
            assert figure.evaluate("img => img.naturalWidth") > 100
            page.screenshot(path=str(shots / "chat_figure.png"), full_page=True)
            answer.get_by_role("button", name=re.compile(r"^Page \d+")).first.click()  # the figure's page, framed
            expect(page.get_by_role("dialog").get_by_text("The figure is framed")).to_be_visible(timeout=60_000)
            page.keyboard.press("Escape")
            expect(page.get_by_role("dialog")).to_have_count(0, timeout=30_000)

            # document text is data: Markdown/HTML in a book shows as the characters it is made of
            box.fill("What do you call __main__ with args and a script?")
            box.press("Enter")
            answer = page.locator('[data-testid="stChatMessage"]').nth(5)
            expect(answer).to_contain_text("Call __main__ with *args, then <script>alert(1)</script> and "
                                           "![x](http://example.com/x.png)", timeout=120_000)
            assert answer.locator("img[src*='example.com'], script").count() == 0
            text = answer.locator(".folio-prose").first  # the answer's prose: text nodes and [n] buttons only
            assert "__main__" in text.inner_text() and text.locator("strong, em, a, img, script").count() == 0
            page.screenshot(path=str(shots / "chat_literal.png"), full_page=True)

            inspector(page, shots)
        finally:
            browser.close()


COLOURED_PIXELS = """img => { if (!img.complete || !img.naturalWidth) return -1;  // not loaded yet
  const c = document.createElement('canvas'); c.width = img.naturalWidth;
  c.height = img.naturalHeight; const x = c.getContext('2d'); x.drawImage(img, 0, 0);
  const d = x.getImageData(0, 0, c.width, c.height).data; let n = 0;
  for (let i = 0; i < d.length; i += 4) { const r = d[i], g = d[i+1], b = d[i+2];
    if (Math.max(r, g, b) - Math.min(r, g, b) > 30) n++; } return n; }"""


def inspector(page, shots):
    """The chunk inspector: chunk boxes drawn on a page for two strategies, and the answerer's context
    growing when the window does."""
    from playwright.sync_api import expect

    page.get_by_role("link", name="Chunk inspector").click()
    expect(page.get_by_role("heading", name="🔍 Chunk inspector")).to_be_visible(timeout=60_000)
    page.get_by_role("combobox").first.click()
    page.get_by_role("option", name=re.compile("Garden and Sky")).click()
    page.get_by_role("button", name="p. 2", exact=True).click()  # the thumbnail row under the page slider
    expect(page.locator(".chunk-spans").first).to_contain_text("Good soil", timeout=60_000)  # page 2 is shown
    expect(page.get_by_text(re.compile(r"Preview: semantic"))).to_be_visible(timeout=60_000)
    expect(page.get_by_text(re.compile(r"Indexed: paragraph .* — \d+ chunks on this page"))).to_be_visible()
    images = page.locator('[data-testid="stImage"] img')  # page thumbnails (90 px), then the two page maps
    maps = []
    for _ in range(120):
        maps = [images.nth(i) for i in range(images.count())
                if (images.nth(i).bounding_box() or {}).get("width", 0) > 150]
        if len(maps) >= 2:
            break
        page.wait_for_timeout(500)
    assert len(maps) >= 2
    for i in range(2):  # each page map has chunk boxes in colour (a bare page is black on white)
        coloured = -1
        for _ in range(120):  # until the image has loaded (it may be re-rendered meanwhile)
            coloured = maps[i].evaluate(COLOURED_PIXELS)
            if coloured >= 0:
                break
            page.wait_for_timeout(500)
        assert coloured > 5000
    spans = page.locator(".chunk-spans").first
    assert "#0" in spans.inner_text() or "#1" in spans.inner_text()
    assert spans.locator("span[style*='background']").count() >= 2
    page.screenshot(path=str(shots / "inspector_page.png"), full_page=True)

    page.get_by_role("tab", name=re.compile("Context")).click()
    page.get_by_text("fixed", exact=True).first.click()
    chunk = page.get_by_label("Chunk", exact=True)
    chunk.fill("2")
    chunk.press("Enter")
    merged = page.get_by_text(re.compile(r"^\[1\] Garden and Sky, p"))
    expect(merged).to_be_visible(timeout=60_000)
    expect(page.get_by_text(re.compile(r"fixed window: 1 before, 1 after"))).to_be_visible(timeout=30_000)
    page.wait_for_timeout(1500)  # the text under the summary is drawn after it
    before = merged.inner_text()
    thumb = page.get_by_role("slider", name=re.compile("Window"))
    thumb.focus()
    thumb.press("ArrowRight")
    expect(page.get_by_text(re.compile(r"fixed window: 2 before, 2 after"))).to_be_visible(timeout=30_000)
    after = before
    for _ in range(60):  # the merged text is redrawn after the window summary
        after = page.get_by_text(re.compile(r"^\[1\] Garden and Sky, p")).inner_text()
        if after != before:
            break
        page.wait_for_timeout(500)
    assert len(after) > len(before) and before.split("\n", 1)[1][:200] in after
    page.screenshot(path=str(shots / "inspector_context.png"), full_page=True)
