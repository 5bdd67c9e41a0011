"""Fit the answerability model (``rag.retrieve.answerability``) on book QA sets, and say how well it decides on books
it never saw.

Rows: every question asked of the whole library (answerable = positive, unanswerable = negative), and each
answerable question asked of every *other* book alone (negative: a library without the answer). Figures are
**leave-one-book-out**: each book's rows are judged by a model fitted on the other books' rows only (a row belongs to
the book its question is about; a cross-book row to both books involved, and is left out of training when either is
held out). Also reported per book, and for the "likely" band: what share of answerable questions the band rescues and
how many unanswerable ones it lets through.
"""
from __future__ import annotations

from ..retrieve.answerability import EXTRA, FEATURES, Model, fit
from ..retrieve.answerability import decide as prob


def collect(folio, items, book_ids: dict[str, str], cross_book: bool = True, progress=None) -> list[dict]:
    """One row per (question, library): features, label, the question's id, its book (``file``) and the book asked
    (``asked``: "" for the whole library)."""
    rows = []
    all_ids = sorted(set(book_ids.values()))
    file_of = {v: k for k, v in book_ids.items()}
    for i, it in enumerate(items):
        if it.file in book_ids or not it.answerable:
            f = folio.evidence(it.question)
            rows.append(
                {
                    "id": it.id,
                    "label": bool(it.answerable),
                    "kind": "asked" if it.answerable else "unanswerable",
                    "language": it.language,
                    "file": it.file,
                    "asked": "",
                    **f,
                }
            )
        if cross_book and it.answerable and it.file in book_ids:
            for other in all_ids:
                if other != book_ids[it.file]:
                    f = folio.evidence(it.question, [other])
                    rows.append({"id": it.id, "label": False, "kind": "other book", "language": it.language,
                                 "file": it.file, "asked": file_of.get(other, other), **f})
        if progress:
            progress(i + 1, len(items))
    return rows


KINDS = ("asked", "unanswerable", "other book")


def declined(model: Model, r: dict, threshold: float) -> bool:
    return not r["passes_threshold"] or prob(model, r) < threshold


def decide(model: Model, rows: list[dict], threshold: float) -> dict:
    """Declined shares per kind of row (a row not passing the similarity threshold is declined anyway)."""
    out = {}
    for kind in KINDS:
        sub = [r for r in rows if r["kind"] == kind]
        if sub:
            out[kind] = {
                "n": len(sub),
                "declined": round(sum(declined(model, r, threshold) for r in sub) / len(sub), 3),
            }
    return out


# What the model is fitted on: the cross-book negatives are many and easy (a question asked of a book about something
# else), the unanswerable questions few and hard (their words are in the books); every fifth cross-book row and each
# unanswerable row three times put the boundary where the hard cases are. Chosen by leave-one-book-out
# (docs/evaluation.md).
OTHER_EVERY, UNANSWERABLE_REPEAT = 5, 3
NAMES = FEATURES + EXTRA


def training_rows(rows: list[dict]) -> list[dict]:
    other = sorted((r for r in rows if r["kind"] == "other book"), key=lambda r: (r["id"], r.get("asked", "")))
    hard = [r for r in rows if r["kind"] == "unanswerable"]
    return [r for r in rows if r["kind"] == "asked"] + other[::OTHER_EVERY] + hard * UNANSWERABLE_REPEAT


def fit_model(rows: list[dict], note: str = "") -> Model:
    """The answerability model over ``NAMES``, fitted on ``training_rows(rows)``."""
    train = training_rows(rows)
    return fit(train, [r["label"] for r in train], names=NAMES, note=note)


def leave_one_book_out(rows: list[dict]) -> list[dict]:
    """Every row with the probability of a model fitted without its book (``probability``)."""
    held: list[dict] = []
    for book in sorted({r["file"] for r in rows}):
        train = [r for r in rows if r["file"] != book and r.get("asked") != book]
        if not train or len({r["label"] for r in train}) < 2:
            continue
        model = fit_model(train)
        held += [{**r, "probability": prob(model, r)} for r in rows if r["file"] == book]
    return held


