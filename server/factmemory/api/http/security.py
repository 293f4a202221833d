"""Sessions, the bearer check, CSRF (tokens kept with the server-side session, plus a same-origin check) and
response headers, as ASGI middleware."""

from __future__ import annotations

import hmac
import logging
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit

from starlette.datastructures import FormData, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from factmemory.api.guessing import GuessLimiter, client_group, throttled

SESSION_COOKIE = "fm_session"
CSRF_FIELD = "csrf_token"
SESSION_TTL_S = 12 * 3600
MAX_SESSIONS = 1000
MAX_VISITORS = 10_000
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
MAX_FORM_BYTES = 65_536
log = logging.getLogger(__name__)
HEADERS = {
    # No script runs on these pages; inline SVG needs no exception.
    "content-security-policy": "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'",
    "x-content-type-options": "nosniff",
    # same-origin, not no-referrer: with no-referrer a browser sends "Origin: null" even on this page's own posts.
    "referrer-policy": "same-origin",
    "x-frame-options": "DENY",
    "cache-control": "no-store",
}


def same(a: str, b: str) -> bool:
    """Constant-time equality of two secrets."""
    return hmac.compare_digest(a.encode(), b.encode())


@dataclass
class Session:
    """One visitor's server-side record: when it ends, the reviewer's name, its CSRF token, whether logged in."""

    expires: float
    reviewer: str
    csrf: str
    logged_in: bool


class Sessions:
    """Random session ids held in memory (a restart logs everyone out), each valid for SESSION_TTL_S. A logged-in
    session carries the name the reviewer gave at login (for the history of what they change). Every visitor, logged
    in or not, has one, and its CSRF token lives here, never in a cookie a page on another port could overwrite.
    Visitors that never logged in are kept apart (MAX_VISITORS), so a flood of them cannot push out a reviewer."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._open: dict[str, Session] = {}
        self._visitors: dict[str, Session] = {}
        self._clock = clock

    def open(self, reviewer: str = "") -> str:
        """A new logged-in session (a new id: a session id planted before login is never promoted)."""
        return self._add(self._open, MAX_SESSIONS, reviewer, logged_in=True)

    def visit(self) -> str:
        """A new session for a visitor who has not logged in (it holds the CSRF token of the login form)."""
        return self._add(self._visitors, MAX_VISITORS, "", logged_in=False)

    def _add(self, into: dict[str, Session], limit: int, reviewer: str, logged_in: bool) -> str:
        now = self._clock()
        for sid in [k for k, v in into.items() if v.expires <= now]:
            del into[sid]
        while len(into) >= limit:
            into.pop(next(iter(into)))
        session = secrets.token_urlsafe(32)
        into[session] = Session(now + SESSION_TTL_S, reviewer, secrets.token_urlsafe(32), logged_in)
        return session

    def get(self, session: str) -> Session | None:
        """The live record of this id (logged in or not), None when unknown or expired."""
        found = self._open.get(session) or self._visitors.get(session)
        return found if found is not None and found.expires > self._clock() else None

    def valid(self, session: str) -> bool:
        """A live logged-in session."""
        found = self.get(session)
        return found is not None and found.logged_in

    def reviewer(self, session: str) -> str:
        """The name given at login, "" when none (or no valid session)."""
        return self._open[session].reviewer if self.valid(session) else ""

    def close(self, session: str) -> None:
        self._open.pop(session, None)
        self._visitors.pop(session, None)


def _cookies(scope: Scope) -> dict[str, str]:
    jar: SimpleCookie = SimpleCookie()
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            try:
                jar.load(value.decode("latin-1"))
            except Exception:  # a malformed cookie header is ignored, as if absent
                continue
    return {k: m.value for k, m in jar.items()}


def _header(scope: Scope, wanted: bytes) -> str:
    return next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == wanted), "")


class RequireToken:
    """When a token is configured: a valid session cookie or `Authorization: Bearer <token>`, else the login form.
    A wrong bearer header counts as a failed guess; a throttled client's header is refused untried (429)."""

    def __init__(self, app: ASGIApp, token: str | None, sessions: Sessions, guesses: GuessLimiter) -> None:
        self.app, self.token, self.sessions, self.guesses = app, token, sessions, guesses

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.token:
            await self.app(scope, receive, send)
            return
        verdict = self.allowed(scope)
        if verdict == "yes":
            await self.app(scope, receive, send)
            return
        response: Response
        if verdict == "throttled":
            wait = self.guesses.wait_s(client_of(scope))
            headers = {**HEADERS, "retry-after": str(math.ceil(wait))}
            response = Response(throttled(wait), status_code=429, headers=headers)
        elif scope["method"] in ("GET", "HEAD"):
            response = RedirectResponse("/login?" + urlencode({"next": scope["path"]}), status_code=303)
        else:
            response = Response("authentication required", status_code=401, headers={"www-authenticate": "Bearer"})
        await response(scope, receive, send)

    def allowed(self, scope: Scope) -> str:
        """'yes', 'no', or 'throttled' (a bearer header from a client that failed too often). A logged-in session
        is never throttled: others' failures do not log a reviewer out."""
        assert self.token
        path: str = scope["path"]
        if path == "/login" or path.startswith("/static/"):
            return "yes"
        session = _cookies(scope).get(SESSION_COOKIE, "")
        if session and self.sessions.valid(session):
            return "yes"
        authorization = _header(scope, b"authorization")
        if authorization.startswith("Bearer ") and authorization[7:].strip():
            client, connection = client_of(scope), connection_of(scope)
            if self.guesses.refused(client, connection):
                return "throttled"
            if same(authorization[7:].strip(), self.token):
                self.guesses.proved(connection)
                return "yes"
            self.guesses.failed(client)
        return "no"


