"""Where Folio may be served, and how: on a loopback address (this machine only) the app runs as it is; on any
other address (the network) only behind the login gate, which needs a password — without one the start is
refused with the command that sets it."""
from __future__ import annotations

import ipaddress
from pathlib import Path

from ..errors import RagError
from .password import load

APP = "app.py"  # the Streamlit app (no login)
GATED = "serve.py"  # the same app behind the login gate (st.App with rag.auth.gate)
NO_PASSWORD = ("Folio would be served on the network ({address}) without a password: anyone who can reach this "
               "machine could read and change the library. Set a password first:\n"
               "    .venv/bin/python -m rag set-password\n"
               "then start again (scripts/run.sh --network). To use Folio on this machine only, start it "
               "without --network (it listens on 127.0.0.1).")


def is_loopback(address: str) -> bool:
    """127.0.0.0/8, ::1 and localhost; an empty address (every interface) is not."""
    a = (address or "").strip().strip("[]")
    if a.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(a).is_loopback
    except ValueError:
        return False


def entry_point(address: str, data_dir: Path) -> str:
    """The script to run for ``address``: the gated app when a password is set (then always), the plain app on
    loopback without one; serving the network without a password is refused (``RagError`` with how to set one)."""
    if load(data_dir) is not None:
        return GATED
    if is_loopback(address):
        return APP
    raise RagError(NO_PASSWORD.format(address=address or "every interface"))
