"""Export a sentence-transformers BERT model to ONNX, build its candidates, keep the fastest good one.

``python -m rag.embed.export MODEL_DIR OUT.onnx [KEEP_DIR]`` (run once, in a subprocess: this module imports torch)
writes ``OUT.onnx`` and the manifest ``OUT.json``. Steps:
1. torch → ONNX (fp32), with mean pooling and L2 normalisation in the graph, so ONNX Runtime returns the
   sentence vector itself; then ONNX Runtime's BERT fusions (``rag.embed.candidates.fuse``).
2. Each candidate of ``rag.embed.candidates`` (fp32 and int8 variants of the fused graph) is built, run on
   ``rag.embed.samples.SAMPLES`` (48 questions, sentences and chunk-length passages) for its vectors, and
   timed on the chunk-length passages (what ingest embeds) round-robin with the others (best of
   ``TIMING_PASSES``: other work on the machine slows single passes, not the best one), with the threads the
   app uses.
3. The check: a candidate passes when its vectors' cosine to the torch model's is ≥ ``MIN_MEAN_COSINE`` on
   average and ≥ ``MIN_COSINE`` for every sample. The fastest candidate that passes is kept (of those within
   ``NOISE`` of it, the most accurate: ``choose``); the manifest
   records the CPU kind, every candidate's speed and cosines, and the torch model's speed on the same texts.
   If none passes, the manifest says so and the embedder runs on torch (and says why: ``rag.embed.status``).

Why these thresholds (measured on an AVX2 AMD EPYC): dynamic int8 candidates give mean 0.992–0.996 and
minimum 0.969–0.986 on Think Python's 750 chunk texts; the one the export chose there (int8-fused-ffn32,
mean 0.994 / min 0.984 on the samples) scored SciFact hybrid nDCG@10 0.7326 against torch's 0.7325 (dense
0.6422 against 0.6451). Per-tensor int8 weights (mean 0.944, min 0.83 on the book) or 4-bit weights (min 0.946)
reorder results and must fail. The s8 int8 graph sits at the edge (mean 0.9895 on the samples, 0.992 on the
book): it fails here, and the u8 or ffn32 variant, as fast within the noise, is kept. The mean alone let one
bad text through; the minimum catches a candidate that breaks one kind of text (a language, code, OCR noise)
while the average still looks fine.

Environment (read here, and part of the export's cache key in ``rag.embed.onnx``):
- ``RAG_EMBED_CANDIDATES``: comma-separated candidate names to build instead of the default set.
- ``RAG_EMBED_MIN_COSINE``: the mean-cosine threshold instead of ``MIN_MEAN_COSINE`` (above 1, every candidate
  fails: how tests see the torch fallback and its warning).
"""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from .candidates import EXPORT_VERSION  # the cache key's export version (also read by onnx.export_path)

MIN_MEAN_COSINE = 0.99
MIN_COSINE = 0.95
TIMING_PASSES = 3
NOISE = 0.10  # candidates this close to the fastest count as equally fast: the more accurate one is kept


def thresholds() -> tuple[float, float]:
    """(mean, minimum) cosine a candidate needs; RAG_EMBED_MIN_COSINE overrides the mean."""
    raw = os.environ.get("RAG_EMBED_MIN_COSINE", "").strip()
    return (float(raw) if raw else MIN_MEAN_COSINE), MIN_COSINE


def passes(cos: list[float], mean_needed: float, min_needed: float) -> bool:
    return sum(cos) / len(cos) >= mean_needed and min(cos) >= min_needed


def choose(table: dict[str, dict]) -> str:
    """The fastest candidate that passed; among those within ``NOISE`` of it, the one closest to torch (timings
    on a busy machine wobble by more than the difference between close candidates)."""
    good = {n: r for n, r in table.items() if r.get("passed")}
    if not good:
        return ""
    top = max(r["texts_per_s"] for r in good.values())
    near = [n for n, r in good.items() if r["texts_per_s"] >= (1 - NOISE) * top]
    return max(near, key=lambda n: (good[n]["min_cosine"], good[n]["mean_cosine"]))


