"""Chunk-quality lint: problems a RAG builder wants to see, each tied to its chunk.

- ``mid_sentence``: the chunk ends inside a sentence (no closing punctuation, no paragraph break after)
- ``heading_only``: a heading left without its text (a short line, no sentence punctuation)
- ``split_block``: a code listing or table cut across two chunks
- ``near_duplicate``: almost the same words as an earlier chunk (MinHash on 5-word shingles, Jaccard ≥ 0.8)
- ``too_small`` / ``too_large``: fewer than ``small`` word-pieces / more than the embedder reads
"""
from __future__ import annotations

import bisect
import hashlib
import re
from dataclasses import dataclass

from ..types import Chunk
from .base import Region

CHECKS = ("mid_sentence", "heading_only", "split_block", "near_duplicate", "too_small", "too_large")
_END = re.compile(r"[.!?:;)\]\"'”’»…]\s*$")


@dataclass(frozen=True)
class Finding:
    chunk_index: int
    check: str
    detail: str


def _shingles(text: str, n: int = 5) -> set[str]:
    words = re.findall(r"\w+", text.lower())
    return {" ".join(words[i:i + n]) for i in range(max(1, len(words) - n + 1))} if words else set()


_MASKS = [int.from_bytes(hashlib.blake2b(str(i).encode(), digest_size=8).digest(), "big") for i in range(24)]


def _minhash(sh: set[str]) -> tuple[int, ...]:
    hs = [hash(s) & 0xFFFFFFFFFFFFFFFF for s in sh]
    return tuple(min(h ^ m for h in hs) for m in _MASKS)


def near_duplicates(chunks: list[Chunk], threshold: float = 0.8) -> list[tuple[int, int, float]]:
    """(later, earlier, jaccard) pairs; candidates from MinHash bands (6 bands × 4 rows), checked exactly."""
    shingles = [_shingles(c.text) for c in chunks]
    buckets: dict[tuple, list[int]] = {}
    pairs: dict[int, tuple[int, float]] = {}
    for i, sh in enumerate(shingles):
        if len(sh) < 3:
            continue
        sig = _minhash(sh)
        cands = set()
        for b in range(6):
            key = (b, sig[b * 4:(b + 1) * 4])
            cands.update(buckets.get(key, ()))
            buckets.setdefault(key, []).append(i)
        for j in sorted(cands):
            jac = len(sh & shingles[j]) / len(sh | shingles[j])
            if jac >= threshold:
                pairs[i] = (j, jac)
                break
    return [(i, j, jac) for i, (j, jac) in sorted(pairs.items())]


def lint(chunks: list[Chunk], book_text: str, regions: list[Region] = (), small: int = 16,
         max_tokens: int = 254) -> list[Finding]:
    out: list[Finding] = []
    for k, c in enumerate(chunks):
        nxt = chunks[k + 1] if k + 1 < len(chunks) else None
        after = book_text[c.char_end:c.char_end + 2]
        words = c.text.split()
        if c.tokens < small:
            out.append(Finding(c.chunk_index, "too_small", f"{c.tokens} word-pieces"))
        if c.tokens > max_tokens:
            out.append(Finding(c.chunk_index, "too_large", f"{c.tokens} word-pieces; the embedder reads {max_tokens}"))
        alone = nxt is None or nxt.section != c.section or after.startswith("\n")
        if len(words) <= 10 and "\n" not in c.text and not _END.search(c.text) and c.kind == "text" and alone:
            out.append(Finding(c.chunk_index, "heading_only", f"only “{' '.join(words)[:80]}”"))
        elif (c.kind == "text" and not _END.search(c.text) and nxt is not None and nxt.section == c.section
              and not after.startswith("\n\n") and nxt.char_start < c.char_end + 3):
            out.append(Finding(c.chunk_index, "mid_sentence", f"ends “…{' '.join(words[-6:])[:80]}”"))
    regions = sorted(regions, key=lambda r: r.start)
    starts = [r.start for r in regions]
    for c, nxt in zip(chunks, chunks[1:]):
        k = bisect.bisect_left(starts, c.char_end) - 1  # the last region starting before this chunk's end
        if k >= 0 and c.char_end < regions[k].end and nxt.char_start < regions[k].end:
            r = regions[k]
            out.append(Finding(c.chunk_index, "split_block", f"{r.kind} block continues in chunk {nxt.chunk_index}"))
    for i, j, jac in near_duplicates(chunks):
        out.append(Finding(chunks[i].chunk_index, "near_duplicate", f"{jac:.0%} like chunk {chunks[j].chunk_index}"))
    return sorted(out, key=lambda f: (f.chunk_index, f.check))


def counts(findings: list[Finding]) -> dict[str, int]:
    return {c: sum(f.check == c for f in findings) for c in CHECKS}
