"""The login in a real browser (Debian chromium, Playwright): Folio started with ``scripts/run.sh --network`` and a
password set. A browser without the password sees only the login page, whichever page it asks for; wrong
passwords are answered later each time; the right one opens the page asked for, a reload does not ask again, and
another browser (no cookie) is still stopped at the login. Screenshots in test-artifacts/."""
import os
import re
import shutil
import time

import pytest

from rag.auth.password import set_password
from tests.conftest import ROOT
from tests.servers import free_port, process
from tests.test_access import RUN, outward_ip, run_env

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"),
                                reason="Debian chromium not installed (scripts/test.sh installs it)")
PASSWORD = "correct horse battery staple"


@pytest.fixture
def gated_url(tmp_path):
    set_password(tmp_path / "data", PASSWORD)
    port = free_port()
    with process([RUN, "--network", "--server.port", str(port)], f"http://127.0.0.1:{port}/_stcore/health",
                 timeout=120, cwd=ROOT, env=run_env(tmp_path, HF_HUB_OFFLINE="1"), log=tmp_path / "run.log"):
        yield f"http://{outward_ip() or '127.0.0.1'}:{port}"  # as another machine on the network reaches it


def test_only_the_login_page_without_the_password(gated_url):
    from playwright.sync_api import expect, sync_playwright

    assert CHROMIUM, "chromium is required for the browser test"
    shots = ROOT / "test-artifacts"
    shots.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                                          "--disable-component-update", "--no-first-run"])
        try:
            stranger = browser.new_context()
            page = stranger.new_page()
            for path in ("/", "/inspector", "/evaluate", "/chat"):  # every page, asked for directly (Chat last)
                page.goto(gated_url + path)
                expect(page.get_by_label("Password")).to_be_visible(timeout=30_000)
                assert re.search(r"/login\?next=", page.url), page.url
                assert page.locator('[data-testid="stApp"], [data-testid="stSidebar"]').count() == 0
                assert "Library" not in page.content()
            page.screenshot(path=str(shots / "login.png"), full_page=True)

            waited = []
            for guess in ("password", "123456", "letmein!"):  # each wrong answer comes later than the last
                page.get_by_label("Password").fill(guess)
                t = time.monotonic()
                page.get_by_role("button", name="Sign in").click()
                expect(page.get_by_role("alert")).to_have_text("Wrong password.", timeout=60_000)
                waited.append(time.monotonic() - t)
            assert waited[0] >= 1.0 and waited[1] >= 2.0 and waited[2] >= 4.0, waited
            assert page.locator('[data-testid="stApp"]').count() == 0

            page.get_by_label("Password").fill(PASSWORD)
            page.get_by_role("button", name="Sign in").click()
            expect(page.get_by_role("textbox", name="Ask about your "
                                                    "books…")).to_be_visible(timeout=90_000)  # the page asked for
            page.reload()
            expect(page.get_by_role("textbox", name="Ask about your books…")).to_be_visible(timeout=90_000)
            assert "/login" not in page.url
            cookie = next(c for c in stranger.cookies() if c["name"] == "folio_session")
            assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
            page.screenshot(path=str(shots / "login_signed_in.png"), full_page=True)

            other = browser.new_context().new_page()  # another browser: still the login page
            other.goto(gated_url + "/chat")
            expect(other.get_by_label("Password")).to_be_visible(timeout=30_000)
            assert other.locator('[data-testid="stApp"]').count() == 0

            page.get_by_role("link", name="Sign out").click()  # and out again
            expect(page.get_by_label("Password")).to_be_visible(timeout=30_000)
            page.goto(gated_url + "/chat")
            expect(page.get_by_label("Password")).to_be_visible(timeout=30_000)
        finally:
            browser.close()


def test_the_app_started_by_hand_on_the_network_refuses_other_machines(tmp_path):
    """``streamlit run app.py --server.address 0.0.0.0`` (not scripts/run.sh): a browser coming from the network
    gets the refusal on every page — the first request of the fresh server asking for a page directly included —
    while this machine still gets the app."""
    from playwright.sync_api import expect, sync_playwright

    from tests.servers import venv_bin

    ip = outward_ip()
    if ip is None:
        pytest.skip("this machine has no network address to come from")
    port = free_port()
    env = {**run_env(tmp_path), "HF_HUB_OFFLINE": "1"}
    with process([venv_bin("streamlit"), "run", "app.py", "--server.address", "0.0.0.0", "--server.port", str(port)],
                 f"http://127.0.0.1:{port}/_stcore/health", timeout=120, cwd=ROOT, env=env,
                 log=tmp_path / "streamlit.log"), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"])
        try:
            for path in ("/chat", "/chat", "/inspector", "/"):
                page = browser.new_page()
                page.goto(f"http://{ip}:{port}{path}")
                expect(page.get_by_text("Folio is not served to the network without a password")).to_be_visible(
                    timeout=60_000)
                assert page.locator("h1").count() == 0 and page.locator('[data-testid="stSidebarNav"]').count() == 0
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/chat")
            expect(page.get_by_role("textbox", name="Ask about your books…")).to_be_visible(timeout=60_000)
        finally:
            browser.close()
