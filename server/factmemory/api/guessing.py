"""Limits on guessing the access token, per client and overall, for the page's login and bearer header and for the
gRPC bearer check.

A client that failed `per_client` times within `window_s` (or all clients together `overall` times) is refused
BEFORE its token is compared, until the window has moved past those failures: so parallel guessers gain nothing by
being parallel, and a throttled guess is never tested. The check and the recording of a failure run without an
await between them (one event loop), so concurrent attempts cannot all pass the check first. Each failure and each
refusal is counted (Telemetry.auth_failure) and logged with the client's address, never with what it sent.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from factmemory.ports import Telemetry

log = logging.getLogger(__name__)

MAX_CLIENTS = 10_000  # clients remembered; beyond, the oldest is forgotten (the overall limit still holds)
MIN_TOKEN_CHARS = 16


@dataclass(frozen=True)
class GuessLimits:
    per_client: int = 10
    overall: int = 100
    window_s: float = 60.0


class GuessLimiter:
    """Remembers recent failures per client and overall; answers whether a client may try now."""

    def __init__(
        self,
        surface: str,
        telemetry: Telemetry,
        limits: GuessLimits = GuessLimits(),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._surface, self._telemetry, self._limits, self._clock = surface, telemetry, limits, clock
        self._clients: dict[str, deque[float]] = {}
        self._all: deque[float] = deque()
        self._told: set[str] = set()  # clients already logged as throttled in their current run of refusals

    def refused(self, client: str) -> bool:
        """True (counted, logged once per run) when the client must not try now; its token is then not compared."""
        now = self._clock()
        scope = ""
        if len(_recent(self._clients.get(client), now, self._limits.window_s)) >= self._limits.per_client:
            scope = "client"
        elif len(_recent(self._all, now, self._limits.window_s)) >= self._limits.overall:
            scope = "overall"
        if not scope:
            self._told.discard(client)
            return False
        self._telemetry.auth_failure(self._surface, f"throttled_{scope}")
        if client not in self._told:
            if len(self._told) >= MAX_CLIENTS:
                self._told.clear()
            self._told.add(client)
            log.warning(
                "auth (%s): too many failed attempts (%s limit); refusing %s for up to %.0f s",
                self._surface,
                "this client's" if scope == "client" else "the overall",
                client,
                self._limits.window_s,
            )
        return True

    def failed(self, client: str) -> None:
        """Records a wrong token from the client (counted and logged; what it sent is never logged)."""
        now = self._clock()
        if client not in self._clients and len(self._clients) >= MAX_CLIENTS:
            self._clients.pop(next(iter(self._clients)))
        attempts = self._clients.setdefault(client, deque())
        attempts.append(now)
        _recent(attempts, now, self._limits.window_s)
        self._all.append(now)
        _recent(self._all, now, self._limits.window_s)
        self._telemetry.auth_failure(self._surface, "wrong_token")
        log.warning(
            "auth (%s): wrong token from %s (%d in the last %.0f s)",
            self._surface,
            client,
            len(attempts),
            self._limits.window_s,
        )


def _recent(attempts: deque[float] | None, now: float, window_s: float) -> deque[float]:
    """The attempts within the window (older ones dropped in place)."""
    if attempts is None:
        return deque()
    while attempts and attempts[0] <= now - window_s:
        attempts.popleft()
    return attempts


def client_of_peer(peer: str) -> str:
    """The address part of a gRPC peer ('ipv4:127.0.0.1:5000' -> '127.0.0.1', 'ipv6:[::1]:5000' -> '::1')."""
    kind, _, rest = peer.partition(":")
    if kind in ("ipv4", "ipv6"):
        return rest.rsplit(":", 1)[0].strip("[]")
    return peer or "unknown"
