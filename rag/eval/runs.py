"""Book-QA evaluations running in the background (like ingest), for the Evaluate page: ``EvalJob`` (one run,
polled by the page) and ``Evaluations`` (``Folio.evaluations``: the question sets shipped, starting a run)."""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import RagError
from . import bookqa


@dataclass
class EvalJob:
    set_name: str
    configs: list[dict]
    state: str = "queued"  # queued | running | done | failed
    message: str = ""
    done: int = 0
    total: int = 0
    results: list[dict] = field(default_factory=list)  # {"config", "summary", "records"} per configuration
    error: str = ""
    started: float = field(default_factory=time.time)

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 0.0

    @property
    def active(self) -> bool:
        return self.state in ("queued", "running")


REPO = Path(__file__).resolve().parents[2]  # the project folder (eval/ holds the shipped question sets)
SHARED_EVAL = REPO.parent / "shared" / "eval"  # the team's evaluation books, beside the project when present
EVAL_LIBRARY = Path("eval") / "library"  # under the data folder: the Evaluate page's own library


def eval_library(folio):
    """The library evaluations from the app run in: ``data/eval/library``, never the user's own (a set's books
    are added there, chunk settings get libraries beside it); it shares the loaded embedder and the embedding cache,
    so books the user has already added are not embedded again."""
    s = folio.settings
    return folio.sibling(data_dir=s.data_dir / EVAL_LIBRARY, embed_cache_file=s.embed_cache_path)


def start(folio, items: list[bookqa.QAItem], pdf_dir: Path, configs: list[dict], set_name: str) -> EvalJob:
    """Ingest the set's books into ``folio`` (those not there yet), then ask every question once per configuration.
    (The app passes ``eval_library``'s service: the user's library is never touched.)"""
    job = EvalJob(set_name, configs or [{}], total=len(items) * max(1, len(configs)))

    def work():
        job.state = "running"
        try:
            for n, cfg in enumerate(job.configs):
                library, query_cfg = bookqa.library_for(folio, cfg)
                job.message = (f"Configuration {n + 1}/{len(job.configs)} ({cfg or 'current settings'}): adding the "
                               f"set's books to the evaluation library ({library.settings.data_dir}; those already "
                               "there are skipped)…")

                def adding(stage, fraction, message="", n=n):
                    job.message = (f"Configuration {n + 1}/{len(job.configs)}: adding the set's books to the "
                                   f"evaluation library — {stage} {fraction:.0%} {message}".rstrip())

                ids = bookqa.ingest_files(library, items, pdf_dir, adding)
                missing = sorted({i.file for i in items if i.answerable} - set(ids))
                if missing:
                    raise RagError(f"Not found in {pdf_dir}: {', '.join(missing[:5])}. "
                                   "Choose the folder the set's files are in.")
                job.message = f"Configuration {n + 1}/{len(job.configs)}: {cfg or 'current settings'}"
                base = n * len(items)

                def progress(done, total, base=base):
                    job.done = base + done

                job.results.append({"config": cfg, **bookqa.run(library, items, ids, query_cfg, progress)})
            job.state, job.message = "done", f"{len(items)} questions × {len(job.configs)} configuration(s)"
        except Exception as e:  # shown on the page; a RagError says what to do
            job.state = "failed"
            job.error = str(e) if isinstance(e, RagError) else f"The evaluation stopped ({type(e).__name__}: {e})."

    threading.Thread(target=work, daemon=True, name="folio-eval").start()
    return job


class Evaluations:
    def __init__(self, folio):
        self.folio = folio
        self._latest: dict[str, EvalJob] = {}  # owner (a browser session) → its latest run

    @staticmethod
    def question_sets() -> list[Path]:
        """Question sets shipped with the project (eval/*.jsonl)."""
        return sorted((REPO / "eval").glob("*.jsonl"))

    @staticmethod
    def books_folder(set_path: Path | str) -> Path | None:
        """Where a shipped set's books are when they were laid out as docs/evaluation.md says (None when that
        folder is not there): ``qa_shared_eval`` → ``../shared/eval/pdfs``, ``qa_books2`` →
        ``../shared/eval/books2``, ``qa_booksN`` → ``../booksN`` (``eval/debian_books.sh booksN`` fetches them)."""
        stem = Path(set_path).stem
        where = {"qa_shared_eval": SHARED_EVAL / "pdfs", "qa_books2": SHARED_EVAL / "books2"}.get(stem)
        if where is None and stem.startswith("qa_books"):
            where = REPO.parent / stem.removeprefix("qa_")
        return where if where is not None and where.is_dir() else None

    def start(self, items, pdf_dir: Path | str, configs: list[dict], name: str, owner: str = "") -> EvalJob:
        """Run a book QA set in the background in the evaluation library (``eval_library``: its books are added
        there, never to the user's library); returns the job, which belongs to ``owner`` (a browser session).
        A folder that is not there is refused at once."""
        if not str(pdf_dir).strip() or not Path(pdf_dir).is_dir():
            where = f"No folder {str(pdf_dir).strip()} on this machine" if str(pdf_dir).strip() else "No folder given"
            raise RagError(f"{where}: give the folder that holds the set's books (docs/evaluation.md says where each "
                           "shipped set's books come from).")
        self._latest[owner] = start(eval_library(self.folio), items, Path(pdf_dir), configs, name)
        return self._latest[owner]

    def latest(self, owner: str = "") -> EvalJob | None:
        """``owner``'s latest evaluation job, or None (another browser's runs are not listed)."""
        return self._latest.get(owner)
