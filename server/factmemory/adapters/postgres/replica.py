"""Reads on a streaming replica (FACTMEMORY_DATABASE_READ_URL), writes and Evaluate on the primary.

A read goes to the replica unless
- this process wrote the same (agent, entity) less than `read_your_writes_s` ago (the replica may not have replayed
  it yet): then it goes to the primary, so a caller sees its own write (agent-wide reads: any write of the agent);
- the replica failed recently: the call that saw it fail is answered by the primary, and so is every read after it
  until `retry_s` has passed; then one read tries the replica again.
The replica may lag: a write made through another process, or longer ago than the window while replay is slow, may
be missing from a read (docs/scaling.md, "Read replica").
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar
from uuid import UUID

import asyncpg

from factmemory.adapters.postgres.connection import TRANSIENT_DB_ERRORS
from factmemory.ports import Telemetry

log = logging.getLogger(__name__)

T = TypeVar("T")
Query = Callable[[asyncpg.Connection], Awaitable[T]]

MAX_REMEMBERED_WRITES = 50_000
# A replica connection that cannot be made within this time counts as down (the primary answers instead).
REPLICA_ACQUIRE_TIMEOUT_S = 2.0


class ReadRoute:
    """Chooses the pool of each read; keeps whether the replica is up. Telemetry: reads by target and reason,
    fallbacks by reason, replica up (1/0)."""

    def __init__(
        self,
        primary: asyncpg.Pool,
        replica: asyncpg.Pool,
        telemetry: Telemetry,
        retry_s: float,
        read_your_writes_s: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.primary = primary
        self.replica = replica
        self._telemetry = telemetry
        self._retry_s = retry_s
        self._window_s = read_your_writes_s
        self._clock = clock
        self._written: dict[tuple[UUID, UUID | None], float] = {}
        self._down_until: float | None = None
        telemetry.replica_up(True)

    @property
    def replica_up(self) -> bool:
        return self._down_until is None

    def wrote(self, agent_id: UUID, entity_id: UUID) -> None:
        """Called after a write of (agent, entity) committed on the primary."""
        if self._window_s <= 0:
            return
        now = self._clock()
        if len(self._written) >= MAX_REMEMBERED_WRITES:
            self._written = {k: at for k, at in self._written.items() if now - at < self._window_s}
        self._written[(agent_id, entity_id)] = now
        self._written[(agent_id, None)] = now

    def _recent(self, agent_id: UUID, entity_id: UUID | None) -> bool:
        at = self._written.get((agent_id, entity_id))
        return at is not None and self._clock() - at < self._window_s

    async def run(self, agent_id: UUID, entity_id: UUID | None, query: Query[T]) -> T:
        """The query's result from the replica, or from the primary when the rules above say so."""
        if self._recent(agent_id, entity_id):
            self._telemetry.read_routed("primary", "recent_write")
            return await self._on(self.primary, query)
        if self._down_until is not None and self._clock() < self._down_until:
            self._telemetry.read_fallback("replica_down")
            self._telemetry.read_routed("primary", "replica_down")
            return await self._on(self.primary, query)
        try:
            async with self.replica.acquire(timeout=REPLICA_ACQUIRE_TIMEOUT_S) as conn:
                result = await query(conn)
        except TRANSIENT_DB_ERRORS as exc:
            if self._down_until is None:
                log.warning(
                    "read replica unavailable, reading from the primary (retried every %.0f s): %s: %s",
                    self._retry_s,
                    type(exc).__name__,
                    str(exc).splitlines()[0] if str(exc) else "",
                )
            self._down_until = self._clock() + self._retry_s
            self._telemetry.replica_up(False)
            self._telemetry.read_fallback("replica_error")
            self._telemetry.read_routed("primary", "replica_error")
            return await self._on(self.primary, query)
        if self._down_until is not None:
            log.warning("read replica back: reads go to it again")
            self._down_until = None
            self._telemetry.replica_up(True)
        self._telemetry.read_routed("replica", "")
        return result

    @staticmethod
    async def _on(pool: asyncpg.Pool, query: Query[T]) -> T:
        async with pool.acquire() as conn:
            return await query(conn)
