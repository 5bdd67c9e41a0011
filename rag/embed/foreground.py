"""Questions first: embeddings for questions in progress are counted, and background embedding (a book
being added) waits between its batches while there are any."""
from __future__ import annotations

import threading
import time

YIELD_MAX_S = 2.0  # the longest a background batch waits for questions being answered


class _Foreground:
    """Counts embeddings for questions in progress; background work (ingest) waits while there are any,
    so chat stays quick while a book is added (on 2 cores the two would otherwise share them)."""

    def __init__(self):
        self.n = 0
        self.cond = threading.Condition()

    def __enter__(self):
        with self.cond:
            self.n += 1

    def __exit__(self, *exc):
        with self.cond:
            self.n -= 1
            self.cond.notify_all()

    def wait_idle(self) -> None:
        deadline = time.monotonic() + YIELD_MAX_S
        with self.cond:
            while self.n > 0 and time.monotonic() < deadline:
                self.cond.wait(timeout=0.05)


FOREGROUND = _Foreground()
