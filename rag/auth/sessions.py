"""Session cookies and slowed-down failed logins.

A session cookie is a token signed with the password file's secret (itsdangerous), holding the password's
fingerprint and when it was issued: valid for ``SESSION_SECONDS``, and for no longer than the password it was
issued under. ``Throttle`` makes each failed attempt from one client wait longer than the one before.
"""
from __future__ import annotations

import threading
import time

from .password import Credentials

COOKIE = "folio_session"
SESSION_SECONDS = 7 * 24 * 3600
SALT = "folio-session-v1"


def issue(cred: Credentials) -> str:
    from itsdangerous import URLSafeTimedSerializer

    return URLSafeTimedSerializer(cred.secret, salt=SALT).dumps({"fp": cred.fingerprint})


def valid(cred: Credentials | None, token: str | None, max_age: int = SESSION_SECONDS) -> bool:
    from itsdangerous import BadSignature, URLSafeTimedSerializer

    if cred is None or not token:
        return False
    try:
        data = URLSafeTimedSerializer(cred.secret, salt=SALT).loads(token, max_age=max_age)
    except BadSignature:  # SignatureExpired is one
        return False
    return isinstance(data, dict) and data.get("fp") == cred.fingerprint


class Throttle:
    """Failed attempts per client (within ``window`` seconds): the n-th waits ``base * 2**(n-1)`` seconds, at most
    ``cap``, before it is answered; a success forgets the client's failures."""

    def __init__(self, base: float = 1.0, cap: float = 30.0, window: float = 900.0):
        self.base, self.cap, self.window = base, cap, window
        self._failures: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, key: str, now: float) -> list[float]:
        times = [t for t in self._failures.get(key, []) if now - t < self.window]
        self._failures[key] = times
        return times

    def failed(self, key: str) -> float:
        """Record a failure; returns how long its answer is held back."""
        now = time.monotonic()
        with self._lock:
            times = self._recent(key, now)
            times.append(now)
            return min(self.cap, self.base * 2 ** (len(times) - 1))

    def failures(self, key: str) -> int:
        with self._lock:
            return len(self._recent(key, time.monotonic()))

    def succeeded(self, key: str) -> None:
        with self._lock:
            self._failures.pop(key, None)
