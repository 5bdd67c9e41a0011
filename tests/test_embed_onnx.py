"""The ONNX Runtime embedder: close to the torch reference, no torch in the process, falls back honestly and says so."""
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
    assert embed.kind.startswith("onnx-")
    torch_embed = LocalSentenceEmbedding(model_name="all-MiniLM-L6-v2", backend="torch")
    ref = np.array(torch_embed.get_text_embedding_batch(TEXTS))
    got = np.array(embed.get_text_embedding_batch(TEXTS))
    cos = (ref * got).sum(1)
    assert cos.mean() >= 0.99 and cos.min() >= 0.97, cos
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-4)
    q = embed.get_query_embedding("What does a state diagram show?")
    assert int(np.argmax(got @ np.array(q))) == 0  # the same passage wins
    assert torch_embed.cache_id == "all-MiniLM-L6-v2" and embed.cache_id == f"all-MiniLM-L6-v2#{embed.kind}"
    assert torch_embed.status.backend == "torch" and "RAG_EMBED_BACKEND=torch" in torch_embed.status.reason


def test_the_export_measured_its_candidates_and_kept_the_fastest_good_one(embed):
    from rag.embed.cpu import cpu_kind
    from rag.embed.export import EXPORT_VERSION, MIN_COSINE, MIN_MEAN_COSINE, NOISE
    from rag.embed.onnx import export_path
    from rag.embed.samples import SAMPLES
    from rag.text.tokens import model_path

    embed.kind  # noqa: B018 - loads (exports on first use)
    # this checkout's model (another checkout sharing the cache has its own file, named after its model's files)
    meta = export_path(model_path(embed.model_name), Settings().model_cache_path, embed.model_name).with_suffix(".json")
    assert meta.exists() and meta.name.endswith(f"-x{EXPORT_VERSION}-{cpu_kind()}.json"), meta
    m = json.loads(meta.read_text())
    assert m == embed.manifest and m["cpu"]["kind"] == cpu_kind() and m["check"]["samples"] == len(SAMPLES) >= 40
    table = m["candidates"]
    assert len(table) >= 3 and m["torch_texts_per_s"] > 0
    for row in table.values():  # every candidate measured, and judged by the rule
        assert row["texts_per_s"] > 0 and 0 < row["min_cosine"] <= row["mean_cosine"] <= 1.0001
        assert row["passed"] == (row["mean_cosine"] >= MIN_MEAN_COSINE and row["min_cosine"] >= MIN_COSINE)
    good = [n for n, r in table.items() if r["passed"]]
    fastest = max(table[n]["texts_per_s"] for n in good)
    assert table[m["chosen"]]["passed"] and table[m["chosen"]]["texts_per_s"] >= (1 - NOISE) * fastest
    assert all(table[n]["min_cosine"] <= table[m["chosen"]]["min_cosine"] for n in good
               if table[n]["texts_per_s"] >= (1 - NOISE) * fastest)  # of the equally fast, the most accurate
    assert embed.kind == f"onnx-{m['chosen']}" and m["mean_cosine"] >= MIN_MEAN_COSINE
    st = embed.status
    assert st.backend == "onnx" and st.candidate == m["chosen"] and m["cpu"]["kind"] in st.message


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
        "assert f.embed.kind.startswith('onnx-'), f.embed.kind\n"
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
    assert not auto.status.fast and auto.fallback_reason in auto.status.message and "slower" in auto.status.cost
    assert len(auto.get_query_embedding("still works")) == 384
    strict = LocalSentenceEmbedding(model_name="all-MiniLM-L6-v2", backend="onnx", model_cache_dir=str(blocked))
    with pytest.raises(OSError):
        strict.kind


def test_a_failed_quality_check_falls_back_to_torch_and_says_so(tmp_path, monkeypatch):
    """The check forced to fail (a mean cosine above 1 is out of reach): no silent slow path."""
    from rag.embed.onnx import ExportRejected

    monkeypatch.setenv("RAG_EMBED_MIN_COSINE", "1.01")
    monkeypatch.setenv("RAG_EMBED_CANDIDATES", "fp32-fused")  # one candidate keeps the export short
    auto = LocalSentenceEmbedding(model_name="all-MiniLM-L6-v2", backend="auto", model_cache_dir=str(tmp_path))
    assert auto.kind == "torch"
    st = auto.status
    assert st.backend == "torch" and not st.fast
    assert "quality check" in st.reason and "fp32-fused" in st.reason
    assert "ONNX fp32-fused" in st.cost and "measured" in st.cost  # the export timed both on this machine
    assert st.reason in st.message and st.cost in st.message and "Not the fast path" in st.message
    from rag.service import Folio
    from rag.settings import Settings

    shown = Folio(Settings(data_dir=tmp_path / "data"), embed=auto).embed_status()  # what the Library page warns
    assert shown is not None and not shown.fast and shown.message == st.message
    m = auto.manifest
    assert m["chosen"] == "" and m["candidates"]["fp32-fused"]["passed"] is False
    assert m["candidates"]["fp32-fused"]["mean_cosine"] > 0.999  # fp32 itself is fine: only the forced check failed
    strict = LocalSentenceEmbedding(model_name="all-MiniLM-L6-v2", backend="onnx", model_cache_dir=str(tmp_path))
    with pytest.raises(ExportRejected, match="RAG_EMBED_BACKEND=torch"):
        strict.kind  # noqa: B018 - the cached rejection, not a second export
    monkeypatch.delenv("RAG_EMBED_MIN_COSINE")
    assert not list(tmp_path.glob("*.onnx"))  # nothing kept; another threshold is another cache key
    from rag.embed.onnx import export_path
    from rag.text.tokens import model_path

    assert not export_path(model_path("all-MiniLM-L6-v2"), tmp_path).with_suffix(".json").exists()


