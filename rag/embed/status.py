"""What the embedder runs on, and when that is not the fast path: why, and what it costs.

``LocalSentenceEmbedding.status`` returns an ``EmbedStatus``; the CLI, ``python -m rag books`` and the Library
page show ``status.message`` (one line) when ``status.fast`` is false. The costs come from the export's own
measurements on this machine (``rag.embed.export`` times every candidate and torch on the same texts); when
there are none (the export failed before measuring), from the typical range.
"""
from __future__ import annotations

from dataclasses import dataclass

TYPICAL_TORCH_COST = "embedding ~2–4× slower than ONNX Runtime (most of the time of adding a book)"
SLOWER_CANDIDATE = 1.25  # a rejected candidate this much faster than the chosen one makes the status "not fast"


@dataclass(frozen=True)
class EmbedStatus:
    backend: str  # "onnx" or "torch"
    candidate: str  # the ONNX candidate that runs ("int8-fused-u8", …); '' on torch
    fast: bool  # False: a faster way was available but is not used (``reason`` says why, ``cost`` what it costs)
    reason: str = ""
    cost: str = ""
    cpu: str = ""  # "AMD EPYC (avx2, 2 cores)"
    vs_torch: float | None = None  # the running candidate's speed over torch's, measured at export

    @property
    def label(self) -> str:
        return f"ONNX Runtime {self.candidate}" if self.backend == "onnx" else "torch (sentence-transformers)"

    @property
    def message(self) -> str:
        """One line for the user: what runs, and if it is not the fast path, why and what it costs."""
        speed = f", {self.vs_torch:.1f}× torch" if self.vs_torch and self.backend == "onnx" else ""
        head = f"Embedding: {self.label}{speed}" + (f" on {self.cpu}" if self.cpu else "")
        if self.fast:
            return head + "."
        return f"{head}. Not the fast path: {self.reason}. Cost: {self.cost}."


def _cpu(manifest: dict | None) -> str:
    if manifest and manifest.get("cpu"):
        c = manifest["cpu"]
        return f"{c.get('model') or 'CPU'} ({c.get('kind')}, {c.get('cores')} cores)"
    from .cpu import cpu_info

    return cpu_info().describe()


def _fastest(manifest: dict) -> tuple[str, dict] | None:
    ran = {n: r for n, r in (manifest.get("candidates") or {}).items() if r.get("texts_per_s")}
    return max(ran.items(), key=lambda kv: kv[1]["texts_per_s"]) if ran else None


def onnx_status(manifest: dict) -> EmbedStatus:
    chosen = manifest.get("chosen", "")
    row = (manifest.get("candidates") or {}).get(chosen, {})
    vs_torch = row.get("vs_torch")
    top = _fastest(manifest)
    faster = top and row.get("texts_per_s") and top[0] != chosen
    if faster and top[1]["texts_per_s"] >= SLOWER_CANDIDATE * row["texts_per_s"]:
        name, r = top
        return EmbedStatus("onnx", chosen, False, cpu=_cpu(manifest), vs_torch=vs_torch,
                           reason=(f"the faster {name} failed the quality check (cosine to torch: mean "
                                   f"{r['mean_cosine']:.4f}, min {r['min_cosine']:.4f})"),
                           cost=f"embedding ~{r['texts_per_s'] / row['texts_per_s']:.1f}× slower than {name} would be")
    return EmbedStatus("onnx", chosen, True, cpu=_cpu(manifest), vs_torch=vs_torch)


def torch_status(reason: str, manifest: dict | None = None) -> EmbedStatus:
    """Torch runs: because the settings say so or because ONNX could not be used (``reason``)."""
    top = _fastest(manifest) if manifest else None
    torch_rate = (manifest or {}).get("torch_texts_per_s")
    if top and torch_rate:
        ratio = top[1]["texts_per_s"] / torch_rate
        cost = (f"embedding ~{ratio:.1f}× slower than ONNX {top[0]} measured here" if ratio >= 1.05 else
                f"none measured: torch ran about as fast as ONNX {top[0]} here")
    else:
        cost = TYPICAL_TORCH_COST
    return EmbedStatus("torch", "", False, reason=reason, cost=cost, cpu=_cpu(manifest))
