"""Database checks for health and metrics: a probe on its own connection (a busy pool does not look like an
outage) and the pending-candidates count."""

from __future__ import annotations

import asyncio
import contextlib

import asyncpg

PING = "SELECT 1"
COUNT_PENDING_CANDIDATES = "SELECT count(*) FROM fact_candidates WHERE status = 'pending'"
PROBE_ERRORS = (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError)


class DatabaseProbe:
    """Answers whether the database takes a query now; keeps one connection and reconnects when it broke."""

    def __init__(self, url: str, timeout_s: float) -> None:
        self._url = url
        self._timeout_s = timeout_s
        self._conn: asyncpg.Connection | None = None

    async def ok(self) -> bool:
        try:
            if self._conn is None or self._conn.is_closed():
                self._conn = await asyncpg.connect(self._url, timeout=self._timeout_s)
            await self._conn.fetchval(PING, timeout=self._timeout_s)
            return True
        except PROBE_ERRORS:
            await self.close()
            return False

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(*PROBE_ERRORS, asyncio.CancelledError):
                await asyncio.wait_for(conn.close(), self._timeout_s)


async def count_pending_candidates(pool: asyncpg.Pool, timeout_s: float) -> int:
    async with pool.acquire(timeout=timeout_s) as conn:
        return int(await conn.fetchval(COUNT_PENDING_CANDIDATES, timeout=timeout_s))
