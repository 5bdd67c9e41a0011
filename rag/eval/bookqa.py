"""Book QA sets: questions about PDFs, asked through ``Folio.ask`` (the chat's own code path).

A set is JSONL, one question per line::

    {"id": "tp-01", "question": "What is a state diagram?", "file": "en_think_python_2e_288p_ccbync.pdf",
     "evidence_pages": [31], "evidence_quote": "This kind of figure is called a state diagram",
     "answer": "…", "answerable": true, "language": "en", "type": "definition"}

``evidence_pages`` are physical (pdf) page numbers; ``file`` is relative to the PDF folder.
Reported: page-hit of the *cited* sources (a cited source's matching chunk lies on an evidence
page), evidence page among the sources, abstention on unanswerable questions, false abstention on
answerable ones, quote-check failures, confidence and latency per stage.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import RagError
from .metrics import abstention, mean, page_hit, percentile


@dataclass
class QAItem:
    id: str
    question: str
    file: str
    evidence_pages: list[int] = field(default_factory=list)
    evidence_quote: str = ""
    answer: str = ""
    answerable: bool = True
    language: str = "en"
    type: str = "fact"
    evidence_section: str = ""  # where the quote is, for books without fixed pages (EPUB): a heading


def load(path: Path) -> list[QAItem]:
    items = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                items.append(QAItem(**json.loads(line)))
            except (TypeError, ValueError) as e:
                raise ValueError(f"{path}:{n}: not a question record ({e})") from None
    return items


def _norm(t: str) -> str:
    for a, b in (("’", "'"), ("‘", "'"), ("ﬁ", "fi"), ("ﬂ", "fl"), ("ﬀ", "ff"), ("ﬃ", "ffi"), ("ﬄ", "ffl")):
        t = t.replace(a, b)
    return " ".join(t.split()).lower()


def check_quotes(items: list[QAItem], pdf_dir: Path) -> list[str]:
    """Problems with the set: missing files, evidence quotes not found on their evidence pages."""
    import pymupdf

    problems, docs = [], {}
    for it in items:
        if not it.answerable:
            continue
        path = Path(pdf_dir) / it.file
        if not path.exists():
            problems.append(f"{it.id}: {it.file} not found in {pdf_dir}")
            continue
        if path.suffix.lower() != ".pdf":  # no fixed pages: the quote is located in the book once it is added
            if not it.evidence_quote:
                problems.append(f"{it.id}: {it.file} has no pages, so its evidence_quote is needed")
            continue
        if it.file not in docs:
            docs[it.file] = pymupdf.open(path)
        doc = docs[it.file]
        if not it.evidence_pages or any(not 1 <= p <= doc.page_count for p in it.evidence_pages):
            problems.append(f"{it.id}: evidence pages {it.evidence_pages} outside 1..{doc.page_count}")
            continue
        if it.evidence_quote:
            q = _norm(it.evidence_quote)
            pages = " ".join(_norm(re.sub(r"-\n", "", doc[p - 1].get_text())) for p in it.evidence_pages)
            if q not in pages:
                problems.append(f"{it.id}: evidence quote not on pages {it.evidence_pages}: {it.evidence_quote[:60]!r}")
    return problems


from ..settings import CHUNK_KEYS  # noqa: E402  (settings that need a library of their own)


def library_for(folio, config: dict):
    """The service to ask under ``config`` and the query-time part of it: chunk settings need their
    own library (data/eval/qa-<settings>/), sharing the loaded embedder; the rest are per-question overrides."""
    chunk = {k: config[k] for k in CHUNK_KEYS if k in config}
    query = {k: v for k, v in config.items() if k not in CHUNK_KEYS}
    if not chunk:
        return folio, query
    slug = "-".join(f"{k}={v}" for k, v in sorted(chunk.items()))
    return folio.sibling(**chunk, data_dir=folio.settings.data_dir / "eval" / f"qa-{slug}"), query


def ingest_files(folio, items: list[QAItem], pdf_dir: Path, progress=None,
                 library: list[Path] = ()) -> dict[str, str]:
    """file → book id, ingesting what the library does not have yet (same file = same book). ``library``:
    further folders whose every file is added too (other books to search among, as a user's library holds)."""
    ids = {}
    for f in dict.fromkeys(it.file for it in items):
        path = Path(pdf_dir) / f
        if path.exists():
            ids[f] = folio.library.ingest(path.read_bytes(), path.name, progress).book_id
    for folder in library:
        for path in sorted(p for p in Path(folder).rglob("*") if p.is_file() and p.suffix.lower() in BOOK_SUFFIXES):
            if path.name not in ids:
                try:
                    ids[path.name] = folio.library.ingest(path.read_bytes(), path.name, progress).book_id
                except RagError:
                    pass  # a file the library refuses is not a book to search among
    return ids


BOOK_SUFFIXES = (".pdf", ".epub", ".md", ".markdown", ".html", ".htm", ".txt", ".docx")


def evidence_pages(folio, it: QAItem, book_id: str | None) -> set[int]:
    """The item's evidence pages; for a book without fixed pages (EPUB, …) the pages of the added book on which
    its evidence quote lies."""
    if it.evidence_pages or not it.evidence_quote or not book_id:
        return set(it.evidence_pages)
    quote = _norm(it.evidence_quote)
    pages = folio.inspector.pages(book_id)
    found = {p.number for p in pages if quote in _norm(p.text)}
    if not found:  # across a page break: the page where it starts, in the pages' text read as one
        starts, joined = [], ""
        for p in pages:
            starts.append((len(joined), p.number))
            joined += re.sub(r"^\d{1,4} | \d{1,4}$", "", _norm(p.text)) + " "  # less a page number at the edge
        at = joined.find(quote)
        if at >= 0:
            found = {next(n for start, n in reversed(starts) if start <= at)}
    if not found:  # the pages' text differs from the quote further on: the page where its first words are
        head = " ".join(quote.split()[:6])
        found = {p.number for p in pages if head in _norm(p.text)}
    return found


def answer_terms(text: str, language: str) -> set[str]:
    """The BM25 terms of ``text`` in ``language`` (stopwords out, stemmed): what 'the key words' are."""
    from ..text.languages import tokenize

    return set(tokenize([text], language if language in STEMMED else "en")[0])


STEMMED = ("en", "de", "fr", "es", "it", "nl", "pt", "vi")


def keyword_recall(reference: str, answer: str, language: str) -> float:
    """Share of the reference answer's key words that Folio's answer holds (0 for no reference words)."""
    want = answer_terms(reference, language)
    return len(want & answer_terms(answer, language)) / len(want) if want else 0.0


def run(folio, items: list[QAItem], book_ids: dict[str, str], overrides: dict | None = None,
        progress=None, per_item=None) -> dict:
    """Ask every question of the whole library; per-question records and the summary. ``per_item(item)``: further
    settings for one question (``eval qa --lobo``: the answerability model fitted without its book)."""
    records = []
    for i, it in enumerate(items):
        a = folio.ask(it.question, **{**(overrides or {}), **(per_item(it) if per_item else {})}).consume()
        cited = list(dict.fromkeys(c.n for c in a.checks))
        by_n = {s.n: s for s in a.sources}
        cited_spans = []  # where the quoted sentences lie (the matching chunk's pages when not found)
        for n in cited:
            if n in by_n and by_n[n].book_id == book_ids.get(it.file):
                src = by_n[n]
                at = folio.reader.quote_pages(src, a.text)
                cited_spans += [(p, p) for p in at] or [(src.hit.page_start, src.hit.page_end)]
        source_spans = [(s.page_start, s.page_end) for s in a.sources if s.book_id == book_ids.get(it.file)]
        ev = evidence_pages(folio, it, book_ids.get(it.file))
        keywords = keyword_recall(it.answer, a.text, it.language) if it.answerable and not a.not_found else 0.0
        records.append(
            {
                "id": it.id,
                "type": it.type,
                "language": it.language,
                "answerable": it.answerable,
                "question": it.question,
                "abstained": a.not_found,
                "page_hit": bool(it.answerable and not a.not_found and page_hit(cited_spans, ev)),
                "evidence_in_sources": bool(it.answerable and page_hit(source_spans, ev)),
                "quote_failures": sum(not c.ok for c in a.checks),
                "confidence": round(a.confidence, 4),
                "file": it.file,
                "keyword_recall": round(keywords, 3),
                "outcome": getattr(a, "outcome", ""),
                "cited_pages": cited_spans,
                "answer": a.text[:500],
                "trace_ms": {k: round(v, 1) for k, v in a.trace.items()},
                "sources": [
                    {
                        "n": s.n,
                        "book": s.book_title,
                        "pages": s.pages_label,
                        "pdf_pages": [s.hit.page_start, s.hit.page_end],
                        "similarity": round(s.similarity, 3),
                        "cited": s.n in cited,
                    }
                    for s in a.sources
                ],
            }
        )
        if progress:
            progress(i + 1, len(items))
    return {"summary": summarise(records), "records": records}


def lobo_models(rows: list[dict], files: list[str], folder: Path) -> dict[str, str]:
    """For each book (file), an answerability model fitted as the shipped one is (``calibrate.fit_model``) on
    calibration ``rows`` of the other books only, written under ``folder``: file → its path."""
    from .calibrate import fit_model

    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for f in files:
        train = [r for r in rows if r["file"] != f and r.get("asked") != f]
        path = folder / (re.sub(r"[^\w.-]+", "_", f) + ".json")
        fit_model(train, note=f"without {f}").save(path)
        out[f] = str(path)
    return out


def summarise(records: list[dict]) -> dict:
    from ..retrieve.answerability import calibration

    ans = [r for r in records if r["answerable"]]
    ab = abstention([r["answerable"] for r in records], [r["abstained"] for r in records])
    totals = [r["trace_ms"].get("total", 0.0) for r in records]
    first = [r["trace_ms"].get("first_token", 0.0) for r in records if "first_token" in r["trace_ms"]]
    stages = sorted({k for r in records for k in r["trace_ms"] if not k.endswith("_failed")})
    return {
        "questions": len(records), "answerable": len(ans), "unanswerable": len(records) - len(ans),
        "page_hit": round(mean([r["page_hit"] for r in ans]), 3),
        "evidence_in_sources": round(mean([r["evidence_in_sources"] for r in ans]), 3),
        "abstention": round(ab["abstention"], 3), "false_abstention": round(ab["false_abstention"], 3),
        "quote_failures": sum(r["quote_failures"] for r in records),
        "mean_confidence": round(mean([r["confidence"] for r in records]), 3),
        "latency_ms": {"p50": round(percentile(totals, 50), 1), "p95": round(percentile(totals, 95), 1),
                       "first_token_p50": round(percentile(first, 50), 1)},
        "stage_ms_mean": {k: round(mean([r["trace_ms"].get(k, 0.0) for r in records]), 1) for k in stages},
        "page_hit_by_type": {t: round(mean([r["page_hit"] for r in ans if r["type"] == t]), 3)
                             for t in sorted({r["type"] for r in ans})},
        "page_hit_by_language": {lang: round(mean([r["page_hit"] for r in ans if r["language"] == lang]), 3)
                                 for lang in sorted({r["language"] for r in ans})},
        "keyword_recall": round(mean([r.get("keyword_recall", 0.0) for r in ans]), 3),
        "likely": round(mean([r.get("outcome") == "likely" for r in records]), 3),
        "by_book": {f: {"page_hit": round(mean([r["page_hit"] for r in ans if r.get("file") == f]), 3),
                        "declined": round(mean([r["abstained"] for r in ans if r.get("file") == f]), 3),
                        "unanswerable_declined": round(mean([r["abstained"] for r in records if r.get("file") == f
                                                             and not r["answerable"]]), 3),
                        "keyword_recall": round(mean([r.get("keyword_recall", 0.0) for r in ans
                                                      if r.get("file") == f]), 3)}
                    for f in sorted({r.get("file", "") for r in records})},
        # is the confidence shown worth anything: right outcomes (the evidence page cited, or an unanswerable
        # question declined) per confidence bucket
        "calibration": calibration([r["confidence"] for r in records],
                                   [(r["page_hit"] if r["answerable"] else r["abstained"]) for r in records]),
    }


CSV_COLUMNS = ["config", "id", "type", "language", "answerable", "abstained", "page_hit", "evidence_in_sources",
               "quote_failures", "confidence", "total_ms"]


def to_csv(results: list[dict]) -> str:
    """One row per configuration and question (what the CLI's --csv and the Evaluate page download write)."""
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(CSV_COLUMNS)
    for r in results:
        for q in r["records"]:
            w.writerow([json.dumps(r["config"]), q["id"], q["type"], q["language"], q["answerable"], q["abstained"],
                        q["page_hit"], q["evidence_in_sources"], q["quote_failures"], q["confidence"],
                        q["trace_ms"].get("total", 0)])
    return buf.getvalue()


def table(summary: dict) -> str:
    s = summary
    lines = [f"{s['questions']} questions ({s['answerable']} answerable, {s['unanswerable']} unanswerable)",
             "| metric | value |", "|---|---|",
             f"| page-hit of cited sources (answerable) | {s['page_hit']:.3f} |",
             f"| evidence page among sources | {s['evidence_in_sources']:.3f} |",
             f"| abstention on unanswerable | {s['abstention']:.3f} |",
             f"| false abstention on answerable | {s['false_abstention']:.3f} |",
             f"| quote-check failures | {s['quote_failures']} |",
             f"| mean confidence | {s['mean_confidence']:.3f} |",
             f"| latency p50 / p95 (ms) | {s['latency_ms']['p50']:.0f} / {s['latency_ms']['p95']:.0f} |",
             f"| first text p50 (ms) | {s['latency_ms']['first_token_p50']:.0f} |"]
    lines += [f"| page-hit, {k} | {v:.3f} |" for k, v in s["page_hit_by_type"].items()]
    lines += [f"| page-hit, language {k} | {v:.3f} |" for k, v in s["page_hit_by_language"].items()]
    if "keyword_recall" in s:
        lines.append(f"| key words of the reference answer in the answer (declined = 0) | {s['keyword_recall']:.3f} |")
    if s.get("by_book"):
        lines += [
            "",
            "| book | page-hit | answerable declined | unanswerable declined | key words |",
            "|---|---|---|---|---|",
        ]
        lines += [f"| {f} | {b['page_hit']:.3f} | {b['declined']:.3f} | {b['unanswerable_declined']:.3f} | "
                  f"{b['keyword_recall']:.3f} |" for f, b in s["by_book"].items()]
    cal = [b for b in s.get("calibration", []) if b["n"]]
    if cal:
        lines += ["", "| confidence | questions | mean confidence | right (cited the evidence page, or declined) |",
                  "|---|---|---|---|"]
        lines += [f"| {b['bucket']} | {b['n']} | {b['mean_confidence']:.2f} | {b['correct']:.2f} |" for b in cal]
    return "\n".join(lines)
