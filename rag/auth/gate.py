"""The login gate: an ASGI middleware in front of the whole web app (``serve.py`` mounts it on Streamlit's
``st.App``). Every HTTP request and WebSocket needs a valid session cookie — the pages, the app's script stream,
uploads, media, static files — except the login page itself and the health check. Without one, a page load is
sent to ``/login``, anything else gets 401 and a WebSocket is closed before it opens.

``/login`` is a plain HTML form (no Streamlit): a right password sets the signed session cookie (HttpOnly,
SameSite=Lax, Secure over HTTPS, ``sessions.SESSION_SECONDS``) and goes on to the page asked for, so a reload does
not ask again; a wrong one is answered only after ``Throttle``'s delay (1 s, 2 s, 4 s … 30 s per client), one
attempt per client at a time, and the bcrypt checks of all clients run one at a time. ``/logout`` clears the cookie.
"""
from __future__ import annotations

import asyncio
import html
import logging
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import parse_qs, quote

from .password import Credentials, auth_file, load
from .sessions import COOKIE, SESSION_SECONDS, Throttle, issue, valid

log = logging.getLogger("folio.auth")
ACTIVE = False  # set once a gate guards this process's web app (app.py then knows every request signed in)
OPEN_PATHS = ("/_stcore/health", "/favicon.ico")
MAX_FORM_BYTES = 16 * 1024


class LoginGate:
    def __init__(self, app, data_dir: Path, throttle: Throttle | None = None):
        global ACTIVE
        self.app, self.data_dir = app, Path(data_dir)
        self.throttle = throttle or Throttle()
        self._client_locks: dict[str, asyncio.Lock] = {}
        self._check_lock: asyncio.Lock | None = None
        self._cred: tuple[float, Credentials | None] | None = None
        ACTIVE = True

    # --- credentials (read again when the password file changes) ------------------------------------------
    def credentials(self) -> Credentials | None:
        try:
            mtime = auth_file(self.data_dir).stat().st_mtime
        except OSError:
            mtime = -1.0
        if self._cred is None or self._cred[0] != mtime:
            try:
                self._cred = (mtime, load(self.data_dir))
            except Exception:  # noqa: BLE001 - a damaged file lets nobody in; the log says why
                log.exception("cannot read the password file")
                self._cred = (mtime, None)
        return self._cred[1]

    # --- ASGI ---------------------------------------------------------------------------------------------
    async def __call__(self, scope, receive, send):
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        path = scope.get("path", "/")
        if kind == "http" and path == "/login":
            return await self._login(scope, receive, send)
        if kind == "http" and path == "/logout":
            return await _respond(send, 303, b"", [(b"location", b"/login"), _cookie_header("", 0, scope)])
        if path in OPEN_PATHS or valid(self.credentials(), _cookies(scope).get(COOKIE)):
            return await self.app(scope, receive, send)
        if kind == "websocket":
            return await send({"type": "websocket.close", "code": 1008})
        if scope.get("method") in ("GET", "HEAD"):
            target = path + ("?" + scope["query_string"].decode("latin-1") if scope.get("query_string") else "")
            return await _respond(send, 303, b"", [(b"location", b"/login?next=" + quote(target, safe="").encode())])
        return await _respond(send, 401, b"Sign in first: /login\n", [(b"content-type", b"text/plain")])

    async def _login(self, scope, receive, send):
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if scope.get("method") != "POST":
            cred = self.credentials()
            note = "" if cred else "No password is set: run  python -m rag set-password  on the server."
            return await _page(send, 200, _safe_next(query.get("next", ["/"])[0]), note)
        form = parse_qs((await _body(receive)).decode("utf-8", "replace"))
        password, target = form.get("password", [""])[0], _safe_next(form.get("next", ["/"])[0])
        client = (scope.get("client") or ("unknown", 0))[0]
        lock = self._client_locks.setdefault(client, asyncio.Lock())
        async with lock:  # one attempt per client at a time: parallel guesses wait for each other's delays
            cred = self.credentials()
            ok = cred is not None and await self._check(cred, password)
            if ok:
                self.throttle.succeeded(client)
                return await _respond(send, 303, b"", [(b"location", target.encode()),
                                                       _cookie_header(issue(cred), SESSION_SECONDS, scope)])
            delay = self.throttle.failed(client)
            log.warning("failed login from %s (%d recent); answered after %.0f s", client,
                        self.throttle.failures(client), delay)
            await asyncio.sleep(delay)
            return await _page(send, 401, target, "Wrong password." if cred else
                               "No password is set: run  python -m rag set-password  on the server.")

    async def _check(self, cred: Credentials, password: str) -> bool:
        if self._check_lock is None:
            self._check_lock = asyncio.Lock()
        async with self._check_lock:  # bcrypt checks one at a time, off the event loop
            return await asyncio.to_thread(cred.check, password)


# --- small HTTP helpers ---------------------------------------------------------------------------------------
def _cookies(scope) -> dict[str, str]:
    jar = SimpleCookie()
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            try:
                jar.load(value.decode("latin-1"))
            except Exception:  # noqa: BLE001 - a malformed cookie header is no session
                return {}
    return {k: m.value for k, m in jar.items()}


def _cookie_header(token: str, max_age: int, scope) -> tuple[bytes, bytes]:
    secure = "; Secure" if scope.get("scheme") in ("https", "wss") else ""
    return (b"set-cookie", f"{COOKIE}={token}; Path=/; Max-Age={max_age}; HttpOnly; SameSite=Lax{secure}".encode())


def _safe_next(target: str) -> str:
    """Only a path of this site (no "//host", no scheme): where to go after signing in."""
    if not target.startswith("/") or target.startswith("//") or "\\" in target or "/login" in target[:7]:
        return "/"
    return target


async def _body(receive) -> bytes:
    body = b""
    while True:
        msg = await receive()
        body += msg.get("body", b"")
        if len(body) > MAX_FORM_BYTES or not msg.get("more_body"):
            return body[:MAX_FORM_BYTES]


async def _respond(send, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
    headers = [*headers, (b"content-length", str(len(body)).encode()), (b"cache-control", b"no-store"),
               (b"x-frame-options", b"DENY")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Folio — sign in</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{{font-family:sans-serif;background:#f6f6f3;display:flex;justify-content:center;padding-top:12vh}}
form{{background:#fff;padding:2em 2.5em;border-radius:8px;box-shadow:0 1px 4px #0002;min-width:18em}}
h1{{font-size:1.4em;margin-top:0}}input{{font-size:1em;padding:.45em;width:100%;box-sizing:border-box}}
button{{margin-top:1em;font-size:1em;padding:.45em 1.2em}}.note{{color:#b00020;min-height:1.2em}}</style></head>
<body><form method="post" action="/login"><h1>📚 Folio</h1>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" autofocus required>
<input type="hidden" name="next" value="{next}"><p class="note" role="alert">{note}</p>
<button type="submit">Sign in</button></form></body></html>"""


async def _page(send, status: int, target: str, note: str) -> None:
    body = PAGE.format(next=html.escape(target, quote=True), note=html.escape(note)).encode()
    await _respond(send, status, body, [(b"content-type", b"text/html; charset=utf-8")])
