"""The CPU kind, as far as embedding speed is concerned: which integer dot-product instructions it has.

ONNX Runtime (MLAS) picks its matrix kernels from the CPU's feature flags when it starts, so the same int8
model runs at very different speeds on AVX-512 VNNI, AVX-VNNI, plain AVX2 and ARM (NEON dot product / i8mm).
``cpu_kind()`` names the kind from ``/proc/cpuinfo`` (Linux) or the platform (elsewhere); the export records
it and chooses its candidate per kind (``rag.embed.export``).

Measuring AVX2 behaviour on an AVX-512 machine: ONNX Runtime has no session option or environment variable
that caps its instruction set; MLAS reads CPUID and XCR0 once at start (``core/mlas/lib/platform.cpp``: the
AVX-512 kernels need the AVX512F bit and the AVX-512 state enabled in XCR0; the AVX-VNNI kernels need their
own CPUID bit). So the CPU has to look like an AVX2 one: a virtual machine whose CPU model leaves those
features out (QEMU/KVM ``-cpu host,-avx512f,-avx512bw,-avx512vl,-avx512dq,-avx512cd,-avx512vnni,-avx-vnni``, or
a model such as ``EPYC-Milan``), or Linux booted with ``clearcpuid=avx512f`` (the kernel then leaves the
AVX-512 state out of XCR0, so MLAS falls back to its AVX2 kernels; AVX-VNNI, if present, is still used).
Untested here: this machine has no AVX-512.
"""
from __future__ import annotations

import platform
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

# most capable first: the first kind whose flags are all present names the CPU
KINDS: list[tuple[str, tuple[str, ...]]] = [
    ("avx512_vnni", ("avx512f", "avx512_vnni")),
    ("avx512", ("avx512f", "avx512bw")),
    ("avx_vnni", ("avx2", "avx_vnni")),
    ("avx2", ("avx2", "fma")),
    ("neon_i8mm", ("asimd", "i8mm")),
    ("neon_dot", ("asimd", "asimddp")),
    ("neon", ("asimd",)),
]


@dataclass(frozen=True)
class CpuInfo:
    kind: str  # one of KINDS' names, or "x86" / "arm" / the machine name when none fits
    model: str  # "AMD EPYC", "Apple M2", … ('' when unknown)
    cores: int
    flags: tuple[str, ...]  # the flags of KINDS this CPU has

    def describe(self) -> str:
        return f"{self.model or platform.machine()} ({self.kind}, {self.cores} cores)"


def _read_cpuinfo() -> tuple[str, set[str]]:
    try:
        text = Path("/proc/cpuinfo").read_text(errors="replace")
    except OSError:
        return "", set()
    model, flags = "", set()
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key = key.strip().lower()
        if key in ("model name", "cpu model", "hardware") and not model:
            model = value.strip()
        elif key in ("flags", "features") and not flags:
            flags = set(value.split())
    return model, flags


@lru_cache(maxsize=1)
def cpu_info() -> CpuInfo:
    import os

    model, flags = _read_cpuinfo()
    machine = platform.machine().lower()
    if not flags and machine in ("arm64", "aarch64"):
        flags = {"asimd", "asimddp"} if platform.system() == "Darwin" else {"asimd"}  # Apple silicon has dot product
        model = model or platform.processor() or "ARM"
    known = {f for _, need in KINDS for f in need}
    kind = next((name for name, need in KINDS if all(f in flags for f in need)), "")
    if not kind:
        kind = "arm" if machine in ("arm64", "aarch64") else "x86" if machine in ("x86_64", "amd64") else machine
    return CpuInfo(kind=kind, model=model, cores=os.cpu_count() or 1, flags=tuple(sorted(flags & known)))


def cpu_kind() -> str:
    """'avx512_vnni', 'avx512', 'avx_vnni', 'avx2', 'neon_i8mm', 'neon_dot', 'neon', or a fallback name."""
    return cpu_info().kind