def summary(held: list[dict], threshold: float, likely: float | None = None) -> dict:
    """Declined shares per kind on held-out rows (at ``threshold``; with ``likely`` = likely_min a row between it
    and the threshold is answered as 'likely', with a low-confidence label, not declined), overall and per book."""
    def out(r: dict) -> str:
        if not r["passes_threshold"]:
            return "declined"
        if r["probability"] >= threshold:
            return "answered"
        if likely is not None and r["probability"] >= likely:
            return "likely"
        return "declined"

    res: dict = {"overall": {}, "by_book": {}}
    for kind in KINDS:
        sub = [r for r in held if r["kind"] == kind]
        if sub:
            res["overall"][kind] = {
                "n": len(sub),
                "declined": round(sum(out(r) == "declined" for r in sub) / len(sub), 3),
                "likely": round(sum(out(r) == "likely" for r in sub) / len(sub), 3),
            }
    for lang in sorted({r["language"] for r in held}):
        for kind in ("asked", "unanswerable"):
            sub = [r for r in held if r["language"] == lang and r["kind"] == kind]
            if sub:
                res.setdefault("by_language", {}).setdefault(lang, {})[kind] = round(
                    sum(out(r) == "declined" for r in sub) / len(sub), 3)
    for book in sorted({r["file"] for r in held}):
        res["by_book"][book] = {}
        for kind in ("asked", "unanswerable"):
            sub = [r for r in held if r["file"] == book and r["kind"] == kind]
            if sub:
                res["by_book"][book][kind] = round(sum(out(r) == "declined" for r in sub) / len(sub), 3)
    return res


LIKELY_GRID = (0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6)
LIKELY_CAP = 0.03  # the most answerable questions a likely_min may decline on the books it is chosen on


def choose_likely(held: list[dict], grid=LIKELY_GRID, cap: float = LIKELY_CAP) -> dict:
    """``likely_min`` chosen by leave-one-book-out: for each book, the largest of ``grid`` that declines at most
    ``cap`` of the *other* books' answerable questions (their held-out probabilities), applied to that book's
    questions. Returns the picks per book, the value picked most often, and the declined shares so judged."""
    lib = [r for r in held if r["kind"] in ("asked", "unanswerable")]

    def declined_share(rs: list[dict], t: float) -> float:
        asked = [r for r in rs if r["kind"] == "asked"]
        return sum(not r["passes_threshold"] or r["probability"] < t for r in asked) / max(len(asked), 1)

    picks, judged = {}, []
    for book in sorted({r["file"] for r in lib}):
        others = [r for r in lib if r["file"] != book]
        ok = [t for t in grid if declined_share(others, t) <= cap]
        picks[book] = t = max(ok) if ok else min(grid)
        judged += [(r, not r["passes_threshold"] or r["probability"] < t) for r in lib if r["file"] == book]
    share = {kind: round(sum(d for r, d in judged if r["kind"] == kind)
                         / max(sum(r["kind"] == kind for r, _ in judged), 1), 3) for kind in ("asked", "unanswerable")}
    values = list(picks.values())
    chosen = max(sorted(set(values)), key=values.count) if values else None  # a tie: the lower value
    return {"picks": picks, "chosen": chosen, "declined": share}


def table(held_summary: dict, model: Model, threshold: float) -> str:
    labels = {"asked": "answerable, whole library", "unanswerable": "unanswerable",
              "other book": "answerable, asked of another book"}
    lines = [f"leave-one-book-out, threshold {threshold}:", "| questions | n | declined | shown as likely |",
             "|---|---|---|---|"]
    for kind, v in held_summary["overall"].items():
        lines.append(f"| {labels[kind]} | {v['n']} | {v['declined']:.3f} | {v['likely']:.3f} |")
    lines += ["", "| language | answerable declined | unanswerable declined |", "|---|---|---|"]
    for lang, v in held_summary.get("by_language", {}).items():
        lines.append(f"| {lang} | {v.get('asked', float('nan')):.3f} | {v.get('unanswerable', float('nan')):.3f} |")
    lines += ["", "| book (held out) | answerable declined | unanswerable declined |", "|---|---|---|"]
    for book, v in held_summary["by_book"].items():
        lines.append(f"| {book} | {v.get('asked', float('nan')):.3f} | {v.get('unanswerable', float('nan')):.3f} |")
    lines.append("")
    lines.append("model fitted on every book: " + ", ".join(f"{k} {w:+.2f}" for k, w in model.weights.items())
                 + f", bias {model.bias:+.2f}")
    return "\n".join(lines)
