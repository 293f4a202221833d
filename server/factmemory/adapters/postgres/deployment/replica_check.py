"""Whether the read URL names a standby following this primary: checked at start-up and every health interval.

A valid read target is in recovery (a promoted standby is not), has the primary's system identifier (a standby of
another cluster, say a restored staging copy, does not), can read FactMemory's tables (database, tables and
privileges are there) and keeps replaying while the primary moves on. The verdict goes to ReadRoute.set_invalid:
while it names a problem, reads go to the primary, with a metric, a log line and the read-replica health status.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from factmemory.adapters.postgres.connection import TRANSIENT_DB_ERRORS
from factmemory.adapters.postgres.deployment.replica import REPLICA_ACQUIRE_TIMEOUT_S, ReadRoute, describe_error

SYSTEM_IDENTIFIER = "SELECT system_identifier FROM pg_control_system()"
IN_RECOVERY = "SELECT pg_is_in_recovery()"
PRIMARY_WAL_BYTES = "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint"
REPLAYED_WAL_BYTES = "SELECT coalesce(pg_wal_lsn_diff(pg_last_wal_replay_lsn(), '0/0'), 0)::bigint"
# Every table a replica read touches, LIMIT 0: fails at once when one is missing or not readable by this role.
READABLE = """
SELECT 1 FROM facts, fact_candidates, fact_history, entities, relationships, identities, evaluations,
              possible_duplicates, read_positions
 LIMIT 0
"""


@dataclass(frozen=True)
class Observation:
    """What one check saw on the primary and the replica (WAL positions in bytes)."""

    primary_id: int
    replica_id: int
    in_recovery: bool
    primary_wal: int
    replayed: int


def verdict(seen: Observation, stalled_s: float, stall_s: float) -> str:
    """Why the replica must not be read ("" = it may), from one observation and how long replay has not moved."""
    if not seen.in_recovery:
        return "it is not in recovery (a promoted standby, or a primary): it no longer follows this primary"
    if seen.replica_id != seen.primary_id:
        return (
            f"its system identifier {seen.replica_id} is not the primary's {seen.primary_id}: "
            "a standby of another cluster"
        )
    if seen.replayed < seen.primary_wal and stalled_s >= stall_s:
        return f"its replay has not advanced for {stalled_s:.0f} s while the primary moved on"
    return ""


class ReplicaCheck:
    """Observes the replica against the primary and tells the route; remembers when replay last moved."""

    def __init__(self, route: ReadRoute, stall_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._route, self._stall_s, self._clock = route, stall_s, clock
        self._replayed = -1
        self._moved_at = clock()

    async def check(self) -> str:
        """One check; returns (and gives the route) the reason the replica is not valid, "" when it is."""
        try:
            seen = await self._observe()
        except TRANSIENT_DB_ERRORS:
            return self._route.invalid  # unreachable is not invalid: the route's retry handles an outage
        except Exception as exc:  # missing database, table or privilege, a bad URL: all reported
            reason = f"it cannot be read: {describe_error(exc)}"
        else:
            now = self._clock()
            if seen.replayed != self._replayed or seen.replayed >= seen.primary_wal:
                self._replayed, self._moved_at = seen.replayed, now
            reason = verdict(seen, now - self._moved_at, self._stall_s)
        self._route.set_invalid(reason)
        return reason

    async def _observe(self) -> Observation:
        async with self._route.primary.acquire() as primary:
            primary_id = int(await primary.fetchval(SYSTEM_IDENTIFIER))
            primary_wal = int(await primary.fetchval(PRIMARY_WAL_BYTES))
        async with self._route.replica.acquire(timeout=REPLICA_ACQUIRE_TIMEOUT_S) as replica:
            await replica.execute(READABLE)
            return Observation(
                primary_id=primary_id,
                replica_id=int(await replica.fetchval(SYSTEM_IDENTIFIER)),
                in_recovery=bool(await replica.fetchval(IN_RECOVERY)),
                primary_wal=primary_wal,
                replayed=int(await replica.fetchval(REPLAYED_WAL_BYTES)),
            )

    async def run(self, interval_s: float, on_change: Callable[[str], Awaitable[None]] | None = None) -> None:
        """Checks every interval until cancelled; `on_change` hears each new verdict (for the health status)."""
        last: str | None = None
        while True:
            reason = await self.check()
            if reason != last and on_change is not None:
                await on_change(reason)
            last = reason
            await asyncio.sleep(interval_s)
