"""Reads on a streaming replica (FACTMEMORY_DATABASE_READ_URL), writes and Evaluate on the primary.

A read goes to the replica only when the replica has replayed everything the read must see, decided by position
and never by a timer (docs/scaling.md, "Read replica"):
- a read of one (agent, entity): the entity's version row (read_positions, bumped by triggers in the same
  transaction as every change of the entity, forget included) is read on the primary, then again on the replica IN
  THE SNAPSHOT THAT ANSWERS; the replica answers only when its copy has reached the primary's. This holds for every
  service process and across restarts, since the position lives with the data;
- an agent-wide read (ListEntities, the agent's queue): the replica answers only when its replay position has
  reached the primary's WAL position of the moment the read started (read before the replica's snapshot is taken).
Otherwise the primary answers. Also the primary, with a metric and a log line:
- while the replica is not a valid read target (replica_check: not a standby, another cluster, replay stalled, a
  missing database, table or privilege, a malformed URL); a read that meets such a failure marks it so at once;
- while the replica is unreachable: the call that saw it fail, and every read after it until `retry_s` passed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar
from uuid import UUID

import asyncpg

from factmemory.adapters.postgres.connection import (
    TRANSIENT_DB_ERRORS,
    lost_session,
    pooled,
    transient_as_unavailable,
)
from factmemory.domain.limits import MAX_REASON_CHARS
from factmemory.ports import Telemetry

log = logging.getLogger(__name__)

T = TypeVar("T")
Query = Callable[[asyncpg.Connection], Awaitable[T]]

# A replica connection that cannot be made within this time counts as down (the primary answers instead).
REPLICA_ACQUIRE_TIMEOUT_S = 2.0

# The entity's version: on the primary (what the read must see), then on the replica in the answering snapshot.
ENTITY_POSITION = """
SELECT coalesce((SELECT version FROM read_positions WHERE agent_id = $1 AND entity_id = $2), 0)
"""
# An agent-wide read must see every commit made before it started.
PRIMARY_WAL_POSITION = "SELECT pg_current_wal_lsn()::text"
REPLAYED_AT_LEAST = "SELECT coalesce(pg_last_wal_replay_lsn() >= $1::text::pg_lsn, false)"


class ReadRoute:
    """Chooses the database of each read. Telemetry: reads by target and reason, fallbacks by reason, replica up."""

    def __init__(
        self,
        primary: asyncpg.Pool,
        replica: asyncpg.Pool,
        telemetry: Telemetry,
        retry_s: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.primary = primary
        self.replica = replica
        self._telemetry = telemetry
        self._retry_s = retry_s
        self._clock = clock
        self._down_until: float | None = None
        # Why the replica is not a valid read target ("" = it is); set by replica_check and by failing reads.
        self.invalid = ""
        telemetry.replica_up(True)

    @property
    def replica_up(self) -> bool:
        return self._down_until is None and not self.invalid

    def set_invalid(self, reason: str) -> None:
        """Marks the replica unfit for reads (reason) or fit again (""); logs and reports each change."""
        if reason == self.invalid:
            return
        if reason:
            log.warning("read replica not used, reads go to the primary: %s", reason)
        else:
            log.warning("read replica valid again: reads may go to it")
        self.invalid = reason
        self._telemetry.replica_up(self.replica_up)

    async def run(self, agent_id: UUID, entity_id: UUID | None, query: Query[T]) -> T:
        """The query's result from the replica when it has replayed what the read must see, else from the primary."""
        if self.invalid:
            return await self._fallback("replica_invalid", query)
        if self._down_until is not None and self._clock() < self._down_until:
            return await self._fallback("replica_down", query)
        async with self.primary.acquire() as conn:
            if entity_id is None:
                expected: object = await conn.fetchval(PRIMARY_WAL_POSITION)
            else:
                expected = await conn.fetchval(ENTITY_POSITION, agent_id, entity_id)
        try:
            async with self.replica.acquire(timeout=REPLICA_ACQUIRE_TIMEOUT_S) as conn:
                answered, result = await _on_replica(pooled(conn), agent_id, entity_id, expected, query)
        except TRANSIENT_DB_ERRORS as exc:
            self._went_down(exc)
            if lost_session(exc):  # its other sessions are gone too: renewed when it is tried again
                await self.replica.expire_connections()
            return await self._fallback("replica_error", query)
        except Exception as exc:  # any other failure of the replica: not a read target; never INTERNAL
            self.set_invalid(f"a read failed on it: {describe_error(exc)}")
            return await self._fallback("replica_invalid", query)
        if self._down_until is not None:
            log.warning("read replica back: reads go to it again")
            self._down_until = None
            self._telemetry.replica_up(self.replica_up)
        if not answered:
            self._telemetry.read_routed("primary", "replica_behind")
            return await self._on(self.primary, query)
        self._telemetry.read_routed("replica", "")
        return result  # type: ignore[return-value]  # answered: the query's result

    def _went_down(self, exc: BaseException) -> None:
        if self._down_until is None:
            log.warning(
                "read replica unavailable, reading from the primary (retried every %.0f s): %s",
                self._retry_s,
                describe_error(exc),
            )
        self._down_until = self._clock() + self._retry_s
        self._telemetry.replica_up(False)

    async def _fallback(self, reason: str, query: Query[T]) -> T:
        self._telemetry.read_fallback(reason)
        self._telemetry.read_routed("primary", reason)
        return await self._on(self.primary, query)

    @staticmethod
    async def _on(pool: asyncpg.Pool, query: Query[T]) -> T:
        async with pool.acquire() as conn:
            return await query(pooled(conn))


class Reads:
    """Where a read runs: on the replica when there is one (`route`) and the call may read it, else on the
    primary. Writes need not tell it: each bumps the entity's read position in its own transaction, which gives
    read-your-writes."""

    def __init__(self, pool: asyncpg.Pool, route: ReadRoute | None = None) -> None:
        self.pool = pool
        self.route = route

    async def run(
        self,
        agent_id: UUID,
        entity_id: UUID | None,
        query: Query[T],
        replica_ok: bool = True,
        pool: asyncpg.Pool | None = None,
    ) -> T:
        """One read: on the replica when there is one and `replica_ok`, else on the primary (through `pool` when
        given); a database that cannot be reached is Unavailable."""
        if self.route is not None and replica_ok:
            async with transient_as_unavailable(self.route.primary):
                return await self.route.run(agent_id, entity_id, query)
        primary = pool or self.pool
        async with transient_as_unavailable(primary), primary.acquire() as conn:
            return await query(pooled(conn))


async def _on_replica(
    conn: asyncpg.Connection, agent_id: UUID, entity_id: UUID | None, expected: object, query: Query[T]
) -> tuple[bool, T | None]:
    """(True, result) when the replica has replayed up to `expected`, else (False, None)."""
    if entity_id is None:
        # The replay position is read before the snapshot is taken, so the snapshot holds at least that much.
        if not await conn.fetchval(REPLAYED_AT_LEAST, expected):
            return False, None
        async with conn.transaction(isolation="repeatable_read", readonly=True):
            return True, await query(conn)
    async with conn.transaction(isolation="repeatable_read", readonly=True):
        if await conn.fetchval(ENTITY_POSITION, agent_id, entity_id) < expected:
            return False, None
        return True, await query(conn)


def describe_error(exc: BaseException) -> str:
    """The error's type, with the server's first line for a PostgreSQL error (it names no password). Any other
    error's text is left out: a URL that does not parse may be quoted in it, password and all."""
    text = str(exc).splitlines()[0][:MAX_REASON_CHARS] if isinstance(exc, asyncpg.PostgresError) and str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
