"""Agent-model tickets in PostgreSQL (migration 0010; implements ports.TicketStore): issued bounded, looked up by
the token's hash within the agent, and used at most once (one conditional UPDATE decides between racing callers)."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

import asyncpg

from factmemory.adapters.postgres.connection import connection
from factmemory.domain.errors import Unavailable
from factmemory.domain.tickets import KEPT_AFTER_EXPIRY, TicketPolicy, TicketRow

# One round trip makes room and inserts: rows kept long enough past their expiry go (over all agents, by the expiry
# index), the entity keeps its newest $9 tickets only, and the insert happens only while fewer than $10 remain in
# all (one bound for the database). Sub-statements share one snapshot, so the deleted rows are subtracted.
ISSUE_TICKET = """
WITH swept AS (
    DELETE FROM evaluation_tickets WHERE expires_at < $8 RETURNING 1
), evicted AS (
    DELETE FROM evaluation_tickets
     WHERE agent_id = $1 AND expires_at >= $8 AND token_hash IN (
           SELECT token_hash FROM evaluation_tickets
            WHERE agent_id = $1 AND entity_id = $3
            ORDER BY created_at DESC
            OFFSET $9)
    RETURNING 1
), remaining AS (
    SELECT (SELECT count(*) FROM evaluation_tickets)
         - (SELECT count(*) FROM swept) - (SELECT count(*) FROM evicted) AS n
)
INSERT INTO evaluation_tickets (agent_id, token_hash, entity_id, forget_epoch, created_at, expires_at, body)
SELECT $1, $2, $3, $4, $5, $6, $7 FROM remaining WHERE n < $10
RETURNING token_hash
"""

# The ticket with the current forget epoch of the entity the caller names ($3), in one round trip.
GET_TICKET = """
SELECT t.agent_id, t.entity_id, t.forget_epoch, t.expires_at, t.used_at, t.body,
       coalesce((SELECT f.epoch FROM forget_epochs f WHERE f.agent_id = $1 AND f.entity_id = $3), 0) AS epoch_now
  FROM evaluation_tickets t
 WHERE t.agent_id = $1 AND t.token_hash = $2
"""

# On a database distributed by person (Citus) the ticket is looked up on the person's shard: a ticket presented
# for another person is then unknown there (NOT_FOUND) rather than refused by name (INVALID_ARGUMENT).
GET_TICKET_BY_PERSON = GET_TICKET + " AND t.entity_id = $3"

# The body goes with the use: what the model was shown is not kept once it served.
USE_TICKET = """
UPDATE evaluation_tickets SET used_at = $3, body = NULL
 WHERE agent_id = $1 AND token_hash = $2 AND used_at IS NULL AND body IS NOT NULL
RETURNING token_hash
"""


class Tickets:
    """The tickets table through the service's pool."""

    def __init__(self, pool: asyncpg.Pool, by_person: bool = False) -> None:
        self._pool = pool
        self._get = GET_TICKET_BY_PERSON if by_person else GET_TICKET

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
            stored = await conn.fetchval(
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
            )
        if stored is None:
            raise Unavailable(
                f"{policy.max_total} agent-model tickets are open (FACTMEMORY_MAX_TICKETS); retry in a moment"
            )

    async def find(self, agent_id: UUID, entity_id: UUID, token_hash: bytes) -> TicketRow | None:
        """The agent's ticket, with `entity_id`'s forget epoch now."""
        async with connection(self._pool) as conn:
            row = await conn.fetchrow(self._get, agent_id, token_hash, entity_id)
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
