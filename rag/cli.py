"""Headless use: ``python -m rag ingest FILE…``, ``ask "…" [--book ID] [--json]``, ``reindex``, ``books``,
``figures BOOK_ID``.

Uses the same settings (RAG_* env vars) and data folder as the app. The embedded Chroma is
one-process-only: stop the app first, or point both at a Chroma server (RAG_CHROMA_HOST).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from .errors import RagError


def _progress(stage: str, frac: float, msg: str) -> None:
    print(f"\r  {stage:<9} {frac * 100:5.1f}%  {clean(msg)[:70]:<70}", end="", file=sys.stderr, flush=True)


def clean(text: str) -> str:
    """One printable line: control characters (newlines, tabs, terminal escapes) written as escapes,
    so a title or file name can neither split a result line nor drive the terminal."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in str(text))


def _access(args) -> int:
    """``set-password`` and ``serve-check``: who may use the app served from this data folder."""
    from .auth.password import MIN_LENGTH, remove_password, set_password
    from .auth.serving import entry_point
    from .settings import Settings

    data_dir = Settings().data_dir
    if args.cmd == "serve-check":
        print(entry_point(args.address, data_dir))
        return 0
    if args.remove:
        gone = remove_password(data_dir)
        print("Password removed; Folio serves this machine only." if gone else "No password was set.",
              file=sys.stderr)
        return 0
    if args.stdin or not sys.stdin.isatty():
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        import getpass

        password = getpass.getpass(f"New password for Folio (at least {MIN_LENGTH} characters): ")
        if getpass.getpass("Again: ") != password:
            raise RagError("The two passwords differ; nothing was changed.")
    set_password(data_dir, password)
    print(f"Password set for the library in {data_dir.resolve()} (stored as a salted bcrypt hash). Start Folio "
          "with scripts/run.sh --network; browsers stay signed in for 7 days.", file=sys.stderr)
    return 0


def ingest_files(paths: list[Path]) -> list[Path]:
    """The files to ingest: each file named, and the PDFs in each folder named (sorted, not recursive)."""
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out += sorted(f for f in p.iterdir() if f.is_file() and f.suffix.lower() == ".pdf")
        else:
            out.append(p)
    return out


def answer_json(a, svc) -> dict:
    """The stable JSON shape of ``ask --json`` (documented in the README)."""
    return {
        "question": a.question, "query": a.query, "answer": a.text, "not_found": a.not_found, "outcome": a.outcome,
        "confidence": round(a.confidence, 4), "backend": a.backend,
        "sources": [{"n": s.n, "book_id": s.book_id, "book": s.book_title, "page": s.hit.page_start,
                     "page_end": s.hit.page_end, "page_label": s.hit.label_start or str(s.hit.page_start),
                     "pages_label": s.pages_label, "section": s.hit.section, "label": s.label,
                     "char_span": [s.hit.char_start, s.hit.char_end], "chunk_index": s.hit.chunk_index,
                     "score": round(s.score, 6), "similarity": round(s.similarity, 4), "quote": s.quote,
                     "context_chunks": s.chunk_indices, "context": s.plan.get("summary", "")}
                    for s in a.sources],
        "context": a.context,
        "figures": [{"id": f.id, "book_id": f.book_id, "page": f.page, "page_label": f.page_label,
                     "caption": f.caption, "kind": f.kind, "png": str(svc.library.file(f.path)), "score": f.score,
                     "why": f.why, "sources": f.sources} for f in a.figures],
        "checks": [{"n": c.n, "ok": c.ok, "how": c.how, "sentence": c.sentence} for c in a.checks],
        "trace_ms": {k: round(v, 1) for k, v in a.trace.items()},
    }


def _chunk_args(p) -> None:
    from .chunking import STRATEGIES

    p.add_argument("--chunker", choices=list(STRATEGIES), help="chunking strategy for these books")
    p.add_argument("--chunk-size", type=int, help="max word-pieces per chunk (children for hierarchical)")
    p.add_argument("--chunk-overlap", type=int, help="word-pieces shared by neighbours (paragraph, token)")
    p.add_argument("--parent-size", type=int, help="max word-pieces per parent (hierarchical)")


