"""Agent-model tickets in PostgreSQL (migration 0010; implements ports.TicketStore): issued bounded, looked up by
the token's hash within the agent, and used at most once (one conditional UPDATE decides between racing callers)."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

import asyncpg

from factmemory.adapters.postgres.store import _connection
from factmemory.domain.errors import Unavailable
from factmemory.domain.tickets import KEPT_AFTER_EXPIRY, TicketPolicy, TicketRow

# Deliberately over all agents, like the expiry index it uses: rows kept this long past their expiry go.
SWEEP_TICKETS = "DELETE FROM evaluation_tickets WHERE expires_at < $1"

# The entity's newest $3 tickets stay; older ones (open, used or expired) are evicted to make room for one more.
EVICT_OLDEST = """
DELETE FROM evaluation_tickets
 WHERE agent_id = $1 AND token_hash IN (
       SELECT token_hash FROM evaluation_tickets
        WHERE agent_id = $1 AND entity_id = $2
        ORDER BY created_at DESC
        OFFSET $3)
"""

# Deliberately over all agents: the total bound (FACTMEMORY_MAX_TICKETS) is one for the database.
COUNT_TICKETS = "SELECT count(*) FROM evaluation_tickets"

INSERT_TICKET = """
INSERT INTO evaluation_tickets (agent_id, token_hash, entity_id, forget_epoch, created_at, expires_at, body)
VALUES ($1, $2, $3, $4, $5, $6, $7)
"""

GET_TICKET = """
SELECT agent_id, entity_id, forget_epoch, expires_at, used_at, body
  FROM evaluation_tickets
 WHERE agent_id = $1 AND token_hash = $2
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
        async with _connection(self._pool) as conn, conn.transaction():
            await conn.execute(SWEEP_TICKETS, now - KEPT_AFTER_EXPIRY)
            await conn.execute(EVICT_OLDEST, agent_id, entity_id, policy.max_per_entity - 1)
            if int(await conn.fetchval(COUNT_TICKETS)) >= policy.max_total:
                raise Unavailable(
                    f"{policy.max_total} agent-model tickets are open (FACTMEMORY_MAX_TICKETS); retry in a moment"
                )
            await conn.execute(INSERT_TICKET, agent_id, token_hash, entity_id, forget_epoch, now, expires_at, body)

    async def find(self, agent_id: UUID, token_hash: bytes) -> TicketRow | None:
        async with _connection(self._pool) as conn:
            row = await conn.fetchrow(GET_TICKET, agent_id, token_hash)
        if row is None:
            return None
        return TicketRow(
            agent_id=row["agent_id"],
            entity_id=row["entity_id"],
            forget_epoch=row["forget_epoch"],
            expires_at=row["expires_at"],
            used_at=row["used_at"],
            body=row["body"],
        )

    async def use(self, agent_id: UUID, token_hash: bytes, now: datetime) -> bool:
        """True for the one caller that used the ticket; False when it was used (or its entity forgotten) first."""
        async with _connection(self._pool) as conn:
            return await conn.fetchval(USE_TICKET, agent_id, token_hash, now) is not None
