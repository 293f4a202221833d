"""Limits on guessing the access token, per client and overall, for the page's login and bearer header and for the
gRPC bearer check.

A client is an address group (an IPv4 address, an IPv6 /64: one host's addresses count as one client). A client
that failed `per_client` times within `window_s` is refused BEFORE its token is compared, until the window has moved
past those failures: parallel guessers from one client gain nothing by being parallel, and a throttled guess is
never tested. Once all clients together failed `overall` times, every client that failed at least once in the
window is refused untried too: while many addresses guess, each gets one tested guess per window.

What the limits never do: refuse a caller because of OTHERS' failures. A client with no failure of its own is
compared even while the overall limit is reached, and a connection (gRPC peer, HTTP connection) or page session that
already presented the right token is never refused untried. A call WITHOUT a token is not a guess: it is a client
configured without one, answered with its own status and logged once per client per window.

The check and the recording of a failure run without an await between them (one event loop), so concurrent
attempts cannot all pass the check first. Each failure and each refusal is counted (Telemetry.auth_failure) and
logged with the client's address group, never with what it sent.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import time
import urllib.parse
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass

from factmemory.ports import Telemetry

log = logging.getLogger(__name__)

MAX_CLIENTS = 10_000  # clients (and proven connections) remembered; beyond, the oldest is forgotten
MIN_TOKEN_CHARS = 16
IPV6_CLIENT_PREFIX = 64  # one IPv6 client: a host is given a /64 and may use any address in it
MISSING_TOKEN = (
    "no bearer token: this service requires `authorization: Bearer <token>`; give the client the service's "
    "FACTMEMORY_AUTH_TOKEN (elizaOS plugin: FACT_MEMORY_TOKEN; Python client and CLI: FACTMEMORY_AUTH_TOKEN)"
)


@dataclass(frozen=True)
class GuessLimits:
    per_client: int = 10
    overall: int = 100
    window_s: float = 60.0


class GuessLimiter:
    """Remembers recent failures per client and overall, and the connections that proved the token; answers
    whether a client may try now."""

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
        self._proven: OrderedDict[str, None] = OrderedDict()
        self._missing_told: dict[str, float] = {}  # client -> when its missing token was last logged

    def refused(self, client: str, connection: str = "") -> bool:
        """True (counted, logged once per run) when the client must not try now; its token is then not compared.
        Never for a connection that proved the token, nor for a client without failures of its own."""
        if connection and connection in self._proven:
            return False
        now = self._clock()
        mine = len(_recent(self._clients.get(client), now, self._limits.window_s))
        scope = ""
        if mine >= self._limits.per_client:
            scope = "client"
        elif mine and len(_recent(self._all, now, self._limits.window_s)) >= self._limits.overall:
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
                "auth (%s): too many failed attempts (%s limit); refusing %s untried for up to %.0f s",
                self._surface,
                "this client's" if scope == "client" else "the overall",
                client,
                self._limits.window_s,
            )
        return True

    def wait_s(self, client: str) -> float:
        """How long a refused client waits before its next attempt is compared: until its own failures in the
        window fall below the per-client limit, or (refused by the overall limit) until its own failures leave
        the window or the overall count falls below its limit, whichever comes first."""
        now, window = self._clock(), self._limits.window_s
        mine = _recent(self._clients.get(client), now, window)
        if not mine:
            return 0.0
        waits = [mine[-1] + window - now]  # its own failures have all left the window
        if len(mine) >= self._limits.per_client:
            waits = [mine[len(mine) - self._limits.per_client] + window - now]
        else:
            everyone = _recent(self._all, now, window)
            if len(everyone) >= self._limits.overall:
                waits.append(everyone[len(everyone) - self._limits.overall] + window - now)
        return max(0.0, min(waits))

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

    def proved(self, connection: str) -> None:
        """Remembers a connection that presented the right token: it is never refused untried."""
        if not connection:
            return
        self._proven[connection] = None
        self._proven.move_to_end(connection)
        while len(self._proven) > MAX_CLIENTS:
            self._proven.popitem(last=False)

    def missing(self, client: str) -> None:
        """A call without any token: a client configured without one, not a guess (never throttles anyone).
        Counted; logged once per client per window, saying what to set."""
        self._telemetry.auth_failure(self._surface, "missing_token")
        now = self._clock()
        last = self._missing_told.get(client)
        if last is not None and now - last < self._limits.window_s:
            return
        if len(self._missing_told) >= MAX_CLIENTS:
            self._missing_told.clear()
        self._missing_told[client] = now
        log.warning(
            "auth (%s): a call from %s carried no token: that client is configured without one (give it the "
            "service's FACTMEMORY_AUTH_TOKEN: FACT_MEMORY_TOKEN for the elizaOS plugin, FACTMEMORY_AUTH_TOKEN for "
            "the Python client and CLI); not counted as a guess",
            self._surface,
            client,
        )


def throttled(wait_s: float) -> str:
    """What a refused client is told: how long, and that the right token waits too (it is not compared)."""
    return (
        f"too many failed attempts; retry in {math.ceil(wait_s)} s (every attempt from this address is refused "
        "until then, the right token too)"
    )


def _recent(attempts: deque[float] | None, now: float, window_s: float) -> deque[float]:
    """The attempts within the window (older ones dropped in place)."""
    if attempts is None:
        return deque()
    while attempts and attempts[0] <= now - window_s:
        attempts.popleft()
    return attempts


def client_group(address: str) -> str:
    """The client an address belongs to: an IPv4 address itself (also written IPv4-mapped, ::ffff:a.b.c.d), an
    IPv6 address's /64 ('2001:db8:1:2::5' -> '2001:db8:1:2::/64'); anything else as given (bounded)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address[:64] or "unknown"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_CLIENT_PREFIX), strict=False))
    return str(ip)


def address_of_peer(peer: str) -> str:
    """The address part of a gRPC peer ('ipv4:127.0.0.1:5000' -> '127.0.0.1', 'ipv6:[::1]:5000' -> '::1'; gRPC
    writes the IPv6 brackets percent-encoded: 'ipv6:%5B::1%5D:5000')."""
    kind, _, rest = urllib.parse.unquote(peer).partition(":")
    if kind in ("ipv4", "ipv6"):
        return rest.rsplit(":", 1)[0].strip("[]")
    return peer or "unknown"


def client_of_peer(peer: str) -> str:
    """The client (address group) of a gRPC peer."""
    return client_group(address_of_peer(peer))
