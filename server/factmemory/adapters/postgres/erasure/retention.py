"""The PostgreSQL side of retention (migration 0006): scans in small keyset batches, and one short transaction
per entity for each change of facts, under the same per-entity lock Evaluate takes (implements
ports.RetentionStore). The history trigger records archives as `archived` and deletions as `deleted` (each
statement's mark, rows.mark_cte). On a database distributed by person (Citus), no statement that changes rows
reaches more than one shard: what is not about one person is read first, then changed shard by shard."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

import asyncpg

from factmemory.adapters.postgres.connection import connection, locked, row_count
from factmemory.adapters.postgres.rows import FACT_COLUMNS, mark_cte, mark_values, row_to_fact
from factmemory.adapters.postgres.tickets import PRUNE_DELETED_MESSAGES, Tickets, shows_deleted
from factmemory.domain.models import Fact, HistoryAction
from factmemory.domain.tickets import DELETED_IDS_KEPT, KEPT_AFTER_EXPIRY

RETENTION_ACTOR = "system:retention"

# Live current facts whose latest time is before $1, after the key ($2, $3, $4) of the last one seen.
STALE_CANDIDATES = f"""
SELECT {FACT_COLUMNS} FROM facts
 WHERE kind = 'current' AND archived_at IS NULL
   AND GREATEST(coalesce(valid_at, created_at), last_confirmed_at) < $1
   AND ($2::uuid IS NULL OR (agent_id, entity_id, id) > ($2::uuid, $3::uuid, $4::uuid))
 ORDER BY agent_id, entity_id, id
 LIMIT $5
"""

# Only facts unchanged since they were judged stale (a message may have confirmed one meanwhile). The archived
# fact gives up its exact-duplicate key (migration 0003): the same claim said again is a new, live fact.
ARCHIVE_FACTS = f"""
WITH {mark_cte(7)}
UPDATE facts f SET archived_at = $3, claim_key = NULL
  FROM unnest($4::uuid[], $5::timestamptz[], $6::float8[]) AS s(id, confirmed, confidence), mark
 WHERE f.agent_id = $1 AND f.entity_id = $2 AND f.id = s.id AND f.archived_at IS NULL
   AND f.last_confirmed_at = s.confirmed AND f.confidence = s.confidence
RETURNING f.id
"""

# An archived fact is no longer shown to the model, so its open possible-duplicate pairs are closed.
CLOSE_PAIRS_OF = """
UPDATE possible_duplicates SET status = 'closed', closed_at = $4
 WHERE agent_id = $1 AND entity_id = $2 AND status = 'open'
   AND (fact_id = ANY ($3::uuid[]) OR other_fact_id = ANY ($3::uuid[]))
"""

ARCHIVED_BEFORE = """
SELECT agent_id, entity_id, id FROM facts
 WHERE archived_at IS NOT NULL AND archived_at < $1
 ORDER BY archived_at, id
 LIMIT $2
"""

DELETE_ARCHIVED = f"""
WITH {mark_cte(5)}
DELETE FROM facts USING mark
 WHERE agent_id = $1 AND entity_id = $2 AND id = ANY ($3::uuid[]) AND archived_at IS NOT NULL AND archived_at < $4
"""

# What idempotency needs stays (agent, message id, entity, token counts); the stored response and the message's
# excerpt go. A replay then answers an empty result with the usage it had. Rows still being evaluated (result
# '{}') are left alone. The oldest are read first, without a lock (a locking read over every shard is refused on
# Citus), then changed in one statement per shard: the rows of the people $3 (on a database distributed by
# person, all on one shard) among the keys read. The statement checks again what the read saw, so a row changed
# meanwhile (or by another process's sweep) is left as it is; a row of another key the arrays happen to cross is
# one the sweep reduces anyway. The usage is built by immutable functions only (Citus refuses a stable one, such as
# jsonb_build_object, over the row's columns in an UPDATE).
OLD_EVALUATIONS = """
SELECT agent_id, entity_id, message_id AS key FROM evaluations
 WHERE reduced_at IS NULL AND created_at < $1 AND result <> '{}'::jsonb
 ORDER BY created_at
 LIMIT $2
