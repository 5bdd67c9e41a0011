"""Export a sentence-transformers BERT model to ONNX and quantise it to int8 (run once, in a subprocess).

``python -m rag.embed.export MODEL_DIR OUT.onnx`` writes ``OUT.onnx`` and ``OUT.json`` (the check). The
graph is the transformer plus mean pooling and L2 normalisation, so ONNX Runtime returns the sentence
vector itself. Weights are quantised to int8 per output channel (activations dynamically, uint8): on
CPUs with AVX-512 VNNI that runs the matrix products in 8-bit. The quantised model is checked against the
torch model on ``SAMPLES`` (English, German, Vietnamese, code, short and 250-word-piece texts); if its
mean cosine is below ``MIN_MEAN_COSINE``, the fp32 export is kept instead, and if that fails too the
manifest says so and the torch backend is used.

This module imports torch; the app imports it only through the subprocess ``rag.embed.onnx`` starts.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

MIN_MEAN_COSINE = 0.99
SAMPLES = [
    "What is a state diagram?",
    "A state diagram shows the value of each variable; this kind of figure is called a state diagram.",
    "def print_twice(bruce):\n    print(bruce)\n    print(bruce)",
    "Ein topologischer Raum heißt kompakt, wenn jede offene Überdeckung eine endliche Teilüberdeckung besitzt.",
    "Tòa án nhân dân tối cao công bố án lệ về việc xác định thời hiệu khởi kiện.",
    "Speakers should rehearse aloud, standing, with the notes they will use, and time each part of the speech.",
    "Table 2. Results | Model | Accuracy | F1 |---|---|---| baseline | 0.71 | 0.69",
    "Figure 12.3: A tuple assignment swaps two variables without a temporary one.",
] + [" ".join(["The interpreter reads each line, evaluates the expression and prints the result;"] * 14)] + [
    "References [1] A. Author, Title of a paper, Journal 12 (2003) 1–20. [2] B. Writer, Another title, 2011.",
]


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
        torch.onnx.export(Pooled(bert), (ids, torch.ones_like(ids)), str(out), input_names=["input_ids", "attention_mask"],
                          output_names=["embedding"], opset_version=17, dynamo=False,
                          dynamic_axes={"input_ids": {0: "batch", 1: "seq"}, "attention_mask": {0: "batch", 1: "seq"},
                                        "embedding": {0: "batch"}})


def _quantise(src: Path, dst: Path) -> None:
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(src), str(dst), weight_type=QuantType.QInt8, per_channel=True,
                     extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT})


def _cosines(model_dir: Path, onnx_path: Path) -> list[float]:
    import numpy as np
    from sentence_transformers import SentenceTransformer

    from .onnx import OnnxEncoder

    ref = SentenceTransformer(str(model_dir), device="cpu", local_files_only=True).encode(
        SAMPLES, normalize_embeddings=True, convert_to_numpy=True)
    got = OnnxEncoder(onnx_path, model_dir).encode(SAMPLES)
    return [float(x) for x in np.sum(ref * got, axis=1)]


def build(model_dir: Path, out: Path) -> dict:
    """Export, quantise and check; returns (and writes next to ``out``) the manifest."""
    import logging

    logging.getLogger("root").setLevel(logging.ERROR)  # the quantiser's "consider pre-processing" hint
    t = time.perf_counter()
    out.parent.mkdir(parents=True, exist_ok=True)
    fp32 = out.with_name(out.stem + "-fp32.onnx")
    tmp = out.with_name(out.stem + ".tmp.onnx")
    _export(model_dir, fp32)
    _quantise(fp32, tmp)
    manifest = {"model_dir": str(model_dir), "min_mean_cosine": MIN_MEAN_COSINE}
    cos = _cosines(model_dir, tmp)
    if sum(cos) / len(cos) >= MIN_MEAN_COSINE:
        tmp.replace(out)
        manifest.update(precision="int8")
    else:
        tmp.unlink()
        cos = _cosines(model_dir, fp32)
        manifest.update(precision="fp32", int8_rejected=True)
        if sum(cos) / len(cos) < MIN_MEAN_COSINE:
            manifest.update(precision="", error=f"ONNX export disagrees with torch (mean cosine {sum(cos) / len(cos):.3f})")
        else:
            fp32.replace(out)
    fp32.unlink(missing_ok=True)
    manifest.update(mean_cosine=round(sum(cos) / len(cos), 5), min_cosine=round(min(cos), 5),
                    seconds=round(time.perf_counter() - t, 1))
    out.with_suffix(".json").write_text(json.dumps(manifest, indent=1))
    return manifest


if __name__ == "__main__":
    print(json.dumps(build(Path(sys.argv[1]), Path(sys.argv[2]))))
