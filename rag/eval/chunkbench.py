"""Chroma's chunking benchmark ("Evaluating Chunking Strategies for Retrieval", Smith & Troynikov 2024)
scored with Folio's chunkers and embedder.

Protocol (as the report and ../shared/eval/chunking/README.md define it): every corpus is chunked,
all chunks of all corpora go into one collection, each question takes its top-k chunks by cosine
similarity (dense; ``retrieval="hybrid"`` adds Folio's BM25 fused as the chat fuses, reported as a separate row), and is
scored on characters: with E the question's excerpt spans and R the k chunks,
recall = |E ∩ ∪R| / |E|, precision = |E ∩ ∪R| / Σ|r|, IoU = |E ∩ ∪R| / (Σ|r| + |E \\ ∪R|),
precision_Ω = |E ∩ ∪C| / |∪C ∪ E| with C the chunks touching E. Chunk spans are located like the
reference code (first occurrence of the text, one trailing "." dropped) unless ``spans="exact"``.
"""
from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..settings import Settings
from ..types import Page, ParsedBook, Section

Span = tuple[int, int]


@dataclass
class Question:
    text: str
    corpus: str
    refs: list[Span]


@dataclass
class Bench:
    corpora: dict[str, str]
    questions: list[Question]
    published: list[dict] = field(default_factory=list)


def load(folder: Path, corpora: list[str] | None = None) -> Bench:
    texts = {p.stem: p.read_text(encoding="utf-8") for p in sorted((folder / "corpora").glob("*.md"))
             if not corpora or p.stem in corpora}
    qs = []
    with open(folder / "questions_df.csv", encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            if row["corpus_id"] in texts:
                refs = [(r["start_index"], r["end_index"]) for r in json.loads(row["references"])]
                qs.append(Question(row["question"], row["corpus_id"], refs))
    pub = folder / "published.json"
    published = json.loads(pub.read_text())["tables"] if pub.exists() else []
    return Bench(texts, qs, published)


def as_book(text: str) -> ParsedBook:
    """A corpus as a one-page, one-section book (no PAGE_SEP inside, so spans are corpus offsets)."""
    return ParsedBook(title="", pages=[Page(1, "1", text, 0)], sections=[Section("", 0, len(text))], page_count=1)


# --- interval arithmetic ---------------------------------------------------------------------
def union(spans: list[Span]) -> list[Span]:
    out: list[list[int]] = []
    for a, b in sorted(s for s in spans if s[1] > s[0]):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


def length(spans: list[Span]) -> int:
    return sum(b - a for a, b in union(spans))


def overlap(xs: list[Span], ys: list[Span]) -> int:
    xs, ys = union(xs), union(ys)
    i = j = total = 0
    while i < len(xs) and j < len(ys):
        a, b = max(xs[i][0], ys[j][0]), min(xs[i][1], ys[j][1])
        total += max(0, b - a)
        if xs[i][1] < ys[j][1]:
            i += 1
        else:
            j += 1
    return total


def score(refs: list[Span], retrieved: list[Span], foreign: int, touching: list[Span]) -> dict[str, float]:
    """One question. ``retrieved``: spans of the retrieved chunks in the question's corpus; ``foreign``:
    characters of retrieved chunks from other corpora; ``touching``: all chunks touching the excerpts."""
    e = length(refs)
    hit = overlap(refs, retrieved)
    total = sum(b - a for a, b in retrieved) + foreign
    missed = e - hit
    union_c = length(touching + refs)
    return {"recall": hit / e if e else 0.0, "precision": hit / total if total else 0.0,
            "iou": hit / (total + missed) if total + missed else 0.0,
            "precision_omega": overlap(refs, touching) / union_c if union_c else 0.0}


def reference_span(corpus: str, text: str, exact: Span) -> Span:
    t = text[:-1] if text.endswith(".") else text
    pos = corpus.find(t)
    return (pos, pos + len(t)) if pos >= 0 else exact


def evaluate(bench: Bench, settings: Settings, embed, ks=(5, 10), spans: str = "reference",
             retrieval: str = "dense", cache=None, progress=None) -> dict:
    """Chunk every corpus with ``settings`` (its chunker and sizes), embed, retrieve, score."""
    from ..chunking import chunk_book
    from ..chunking.base import embedding_texts

    batch = embed.get_text_embedding_batch
    embed_fn = (lambda texts: cache.embed(texts, batch, 64)) if cache else batch
    chunks = []  # (corpus, span, text, word-pieces, Chunk)
    embed_texts = []
    for name, text in bench.corpora.items():
        book = as_book(text)
        made = chunk_book(book, name, settings, embed_fn)
        embed_texts += embedding_texts(book, made, settings.embed_context, settings.embed_headings)
        for c in made:
            span = (c.char_start, c.char_end)
            c.chunk_index = len(chunks)
            chunks.append(
                (name, reference_span(text, c.text, span) if spans == "reference" else span, c.text, c.tokens, c)
            )
    vecs = np.asarray(embed_fn(embed_texts), dtype=np.float32)
    vecs /= np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-9)
    qvecs = np.asarray(embed_fn([q.text for q in bench.questions]), dtype=np.float32)
    qvecs /= np.maximum(np.linalg.norm(qvecs, axis=1, keepdims=True), 1e-9)
    sims = qvecs @ vecs.T
    kmax = max(ks)
    depth = kmax * 20 if settings.chunker == "hierarchical" else kmax
    if retrieval == "hybrid":
        rankings = _hybrid(bench, chunks, sims, settings, depth)
    else:
        rankings = np.argsort(-sims, axis=1)[:, :depth]
    if settings.chunker == "hierarchical":  # children are searched, their parents are what is retrieved
        chunks, rankings = _parents(bench, chunks, rankings, spans, kmax)
    by_corpus: dict[str, list[int]] = {}
    for i, (name, *_rest) in enumerate(chunks):
        by_corpus.setdefault(name, []).append(i)
    rows = {k: [] for k in ks}
    for qi, q in enumerate(bench.questions):
        touching = [chunks[i][1] for i in by_corpus[q.corpus]
                    if any(chunks[i][1][0] < b and chunks[i][1][1] > a for a, b in q.refs)]
        for k in ks:
            top = list(rankings[qi][:k])
            mine = [chunks[i][1] for i in top if chunks[i][0] == q.corpus]
            foreign = sum(chunks[i][1][1] - chunks[i][1][0] for i in top if chunks[i][0] != q.corpus)
            rows[k].append(score(q.refs, mine, foreign, touching))
        if progress:
            progress(qi + 1, len(bench.questions))
    summary = {}
    for k, rs in rows.items():
        summary[str(k)] = {m: [round(100 * float(np.mean([r[m] for r in rs])), 1),
                               round(100 * float(np.std([r[m] for r in rs])), 1)] for m in rs[0]}
    return {"chunks": len(chunks), "mean_tokens": round(float(np.mean([c[3] for c in chunks])), 1),
            "mean_chars": round(float(np.mean([len(c[2]) for c in chunks])), 1), "by_k": summary}


