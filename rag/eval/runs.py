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


def start(folio, items: list[bookqa.QAItem], pdf_dir: Path, configs: list[dict], set_name: str) -> EvalJob:
    """Ingest the set's PDFs (those not in the library yet), then ask every question once per configuration."""
    job = EvalJob(set_name, configs or [{}], total=len(items) * max(1, len(configs)))

    def work():
        job.state = "running"
        try:
            for n, cfg in enumerate(job.configs):
                library, query_cfg = bookqa.library_for(folio, cfg)
                job.message = (f"Configuration {n + 1}/{len(job.configs)} ({cfg or 'current settings'}): adding the "
                               "set's PDFs to the library (those already there are skipped)…")
                ids = bookqa.ingest_files(library, items, pdf_dir)
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
        self._latest: EvalJob | None = None

    @staticmethod
    def question_sets() -> list[Path]:
        """Question sets shipped with the project (eval/*.jsonl)."""
        return sorted((Path(__file__).resolve().parents[2] / "eval").glob("*.jsonl"))

    def start(self, items, pdf_dir: Path, configs: list[dict], name: str) -> EvalJob:
        """Run a book QA set in the background (its PDFs are added to the library); returns the job."""
        self._latest = start(self.folio, items, Path(pdf_dir), configs, name)
        return self._latest

    def latest(self) -> EvalJob | None:
        """The latest evaluation job of this process, or None."""
        return self._latest
