"""Whether every worker of the Citus cluster answers (docs/scaling.md, "A worker down"): checked every health
interval on a database distributed by person. The coordinator itself is the database probe's; a worker down does
not stop the service (the people on the other workers are served), so it is reported beside the server's health:
the `factmemory.v1.Cluster` health status, a degraded detail in /healthz and the workers gauges."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import asyncpg

from factmemory.adapters.postgres.connection import TRANSIENT_DB_ERRORS
from factmemory.ports import Telemetry

log = logging.getLogger(__name__)

# Citus's own check: the coordinator opens a connection to a worker (or takes the one it keeps) and runs SELECT 1
# there, giving up on a new connection after the timeout set beside it (citus.node_connection_timeout, ms).
CONNECTION_TIMEOUT = "SELECT set_config('citus.node_connection_timeout', $1, true)"
WORKERS = """
SELECT nodename, nodeport FROM pg_dist_node
 WHERE isactive AND noderole = 'primary' AND groupid <> 0
 ORDER BY nodename, nodeport
"""
REACHES = "SELECT citus_check_connection_to_node($1, $2)"


CHECK_ERRORS: tuple[type[BaseException], ...] = (*TRANSIENT_DB_ERRORS, asyncpg.PostgresError)


class ClusterCheck:
    """Asks the coordinator which workers it reaches now; the verdict goes to the telemetry and the caller."""

    def __init__(self, pool: asyncpg.Pool, telemetry: Telemetry, timeout_s: float) -> None:
        self._pool, self._telemetry, self._timeout_s = pool, telemetry, timeout_s

    async def check(self) -> str:
        """'' when every worker answers; else which do not (or why the coordinator could not say)."""
        try:
            async with self._pool.acquire(timeout=self._timeout_s) as conn:
                workers = [(r["nodename"], r["nodeport"]) for r in await conn.fetch(WORKERS, timeout=self._timeout_s)]
            down = [f"{name}:{port}" for name, port in workers if not await self._reaches(name, port)]
        except CHECK_ERRORS as exc:
            self._telemetry.workers(0, 0)
            return f"workers not checked: {type(exc).__name__}: {exc}"
        self._telemetry.workers(len(workers) - len(down), len(workers))
        return f"workers unreachable: {', '.join(down)}" if down else ""

    async def _reaches(self, name: str, port: int) -> bool:
        """Whether the coordinator reaches one worker within the timeout. A worker that accepts connections and never
        answers (hung, not down) holds Citus's SELECT 1 on the connection the coordinator keeps to it, which no
        Citus timeout ends: the statement times out here, and the worker is unreachable."""
        async with self._pool.acquire(timeout=self._timeout_s) as conn:
            try:
                async with conn.transaction():
                    await conn.execute(CONNECTION_TIMEOUT, str(int(self._timeout_s * 1000)))
                    return bool(await conn.fetchval(REACHES, name, port, timeout=self._timeout_s * 2))
            except TimeoutError:
                return False
            except asyncpg.InterfaceError as exc:
                # The coordinator did not confirm the timed-out statement's cancellation in time (it is still
                # cancelling it on the hung worker): asyncpg closed the connection, and the rollback found it closed.
                if isinstance(exc.__context__, TimeoutError):
                    return False
                raise

    async def run(self, interval_s: float, on_change: Callable[[str], Awaitable[None]]) -> None:
        """Checks every interval until cancelled; `on_change` hears each new verdict (logged once)."""
        last: str | None = None
        while True:
            verdict = await self.check()
            if verdict != last:
                if verdict:
                    log.warning("citus cluster degraded: %s (their people's calls answer UNAVAILABLE)", verdict)
                elif last is not None:
                    log.info("citus cluster: every worker answers again")
                await on_change(verdict)
            last = verdict
            await asyncio.sleep(interval_s)