def _parents(bench: Bench, children, rankings, spans: str, kmax: int):
    """Parent units (the union of their children) and each question's ranking of distinct parents,
    ordered by their best child."""
    from ..text.tokens import count_tokens

    unit_of: dict[tuple[str, int], int] = {}
    bounds: list[list] = []
    parent_of = []
    for name, _span, _text, _tok, c in children:
        key = (name, c.parent)
        if key not in unit_of:
            unit_of[key] = len(bounds)
            bounds.append([name, c.char_start, c.char_end])
        b = bounds[unit_of[key]]
        b[1], b[2] = min(b[1], c.char_start), max(b[2], c.char_end)
        parent_of.append(unit_of[key])
    units = []
    for name, a, b in bounds:
        text = bench.corpora[name][a:b]
        units.append((name, reference_span(bench.corpora[name], text, (a, b)) if spans == "reference" else (a, b),
                      text, count_tokens(text), None))
    ranked = [list(dict.fromkeys(parent_of[int(i)] for i in row))[:kmax] for row in rankings]
    return units, ranked


def _hybrid(bench: Bench, chunks, sims: np.ndarray, settings: Settings, kmax: int) -> list[list[int]]:
    """Folio's fusion (``retrieve.fuse``) of dense and BM25 (top retrieve_k each), dense order breaking ties."""
    from ..library.bm25 import BM25Index
    from ..retrieve import fuse

    index = BM25Index([c[4] for c in chunks])
    depth = max(settings.retrieve_k, kmax)
    out = []
    for qi, q in enumerate(bench.questions):
        dense = [int(i) for i in np.argsort(-sims[qi])[:depth]]
        sparse = [(c.chunk_index, sc) for c, sc in index.search(q.text, depth)]
        cands = set(dense) | {i for i, _ in sparse}
        fused = fuse([(i, float(sims[qi][i])) for i in dense], sparse, {i: float(sims[qi][i]) for i in cands},
                     settings.fusion, settings.fusion_alpha, settings.rrf_k)
        out.append(sorted(fused, key=lambda i: (-fused[i], -sims[qi][i]))[:kmax])
    return out


def published_rows(bench: Bench, k: str) -> list[dict]:
    """The report's all-corpora all-MiniLM-L6-v2 rows at ``k``."""
    for t in bench.published:
        if t["id"] == "appendix_all_all-MiniLM-L6-v2":
            return [r for r in t["rows"] if r["retrieve"] == k]
    return []


def table(results: list[tuple[str, dict]], bench: Bench, ks=(5, 10)) -> str:
    lines = []
    for k in ks:
        lines += [f"\n### k = {k}", "| chunking | chunks | mean word-pieces | mean chars | recall | precision | "
                  "precision_Ω | IoU |", "|---|---|---|---|---|---|---|---|"]
        for name, r in results:
            m = r["by_k"][str(k)]
            lines.append(
                f"| Folio {name} | {r['chunks']} | {r['mean_tokens']} | {r['mean_chars']} | "
                + " | ".join(f"{m[x][0]} ± {m[x][1]}" for x in ("recall", "precision", "precision_omega", "iou"))
                + " |"
            )
        for p in published_rows(bench, str(k)):
            lines.append(
                f"| published {p['method']} {p['size']}/{p['overlap']} (cl100k) | | | | "
                + " | ".join(f"{p[x][0]} ± {p[x][1]}" for x in ("recall", "precision", "precision_omega", "iou"))
                + " |"
            )
    return "\n".join(lines)
