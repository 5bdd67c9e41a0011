"""Backends against real server processes on loopback: a `chroma run` server for the index,
a llama.cpp OpenAI-compatible server for the LLM answer path."""
import sys

import pytest

from rag.errors import BackendError
from rag.service import Folio
from tests.servers import free_port, process, venv_bin


@pytest.fixture(scope="module")
def llm_url(tmp_path_factory):
    port = free_port()
    d = tmp_path_factory.mktemp("llm")
    with process([sys.executable, "tests/llm_server.py", str(port), str(d)], f"http://127.0.0.1:{port}/health",
                 timeout=180, log=d / "server.log"):
        yield f"http://127.0.0.1:{port}/v1"


def test_chroma_server_with_the_same_code(tmp_path, settings, embed, book_pdf):
    port = free_port()
    with process([venv_bin("chroma"), "run", "--path", str(tmp_path / "chroma-srv"), "--host", "127.0.0.1",
                  "--port", str(port)], f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=60):
        f = Folio(settings.model_copy(update={"chroma_host": "127.0.0.1", "chroma_port": port}), embed=embed)
        r = f.library.ingest(book_pdf, "garden.pdf")
        assert f.store.count(r.book_id) == r.chunks
        assert not (settings.data_dir / "chroma").exists()  # nothing went to the embedded store
        a = f.ask("How often do tomatoes need watering?").consume()
        assert "twice a week" in a.text
        f.library.delete_book(r.book_id)
        assert f.store.count() == 0


def test_chroma_server_unreachable_is_a_clear_error(settings, book_pdf, embed):
    from rag.errors import StoreError

    f = Folio(settings.model_copy(update={"chroma_host": "127.0.0.1", "chroma_port": free_port()}), embed=embed)
    with pytest.raises(StoreError, match="Chroma server"):
        f.library.ingest(book_pdf, "garden.pdf")


def test_openai_compatible_server_streams_an_answer(folio, book_pdf, llm_url):
    folio.library.ingest(book_pdf, "garden.pdf")
    over = {"answer_backend": "openai", "llm_base_url": llm_url, "llm_model": "gemma-test", "llm_max_tokens": 32}
    stream = folio.ask("How often do tomatoes need watering?", **over)
    pieces = list(stream)
    a = stream.answer
    assert len(pieces) > 1  # streamed, not one block
    assert a.text.strip() and a.backend == "openai"
    assert a.sources and any("twice a week" in s.text for s in a.sources)
    assert a.trace["first_token"] < a.trace["total"]
    # the model read the sources that answer, the answer's first, numbered as it saw them
    assert "twice a week" in a.sources[0].hit.text and [s.n for s in a.sources] == list(range(1, len(a.sources) + 1))
    every = folio.ask("How often do tomatoes need watering?", **over, llm_focus=False).consume()
    assert "focus" in a.trace and "focus" not in every.trace and len(every.sources) >= len(a.sources)
    # follow-ups ask the LLM to rewrite the question (a base model's rewrite is kept or folded)
    b = folio.ask("Why?", history=[("How often do tomatoes need watering?", a.text)], **over).consume()
    assert b.query and b.query != ""


def test_unreachable_llm_server_is_a_clear_error(folio, book_pdf):
    folio.library.ingest(book_pdf, "garden.pdf")
    over = {"answer_backend": "openai", "llm_base_url": f"http://127.0.0.1:{free_port()}/v1", "llm_timeout_s": 5}
    with pytest.raises(BackendError, match="extractive"):
        folio.ask("How often do tomatoes need watering?", **over).consume()