"""
REDUCE_EVALUATIONS = """
UPDATE evaluations
   SET result = jsonb_set(jsonb_set('{"usage": {}}', '{usage,prompt_tokens}', prompt_tokens::text::jsonb),
                          '{usage,completion_tokens}', completion_tokens::text::jsonb),
       success_reason = NULL, excerpt = NULL, reduced_at = $2
 WHERE entity_id = ANY ($3::uuid[]) AND agent_id = ANY ($4::uuid[]) AND message_id = ANY ($5::text[])
   AND reduced_at IS NULL AND created_at < $1 AND result <> '{}'::jsonb
"""

# Resolved candidates, the same way: read, then changed shard by shard.
OLD_CANDIDATES = """
SELECT agent_id, entity_id, id AS key FROM fact_candidates
 WHERE status <> 'pending' AND archived_at IS NULL AND resolved_at < $1
 ORDER BY resolved_at
 LIMIT $2
"""
ARCHIVE_CANDIDATES = """
UPDATE fact_candidates SET archived_at = $2
 WHERE entity_id = ANY ($3::uuid[]) AND agent_id = ANY ($4::uuid[]) AND id = ANY ($5::uuid[])
   AND status <> 'pending' AND archived_at IS NULL AND resolved_at < $1
"""

# On a database distributed by person: the shard of each person (every per-person table is co-located with facts,
# so one shard id names the same group of people in each). Read on the coordinator alone.
SHARDS_OF = """
SELECT get_shard_id_for_distribution_column('facts', e) AS shard, e AS entity_id FROM unnest($1::uuid[]) AS e
"""

# Expired tickets on a database distributed by person, the same way (on one PostgreSQL, Tickets.expire's one
# statement): their keys read, then per shard the content of the expired ones dropped and the rows kept long enough
# past their expiry deleted; then those showing a message deleted since. A batch of keys per read.
EXPIRED_TICKETS = """
SELECT agent_id, entity_id, token_hash AS key FROM evaluation_tickets
 WHERE (expires_at <= $1 AND body IS NOT NULL) OR expires_at < $2
 LIMIT $3
"""
OF_KEYS = "entity_id = ANY (${}::uuid[]) AND agent_id = ANY (${}::uuid[]) AND token_hash = ANY (${}::bytea[])"
VOID_EXPIRED_OF = f"""
UPDATE evaluation_tickets SET body = NULL WHERE expires_at <= $1 AND body IS NOT NULL AND {OF_KEYS.format(2, 3, 4)}
"""
SWEEP_EXPIRED_OF = f"DELETE FROM evaluation_tickets WHERE expires_at < $1 AND {OF_KEYS.format(2, 3, 4)}"
SHOWING_DELETED = f"""
SELECT agent_id, entity_id, token_hash AS key FROM evaluation_tickets t
 WHERE t.body IS NOT NULL AND {shows_deleted("t", "t.agent_id")}
 LIMIT $1
"""
VOID_SHOWING_DELETED_OF = f"""
UPDATE evaluation_tickets t SET body = NULL
 WHERE t.body IS NOT NULL AND {shows_deleted("t", "t.agent_id")} AND {OF_KEYS.format(1, 2, 3)}
