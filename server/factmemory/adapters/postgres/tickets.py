"""Agent-model tickets in PostgreSQL (migration 0010; implements ports.TicketStore): issued bounded, looked up by
the token's hash within the agent, and used at most once (one conditional UPDATE decides between racing callers)."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

import asyncpg

from factmemory.adapters.postgres.connection import connection, row_count
from factmemory.domain.errors import Unavailable
from factmemory.domain.tickets import DELETED_IDS_KEPT, KEPT_AFTER_EXPIRY, LONGEST_TTL, TicketPolicy, TicketRow, full

# The person keeps its newest $9 open tickets; the older ones give way (a part of both issue statements).
EVICT_OLDEST = """evicted AS (
    DELETE FROM evaluation_tickets
     WHERE agent_id = $1 AND entity_id = $3 AND token_hash IN (
           SELECT token_hash FROM evaluation_tickets
            WHERE agent_id = $1 AND entity_id = $3
              AND used_at IS NULL AND body IS NOT NULL AND expires_at > $5
            ORDER BY created_at DESC
            OFFSET $9)
    RETURNING 1
)"""

# One round trip makes room, counts and inserts. A ticket is OPEN while unused, holding its content and not expired;
# only open tickets count against the bounds. Expired tickets lose their content (over all agents, by the expiry
# index) and rows kept long enough past their expiry go; the entity keeps its newest $9 open tickets only; the
# insert happens only while fewer than $10 are open in all and fewer than $11 for the agent. The counts come back
# either way, so a refusal can say which bound is full. Sub-statements share one snapshot (the rows evicted are
# subtracted), and no row is touched by two of them: voided rows have expired, evicted ones have not, swept ones
# expired before $8. No subquery sits in a target list: Citus cannot push one down.
ISSUE_TICKET = f"""
WITH voided AS (
    UPDATE evaluation_tickets SET body = NULL
     WHERE expires_at <= $5 AND expires_at >= $8 AND body IS NOT NULL
    RETURNING 1
), swept AS (
    DELETE FROM evaluation_tickets WHERE expires_at < $8 RETURNING 1
), {EVICT_OLDEST}, counts AS (
    SELECT open.total - gone.n AS total, open.mine - gone.n AS mine
      FROM (SELECT count(*) AS total, count(*) FILTER (WHERE agent_id = $1) AS mine
              FROM evaluation_tickets
             WHERE used_at IS NULL AND body IS NOT NULL AND expires_at > $5) AS open,
           (SELECT count(*) AS n FROM evicted) AS gone
), inserted AS (
    INSERT INTO evaluation_tickets (agent_id, token_hash, entity_id, forget_epoch, created_at, expires_at, body)
    SELECT $1, $2, $3, $4, $5, $6, $7 FROM counts WHERE total < $10 AND mine < $11
    RETURNING 1
)
SELECT ins.stored, counts.total, counts.mine, void.voided
  FROM counts, (SELECT count(*) AS stored FROM inserted) AS ins, (SELECT count(*) AS voided FROM voided) AS void
