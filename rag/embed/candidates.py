"""The ways the exported model can be run by ONNX Runtime: each a recipe that turns the fp32 export into a file.

Two graphs: ``plain`` (what torch exported) and ``fused`` (ONNX Runtime's transformer optimiser: one
Attention, SkipLayerNormalization, BiasGelu and EmbedLayerNormalization node where the export has dozens of
small ones). On each, weights can stay fp32 or be quantised:
- dynamic int8 (``quantize_dynamic``, QOperator: MatMulInteger / QAttention, activations quantised per batch
  to uint8): ``s8`` weights are the fastest where the CPU has VNNI (AVX-512 or AVX-VNNI); on plain AVX2 the
  u8×s8 kernel adds pairs of products in 16 bits and can saturate, and ``u8`` weights (a u8×u8 kernel without
  that shortcut) are more accurate there; ``ffn32`` keeps the feed-forward output projections in fp32, the
  layers where per-tensor activation quantisation loses most (their inputs, after GELU, have the widest range).
- 8-bit weights in blocks of 32 (``MatMulNBits``, accuracy level 4: activations quantised per block, int8 dot
  products): nearly fp32 vectors; fast where ONNX Runtime has kernels for it (ARM, AVX-512 VNNI).
Which one is fastest depends on the CPU, so the export builds them all and measures (``rag.embed.export``).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

EXPORT_VERSION = 2  # part of the export's cache key: a newer export never reuses an older one's file

Build = Callable[[Path, Path], None]


@dataclass(frozen=True)
class Recipe:
    name: str
    graph: str  # "plain" or "fused": the fp32 file the recipe starts from
    build: Build | None  # None: that graph itself
    precision: str  # "fp32", "int8" or "int8-blockwise"


def fuse(src: Path, dst: Path, num_heads: int, hidden: int) -> dict[str, int]:
    """ONNX Runtime's BERT fusions (Python only: the file stays portable across CPUs); returns fused op counts."""
    from onnxruntime.transformers.optimizer import optimize_model

    logging.getLogger("onnxruntime.transformers").setLevel(logging.ERROR)
    model = optimize_model(str(src), model_type="bert", num_heads=num_heads, hidden_size=hidden, opt_level=0)
    stats = {k: v for k, v in model.get_fused_operator_statistics().items() if v}
    model.save_model_to_file(str(dst))
    return stats


def _dynamic(weights: str, exclude: Callable[[str], bool] | None = None) -> Build:
    def build(src: Path, dst: Path) -> None:
        import onnx
        from onnxruntime.quantization import QuantType, quantize_dynamic

        logging.getLogger("root").setLevel(logging.ERROR)  # the quantiser's "consider pre-processing" hint
        names = [n.name for n in onnx.load(str(src), load_external_data=False).graph.node] if exclude else []
        quantize_dynamic(str(src), str(dst), per_channel=True,
                         weight_type=QuantType.QUInt8 if weights == "u8" else QuantType.QInt8,
                         nodes_to_exclude=[n for n in names if exclude(n)] if exclude else None,
                         extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT})
    return build


def _is_ffn_output(name: str) -> bool:
    return "/output/dense/" in name and "/attention/" not in name


def _blockwise(bits: int = 8, block: int = 32) -> Build:
    """MatMul with constant weights → MatMulNBits (symmetric, ``block`` weights per scale)."""
    def build(src: Path, dst: Path) -> None:
        import numpy as np
        import onnx
        from onnx import helper, numpy_helper
        from onnxruntime.capi._pybind_state import quantize_matmul_4bits, quantize_matmul_8bits

        model = onnx.load(str(src))
        graph = model.graph
        inits = {i.name: i for i in graph.initializer}
        nodes = []
        for node in graph.node:
            if node.op_type != "MatMul" or node.input[1] not in inits or len(inits[node.input[1]].dims) != 2:
                nodes.append(node)
                continue
            w = np.ascontiguousarray(numpy_helper.to_array(inits[node.input[1]]), dtype=np.float32)
            k, n = w.shape
            blocks, per_byte = (k + block - 1) // block, 8 // bits
            packed = np.zeros((n, blocks, (block + per_byte - 1) // per_byte), dtype=np.uint8)
            zero = np.zeros((n, (blocks + per_byte - 1) // per_byte), dtype=np.uint8)
            scales = np.zeros((n, blocks), dtype=np.float32)
            (quantize_matmul_8bits if bits == 8 else quantize_matmul_4bits)(packed, w, scales, zero, block, n, k, True)
            base = node.input[1]
            graph.initializer.extend([numpy_helper.from_array(packed, base + "_q"),
                                      numpy_helper.from_array(scales, base + "_s")])
            nodes.append(helper.make_node("MatMulNBits", [node.input[0], base + "_q", base + "_s"], list(node.output),
                                          name=node.name + "_q", domain="com.microsoft", K=k, N=n, bits=bits,
                                          block_size=block, accuracy_level=4))
        del graph.node[:]
        graph.node.extend(nodes)
        used = {i for n in graph.node for i in n.input}
        kept = [i for i in graph.initializer if i.name in used]
        del graph.initializer[:]
        graph.initializer.extend(kept)
        if not any(o.domain == "com.microsoft" for o in model.opset_import):
            model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
        onnx.save(model, str(dst))
    return build


RECIPES: list[Recipe] = [
    Recipe("fp32", "plain", None, "fp32"),
    Recipe("int8", "plain", _dynamic("s8"), "int8"),
    Recipe("fp32-fused", "fused", None, "fp32"),
    Recipe("int8-fused", "fused", _dynamic("s8"), "int8"),
    Recipe("int8-fused-u8", "fused", _dynamic("u8"), "int8"),
    Recipe("int8-fused-ffn32", "fused", _dynamic("s8", _is_ffn_output), "int8"),
    Recipe("int8blk-fused", "fused", _blockwise(8, 32), "int8-blockwise"),
]
BY_NAME = {r.name: r for r in RECIPES}
# with the fused graph available, the plain graph's recipes are not built (never faster, and the export stays quick)
DEFAULT_FUSED = ["fp32-fused", "int8-fused", "int8-fused-u8", "int8-fused-ffn32", "int8blk-fused"]
DEFAULT_PLAIN = ["fp32", "int8"]


def chosen_names(wanted: str, fused_ok: bool) -> list[str]:
    """The recipes to build: ``wanted`` is a comma-separated list (RAG_EMBED_CANDIDATES) or '' for the default."""
    from ..errors import RagError

    if wanted.strip():
        names = [n.strip() for n in wanted.split(",") if n.strip()]
        unknown = [n for n in names if n not in BY_NAME]
        if unknown:
            raise RagError(f"Unknown embedding candidate(s) {', '.join(unknown)} in RAG_EMBED_CANDIDATES; "
                           f"choose among {', '.join(BY_NAME)}.")
        return [n for n in names if fused_ok or BY_NAME[n].graph == "plain"]
    return DEFAULT_FUSED if fused_ok else DEFAULT_PLAIN
