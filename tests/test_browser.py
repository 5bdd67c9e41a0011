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
            expect(page.get_by_text(re.compile(r"studio\.pdf: Ready: 3 pages, \d+ chunks, 2 figures"))).to_be_visible(timeout=120_000)
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
            expect(answer.get_by_text(re.compile(r"Sources \(\d+\)"))).to_be_visible()
            answer.get_by_text(re.compile(r"Sources \(\d+\)")).click()
            expect(answer).to_contain_text(re.compile(r"\[\d+\] Garden and Sky › .*pp?\. \d"))
            page.screenshot(path=str(shots / "chat.png"), full_page=True)

            # the book's figure under the answer, and the cited page with the passage highlighted
            box.fill("What is the reference colour of the studio?")
            box.press("Enter")
            answer = page.locator('[data-testid="stChatMessage"]').nth(3)
            expect(answer).to_contain_text("Figure 1.1: A red square", timeout=120_000)
            figure = answer.locator('[data-testid="stImage"] img').first
            expect(figure).to_be_visible()
            assert figure.evaluate("img => img.naturalWidth") > 100
            answer.get_by_text(re.compile(r"Sources \(\d+\)")).click()
            expect(answer.get_by_text(re.compile(r"p\. \d+: the passage highlighted")).first).to_be_visible()
            page.screenshot(path=str(shots / "chat_figure.png"), full_page=True)

            # document text is data: Markdown/HTML in a book shows as the characters it is made of
            box.fill("What do you call __main__ with args and a script?")
            box.press("Enter")
            answer = page.locator('[data-testid="stChatMessage"]').nth(5)
            expect(answer).to_contain_text("Call __main__ with *args, then <script>alert(1)</script> and "
                                           "![x](http://example.com/x.png)", timeout=120_000)
            assert answer.locator("img[src*='example.com'], script").count() == 0
            text = answer.locator('[data-testid="stText"]').first
            assert "__main__" in text.inner_text() and text.locator("strong, em, a, img").count() == 0
            page.screenshot(path=str(shots / "chat_literal.png"), full_page=True)
        finally:
            browser.close()
