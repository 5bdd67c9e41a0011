import os
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
# the ONNX export of the embedding model is made once per machine, not once per test's data folder
# (servers and the browser test's streamlit inherit it)
os.environ.setdefault("RAG_MODEL_CACHE_DIR", str(Path(tempfile.gettempdir()) / "folio-test-models"))

ROOT = Path(__file__).resolve().parents[1]
EVAL = ROOT.parent / "shared" / "eval"
EVAL_PDFS = EVAL / "pdfs"


def eval_pdf(name: str) -> Path:
    p = EVAL_PDFS / name
    if not p.exists():
        pytest.skip(f"{p} not present (evaluation material lives in ../shared/eval)")
    return p


@pytest.fixture(scope="session")
def embed():
    from rag.embed import make_embedder
    from rag.settings import Settings

    return make_embedder(Settings())  # the default backend (ONNX int8, torch when it cannot be made)


@pytest.fixture
def settings(tmp_path):
    from rag.settings import Settings

    return Settings(data_dir=tmp_path / "data")


@pytest.fixture
def folio(settings, embed):
    """A service on a fresh data folder, sharing the session's loaded embedder."""
    from rag.service import Folio

    return Folio(settings, embed=embed)


@pytest.fixture(scope="session")
def book_pdf() -> bytes:
    from tests.pdfs import make_book_pdf

    return make_book_pdf()
