"""ONNX Runtime backend for the embedding model: the fastest checked variant for this CPU, no torch in the process.

The model is exported once from the packaged sentence-transformers folder (``rag.embed.export``, in a
subprocess because export needs torch: it builds the candidates, measures them here and keeps the fastest
that passes the check) into the model cache folder, keyed by the model's files, the export version, the CPU
kind and the export's environment overrides; later starts load the cached file in well under a second.
Texts are tokenised with the model's own fast tokenizer and batched by length (longest first, up to
``TOKENS_PER_BATCH`` word-pieces of padded input per batch), so short sentences travel in large batches
and long chunks in small ones.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np

from ..errors import RagError

TOKENS_PER_BATCH = 8 * 256
EXPORT_ENV = ("RAG_EMBED_CANDIDATES", "RAG_EMBED_MIN_COSINE")  # read by the export: part of its cache key
MAX_LENGTH = 256  # what sentence-transformers reads of all-MiniLM-L6-v2


def model_key(model_dir: Path) -> str:
    """Names the export after the model's configuration and weight files (size and mtime)."""
    h = hashlib.sha1()
    for p in sorted(Path(model_dir).glob("*")):
        if p.is_file() and p.suffix in (".json", ".safetensors", ".bin", ".txt"):
            st = p.stat()
            h.update(f"{p.name}:{st.st_size}:{int(st.st_mtime)}".encode())
    return h.hexdigest()[:12]


def export_path(model_dir: Path, cache_dir: Path, name: str = "") -> Path:
    """Where the export for this model, export version, CPU kind and export settings is cached."""
    from .cpu import cpu_kind
    from .candidates import EXPORT_VERSION

    slug = re.sub(r"[^A-Za-z0-9.]+", "-", (name or str(model_dir)).rsplit("/", 1)[-1]).strip("-")
    knobs = "|".join(os.environ.get(k, "").strip() for k in EXPORT_ENV)
    extra = "-" + hashlib.sha1(knobs.encode()).hexdigest()[:8] if knobs.strip("|") else ""
    return Path(cache_dir) / f"{slug}-{model_key(model_dir)}-x{EXPORT_VERSION}-{cpu_kind()}{extra}.onnx"


def exported(model_dir: Path, cache_dir: Path, name: str = "", timeout_s: float = 600) -> tuple[Path, dict]:
    """The ONNX file for ``model_dir`` and its manifest, exporting it first when the cache lacks it.

    One process exports at a time (a lock file in ``cache_dir``); the others wait and then read it."""
    import fcntl

    cache_dir = Path(cache_dir)
    cache_dir.mkdir(parents=True, exist_ok=True)
    out = export_path(model_dir, cache_dir, name)
    meta = out.with_suffix(".json")
    with open(cache_dir / ".export.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not meta.exists():
            env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TRANSFORMERS_VERBOSITY": "error",
                   "TOKENIZERS_PARALLELISM": "false", "OMP_WAIT_POLICY": "PASSIVE"}  # torch's idle threads must
            # not spin while the ONNX candidates are timed
            run = subprocess.run([sys.executable, "-m", "rag.embed.export", str(model_dir), str(out)], env=env,
                                 capture_output=True, text=True, timeout=timeout_s,
                                 cwd=str(Path(__file__).resolve().parents[2]))
            if run.returncode != 0 or not meta.exists():
                tail = (run.stderr or run.stdout).strip().splitlines()[-1:] or ["no output"]
                raise RagError(f"Could not export the embedding model to ONNX ({tail[0]}). "
                               "Set RAG_EMBED_BACKEND=torch to use sentence-transformers instead.")
    manifest = json.loads(meta.read_text())
    if not manifest.get("chosen") or not out.exists():
        raise ExportRejected(manifest.get("error", "the exported model file is missing"), manifest)
    return out, manifest


class ExportRejected(RagError):
    """The export ran but kept no candidate (none passed the check); ``manifest`` has the measurements."""

    def __init__(self, why: str, manifest: dict):
        super().__init__(f"The ONNX export of the embedding model was rejected: {why}. "
                         "Set RAG_EMBED_BACKEND=torch to silence this, or delete the export's .json in the model "
                         "cache folder to export again.")
        self.why, self.manifest = why, manifest


class OnnxEncoder:
    """Sentence vectors (mean-pooled, L2-normalised, computed inside the graph) from an ONNX file."""

    def __init__(self, onnx_path: Path, model_dir: Path, threads: int = 0):
        import onnxruntime as ort
        from tokenizers import Tokenizer

        so = ort.SessionOptions()
        so.intra_op_num_threads = threads or (os.cpu_count() or 1)
        so.inter_op_num_threads = 1
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        so.log_severity_level = 3
        # idle threads must not spin: right after a question is embedded, its search needs the other core
        so.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = ort.InferenceSession(str(onnx_path), so, providers=["CPUExecutionProvider"])
        self.tokenizer = Tokenizer.from_file(str(Path(model_dir) / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(MAX_LENGTH)
        dim = self.session.get_outputs()[0].shape[-1]
        self.dimension = dim if isinstance(dim, int) else int(self.session.run(None, {
            "input_ids": np.array([[101, 102]]), "attention_mask": np.ones((1, 2), dtype=np.int64)})[0].shape[-1])

    def encode(self, texts: list[str], between=None) -> np.ndarray:
        """``between()``, when given, is called before each batch (a background caller waits there)."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        enc = self.tokenizer.encode_batch(list(texts))
        lengths = np.array([len(e.ids) for e in enc])
        order = np.argsort(-lengths, kind="stable")
        start = 0
        while start < len(order):
            width = int(lengths[order[start]])
            rows = max(1, min(len(order) - start, TOKENS_PER_BATCH // max(width, 1)))
            idx = order[start:start + rows]
            if between is not None:
                between()
            ids = np.zeros((len(idx), width), dtype=np.int64)
            mask = np.zeros((len(idx), width), dtype=np.int64)
            for r, j in enumerate(idx):
                n = lengths[j]
                ids[r, :n] = enc[j].ids
                mask[r, :n] = 1
            out[idx] = self.session.run(None, {"input_ids": ids, "attention_mask": mask})[0]
            start += rows
        return out