"""
TICKETS_PER_READ = 1000

Key = tuple[UUID, UUID, UUID]


class PostgresRetention:
    """Retention's reads and writes through the service's pool, on one PostgreSQL (PerPersonRetention: distributed
    by person)."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def stale_candidates(self, older_than: datetime, after: Key | None, limit: int) -> list[Fact]:
        first, second, third = after if after is not None else (None, None, None)
        async with connection(self._pool) as conn:
            rows = await conn.fetch(STALE_CANDIDATES, older_than, first, second, third, limit)
        return [row_to_fact(r) for r in rows]

    async def archive_facts(
        self, agent_id: UUID, entity_id: UUID, facts: Sequence[Fact], at: datetime, reason: str
    ) -> int:
        async with locked(self._pool, agent_id, entity_id) as (conn, _):
            archived = [
                r["id"]
                for r in await conn.fetch(
                    ARCHIVE_FACTS,
                    agent_id,
                    entity_id,
                    at,
                    [f.id for f in facts],
                    [f.last_confirmed_at for f in facts],
                    [f.confidence for f in facts],
                    *mark_values(HistoryAction.ARCHIVED, RETENTION_ACTOR, reason),
                )
            ]
            await conn.execute(CLOSE_PAIRS_OF, agent_id, entity_id, archived, at)
        return len(archived)

    async def archived_before(self, before: datetime, limit: int) -> list[Key]:
        async with connection(self._pool) as conn:
            rows = await conn.fetch(ARCHIVED_BEFORE, before, limit)
        return [(r["agent_id"], r["entity_id"], r["id"]) for r in rows]

    async def delete_archived(
        self, agent_id: UUID, entity_id: UUID, fact_ids: Sequence[UUID], before: datetime, reason: str
    ) -> int:
        async with locked(self._pool, agent_id, entity_id) as (conn, _):
            mark = mark_values(HistoryAction.DELETED, RETENTION_ACTOR, reason)
            status = await conn.execute(DELETE_ARCHIVED, agent_id, entity_id, list(fact_ids), before, *mark)
        return row_count(status)

    async def reduce_evaluations(self, before: datetime, at: datetime, limit: int) -> int:
        return await self._by_shard(OLD_EVALUATIONS, REDUCE_EVALUATIONS, before, at, limit)

    async def archive_candidates(self, before: datetime, at: datetime, limit: int) -> int:
        return await self._by_shard(OLD_CANDIDATES, ARCHIVE_CANDIDATES, before, at, limit)

    async def _by_shard(self, read: str, change: str, before: datetime, at: datetime, limit: int) -> int:
        """The rows `read` finds (up to `limit`), changed by `change` in one statement per shard (one in all on a
        single PostgreSQL): no statement locks rows on more than one shard."""
        async with connection(self._pool) as conn:
            return await self._change(conn, await conn.fetch(read, before, limit), change, before, at)

    async def _change(self, conn: asyncpg.Connection, rows: Sequence[asyncpg.Record], change: str, *args: Any) -> int:
        """`change` run once per shard of the rows (agent_id, entity_id, key), with `args`, then the shard's people,
        their agents and the rows' keys; the rows it changed."""
        changed = 0
        for people in await self._shards(conn, {r["entity_id"] for r in rows}):
            keys = [r for r in rows if r["entity_id"] in people]
            agents = sorted({r["agent_id"] for r in keys})
            changed += row_count(await conn.execute(change, *args, sorted(people), agents, [r["key"] for r in keys]))
        return changed

    async def _shards(self, conn: asyncpg.Connection, people: set[UUID]) -> list[set[UUID]]:
        """The people grouped by their shard: all together on one PostgreSQL."""
        return [people] if people else []

    async def expire_tickets(self, now: datetime) -> int:
        return await Tickets(self._pool).expire(now)


class PerPersonRetention(PostgresRetention):
    """Retention on a database distributed by person (Citus): no statement that changes rows reaches more than one
    shard. What is not about one person is read first, then changed shard by shard (SHARDS_OF)."""

    async def _shards(self, conn: asyncpg.Connection, people: set[UUID]) -> list[set[UUID]]:
        """The people grouped by their shard."""
        if not people:
            return []
        groups: dict[int, set[UUID]] = {}
        for row in await conn.fetch(SHARDS_OF, sorted(people)):
            groups.setdefault(row["shard"], set()).add(row["entity_id"])
        return [groups[shard] for shard in sorted(groups)]

    async def expire_tickets(self, now: datetime) -> int:
        """What Tickets.expire does in one statement on one PostgreSQL, by keys read and changed shard by shard."""
        changed = 0
        kept = now - KEPT_AFTER_EXPIRY
        async with connection(self._pool) as conn:
            while rows := await conn.fetch(EXPIRED_TICKETS, now, kept, TICKETS_PER_READ):
                done = await self._change(conn, rows, VOID_EXPIRED_OF, now) + await self._change(
                    conn, rows, SWEEP_EXPIRED_OF, kept
                )
                changed += done
                if len(rows) < TICKETS_PER_READ or not done:
                    break
            while rows := await conn.fetch(SHOWING_DELETED, TICKETS_PER_READ):
                done = await self._change(conn, rows, VOID_SHOWING_DELETED_OF)
                changed += done
                if len(rows) < TICKETS_PER_READ or not done:
                    break
            await conn.execute(PRUNE_DELETED_MESSAGES, now - DELETED_IDS_KEPT)  # a reference table: one shard
        return changed
