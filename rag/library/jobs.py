"""Background ingestion: one worker thread per process, so uploads keep going while the user
moves between pages. Jobs are plain values the UI polls; each belongs to its ``owner`` (the browser session that
submitted it), so one person's uploads, errors and "clear finished" never show up in another's tab."""
from __future__ import annotations

import os
import queue
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Callable

from ..errors import RagError

STAGE_WEIGHTS = {"parsing": (0.0, 0.15), "chunking": (0.15, 0.25), "embedding": (0.25, 0.95), "indexing": (0.95, 1.0)}


@dataclass
class Job:
    id: str
    filename: str
    state: str = "queued"  # queued | running | done | skipped | failed
    stage: str = ""
    fraction: float = 0.0  # overall 0..1
    message: str = "Waiting"
    error: str = ""
    book_id: str = ""
    force: bool = False  # re-index even if the book is already there
    chunking: dict = field(default_factory=dict)  # chunking settings for this book ({} = the defaults)
    owner: str = ""  # the browser session (or other caller) that submitted it
    created: float = field(default_factory=time.time)
    finished: float = 0.0

    @property
    def active(self) -> bool:
        return self.state in ("queued", "running")


class IngestQueue:
    def __init__(self, run: Callable[[bytes, str, Callable, bool, dict], object],
                 pause: Callable[[], None] | None = None):
        """``run(data, filename, progress, force, chunking)`` ingests one file and returns an IngestResult;
        ``pause()``, called at each progress step (every page while parsing), lets questions being
        answered go first. The worker thread runs at a lower CPU priority than the app's others."""
        self._run = run
        self._pause = pause
        self._q: queue.Queue = queue.Queue()
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._work, name="folio-ingest", daemon=True)
        self._thread.start()

    def submit(self, data: bytes, filename: str, force: bool = False, chunking: dict | None = None,
               owner: str = "") -> Job:
        job = Job(id=uuid.uuid4().hex[:8], filename=filename, force=force, chunking=dict(chunking or {}),
                  owner=owner)
        with self._lock:
            self._jobs[job.id] = job
        self._q.put((job, data))
        return job

    def refused(self, filename: str, reason: str, owner: str = "") -> Job:
        """A job failed at once, never queued: a file refused before its turn (``parse.formats.precheck``)."""
        job = Job(id=uuid.uuid4().hex[:8], filename=filename, state="failed", message=reason, error=reason,
                  owner=owner, finished=time.time())
        with self._lock:
            self._jobs[job.id] = job
        return job

    def jobs(self, owner: str | None = None) -> list[Job]:
        """``owner``'s jobs (None: all), oldest first."""
        with self._lock:
            return sorted((j for j in self._jobs.values() if owner is None or j.owner == owner),
                          key=lambda j: j.created)

    def active(self) -> bool:
        return any(j.active for j in self.jobs())

    def clear_finished(self, owner: str | None = None) -> None:
        """Forget the finished jobs of ``owner`` (None: of everyone)."""
        with self._lock:
            self._jobs = {k: j for k, j in self._jobs.items() if j.active or (owner is not None and j.owner != owner)}

    def wait(self, timeout: float = 600) -> None:
        end = time.time() + timeout
        while self.active() and time.time() < end:
            time.sleep(0.1)

    def _work(self) -> None:
        try:  # Linux schedules threads one by one: the ingest thread yields the CPU to chat sessions
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
        except (AttributeError, OSError):
            pass
        while True:
            job, data = self._q.get()
            job.state = "running"

            def progress(stage: str, frac: float, msg: str, job=job) -> None:
                if self._pause is not None:
                    self._pause()
                lo, hi = STAGE_WEIGHTS.get(stage, (0.0, 1.0))
                job.stage, job.message = stage, msg
                job.fraction = max(job.fraction, lo + (hi - lo) * max(0.0, min(1.0, frac)))

            try:
                res = self._run(data, job.filename, progress, job.force, job.chunking)
                job.book_id = res.book_id
                job.state = "skipped" if res.skipped else "done"
                job.fraction = 1.0
                job.message = (f"Already in the library as '{res.title}'." if res.skipped else
                               f"Ready: {res.summary()}")
            except RagError as e:
                job.state, job.error, job.message = "failed", str(e), str(e)
            except Exception as e:  # unexpected: keep the worker alive, report it
                job.state, job.error = (
                    "failed",
                    f"{job.filename}: unexpected error while indexing ({type(e).__name__}: {e}).",
                )
                job.message = job.error
            finally:
                job.finished = time.time()
                self._q.task_done()
