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

# Citus's own check: the coordinator opens a connection to each active primary worker (not to itself, groupid 0),
# giving up after the connection timeout set beside it (citus.node_connection_timeout, milliseconds).
CONNECTION_TIMEOUT = "SELECT set_config('citus.node_connection_timeout', $1, true)"
WORKERS = """
SELECT nodename, nodeport, citus_check_connection_to_node(nodename, nodeport) AS reachable
  FROM pg_dist_node
 WHERE isactive AND noderole = 'primary' AND groupid <> 0
 ORDER BY nodename, nodeport
"""


CHECK_ERRORS: tuple[type[BaseException], ...] = (*TRANSIENT_DB_ERRORS, asyncpg.PostgresError)


class ClusterCheck:
    """Asks the coordinator which workers it reaches now; the verdict goes to the telemetry and the caller."""

    def __init__(self, pool: asyncpg.Pool, telemetry: Telemetry, timeout_s: float) -> None:
        self._pool, self._telemetry, self._timeout_s = pool, telemetry, timeout_s

    async def check(self) -> str:
        """'' when every worker answers; else which do not (or why the coordinator could not say)."""
        try:
            async with self._pool.acquire(timeout=self._timeout_s) as conn, conn.transaction():
                await conn.execute(CONNECTION_TIMEOUT, str(int(self._timeout_s * 1000)))
                rows = await conn.fetch(WORKERS, timeout=self._timeout_s * 2)
        except CHECK_ERRORS as exc:
            self._telemetry.workers(0, 0)
            return f"workers not checked: {type(exc).__name__}: {exc}"
        down = [f"{r['nodename']}:{r['nodeport']}" for r in rows if not r["reachable"]]
        self._telemetry.workers(len(rows) - len(down), len(rows))
        return f"workers unreachable: {', '.join(down)}" if down else ""

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
