"""``python -m rag eval …``: beir | qa | check.

    python -m rag eval beir ../shared/eval/scifact [--split test] [--modes bm25,dense,hybrid] [--out FILE.json]
    python -m rag eval qa eval/qa_shared_eval.jsonl --pdfs ../shared/eval/pdfs [--config window=0 --config window=2 …]
                                                    [--out FILE.json] [--csv FILE.csv]
    python -m rag eval check eval/qa_shared_eval.jsonl --pdfs ../shared/eval/pdfs
    python -m rag eval chunks ../shared/eval/chunking [--strategy semantic:chunk_size=128 …] [--k 5,10]
    python -m rag eval calibrate eval/qa_shared_eval.jsonl --pdfs ../shared/eval/pdfs [--write] [--no-cross-book]

``--config`` (repeatable) runs the set once per configuration (``key=value[,key=value]``, names as in
``Settings``): query-time settings (window, similarity_threshold, rrf_k, retrieval_mode, …) reuse the
library; chunk settings (chunker, chunk_size, chunk_overlap) get a library of their own under
data/eval/ (vectors come from the embedding cache when the text is unchanged). With ``--out`` a sweep
resumes: configurations already in that file are not run again.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ..errors import RagError


def add_parser(sub) -> None:
    p = sub.add_parser("eval", help="evaluate retrieval (BEIR) or answers (book QA set)")
    ev = p.add_subparsers(dest="eval_cmd", required=True)
    b = ev.add_parser("beir", help="nDCG@10 / Recall@100 / MRR for BM25, dense, hybrid on a BEIR folder")
    b.add_argument("folder", type=Path)
    b.add_argument("--split", default="test")
    b.add_argument("--modes", default="bm25,dense,hybrid")
    b.add_argument("--out", type=Path, help="write the result as JSON")
    q = ev.add_parser("qa", help="ask a JSONL question set through the chat's code path")
    q.add_argument("set", type=Path)
    q.add_argument("--pdfs", type=Path, required=True, help="folder the set's `file` names are relative to")
    q.add_argument("--config", action="append", default=[], help="key=value[,key=value] query-time settings")
    q.add_argument("--lobo", type=Path, help="calibration rows (eval calibrate --out): each question is decided by "
                                             "an answerability model fitted without its book")
    q.add_argument("--library", action="append", type=Path, default=[],
                   help="a folder whose books are added too (others to search among); repeatable")
    q.add_argument("--out", type=Path, help="write summaries and per-question records as JSON")
    q.add_argument("--csv", type=Path, help="write one row per configuration and question as CSV")
    k = ev.add_parser("chunks", help="Chroma's chunking benchmark: recall / precision / IoU of chunking strategies")
    k.add_argument("folder", type=Path, help="the benchmark folder (../shared/eval/chunking)")
    k.add_argument("--strategy", action="append", default=[],
                   help="chunker[:key=value,...] (repeatable); default: all six strategies at their defaults")
    k.add_argument("--k", default="5,10", help="top-k values (default 5,10)")
    k.add_argument("--spans", choices=["reference", "exact"], default="reference")
    k.add_argument("--retrieval", choices=["dense", "hybrid"], default="dense",
                   help="dense = the report's protocol; hybrid = Folio's dense + BM25 fusion")
    k.add_argument("--corpora", help="comma-separated corpus names (default: all five)")
    k.add_argument("--out", type=Path, help="write the results as JSON")
    a = ev.add_parser("calibrate", help="fit the answerability model on QA sets (rag/retrieve/answerability.json); "
                                        "report it leave-one-book-out")
    a.add_argument("set", type=Path, nargs="+", help="question sets (JSONL); --pdfs gives each one's folder")
    a.add_argument("--pdfs", type=Path, required=True, nargs="+", help="one folder per set, in the same order")
    a.add_argument("--rows", type=Path, help="reuse feature rows written by an earlier --out (no asking)")
    a.add_argument("--write", action="store_true", help="store the fitted model in rag/retrieve/answerability.json")
    a.add_argument("--no-cross-book", action="store_true", help="no negatives from asking other books")
    a.add_argument("--out", type=Path, help="write the feature rows as JSON")
    c = ev.add_parser("check", help="check a question set: files present, evidence quotes on their pages")
    c.add_argument("set", type=Path)
    c.add_argument("--pdfs", type=Path, required=True)


def _progress(done: int, total: int) -> None:
    print(f"\r  {done}/{total}", end="", file=sys.stderr, flush=True)


def parse_config(text: str) -> dict:
    """``key=value[,key=value]`` → settings overrides; a dotted key sets a tuning number
    (``tuning.extractive.in_hit=0.2``, ``tuning.windows.budget.factual=500``)."""
    from ..settings import field_of

    out = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, _, value = part.partition("=")
        key, value = key.strip(), value.strip()
        path = key.split(".")
        field = field_of(key) or (field_of(".".join(path[:-1])) if len(path) > 2 else None)
        if field is None or not value:
            raise RagError(f"--config {text!r}: '{key}' is not a setting (see docs/settings.md).")
        kind = field.annotation if field_of(key) else type(next(iter(field.default.values()), ""))
        out[key] = kind(value) if kind in (int, float) else value
    return out


def run_chunks(args, svc) -> int:
    from ..chunking import STRATEGIES
    from ..embed.cache import EmbeddingCache
    from . import chunkbench

    if not (args.folder / "questions_df.csv").exists():
        raise RagError(f"{args.folder} is not the chunking benchmark folder (corpora/, questions_df.csv).")
    bench = chunkbench.load(args.folder, args.corpora.split(",") if args.corpora else None)
    ks = tuple(int(x) for x in args.k.split(","))
    specs = args.strategy or list(STRATEGIES)
    cache = EmbeddingCache(svc.settings.embed_cache_path, svc.embed.cache_id)
    results = []
    for spec in specs:
        name, _, cfg = spec.partition(":")
        s = svc.settings.model_copy(update={"chunker": name, **parse_config(cfg)})
        print(f"{spec}: chunking {len(bench.corpora)} corpora, embedding (cached by text), "
              f"{len(bench.questions)} questions…", file=sys.stderr)
        res = chunkbench.evaluate(bench, s, svc.embed, ks, args.spans, args.retrieval, cache, _progress)
        print(file=sys.stderr)
        label = spec + (f" [{args.retrieval}]" if args.retrieval != "dense" else "")
        results.append((label, res))
        print(chunkbench.table([(label, res)], chunkbench.Bench({}, []), ks[:1]).split("\n")[-1], file=sys.stderr)
    print(chunkbench.table(results, bench, ks))
    if args.out:
        args.out.write_text(json.dumps([{"strategy": n, **r} for n, r in results], indent=1))
    return 0


def run(args, svc) -> int:
    from . import beir, bookqa

    if args.eval_cmd == "chunks":
        return run_chunks(args, svc)

    if args.eval_cmd == "beir":
        folder = args.folder
        if not (folder / "corpus.jsonl").exists():
            raise RagError(f"{folder} is not a BEIR folder (corpus.jsonl, queries.jsonl, qrels/{args.split}.tsv).")
        bs = beir.load(folder, args.split)
        s = svc.settings.model_copy(update={"data_dir": svc.settings.data_dir / "eval" / f"beir-{bs.name}"})
        print(f"{bs.name}: {len(bs.docs)} documents, {len(bs.queries)} queries; embedding (cached by "
              f"text)…", file=sys.stderr)
        res = beir.evaluate(bs, s, svc.embed, tuple(args.modes.split(",")), progress=_progress)
        print(file=sys.stderr)
        print(beir.table(res))
        if args.out:
            args.out.write_text(json.dumps(res, indent=1))
        return 0
    if args.eval_cmd == "calibrate":
        return run_calibrate(args, svc)
    items = bookqa.load(args.set)
    if args.eval_cmd == "check":
        problems = bookqa.check_quotes(items, args.pdfs)
        for p in problems:
            print(p)
        print(f"{len(items)} questions, {sum(not i.answerable for i in items)} unanswerable, "
              f"{len(problems)} problems")
        return 1 if problems else 0
    configs = [parse_config(c) for c in args.config] or [{}]
    done = {}
    if args.out and args.out.exists():  # resume: configurations already measured are kept
        done = {json.dumps(r["config"], sort_keys=True): r for r in json.loads(args.out.read_text())}
    results = []
    for cfg in configs:
        key = json.dumps(cfg, sort_keys=True)
        if key in done:
            print(f"config {cfg or 'default'}: already in {args.out}, kept", file=sys.stderr)
            res = done[key]
        else:
            folio, query_cfg = bookqa.library_for(svc, cfg)
            print(f"config {cfg or 'default'}: ingesting {len({i.file for i in items})} files into "
                  f"{folio.settings.data_dir} (indexed ones are skipped; vectors come from the "
                  f"cache)…", file=sys.stderr)
            ids = bookqa.ingest_files(folio, items, args.pdfs, library=args.library)
            per_item = None
            if args.lobo:
                paths = bookqa.lobo_models(json.loads(args.lobo.read_text()), sorted({i.file for i in items}),
                                           folio.settings.data_dir / "eval" / "lobo")
                per_item = lambda it: {"answerability_model": paths[it.file]}  # noqa: E731
            res = bookqa.run(folio, items, ids, query_cfg, progress=_progress, per_item=per_item)
            print(file=sys.stderr)
        results.append({**res, "config": cfg})
        print(f"\n## config: {cfg or 'current settings'}\n{bookqa.table(res['summary'])}")
        if args.out:
            args.out.write_text(
                json.dumps(
                    results
                    + [
                        r
                        for k, r in done.items()
                        if k not in {json.dumps(x["config"], sort_keys=True) for x in results}
                    ],
                    indent=1,
                    ensure_ascii=False,
                )
            )
    if len(results) > 1:
        keys = ["page_hit", "evidence_in_sources", "abstention", "false_abstention", "quote_failures"]
        print("\n| config | " + " | ".join(keys) + " | p50 ms |\n|---|" + "---|" * (len(keys) + 1))
        for r in results:
            s = r["summary"]
            print(
                f"| {r['config'] or 'current'} | "
                + " | ".join(str(s[k]) for k in keys)
                + f" | {s['latency_ms']['p50']} |"
            )
    if args.csv:
        args.csv.write_text(bookqa.to_csv(results), encoding="utf-8")
    return 0


def run_calibrate(args, svc) -> int:
    from . import bookqa, calibrate
    from ..retrieve.answerability import MODEL_PATH

    if len(args.pdfs) != len(args.set):
        raise RagError("Give one --pdfs folder per question set, in the same order.")
    if args.rows:
        rows = json.loads(args.rows.read_text())
    else:
        sets = [(bookqa.load(p), d) for p, d in zip(args.set, args.pdfs)]
        items = [it for its, _ in sets for it in its]
        ids: dict[str, str] = {}
        for its, folder in sets:  # every set's books in one library: each question is asked of all of them
            print(f"ingesting {len({i.file for i in its})} files from {folder} into {svc.settings.data_dir}…",
                  file=sys.stderr)
            ids.update(bookqa.ingest_files(svc, its, folder))
        rows = calibrate.collect(svc, items, ids, not args.no_cross_book, progress=_progress)
        print(file=sys.stderr)
    names = ", ".join(p.name for p in args.set)
    model = calibrate.fit_model(rows, note=f"fitted on {names}: {len(rows)} rows ({sum(r['label'] for r in rows)} "
                                           f"answerable), leave-one-book-out figures in docs/evaluation.md")
    s = svc.settings
    held = calibrate.leave_one_book_out(rows)
    print(calibrate.table(calibrate.summary(held, s.answerable_min, s.likely_min),
                          model, s.answerable_min))
    likely = calibrate.choose_likely(held)
    print(f"\nlikely_min by leave-one-book-out (largest of {calibrate.LIKELY_GRID} declining at most "
          f"{calibrate.LIKELY_CAP:.0%} of the other books' answerable questions): picked "
          f"{sorted(set(likely['picks'].values()))}, most often {likely['chosen']} (setting: {s.likely_min}); each "
          f"book judged at its own pick: answerable declined {likely['declined']['asked']:.3f}, unanswerable "
          f"declined {likely['declined']['unanswerable']:.3f}")
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1, ensure_ascii=False))
    if args.write:
        model.save(MODEL_PATH)
        print(f"written to {MODEL_PATH}")
    return 0
