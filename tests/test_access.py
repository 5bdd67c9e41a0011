"""Safe by default on a network (issue 21): scripts/run.sh listens on 127.0.0.1 unless told otherwise; serving the
network needs the operator's password (a salted bcrypt hash), without one the start is refused with the command
that sets it; session tokens are signed and die with the password; failed logins are slowed down."""
import os
import socket
import subprocess
import time

import pytest

from rag.auth import password as pw
from rag.auth.serving import entry_point, is_loopback
from rag.auth.sessions import Throttle, issue, valid
from rag.errors import RagError
from tests.conftest import ROOT
from tests.servers import free_port, process

RUN = str(ROOT / "scripts" / "run.sh")


# --- the password, tokens, delays ------------------------------------------------------------------------------
def test_the_password_is_stored_as_a_salted_hash_readable_by_its_owner_only(tmp_path):
    assert pw.load(tmp_path) is None
    with pytest.raises(RagError, match="at least 8"):
        pw.set_password(tmp_path, "short")
    cred = pw.set_password(tmp_path, "correct horse battery")
    stored = pw.auth_file(tmp_path).read_text()
    assert "correct horse" not in stored and "$2b$12$" in stored
    assert oct(os.stat(pw.auth_file(tmp_path)).st_mode & 0o777) == "0o600"
    again = pw.load(tmp_path)
    assert again.check("correct horse battery") and not again.check("correct horse batterY")
    assert pw.set_password(tmp_path, "correct horse battery").hash != cred.hash  # a new salt each time
    long_a, long_b = "x" * 100 + "a", "x" * 100 + "b"  # bcrypt alone reads 72 bytes: these would be equal
    assert not pw.set_password(tmp_path, long_a).check(long_b)
    pw.auth_file(tmp_path).write_text("{broken")
    with pytest.raises(RagError, match="set-password"):
        pw.load(tmp_path)
    assert pw.remove_password(tmp_path) and pw.load(tmp_path) is None


def test_session_tokens_are_signed_expire_and_die_with_the_password(tmp_path):
    cred = pw.set_password(tmp_path, "correct horse battery")
    token = issue(cred)
    assert valid(cred, token) and not valid(cred, token[:-2] + "xx") and not valid(cred, "") and not valid(None, token)
    time.sleep(1.1)
    assert not valid(cred, token, max_age=0) and valid(cred, token, max_age=60)
    assert not valid(pw.set_password(tmp_path, "correct horse battery"), token)  # same password, set again


def test_failed_attempts_wait_longer_each_time_until_one_succeeds():
    t = Throttle(base=1.0, cap=8.0)
    assert [t.failed("10.0.0.9") for _ in range(6)] == [1, 2, 4, 8, 8, 8]
    assert t.failed("10.0.0.7") == 1  # per client
    t.succeeded("10.0.0.9")
    assert t.failures("10.0.0.9") == 0 and t.failed("10.0.0.9") == 1


def test_which_address_may_be_served_how(tmp_path):
    assert all(is_loopback(a) for a in ("127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost"))
    assert not any(is_loopback(a) for a in ("0.0.0.0", "", "::", "10.0.0.5", "example.com"))
    assert entry_point("127.0.0.1", tmp_path) == "app.py"
    with pytest.raises(RagError, match="python -m rag set-password"):
        entry_point("0.0.0.0", tmp_path)
    pw.set_password(tmp_path, "correct horse battery")
    assert entry_point("0.0.0.0", tmp_path) == entry_point("127.0.0.1", tmp_path) == "serve.py"


# --- scripts/run.sh, started for real ----------------------------------------------------------------------------
def listening(port: int) -> set[str]:
    """Addresses a socket listens on at ``port``, from the kernel's socket table (/proc/net/tcp, tcp6)."""
    found = set()
    for table, width in (("/proc/net/tcp", 8), ("/proc/net/tcp6", 32)):
        try:
            lines = open(table).read().splitlines()[1:]
        except OSError:
            continue
        for ln in lines:
            local, state = ln.split()[1], ln.split()[3]
            addr, p = local.split(":")
            if state != "0A" or int(p, 16) != port:  # 0A: LISTEN
                continue
            raw = bytes.fromhex(addr)
            if width == 8:
                found.add(socket.inet_ntop(socket.AF_INET, raw[::-1]))
            else:
                words = b"".join(raw[i:i + 4][::-1] for i in range(0, 16, 4))
                found.add(socket.inet_ntop(socket.AF_INET6, words))
    return found


def outward_ip() -> str | None:
    """This machine's address on its network (no packet is sent), or None when it has none."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            ip = s.getsockname()[0]
        except OSError:
            return None
    return None if ip.startswith("127.") else ip


def run_env(tmp_path, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FOLIO_", "STREAMLIT_SERVER_ADDRESS"))}
    return {**env, "RAG_DATA_DIR": str(tmp_path / "data"), "FOLIO_NO_INSTALL": "1", **extra}


def test_run_sh_listens_on_loopback_only(tmp_path):
    port = free_port()
    with process([RUN, "--server.port", str(port)], f"http://127.0.0.1:{port}/_stcore/health", timeout=120,
                 cwd=ROOT, env=run_env(tmp_path), log=tmp_path / "run.log"):
        assert listening(port) == {"127.0.0.1"}
        ip = outward_ip()
        if ip is not None:  # from the machine's network address nothing answers
            with pytest.raises(OSError):
                socket.create_connection((ip, port), timeout=3).close()


def test_run_sh_refuses_the_network_without_a_password(tmp_path):
    port = free_port()
    for args, env in ((["--network"], {}), ([], {"FOLIO_ADDRESS": "0.0.0.0"})):
        p = subprocess.run([RUN, *args, "--server.port", str(port)], cwd=ROOT, env=run_env(tmp_path, **env),
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 2 and "without a password" in p.stderr and "python -m rag set-password" in p.stderr
        assert listening(port) == set()
    p = subprocess.run([RUN, "--server.address", "0.0.0.0"], cwd=ROOT, env=run_env(tmp_path), capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 2 and "--network" in p.stderr


def test_run_sh_serves_the_network_behind_the_login_once_a_password_is_set(tmp_path):
    import urllib.error
    import urllib.request

    pw.set_password(tmp_path / "data", "correct horse battery")
    port = free_port()
    with process([RUN, "--network", "--server.port", str(port)], f"http://127.0.0.1:{port}/_stcore/health",
                 timeout=120, cwd=ROOT, env=run_env(tmp_path), log=tmp_path / "run.log"):
        assert listening(port) in ({"0.0.0.0"}, {"::"}, {"0.0.0.0", "::"})
        host = outward_ip() or "127.0.0.1"

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *a, **k):
                return None

        opener = urllib.request.build_opener(NoRedirect)
        for path in ("/", "/chat", "/inspector", "/static/js/index.js", "/_stcore/host-config"):
            with pytest.raises(urllib.error.HTTPError) as e:
                opener.open(f"http://{host}:{port}{path}", timeout=10)
            assert e.value.code == 303 and e.value.headers["location"].startswith("/login")
        with pytest.raises(urllib.error.HTTPError) as e:  # uploads and other writes: no
            opener.open(urllib.request.Request(f"http://{host}:{port}/_stcore/upload_file/x/y", data=b"x",
                                               method="PUT"), timeout=10)
        assert e.value.code == 401