"""

# Whether the ticket's content (`body`, the JSON of what the model was shown) names a message of the agent deleted
# since (migration 0063): a room-mate's message shown as context, whose ForgetMessages ran on another person's shard.
# The same match as ForgetMessages' voiding on one PostgreSQL (forget_messages.VOID_TICKETS): the id as a JSON string.
# `deleted_messages` is a reference table on Citus, so this stays on the ticket's shard.
# Only the messages deleted since the ticket could have been issued (its expiry less the longest lifetime) are
# compared with it: the deleted ids are kept much longer (DELETED_IDS_KEPT) for the prompts' sake.
ISSUED_AT_EARLIEST = f"expires_at - interval '{int(LONGEST_TTL.total_seconds())} seconds'"


def shows_deleted(ticket: str, agent: str) -> str:
    """The check above for the ticket row `ticket` of the agent `agent` (a parameter, or the row's own column)."""
    return f"""EXISTS (SELECT 1 FROM deleted_messages d
                WHERE d.agent_id = {agent} AND d.deleted_at >= {ticket}.{ISSUED_AT_EARLIEST}
                  AND strpos({ticket}.body, to_json(d.message_id)::text) > 0)"""


# The ticket with the current forget epoch of the entity the caller names ($3), in one round trip. An expired ticket
# is read without its content (VOID_EXPIRED then drops it from the row), and so is one showing a deleted message
# (VOID_SHOWING_DELETED then drops it).
GET_TICKET = f"""
SELECT t.agent_id, t.entity_id, t.forget_epoch, t.expires_at, t.used_at,
       CASE WHEN t.expires_at > $4 THEN t.body END AS body,
       coalesce((SELECT f.epoch FROM forget_epochs f WHERE f.agent_id = $1 AND f.entity_id = $3), 0) AS epoch_now,
       t.body IS NOT NULL AND {shows_deleted("t", "$1")} AS shows_deleted
  FROM evaluation_tickets t
 WHERE t.agent_id = $1 AND t.token_hash = $2
"""

# The ticket showing a deleted message loses its content (presenting it is refused by name, domain/tickets.py).
# It names its person ($3, the row's own): on one PostgreSQL the key alone finds the row, distributed by person
# (Citus) the person keeps the statement on one shard.
VOID_SHOWING_DELETED = """
UPDATE evaluation_tickets SET body = NULL WHERE agent_id = $1 AND token_hash = $2 AND entity_id = $3
"""

# The agent's expired tickets lose their content: run when a read meets one (ISSUE_TICKET does it for every agent
# on every issue).
VOID_EXPIRED = """
UPDATE evaluation_tickets SET body = NULL WHERE agent_id = $1 AND expires_at <= $2 AND body IS NOT NULL
"""
VOID_EXPIRED_BY_PERSON = VOID_EXPIRED + " AND entity_id = $3"

# On a database distributed by person (Citus, docs/scaling.md) every ticket statement names the person, so it runs
# on the person's shard alone. A ticket presented for another person is then unknown there (NOT_FOUND) rather than
# refused by name (INVALID_ARGUMENT).
GET_TICKET_BY_PERSON = GET_TICKET + " AND t.entity_id = $3"

# Issued on the person's shard: room is made among the person's own tickets (expired content dropped, rows kept
# long enough past their expiry swept, the newest $9 open ones kept), then the ticket is stored. The bounds of all
# tickets and of the agent's share are not counted here: that count reads every shard (docs/scaling.md, "One shard
# per call"); with no shared bound, no caller can fill one to lock the others out. The person's bound stays.
ISSUE_TICKET_BY_PERSON = f"""
WITH voided AS (
    UPDATE evaluation_tickets SET body = NULL
     WHERE agent_id = $1 AND entity_id = $3 AND expires_at <= $5 AND expires_at >= $8 AND body IS NOT NULL
    RETURNING 1
), swept AS (
    DELETE FROM evaluation_tickets WHERE agent_id = $1 AND entity_id = $3 AND expires_at < $8 RETURNING 1
), {EVICT_OLDEST}
INSERT INTO evaluation_tickets (agent_id, token_hash, entity_id, forget_epoch, created_at, expires_at, body)
VALUES ($1, $2, $3, $4, $5, $6, $7)
"""

# Every expired ticket of every agent loses its content and rows kept long enough past their expiry go: what
# ISSUE_TICKET does at every issue on one PostgreSQL. On the cluster it reads every shard, so the retention sweep
# runs it (FACTMEMORY_RETENTION_INTERVAL_S) instead of each PrepareEvaluation.
EXPIRE_TICKETS = """
WITH voided AS (
    UPDATE evaluation_tickets SET body = NULL WHERE expires_at <= $1 AND body IS NOT NULL RETURNING 1
), swept AS (
    DELETE FROM evaluation_tickets WHERE expires_at < $2 RETURNING 1
)
SELECT (SELECT count(*) FROM voided) + (SELECT count(*) FROM swept)
"""
# Open tickets showing a message deleted since lose their content (on the cluster, a room-mate's ticket that nobody
# presents keeps it until here; CompleteEvaluation refuses it meanwhile), and the deleted ids older than
# DELETED_IDS_KEPT go ($1). ForgetMessages prunes its agent's.
VOID_ALL_SHOWING_DELETED = f"""
UPDATE evaluation_tickets t SET body = NULL
 WHERE t.body IS NOT NULL AND {shows_deleted("t", "t.agent_id")}
"""
PRUNE_DELETED_MESSAGES = "DELETE FROM deleted_messages WHERE deleted_at < $1"

# The body goes with the use: what the model was shown is not kept once it served. A ticket showing a message deleted
# after it was read (a ForgetMessages between find and use) is not used: the same statement checks.
# It names the person ($4, the ticket's own: refusal() checked it), which keeps it on one shard distributed by person.
USE_TICKET = f"""
UPDATE evaluation_tickets SET used_at = $3, body = NULL
 WHERE agent_id = $1 AND token_hash = $2 AND entity_id = $4 AND used_at IS NULL AND body IS NOT NULL
   AND NOT {shows_deleted("evaluation_tickets", "$1")}
RETURNING token_hash
"""


class Tickets:
    """The tickets table through the service's pool, on one PostgreSQL (with or without a replica): the bounds of
    all open tickets and of the agent's share are counted at every issue. PerPersonTickets: distributed by person."""

    # The ticket with the forget epoch of the entity the caller names.
    _get = GET_TICKET

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def issue(
        self,
        agent_id: UUID,
        entity_id: UUID,
        token_hash: bytes,
        forget_epoch: int,
        body: str,
        now: datetime,
        expires_at: datetime,
        policy: TicketPolicy,
    ) -> None:
        """Stores a ticket, first making room: long-expired rows go, and the entity keeps its newest ones only."""
        args = _issue_args(agent_id, entity_id, token_hash, forget_epoch, body, now, expires_at, policy)
        async with connection(self._pool) as conn:
            counts = await conn.fetchrow(ISSUE_TICKET, *args, policy.max_total, policy.agent_share)
        assert counts is not None  # the statement always answers one row
        if not counts["stored"]:
            raise Unavailable(full(policy, counts["total"], counts["mine"]))

    async def _void_expired(self, conn: asyncpg.Connection, agent_id: UUID, entity_id: UUID, now: datetime) -> None:
        """The agent's expired tickets lose their content."""
        await conn.execute(VOID_EXPIRED, agent_id, now)

    async def find(self, agent_id: UUID, entity_id: UUID, token_hash: bytes, now: datetime) -> TicketRow | None:
        """The agent's ticket, with `entity_id`'s forget epoch now; an expired one without its content (which
        goes from every expired row of the agent then)."""
        async with connection(self._pool) as conn:
            row = await conn.fetchrow(self._get, agent_id, token_hash, entity_id, now)
            if row is not None and row["expires_at"] <= now:
                await self._void_expired(conn, agent_id, entity_id, now)
            elif row is not None and row["shows_deleted"]:
                await conn.execute(VOID_SHOWING_DELETED, agent_id, token_hash, row["entity_id"])
        if row is None:
            return None
        return TicketRow(
            agent_id=row["agent_id"],
            entity_id=row["entity_id"],
            forget_epoch=row["forget_epoch"],
            expires_at=row["expires_at"],
            used_at=row["used_at"],
            body=None if row["shows_deleted"] else row["body"],
            epoch_now=row["epoch_now"],
        )

    async def use(self, agent_id: UUID, entity_id: UUID, token_hash: bytes, now: datetime) -> bool:
        """True for the one caller that used the ticket; False when it was used (or its entity forgotten) first.
        `entity_id` is the person the ticket was found for (refusal() checked it)."""
        async with connection(self._pool) as conn:
            return await conn.fetchval(USE_TICKET, agent_id, token_hash, now, entity_id) is not None

    async def expire(self, now: datetime) -> int:
        """Drops the content of every expired ticket and the rows kept long enough past their expiry; returns how
        many rows it changed (the retention sweep's part on a database distributed by person)."""
        async with connection(self._pool) as conn:
            changed = int(await conn.fetchval(EXPIRE_TICKETS, now, now - KEPT_AFTER_EXPIRY))
            changed += row_count(await conn.execute(VOID_ALL_SHOWING_DELETED))
            await conn.execute(PRUNE_DELETED_MESSAGES, now - DELETED_IDS_KEPT)
        return changed


class PerPersonTickets(Tickets):
    """The tickets on a database distributed by person (Citus, docs/scaling.md): every statement names the person,
    so it runs on the person's shard alone. A ticket presented for another person is unknown there (NOT_FOUND);
    only the person's bound is kept at an issue; the retention sweep drops expired content (PerPersonRetention)."""

    _get = GET_TICKET_BY_PERSON

    async def issue(
        self,
        agent_id: UUID,
        entity_id: UUID,
        token_hash: bytes,
        forget_epoch: int,
        body: str,
        now: datetime,
        expires_at: datetime,
        policy: TicketPolicy,
    ) -> None:
        """Stores a ticket on the person's shard, first making room among the person's own tickets."""
        args = _issue_args(agent_id, entity_id, token_hash, forget_epoch, body, now, expires_at, policy)
        async with connection(self._pool) as conn:
            await conn.execute(ISSUE_TICKET_BY_PERSON, *args)

    async def _void_expired(self, conn: asyncpg.Connection, agent_id: UUID, entity_id: UUID, now: datetime) -> None:
        """The person's expired tickets lose their content."""
        await conn.execute(VOID_EXPIRED_BY_PERSON, agent_id, now, entity_id)


def _issue_args(
    agent_id: UUID,
    entity_id: UUID,
    token_hash: bytes,
    forget_epoch: int,
    body: str,
    now: datetime,
    expires_at: datetime,
    policy: TicketPolicy,
) -> tuple[object, ...]:
    """$1 to $9 of both issue statements."""
    kept = now - KEPT_AFTER_EXPIRY
    return (agent_id, token_hash, entity_id, forget_epoch, now, expires_at, body, kept, policy.max_per_entity - 1)
