"""Fit the answerability model (``rag.retrieve.answerability``) on a book QA set, and say how well it decides.

Positives: the set's answerable questions asked of the whole library. Negatives: its unanswerable
questions, and each answerable question asked of every *other* book alone (a library without the
answer; ``cross_book``). The report gives, at the decision threshold, the share of unanswerable
questions declined and of answerable ones wrongly declined — on the data it was fitted on and in
5-fold cross-validation grouped by question (a question's cross-book negatives stay in its fold).
"""
from __future__ import annotations

import random

from ..retrieve.answerability import FEATURES, Model, fit
from ..retrieve.answerability import decide as prob


def collect(folio, items, book_ids: dict[str, str], cross_book: bool = True, progress=None) -> list[dict]:
    """One row per (question, library): features, label, the question's id (for grouped folds)."""
    rows = []
    all_ids = sorted(set(book_ids.values()))
    for i, it in enumerate(items):
        if it.file in book_ids or not it.answerable:
            f = folio.evidence(it.question)
            rows.append({"id": it.id, "label": bool(it.answerable), "kind": "asked" if it.answerable else "unanswerable",
                         "language": it.language, **f})
        if cross_book and it.answerable and it.file in book_ids:
            for other in all_ids:
                if other != book_ids[it.file]:
                    f = folio.evidence(it.question, [other])
                    rows.append({"id": it.id, "label": False, "kind": "other book", "language": it.language, **f})
        if progress:
            progress(i + 1, len(items))
    return rows


def decide(model: Model, rows: list[dict], threshold: float) -> dict:
    """Declined shares per kind of row (a row not passing the similarity threshold is declined anyway)."""
    out = {}
    for kind in ("asked", "unanswerable", "other book"):
        sub = [r for r in rows if r["kind"] == kind]
        if sub:
            declined = [not r["passes_threshold"] or prob(model, r) < threshold for r in sub]
            out[kind] = {"n": len(sub), "declined": round(sum(declined) / len(sub), 3)}
    return out


def cross_validate(rows: list[dict], threshold: float, folds: int = 5, seed: int = 0) -> dict:
    ids = sorted({r["id"] for r in rows})
    random.Random(seed).shuffle(ids)
    fold_of = {q: i % folds for i, q in enumerate(ids)}
    held: list[dict] = []
    for k in range(folds):
        train = [r for r in rows if fold_of[r["id"]] != k]
        model = fit([r for r in train], [r["label"] for r in train])
        for r in rows:
            if fold_of[r["id"]] == k:
                held.append({**r, "probability": prob(model, r)})
    out = {}
    for kind in ("asked", "unanswerable", "other book"):
        sub = [r for r in held if r["kind"] == kind]
        if sub:
            out[kind] = {"n": len(sub), "declined": round(sum(not r["passes_threshold"] or r["probability"] < threshold
                                                                for r in sub) / len(sub), 3)}
    return out


def table(fitted: dict, cv: dict, model: Model) -> str:
    lines = ["| questions | n | declined (fitted) | declined (5-fold CV) |", "|---|---|---|---|"]
    for kind, label in (("asked", "answerable, whole library"), ("unanswerable", "unanswerable"),
                        ("other book", "answerable, asked of another book")):
        if kind in fitted:
            lines.append(f"| {label} | {fitted[kind]['n']} | {fitted[kind]['declined']:.3f} | "
                         f"{cv.get(kind, {}).get('declined', float('nan')):.3f} |")
    lines.append("")
    lines.append("weights: " + ", ".join(f"{k} {model.weights[k]:+.2f}" for k in FEATURES) + f", bias {model.bias:+.2f}")
    return "\n".join(lines)
