"""ForgetEntity in another process of the same database, seen by this one. A process keeps a person's candidate
facts (fact_memo.py) and, for a large person, their search vectors (vector_cache.py). Neither ever serves an erased
fact (each answers only for rows the database has just returned), but without this the text and vectors of a person
forgotten by another process would stay in this one's memory until they aged out. A forget in this process drops
them at once (PostgresBulk.forget_entity); every LOOK_EVERY_S this process looks for the people forgotten since its last
look (forget_epochs: each ForgetEntity bumps the person's epoch and sets forgotten_at) and drops theirs."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from uuid import UUID

import asyncpg

from factmemory.adapters.postgres.connection import TRANSIENT_DB_ERRORS

log = logging.getLogger(__name__)

# How long a person forgotten elsewhere may stay in this process's memory: a judgement (one query of an index every
# ten seconds), not tuned.
LOOK_EVERY_S = 10.0
# forgotten_at is the forgetting transaction's start: a forget that started before a look and committed after it is
# found by the next look, which reaches this far behind the last one (a person dropped at that epoch is not dropped
# again). Far longer than a ForgetEntity takes (seconds for a person of 20,000 facts on the Citus cluster,
# tests/test_citus_forget.py); not tuned. A forget that took longer would be missed by the other processes, whose
# entries would then age out as before.
LOOK_BACK = timedelta(minutes=10)

NOW = "SELECT now()"
# $1 the time of the last look less LOOK_BACK: the people forgotten since (an index range of
# forget_epochs_forgotten_at_idx, migration 0094; on Citus, one plain query of every shard).
FORGOTTEN_SINCE = """
SELECT agent_id, entity_id, epoch, forgotten_at FROM forget_epochs WHERE forgotten_at > $1
"""

Person = tuple[UUID, UUID]
# What a look may meet and survive: the database down or slow, a statement refused (a session that allows one shard
# per statement on Citus).
LOOK_FAILURES: tuple[type[BaseException], ...] = (*TRANSIENT_DB_ERRORS, asyncpg.PostgresError)


class ForgetWatch:
    """Drops (`drop`) the people other processes forgot, once per forget epoch."""

    def __init__(self, pool: asyncpg.Pool, drop: Callable[[UUID, UUID], None]) -> None:
        self._pool = pool
        self._drop = drop
        self._since: datetime | None = None
        self._dropped: dict[Person, tuple[int, datetime]] = {}

    async def look(self) -> list[Person]:
        """One look: the people dropped. The first only notes the time: nothing was held before it."""
        async with self._pool.acquire() as conn:
            looked_at: datetime = await conn.fetchval(NOW)
            rows = [] if self._since is None else await conn.fetch(FORGOTTEN_SINCE, self._since - LOOK_BACK)
        dropped: list[Person] = []
        for row in rows:
            person: Person = (row["agent_id"], row["entity_id"])
            if self._dropped.get(person, (0, looked_at))[0] >= row["epoch"]:
                continue
            self._drop(*person)
            self._dropped[person] = (int(row["epoch"]), row["forgotten_at"])
            dropped.append(person)
        self._since = looked_at
        self._dropped = {p: seen for p, seen in self._dropped.items() if seen[1] > looked_at - 2 * LOOK_BACK}
        return dropped

    async def run(self, every_s: float = LOOK_EVERY_S) -> None:
        """Looks every `every_s` until cancelled; a look that fails (the database down, a statement refused) is
        logged and tried again next time."""
        while True:
            try:
                await self.look()
            except LOOK_FAILURES as exc:  # looked at again next time
                log.warning("could not look for people forgotten elsewhere: %s: %s", type(exc).__name__, exc)
            await asyncio.sleep(every_s)

    @asynccontextmanager
    async def running(self, every_s: float = LOOK_EVERY_S) -> AsyncIterator[None]:
        """Looks in the background while the context is open (entered after the pool opens, left before it
        closes)."""
        task = asyncio.create_task(self.run(every_s))
        try:
            yield
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
