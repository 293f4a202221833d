"""Agent-model tickets in PostgreSQL (migration 0010; implements ports.TicketStore): issued bounded, looked up by
the token's hash within the agent, and used at most once (one conditional UPDATE decides between racing callers)."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

import asyncpg

from factmemory.adapters.postgres.connection import connection
from factmemory.domain.errors import Unavailable
from factmemory.domain.tickets import KEPT_AFTER_EXPIRY, TicketPolicy, TicketRow, full

# One round trip makes room, counts and inserts. A ticket is OPEN while unused, holding its content and not expired;
# only open tickets count against the bounds. Expired tickets lose their content (over all agents, by the expiry
# index) and rows kept long enough past their expiry go; the entity keeps its newest $9 open tickets only; the
# insert happens only while fewer than $10 are open in all and fewer than $11 for the agent. The counts come back
# either way, so a refusal can say which bound is full. Sub-statements share one snapshot (the rows evicted are
# subtracted), and no row is touched by two of them: voided rows have expired, evicted ones have not, swept ones
# expired before $8.
ISSUE_TICKET = """
WITH voided AS (
    UPDATE evaluation_tickets SET body = NULL
     WHERE expires_at <= $5 AND expires_at >= $8 AND body IS NOT NULL
    RETURNING 1
), swept AS (
    DELETE FROM evaluation_tickets WHERE expires_at < $8 RETURNING 1
), evicted AS (
    DELETE FROM evaluation_tickets
     WHERE agent_id = $1 AND token_hash IN (
           SELECT token_hash FROM evaluation_tickets
            WHERE agent_id = $1 AND entity_id = $3
              AND used_at IS NULL AND body IS NOT NULL AND expires_at > $5
            ORDER BY created_at DESC
            OFFSET $9)
    RETURNING 1
), counts AS (
    SELECT count(*) - (SELECT count(*) FROM evicted) AS total,
           count(*) FILTER (WHERE agent_id = $1) - (SELECT count(*) FROM evicted) AS mine
      FROM evaluation_tickets
     WHERE used_at IS NULL AND body IS NOT NULL AND expires_at > $5
), inserted AS (
    INSERT INTO evaluation_tickets (agent_id, token_hash, entity_id, forget_epoch, created_at, expires_at, body)
    SELECT $1, $2, $3, $4, $5, $6, $7 FROM counts WHERE total < $10 AND mine < $11
    RETURNING 1
)
SELECT (SELECT count(*) FROM inserted) AS stored, total, mine, (SELECT count(*) FROM voided) AS voided FROM counts
"""

# The ticket with the current forget epoch of the entity the caller names ($3), in one round trip. An expired ticket
# is read without its content (VOID_EXPIRED then drops it from the row).
GET_TICKET = """
SELECT t.agent_id, t.entity_id, t.forget_epoch, t.expires_at, t.used_at,
       CASE WHEN t.expires_at > $4 THEN t.body END AS body,
       coalesce((SELECT f.epoch FROM forget_epochs f WHERE f.agent_id = $1 AND f.entity_id = $3), 0) AS epoch_now
  FROM evaluation_tickets t
 WHERE t.agent_id = $1 AND t.token_hash = $2
"""

# The agent's expired tickets lose their content: run when a read meets one (ISSUE_TICKET does it for every agent
# on every issue).
VOID_EXPIRED = """
UPDATE evaluation_tickets SET body = NULL WHERE agent_id = $1 AND expires_at <= $2 AND body IS NOT NULL
"""

# The body goes with the use: what the model was shown is not kept once it served.
USE_TICKET = """
UPDATE evaluation_tickets SET used_at = $3, body = NULL
 WHERE agent_id = $1 AND token_hash = $2 AND used_at IS NULL AND body IS NOT NULL
RETURNING token_hash
"""


class Tickets:
    """The tickets table through the service's pool."""

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
        async with connection(self._pool) as conn:
            counts = await conn.fetchrow(
                ISSUE_TICKET,
                agent_id,
                token_hash,
                entity_id,
                forget_epoch,
                now,
                expires_at,
                body,
                now - KEPT_AFTER_EXPIRY,
                policy.max_per_entity - 1,
                policy.max_total,
                policy.agent_share,
            )
        if not counts["stored"]:
            raise Unavailable(full(policy, counts["total"], counts["mine"]))

    async def find(self, agent_id: UUID, entity_id: UUID, token_hash: bytes, now: datetime) -> TicketRow | None:
        """The agent's ticket, with `entity_id`'s forget epoch now; an expired one without its content (which
        goes from every expired row of the agent then)."""
        async with connection(self._pool) as conn:
            row = await conn.fetchrow(GET_TICKET, agent_id, token_hash, entity_id, now)
            if row is not None and row["expires_at"] <= now:
                await conn.execute(VOID_EXPIRED, agent_id, now)
        if row is None:
            return None
        return TicketRow(
            agent_id=row["agent_id"],
            entity_id=row["entity_id"],
            forget_epoch=row["forget_epoch"],
            expires_at=row["expires_at"],
            used_at=row["used_at"],
            body=row["body"],
            epoch_now=row["epoch_now"],
        )

    async def use(self, agent_id: UUID, token_hash: bytes, now: datetime) -> bool:
        """True for the one caller that used the ticket; False when it was used (or its entity forgotten) first."""
        async with connection(self._pool) as conn:
            return await conn.fetchval(USE_TICKET, agent_id, token_hash, now) is not None
