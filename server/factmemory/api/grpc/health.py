"""Health that follows the dependencies: probes run every interval; NOT_SERVING while any fails.

A probe may have a repair step (restarting the embedded database), run after the status says NOT_SERVING; a
repair that raises ends the watch, and the service exits non-zero so that its supervisor restarts it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from grpc_health.v1 import health, health_pb2

log = logging.getLogger(__name__)

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


@dataclass(frozen=True)
class Probe:
    name: str
    check: Callable[[], Awaitable[bool]]
    repair: Callable[[], Awaitable[None]] | None = None


class HealthWatch:
    """Sets the health of `services` ("" = the whole server) from the probes."""

    def __init__(
        self, servicer: health.aio.HealthServicer, services: Sequence[str], probes: Sequence[Probe], interval_s: float
    ) -> None:
        self._servicer = servicer
        self._services = tuple(services)
        self._probes = tuple(probes)
        self._interval_s = interval_s
        self.failing: tuple[str, ...] = ()
        self.status: int = NOT_SERVING  # what gRPC health answers; read by /healthz on the metrics thread
        self.degraded = ""  # serving, but not everything (a Citus worker unreachable): why, for /healthz

    def report(self) -> tuple[bool, dict[str, object]]:
        """The same state as gRPC health, for an HTTP probe: (serving, {"status": ..., "failing": [...]})."""
        name = health_pb2.HealthCheckResponse.ServingStatus.Name(self.status)
        detail: dict[str, object] = {"status": name, "failing": list(self.failing)}
        if self.degraded:
            detail["degraded"] = self.degraded
        return self.status == SERVING, detail

    async def set_all(self, status: int) -> None:
        self.status = status
        for service in self._services:
            await self._servicer.set(service, status)

    async def check_once(self) -> tuple[str, ...]:
        """Runs every probe, updates the status, then repairs what failed; returns the failing probes."""
        results = [(probe, await _safe(probe.check)) for probe in self._probes]
        failing = tuple(p.name for p, ok in results if not ok)
        if failing != self.failing:
            if failing:
                log.warning("health: NOT_SERVING (failing: %s)", ", ".join(failing))
            else:
                log.info("health: SERVING")
            await self.set_all(NOT_SERVING if failing else SERVING)
            self.failing = failing
        for probe, ok in results:
            if not ok and probe.repair is not None:
                await probe.repair()
        return failing

    async def run(self) -> None:
        """Checks until cancelled; raises what a repair raised."""
        while True:
            await asyncio.sleep(self._interval_s)
            await self.check_once()


async def _safe(check: Callable[[], Awaitable[bool]]) -> bool:
    try:
        return await check()
    except Exception:  # a probe that breaks counts as failing; it must not stop the watch
        log.warning("health probe raised", exc_info=True)
        return False
