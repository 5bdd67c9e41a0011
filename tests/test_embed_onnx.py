"""The ONNX Runtime embedder: close to the torch reference, no torch in the process, falls back honestly."""
import json
import subprocess
import sys

import numpy as np
import pytest

from rag.embed import LocalSentenceEmbedding
from rag.settings import Settings
from tests.conftest import ROOT

TEXTS = [
    "A state diagram shows the value of each variable.",
    "Tomatoes need a deep watering twice a week in summer; the soil should dry between waterings.",
    "Ein topologischer Raum heißt kompakt, wenn jede offene Überdeckung eine endliche Teilüberdeckung besitzt.",
    "for i in range(10):\n    print(i)",
    " ".join(["Recursion is a function calling itself until it reaches a base case."] * 12),
]


def test_onnx_vectors_match_the_torch_reference(embed):
    assert embed.kind == "onnx-int8"
    torch_embed = LocalSentenceEmbedding(model_name="all-MiniLM-L6-v2", backend="torch")
    ref = np.array(torch_embed.get_text_embedding_batch(TEXTS))
    got = np.array(embed.get_text_embedding_batch(TEXTS))
    cos = (ref * got).sum(1)
    assert cos.mean() >= 0.99 and cos.min() >= 0.97, cos
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-4)
    q = embed.get_query_embedding("What does a state diagram show?")
    assert int(np.argmax(got @ np.array(q))) == 0  # the same passage wins
    assert torch_embed.cache_id == "all-MiniLM-L6-v2" and embed.cache_id == "all-MiniLM-L6-v2#onnx-int8"


def test_the_export_records_its_check():
    manifests = list(Settings().model_cache_path.glob("all-MiniLM-L6-v2-*.json"))
    assert manifests, "the session's embedder exported the model"
    m = json.loads(manifests[0].read_text())
    assert m["precision"] == "int8" and m["mean_cosine"] >= 0.99


def test_repeated_queries_are_not_embedded_again(embed):
    q = "How often do tomatoes need watering? (cache test)"
    first = embed.get_query_embedding(q)
    assert embed._queries[q] == first
    embed._queries[q] = [0.5] * 384  # what the cache holds is what a repeated question gets
    assert embed.get_query_embedding(q) == [0.5] * 384
    embed._queries.pop(q)


def test_the_onnx_path_never_imports_torch(tmp_path):
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from rag.service import Folio\n"
        "from rag.settings import Settings\n"
        f"f = Folio(Settings(data_dir=Path({str(tmp_path)!r})))\n"
        "f.warm_up()\n"
        "assert f.embed.kind == 'onnx-int8', f.embed.kind\n"
        "f.ask('What is a state diagram?').consume()\n"
        "print(len(f.embed.get_text_embedding_batch(['one text', 'another'])))\n"
        "print(sorted(m for m in ('torch', 'sentence_transformers', 'transformers') if m in sys.modules))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["2", "[]"]


def test_auto_falls_back_to_torch_and_says_why(tmp_path):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the model cache folder should be")
    auto = LocalSentenceEmbedding(model_name="all-MiniLM-L6-v2", backend="auto", model_cache_dir=str(blocked))
    assert auto.kind == "torch" and auto.fallback_reason
    assert len(auto.get_query_embedding("still works")) == 384
    strict = LocalSentenceEmbedding(model_name="all-MiniLM-L6-v2", backend="onnx", model_cache_dir=str(blocked))
    with pytest.raises(OSError):
        strict.kind


def test_bulk_embedding_waits_for_questions_being_answered(embed):
    import threading
    import time

    from rag.embed import FOREGROUND

    done = []
    with FOREGROUND:  # a question is being answered
        worker = threading.Thread(target=lambda: done.append(embed.background_batch(TEXTS[:2])))
        worker.start()
        time.sleep(0.3)
        assert not done  # the ingest's batch waits
    worker.join(timeout=30)
    assert done and len(done[0]) == 2
    ref = np.array(embed.get_text_embedding_batch(TEXTS[:2]))
    assert ((np.array(done[0]) * ref).sum(1) >= 0.98).all()


def test_the_ingest_queue_pauses_at_each_progress_step(tmp_path):
    from rag.library.jobs import IngestQueue

    pauses = []

    class Result:
        book_id, skipped, title = "b", False, "t"

        def summary(self):
            return "ok"

    def run(data, name, progress, force, chunking):
        for i in range(3):
            progress("parsing", i / 3, f"page {i}")
        return Result()

    q = IngestQueue(run, pause=lambda: pauses.append(1))
    job = q.submit(b"x", "x.pdf")
    q.wait(30)
    assert job.state == "done" and len(pauses) == 3