def _chunking(args) -> dict | None:
    got = {k: getattr(args, k, None) for k in ("chunker", "chunk_size", "chunk_overlap", "parent_size")}
    return {k: v for k, v in got.items() if v is not None} or None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m rag", description="Folio pipeline, headless.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("ingest", help="add PDFs to the library")
    p.add_argument("files", nargs="+", type=Path, help="PDF files, or folders (their PDFs)")
    p.add_argument("--force", action="store_true", help="re-index even if already present")
    _chunk_args(p)
    p = sub.add_parser("ask", help="ask the library a question")
    p.add_argument("question")
    p.add_argument("--book", help="book id (see `books`); default: whole library")
    p.add_argument("--backend", choices=["extractive", "openai", "ollama"], help="override RAG_ANSWER_BACKEND")
    p.add_argument("--json", action="store_true", help="print one JSON object (answer, sources, figures, checks)")
    p = sub.add_parser("figures", help="list a book's figures (page, kind, caption, PNG path)")
    p.add_argument("book", help="book id (see `books`)")
    p = sub.add_parser("reindex", help="re-chunk and re-embed books (vectors of unchanged text come from the cache)")
    p.add_argument("--book", help="one book id; default: all")
    _chunk_args(p)
    p = sub.add_parser("chunks", help="export a book's chunks as JSONL (text, metadata, settings snapshot)")
    p.add_argument("book", help="book id (see `books`)")
    p.add_argument("--out", type=Path, help="write to this file instead of stdout")
    p.add_argument("--lint", action="store_true", help="print chunk-quality findings instead")
    sub.add_parser("books", help="list the library")
    p = sub.add_parser("set-password", help="set the password that guards Folio served on the network "
                                            "(scripts/run.sh --network); a new one logs every browser out")
    p.add_argument("--stdin", action="store_true", help="read it from the first line of standard input")
    p.add_argument("--remove", action="store_true", help="remove it (then Folio serves this machine only)")
    p = sub.add_parser("serve-check", help="which app script may be served on ADDRESS (scripts/run.sh asks); "
                                           "refuses (exit 2) the network without a password")
    p.add_argument("address")
    sub.add_parser("settings", help="print every setting (RAG_* environment variables) as a Markdown table")
    from .eval.cli import add_parser as add_eval_parser

    add_eval_parser(sub)
    args = ap.parse_args(argv)
    if args.cmd == "settings":
        from .settings import settings_document

        print(settings_document(), end="")
        return 0
    if args.cmd in ("set-password", "serve-check"):
        try:
            return _access(args)
        except RagError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2

    from .service import Folio

    failed = 0
    try:
        svc = Folio()
        if args.cmd == "eval":
            from .eval.cli import run as run_eval

            return run_eval(args, svc)
        if args.cmd == "ingest":
            for f in ingest_files(args.files):
                print(f"{clean(f)}:", file=sys.stderr)
                try:
                    if not f.is_file():
                        raise RagError(f"{f}: no such file.")
                    r = svc.library.ingest(
                        f.read_bytes(), f.name, _progress, force=args.force, chunking=_chunking(args)
                    )
                    print(file=sys.stderr)
                    state = "already in library" if r.skipped else r.summary()
                    n = (r.figures or {}).get("mupdf_messages", 0)
                    if n:
                        print(f"  note: MuPDF reported {n} problem(s) reading this file and repaired them, e.g. "
                              + "; ".join(clean(m) for m in r.figures.get("mupdf_sample", [])), file=sys.stderr)
                    print(f"{r.book_id}\t{clean(r.title)}\t{clean(state)}", flush=True)
                except RagError as e:
                    print(f"\nerror: {clean(e)}", file=sys.stderr)
                    failed += 1
                except OSError as e:  # unreadable file (permissions, a device): this file fails, the others go on
                    print(f"\nerror: {clean(f)}: cannot be read ({clean(e.strerror or e)}).", file=sys.stderr)
                    failed += 1
        elif args.cmd == "books":
            for b in svc.library.books():
                why = f"\t{clean(b.error)}" if b.status == "failed" and b.error else ""  # and what to do
                print(f"{b.id}\t{b.status}\t{b.pages} p\t{b.chunks} chunks\t{clean(b.title)}{why}")
            status = svc.embed.status  # what embeds new books here; a slower path than this machine allows says why
            print(("# " if status.fast else "# warning: ") + status.message, file=sys.stderr)
        elif args.cmd == "reindex":
            for r in svc.library.reindex(args.book, _progress, chunking=_chunking(args)):
                print(file=sys.stderr)
                print(f"{r.book_id}\t{clean(r.title)}\t{r.chunks} chunks, {r.seconds:.1f} s", flush=True)
        elif args.cmd == "chunks" and args.lint:
            from .chunking.lint import counts

            found = svc.inspector.lint(svc.library.book(args.book).id)
            for f in found:
                print(f"{f.chunk_index}\t{f.check}\t{f.detail}")
            print(json.dumps(counts(found)), file=sys.stderr)
        elif args.cmd == "chunks":
            text = svc.inspector.export_chunks(svc.library.book(args.book).id)
            if args.out:
                args.out.write_text(text, encoding="utf-8")
                print(f"{text.count(chr(10))} chunks written to {args.out}", file=sys.stderr)
            else:
                sys.stdout.write(text)
        elif args.cmd == "figures":
            b = svc.library.book(args.book)
            print(f"# {clean(b.title)}: {b.figures} figures; report {json.dumps(b.report)}", file=sys.stderr)
            for f in svc.library.figures(b.id):
                print(f"{f.id}\tpdf p. {f.page}\tp. "
                      f"{f.page_label}\t{f.kind}\t{clean(f.title)}\t{svc.library.file(f.path)}")
        elif args.cmd == "ask" and args.json:
            over = {"answer_backend": args.backend} if args.backend else {}
            a = svc.ask(args.question, book_id=args.book, **over).consume()
            print(json.dumps(answer_json(a, svc), ensure_ascii=False, indent=1))
            return 3 if a.not_found else 0
        elif args.cmd == "ask":
            over = {"answer_backend": args.backend} if args.backend else {}
            t0 = time.perf_counter()
            stream = svc.ask(args.question, book_id=args.book, **over)
            for piece in stream:
                print(piece, end="", flush=True)
            a = stream.answer
            print("\n")
            if a.outcome == "likely":
                from .answer.metrics import percent

                print(f"(likely answer, low confidence: the books answer this with probability "
                      f"{percent(a.confidence)})\n")
            for s in a.sources:
                print(f"[{s.n}] {s.book_title}, {s.pages_label} (similarity {s.similarity:.2f}): {s.quote[:160]}")
            for f in a.figures:
                print(f"figure: {f.title} (p. {f.page_label}, {f.why}) {svc.library.file(f.path)}")
            for c in a.checks:
                if not c.ok:
                    print(f"quote check: [{c.n}] {c.how}: {c.sentence[:120]}")
            print(f"\n({(time.perf_counter() - t0):.2f} s; first text after {a.trace.get('first_token', 0):.0f} ms)",
                  file=sys.stderr)
            return 3 if a.not_found else 0
    except RagError as e:
        print(f"error: {clean(e)}", file=sys.stderr)
        return 2
    return 1 if failed else 0
