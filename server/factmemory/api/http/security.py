"""Login sessions, the bearer check, CSRF (double-submit cookie) and response headers, as ASGI middleware."""

from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Callable
from http.cookies import SimpleCookie
from urllib.parse import urlencode

from starlette.datastructures import FormData, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

SESSION_COOKIE = "fm_session"
CSRF_COOKIE = "fm_csrf"
CSRF_FIELD = "csrf_token"
SESSION_TTL_S = 12 * 3600
MAX_SESSIONS = 1000
MAX_FORM_BYTES = 65_536
HEADERS = {
    # No script runs on these pages; inline SVG needs no exception.
    "content-security-policy": "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cache-control": "no-store",
}


def same(a: str, b: str) -> bool:
    """Constant-time equality of two secrets."""
    return hmac.compare_digest(a.encode(), b.encode())


class Sessions:
    """Random session ids held in memory (a restart logs everyone out), each valid for SESSION_TTL_S and carrying
    the name the reviewer gave at login (for the history of what they change)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._open: dict[str, tuple[float, str]] = {}
        self._clock = clock

    def open(self, reviewer: str = "") -> str:
        now = self._clock()
        self._open = {k: v for k, v in self._open.items() if v[0] > now}
        while len(self._open) >= MAX_SESSIONS:
            self._open.pop(next(iter(self._open)))
        session = secrets.token_urlsafe(32)
        self._open[session] = (now + SESSION_TTL_S, reviewer)
        return session

    def valid(self, session: str) -> bool:
        found = self._open.get(session)
        return found is not None and found[0] > self._clock()

    def reviewer(self, session: str) -> str:
        """The name given at login, "" when none (or no valid session)."""
        return self._open[session][1] if self.valid(session) else ""

    def close(self, session: str) -> None:
        self._open.pop(session, None)


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
    """When a token is configured: a valid session cookie or `Authorization: Bearer <token>`, else the login form."""

    def __init__(self, app: ASGIApp, token: str | None, sessions: Sessions) -> None:
        self.app, self.token, self.sessions = app, token, sessions

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.token or self.allowed(scope):
            await self.app(scope, receive, send)
            return
        response: Response
        if scope["method"] in ("GET", "HEAD"):
            response = RedirectResponse("/login?" + urlencode({"next": scope["path"]}), status_code=303)
        else:
            response = Response("authentication required", status_code=401, headers={"www-authenticate": "Bearer"})
        await response(scope, receive, send)

    def allowed(self, scope: Scope) -> bool:
        assert self.token
        path: str = scope["path"]
        if path == "/login" or path.startswith("/static/"):
            return True
        authorization = _header(scope, b"authorization")
        if authorization.startswith("Bearer ") and same(authorization[7:].strip(), self.token):
            return True
        session = _cookies(scope).get(SESSION_COOKIE, "")
        return bool(session) and self.sessions.valid(session)


class CsrfCookie:
    """Gives every visitor a random CSRF cookie (kept in request.state.csrf) and adds the security headers."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        existing = _cookies(scope).get(CSRF_COOKIE, "")
        token = existing or secrets.token_urlsafe(32)
        scope.setdefault("state", {})["csrf"] = token
        secure = scope.get("scheme") == "https"

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    headers.setdefault(name, value)
                if not existing:
                    headers.append("set-cookie", cookie(CSRF_COOKIE, token, secure))
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
    """The posted form, or 403 when its CSRF token does not match the visitor's cookie."""
    if int(request.headers.get("content-length") or 0) > MAX_FORM_BYTES:
        raise HTTPException(413, "the form is too large")
    form = await request.form(max_files=0, max_fields=20)
    sent = form.get(CSRF_FIELD)
    expected = request.cookies.get(CSRF_COOKIE, "")
    if not isinstance(sent, str) or not expected or not same(sent, expected):
        raise HTTPException(403, "the form's CSRF token is missing or does not match; reload the page and retry")
    return form