def _export(model_dir: Path, out: Path) -> None:
    import torch
    from transformers import AutoModel

    bert = AutoModel.from_pretrained(str(model_dir), attn_implementation="eager").eval()

    class Pooled(torch.nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, input_ids, attention_mask):
            h = self.m(input_ids=input_ids, attention_mask=attention_mask,
                       token_type_ids=torch.zeros_like(input_ids)).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(h.dtype)
            v = (h * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(v, p=2, dim=1)

    ids = torch.ones(2, 16, dtype=torch.long)
    with torch.no_grad():
        torch.onnx.export(
            Pooled(bert),
            (ids, torch.ones_like(ids)),
            str(out),
            input_names=["input_ids", "attention_mask"],
            output_names=["embedding"],
            opset_version=17,
            dynamo=False,
            dynamic_axes={
                "input_ids": {0: "batch", 1: "seq"},
                "attention_mask": {0: "batch", 1: "seq"},
                "embedding": {0: "batch"},
            },
        )


def _reference(model_dir: Path, texts: list[str], timed: list[str], threads: int):
    """The torch model's vectors for ``texts`` and its speed on ``timed`` (texts/s, best of 2 passes)."""
    import torch
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(threads)
    model = SentenceTransformer(str(model_dir), device="cpu", local_files_only=True)
    ref = model.encode(texts, normalize_embeddings=True, convert_to_numpy=True, batch_size=32)
    best = float("inf")
    for _ in range(2):
        t = time.perf_counter()
        model.encode(timed, normalize_embeddings=True, convert_to_numpy=True, batch_size=32)
        best = min(best, time.perf_counter() - t)
    return ref, len(timed) / best


def measure(files: dict[str, Path], model_dir: Path, texts: list[str], ref, threads: int, timed: list[str],
            passes_: int = TIMING_PASSES) -> dict[str, dict]:
    """Cosines to ``ref`` on ``texts`` and speed on ``timed`` (texts/s, best pass) of each ONNX file, timed
    round-robin so that other work on the machine slows every candidate alike."""
    import numpy as np

    from .onnx import OnnxEncoder

    encoders, out = {}, {}
    for name, path in files.items():
        try:
            enc = OnnxEncoder(path, model_dir, threads)
            vecs = enc.encode(texts)  # also the warm-up
        except Exception as e:  # noqa: BLE001 - a candidate this runtime cannot run is reported, not fatal
            out[name] = {"error": f"{type(e).__name__}: {str(e)[:300]}"}
            continue
        cos = np.sum(ref * vecs, axis=1)
        encoders[name] = enc
        out[name] = {"cosines": [float(c) for c in cos], "times": []}
    for _ in range(passes_):
        for name, enc in encoders.items():
            t = time.perf_counter()
            enc.encode(timed)
            out[name]["times"].append(time.perf_counter() - t)
    for name in encoders:
        out[name]["texts_per_s"] = len(timed) / min(out[name].pop("times"))
    return out


def build(model_dir: Path, out: Path, keep: Path | None = None) -> dict:
    """Export, build and measure the candidates, keep the fastest that passes; returns (and writes) the manifest.

    ``keep``: a folder that receives every candidate's file as ``NAME.onnx`` (``bench/embed.py`` times them all)."""
    import shutil

    import onnxruntime

    from . import candidates as cands
    from .cpu import cpu_info
    from .samples import PASSAGES, SAMPLES

    t0 = time.perf_counter()
    cpu = cpu_info()
    threads = cpu.cores
    mean_needed, min_needed = thresholds()
    out.parent.mkdir(parents=True, exist_ok=True)
    work = out.with_name(out.stem + ".work")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    manifest: dict = {"export_version": EXPORT_VERSION, "model_dir": str(model_dir),
                      "onnxruntime": onnxruntime.__version__,
                      "cpu": {"kind": cpu.kind, "model": cpu.model, "cores": cpu.cores, "flags": list(cpu.flags)},
                      "check": {"min_mean_cosine": mean_needed, "min_cosine": min_needed, "samples": len(SAMPLES)},
                      "timing": f"texts/s on the {len(PASSAGES)} chunk-length samples, best of {TIMING_PASSES} "
                                f"round-robin passes, {threads} threads"}
    try:
        graphs = {"plain": work / "plain.onnx", "fused": work / "fused.onnx"}
        _export(model_dir, graphs["plain"])
        config = json.loads((model_dir / "config.json").read_text())
        try:
            fused = cands.fuse(graphs["plain"], graphs["fused"], config["num_attention_heads"], config["hidden_size"])
            manifest["fused_ops"] = fused
            fused_ok = fused.get("Attention", 0) > 0
            if not fused_ok:
                manifest["fusion_error"] = "the optimiser found no attention to fuse"
        except Exception as e:  # noqa: BLE001 - the plain graph's candidates remain
            fused_ok, manifest["fusion_error"] = False, f"{type(e).__name__}: {e}"
        names = cands.chosen_names(os.environ.get("RAG_EMBED_CANDIDATES", ""), fused_ok)
        files, failed = {}, {}
        for name in names:
            recipe = cands.BY_NAME[name]
            if recipe.build is None:
                files[name] = graphs[recipe.graph]
                continue
            try:
                recipe.build(graphs[recipe.graph], work / f"{name}.onnx")
                files[name] = work / f"{name}.onnx"
            except Exception as e:  # noqa: BLE001 - one recipe failing leaves the others
                failed[name] = {"error": f"{type(e).__name__}: {str(e)[:300]}"}
        manifest["build_seconds"] = round(time.perf_counter() - t0, 1)
        ref, torch_rate = _reference(model_dir, SAMPLES, PASSAGES, threads)
        results = {**measure(files, model_dir, SAMPLES, ref, threads, PASSAGES), **failed}
    except Exception:
        shutil.rmtree(work, ignore_errors=True)
        raise
    table = {}
    for name, r in results.items():
        if "error" in r:
            table[name] = {"error": r["error"]}
            continue
        cos = r["cosines"]
        table[name] = {"texts_per_s": round(r["texts_per_s"], 1), "vs_torch": round(r["texts_per_s"] / torch_rate, 2),
                       "mean_cosine": round(sum(cos) / len(cos), 5), "min_cosine": round(min(cos), 5),
                       "passed": passes(cos, mean_needed, min_needed), "precision": cands.BY_NAME[name].precision}
    manifest.update(torch_texts_per_s=round(torch_rate, 1), candidates=table)
    best = choose(table)
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        for name, path in files.items():
            shutil.copyfile(path, keep / f"{name}.onnx")
    if best:
        files[best].replace(out)
        manifest.update(chosen=best, precision=table[best]["precision"], mean_cosine=table[best]["mean_cosine"],
                        min_cosine=table[best]["min_cosine"])
    else:
        ran = [n for n, r in table.items() if "error" not in r]
        if table and not ran:  # none could even be run (files gone, a disk full): nothing was judged, so nothing
            shutil.rmtree(work, ignore_errors=True)  # is recorded and the next start exports again
            errors = "; ".join(f"{n}: {r['error']}" for n, r in table.items())
            raise RuntimeError(f"no ONNX candidate could be run ({errors[:400]})")
        closest = max(ran, key=lambda n: table[n]["min_cosine"], default="")
        manifest.update(chosen="", precision="", error=(
            f"no ONNX candidate passed the quality check (mean cosine ≥ {mean_needed}, every sample ≥ {min_needed}"
            + (f"; closest: {closest}, mean {table[closest]['mean_cosine']:.4f}, "
               f"min {table[closest]['min_cosine']:.4f})" if closest else "; none could be run)")))
    shutil.rmtree(work, ignore_errors=True)
    manifest["seconds"] = round(time.perf_counter() - t0, 1)
    out.with_suffix(".json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False))
    return manifest


if __name__ == "__main__":
    print(json.dumps(build(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]) if len(sys.argv) > 3 else None)))
