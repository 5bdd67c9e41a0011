"""Start real server processes on loopback for tests, and stop them."""
from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str, timeout: float, proc: subprocess.Popen | None = None) -> None:
    end = time.time() + timeout
    while time.time() < end:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server exited early with {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except Exception:
            time.sleep(0.3)
    raise TimeoutError(f"{url} did not answer within {timeout} s")


@contextmanager
def process(cmd: list[str], health_url: str, timeout: float = 120, log: Path | None = None, **kw):
    out = open(log, "wb") if log else subprocess.DEVNULL
    proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, **kw)
    try:
        wait_http(health_url, timeout, proc)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
        if log:
            out.close()


def venv_bin(name: str) -> str:
    return str(Path(sys.executable).parent / name)
