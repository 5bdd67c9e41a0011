"""The operator's password, stored as a salted bcrypt hash (never the password) with the secret that signs session
cookies, in ``<RAG_DATA_DIR>/auth.json`` (readable by its owner only). ``python -m rag set-password`` writes it.

bcrypt reads at most 72 bytes, so the password is first hashed with SHA-256 (base64, 44 bytes): long passphrases
count in full. Setting a new password draws a new cookie secret, which logs every browser out.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

from ..errors import RagError

MIN_LENGTH = 8
ROUNDS = 12  # bcrypt cost: ~0.2-0.3 s per check on one core, which also bounds guesses per second


def _prehash(password: str) -> bytes:
    return base64.b64encode(hashlib.sha256(password.encode("utf-8")).digest())


@dataclass(frozen=True)
class Credentials:
    hash: bytes  # bcrypt hash of the pre-hashed password (salt inside)
    secret: str  # signs session cookies
    set_at: float

    def check(self, password: str) -> bool:
        import bcrypt

        try:
            return bcrypt.checkpw(_prehash(password), self.hash)
        except ValueError:  # a damaged hash: no password matches it
            return False

    @property
    def fingerprint(self) -> str:
        """Changes whenever the password does (a cookie issued before is no longer valid)."""
        return hashlib.sha256(self.hash + self.secret.encode()).hexdigest()[:16]


def auth_file(data_dir: Path) -> Path:
    return Path(data_dir) / "auth.json"


def load(data_dir: Path) -> Credentials | None:
    """The stored credentials, or None when no password is set. A damaged file is an error saying what to do."""
    path = auth_file(data_dir)
    if not path.exists():
        return None
    try:
        d = json.loads(path.read_text())
        return Credentials(d["bcrypt"].encode(), d["secret"], float(d.get("set_at", 0)))
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise RagError(f"The password file {path} is damaged ({type(e).__name__}). Set the password again: "
                       "python -m rag set-password") from None


def set_password(data_dir: Path, password: str) -> Credentials:
    import bcrypt

    if len(password) < MIN_LENGTH:
        raise RagError(f"The password must have at least {MIN_LENGTH} characters.")
    cred = Credentials(bcrypt.hashpw(_prehash(password), bcrypt.gensalt(ROUNDS)), secrets.token_urlsafe(32),
                       time.time())
    path = auth_file(data_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump({"bcrypt": cred.hash.decode(), "secret": cred.secret, "set_at": cred.set_at}, f)
    os.replace(tmp, path)
    return cred


def remove_password(data_dir: Path) -> bool:
    path = auth_file(data_dir)
    if path.exists():
        path.unlink()
        return True
    return False