def client_of(scope: Scope) -> str:
    """The client: the connection's peer address, grouped (api/guessing.py; proxy headers are not trusted)."""
    client = scope.get("client")
    return client_group(str(client[0])) if client else "unknown"


def connection_of(scope: Scope) -> str:
    """The connection (peer address and port): one that presented the right token is never refused untried."""
    client = scope.get("client")
    return f"{client[0]}:{client[1]}" if client else ""


def cross_origin(method: str, fetch_site: str, origin: str, host: str) -> str:
    """Why a state-changing request comes from another origin ("" when it does not, or when it is safe: GET, HEAD).
    Other ports of this host are other origins, though the same site for cookies. A browser sends Sec-Fetch-Site
    and Origin with every POST; a client sending neither is not a browser carrying a reviewer's cookies."""
    if method in SAFE_METHODS:
        return ""
    if fetch_site:  # set by the browser itself; a page cannot forge it
        return "" if fetch_site in ("same-origin", "none") else f"Sec-Fetch-Site is {fetch_site[:20]}"
    if origin and urlsplit(origin).netloc.lower() != host.lower():
        return "the Origin is another site or port"
    return ""


class SessionCsrf:
    """Gives every visitor a server-side session (cookie fm_session) whose CSRF token is put in request.state.csrf,
    refuses state-changing requests from another origin, and adds the security headers."""

    def __init__(self, app: ASGIApp, sessions: Sessions) -> None:
        self.app, self.sessions = app, sessions

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = cross_origin(
            scope["method"], _header(scope, b"sec-fetch-site"), _header(scope, b"origin"), _header(scope, b"host")
        )
        if refused:
            log.warning("page: refused a %s to %s from another origin: %s", scope["method"], scope["path"], refused)
            response = Response("cross-origin request refused", status_code=403, headers=HEADERS)
            await response(scope, receive, send)
            return
        sid = _cookies(scope).get(SESSION_COOKIE, "")
        session = self.sessions.get(sid)
        created = session is None
        if session is None:
            sid = self.sessions.visit()
            session = self.sessions.get(sid)
            assert session is not None
        state = scope.setdefault("state", {})
        state["csrf"], state["session"] = session.csrf, sid
        secure = scope.get("scheme") == "https"

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    headers.setdefault(name, value)
                sets_session = any(v.startswith(SESSION_COOKIE + "=") for v in headers.getlist("set-cookie"))
                if created and not sets_session:
                    headers.append("set-cookie", cookie(SESSION_COOKIE, sid, secure))
            await send(message)

        await self.app(scope, receive, send_with_headers)


def local_path(target: str) -> str:
    """Where to go after logging in: a path on this site only (never another host), else the start page."""
    if target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return "/"


def cookie(name: str, value: str, secure: bool, max_age: int | None = None) -> str:
    """An HttpOnly, SameSite=Strict cookie for the whole site (Secure when served over https)."""
    parts = [f"{name}={value}", "Path=/", "HttpOnly", "SameSite=Strict"]
    if max_age is not None:
        parts.append(f"Max-Age={max_age}")
    if secure:
        parts.append("Secure")
    return "; ".join(parts)


async def checked_form(request: Request) -> FormData:
    """The posted form, or 403 when its CSRF token is not the one of the visitor's server-side session."""
    if int(request.headers.get("content-length") or 0) > MAX_FORM_BYTES:
        raise HTTPException(413, "the form is too large")
    form = await request.form(max_files=0, max_fields=20)
    sent = form.get(CSRF_FIELD)
    expected = str(getattr(request.state, "csrf", ""))
    if not isinstance(sent, str) or not expected or not same(sent, expected):
        raise HTTPException(403, "the form's CSRF token is missing or does not match; reload the page and retry")
    return form