def test_the_choice_is_the_fastest_good_candidate_and_the_more_accurate_of_equals():
    from rag.embed.export import choose

    row = {"passed": True, "mean_cosine": 0.993, "min_cosine": 0.98}
    table = {"fp32": {**row, "texts_per_s": 20.0, "min_cosine": 1.0, "mean_cosine": 1.0},
             "int8-a": {**row, "texts_per_s": 40.0}, "int8-b": {**row, "texts_per_s": 38.0, "min_cosine": 0.985},
             "int8-c": {**row, "texts_per_s": 60.0, "passed": False}}
    assert choose(table) == "int8-b"  # int8-c failed; a and b are equally fast within the noise, b is closer
    table["int8-b"]["texts_per_s"] = 30.0
    assert choose(table) == "int8-a"
    assert choose({"x": {**row, "texts_per_s": 9.0, "passed": False}}) == ""


def test_status_names_a_rejected_faster_candidate_and_its_cost():
    from rag.embed.status import onnx_status, torch_status

    row = {"mean_cosine": 0.9995, "min_cosine": 0.999, "passed": True}
    m = {"chosen": "fp32-fused", "cpu": {"model": "Some CPU", "kind": "avx2", "cores": 2}, "torch_texts_per_s": 10.0,
         "candidates": {"fp32-fused": {**row, "texts_per_s": 20.0, "vs_torch": 2.0},
                        "int8-fused": {"texts_per_s": 50.0, "mean_cosine": 0.97, "min_cosine": 0.91, "passed": False}}}
    st = onnx_status(m)
    assert not st.fast and "int8-fused failed the quality check" in st.reason and "2.5× slower" in st.cost
    assert "Some CPU (avx2, 2 cores)" in st.message and "2.0× torch" in st.message
    m["candidates"]["int8-fused"]["texts_per_s"] = 22.0  # within measuring noise of the chosen one
    assert onnx_status(m).fast and "Not the fast path" not in onnx_status(m).message
    assert "5.0× slower than ONNX int8-fused" in torch_status("because", {**m, "candidates": {
        "int8-fused": {"texts_per_s": 50.0}}}).cost
    assert "2–4×" in torch_status("ONNX Runtime cannot be imported").cost  # nothing measured: the typical range


def test_the_export_cache_key_names_version_cpu_and_settings(tmp_path, monkeypatch):
    from rag.embed.cpu import cpu_info
    from rag.embed.export import EXPORT_VERSION
    from rag.embed.onnx import export_path
    from rag.text.tokens import model_path

    folder = model_path("all-MiniLM-L6-v2")
    for k in ("RAG_EMBED_CANDIDATES", "RAG_EMBED_MIN_COSINE"):
        monkeypatch.delenv(k, raising=False)
    plain = export_path(folder, tmp_path, "all-MiniLM-L6-v2")
    assert plain.name.endswith(f"-x{EXPORT_VERSION}-{cpu_info().kind}.onnx")
    monkeypatch.setenv("RAG_EMBED_CANDIDATES", "fp32-fused")
    assert export_path(folder, tmp_path, "all-MiniLM-L6-v2") != plain
    kinds = ("avx512_vnni", "avx512", "avx_vnni", "avx2", "neon_i8mm", "neon_dot", "neon", "x86", "arm")
    assert cpu_info().kind in kinds


def test_an_unknown_candidate_is_named_in_the_error():
    from rag.embed.candidates import chosen_names
    from rag.errors import RagError

    with pytest.raises(RagError, match="int9.*choose among"):
        chosen_names("int9", True)
    assert chosen_names("fp32,int8-fused", False) == ["fp32"]  # fused recipes need the fused graph


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


def test_an_export_whose_candidates_could_not_even_run_is_not_recorded(tmp_path, monkeypatch):
    """Files gone mid-export or a full disk are no verdict on this machine: no rejection is cached, and the next
    start exports again (a quality-check failure, above, is cached)."""
    from rag.embed import candidates as cands, export
    from rag.text.tokens import model_path

    monkeypatch.setattr(export, "_export", lambda model_dir, out: out.write_bytes(b""))
    monkeypatch.setattr(cands, "fuse", lambda *a, **k: {})  # no fused graph: the plain recipes
    monkeypatch.setattr(export, "_reference", lambda *a, **k: (None, 1.0))
    monkeypatch.setattr(export, "measure", lambda files, *a, **k: {n: {"error": "NoSuchFile: gone"} for n in files})
    monkeypatch.setenv("RAG_EMBED_CANDIDATES", "fp32")
    out = tmp_path / "m.onnx"
    with pytest.raises(RuntimeError, match="could be run"):
        export.build(model_path("all-MiniLM-L6-v2"), out)
    assert not out.with_suffix(".json").exists() and not out.with_name("m.work").exists()


def test_an_export_with_no_candidate_to_build_is_recorded_once(tmp_path, monkeypatch):
    """RAG_EMBED_CANDIDATES naming only recipes this machine cannot build is a verdict: recorded, not re-run."""
    from rag.embed import candidates as cands, export
    from rag.text.tokens import model_path

    monkeypatch.setattr(export, "_export", lambda model_dir, out: out.write_bytes(b""))
    monkeypatch.setattr(cands, "fuse", lambda *a, **k: {})
    monkeypatch.setattr(cands, "chosen_names", lambda wanted, fused_ok: [])
    monkeypatch.setattr(export, "_reference", lambda *a, **k: (None, 1.0))
    out = tmp_path / "m.onnx"
    manifest = export.build(model_path("all-MiniLM-L6-v2"), out)
    assert manifest["chosen"] == "" and "none could be run" in manifest["error"]
    assert out.with_suffix(".json").exists()
