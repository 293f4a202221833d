"""Deleted messages in PostgreSQL (ForgetMessages): tombstones in `evaluations` (migration 0015), the facts that
cite a message, their evidence rewritten or the fact deleted, the review items the messages raised closed."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from uuid import UUID

import asyncpg

from factmemory.adapters.postgres import shared
from factmemory.adapters.postgres.connection import connection, locked, row_count
from factmemory.adapters.postgres.erasure import shared_words
from factmemory.adapters.postgres.rows import mark_cte, mark_values
from factmemory.domain.errors import InvalidInput
from factmemory.domain.forget_messages import ACTOR, Cited
from factmemory.domain.models import HistoryAction
from factmemory.domain.shared import SharedSubject
from factmemory.domain.tickets import DELETED_IDS_KEPT

EVALUATED_BY = "SELECT message_id FROM evaluations WHERE agent_id = $1 AND entity_id = $2 ORDER BY message_id"

ENTITIES_IN_ROOM = """
SELECT DISTINCT entity_id FROM evaluations
 WHERE agent_id = $1 AND room_id = $2 AND forgotten_at IS NULL
 ORDER BY entity_id
"""

# Message ids are unique per agent (Evaluate refuses one evaluated for another entity): forgetting one of another
# entity is the caller's mistake.
OF_ANOTHER_ENTITY = """
SELECT message_id FROM evaluations WHERE agent_id = $1 AND message_id = ANY ($3::text[]) AND entity_id <> $2
 ORDER BY message_id
 LIMIT 1
"""

# Evaluated messages become tombstones: the stored response and the message's excerpt go (what replays and
# retention keep: token counts); a replay answers an empty result, and no prompt shows the message again.
TOMBSTONE_EVALUATED = """
UPDATE evaluations
   SET result = factmemory_tombstone(prompt_tokens, completion_tokens),
       success_completed = NULL, success_reason = NULL, excerpt = NULL, forgotten_at = $5,
       reduced_at = coalesce(reduced_at, $5)
 WHERE agent_id = $1 AND entity_id = $2 AND forgotten_at IS NULL
   AND (message_id = ANY ($3::text[]) OR ($4::uuid IS NOT NULL AND room_id = $4::uuid))
RETURNING message_id
"""

# Messages deleted before they were evaluated: a tombstone of their own, so a late Evaluate applies nothing.
TOMBSTONE_UNSEEN = """
INSERT INTO evaluations (agent_id, message_id, entity_id, room_id, result, created_at, forgotten_at, reduced_at,
                         linked_entities)
SELECT $1, m, $2, $4, '{"forgotten": true, "usage": {}}'::jsonb, $5, $5, $5, '{}' FROM unnest($3::text[]) AS m
ON CONFLICT DO NOTHING
RETURNING message_id
"""

# A person vouched for a fact when a reviewer's entry is in its history (AddFact, UpdateFact, a resolution).
CITING = """
SELECT id, evidence_message_ids, confidence,
       EXISTS (SELECT 1 FROM fact_history h
                WHERE h.agent_id = $1 AND h.entity_id = $2 AND h.fact_id = facts.id
                  AND h.actor LIKE 'reviewer:%') AS vouched
  FROM facts
 WHERE agent_id = $1 AND entity_id = $2 AND evidence_message_ids && $3::text[]
 ORDER BY id
   FOR UPDATE
"""

DELETE_FACTS = f"""
WITH {mark_cte(4)}
DELETE FROM facts USING mark WHERE agent_id = $1 AND entity_id = $2 AND id = ANY ($3::uuid[])
"""

# A fact that stays also loses what Provide searched it by from its source message (migration 0072): its source
# terms leave its lexemes (they are the message's terms the claim lacks) and it is searched by its claim's vector.
SET_EVIDENCE = f"""
WITH {mark_cte(6)}
UPDATE facts
   SET evidence_message_ids = $4, confidence = $5,
       lexemes = factmemory_without(lexemes, source_terms), source_terms = '{{}}', search_half = embedding_half
  FROM mark
 WHERE agent_id = $1 AND entity_id = $2 AND id = $3
"""

# Relationships and identities (migration 0045): the deleted messages leave their evidence; a row left with none
# goes when every turn that wrote it is known (evidence_complete). Message ids are unique per agent, so the ids
# find their rows whichever entities they link.
UNLINK_RELATIONSHIPS = """
UPDATE relationships SET evidence_message_ids = factmemory_without(evidence_message_ids, $2::text[])
 WHERE agent_id = $1 AND evidence_message_ids && $2::text[]
"""
UNLINK_IDENTITIES = """
UPDATE identities SET evidence_message_ids = factmemory_without(evidence_message_ids, $2::text[])
 WHERE agent_id = $1 AND evidence_message_ids && $2::text[]
"""
DELETE_UNSUPPORTED_RELATIONSHIPS = """
DELETE FROM relationships WHERE agent_id = $1 AND evidence_message_ids = '{}' AND evidence_complete
"""
DELETE_UNSUPPORTED_IDENTITIES = """
DELETE FROM identities WHERE agent_id = $1 AND evidence_message_ids = '{}' AND evidence_complete
"""

# Distributed by person (Citus): the people whose links the messages' turns wrote are kept with the messages'
# evaluations (migration 0062), so the links are looked for on those people's shards alone, one person per
# statement. NULL: not known (evaluated before 0062), then every link of the agent is looked at.
LINKED_BY = """
SELECT linked_entities FROM evaluations WHERE agent_id = $1 AND entity_id = $2 AND message_id = ANY ($3::text[])
"""
UNLINK_RELATIONSHIPS_OF = UNLINK_RELATIONSHIPS.rstrip() + " AND source_entity_id = $3\n"
UNLINK_IDENTITIES_OF = UNLINK_IDENTITIES.rstrip() + " AND entity_id = $3\n"
DELETE_UNSUPPORTED_RELATIONSHIPS_OF = DELETE_UNSUPPORTED_RELATIONSHIPS.rstrip() + " AND source_entity_id = $2\n"
DELETE_UNSUPPORTED_IDENTITIES_OF = DELETE_UNSUPPORTED_IDENTITIES.rstrip() + " AND entity_id = $2\n"

# Open agent-model tickets that may hold the deleted messages' text lose their content: those of the entity (its
# facts changed too) and any of the agent's whose body names one of the messages (a room-mate's message shown as
# context). Presenting one is then refused by name (domain/tickets.py).
VOID_TICKETS = """
UPDATE evaluation_tickets SET body = NULL
 WHERE agent_id = $1 AND body IS NOT NULL
   AND (entity_id = $2 OR EXISTS (SELECT 1 FROM unnest($3::text[]) AS m WHERE strpos(body, to_json(m)::text) > 0))
"""

# Distributed by person (Citus): the person's own open tickets, on its shard. The agent's other tickets that showed
# one of the messages as a room-mate's context are not looked for (that reads every shard): the recorded ids
# (RECORD_DELETED) make CompleteEvaluation refuse them, and the retention sweep drops their content.
VOID_TICKETS_OF_PERSON = """
UPDATE evaluation_tickets SET body = NULL WHERE agent_id = $1 AND entity_id = $2 AND body IS NOT NULL
"""

# The deleted ids are kept for the agent (migration 0063; a reference table on Citus) so that CompleteEvaluation
# refuses any ticket showing one, wherever it lives (tickets.shows_deleted), and the first read of a turn leaves them
# out of its prompt (turn_start.py); the agent's ids older than DELETED_IDS_KEPT ($2) go. Written on one PostgreSQL
# too: one check for both. One row per statement (executemany, one round trip): Citus routes an INSERT ... VALUES
# into a reference table as one task, where INSERT ... SELECT FROM unnest would be pulled through the coordinator.
PRUNE_DELETED = "DELETE FROM deleted_messages WHERE agent_id = $1 AND deleted_at < $2"
RECORD_DELETED = """
INSERT INTO deleted_messages (agent_id, message_id, deleted_at) VALUES ($1, $2, $3)
ON CONFLICT (agent_id, message_id) DO UPDATE SET deleted_at = excluded.deleted_at
"""

CLOSE_RAISED_CANDIDATES = """
UPDATE fact_candidates SET status = 'rejected', resolved_at = $4, resolved_by = $5
 WHERE agent_id = $1 AND entity_id = $2 AND status = 'pending' AND evidence_message_id = ANY ($3::text[])
"""

CLOSE_RAISED_PAIRS = """
UPDATE possible_duplicates SET status = 'closed', closed_at = $4
 WHERE agent_id = $1 AND entity_id = $2 AND status = 'open' AND evidence_message_id = ANY ($3::text[])
"""


class ForgetTx:
    """One entity's ForgetMessages transaction, holding the per-entity lock (implements ports.ForgetTransaction),
    on one PostgreSQL: it may look at the agent's other people (a message id of another, their tickets and links).
    PerPersonForgetTx: distributed by person."""

    def __init__(self, conn: asyncpg.Connection, agent_id: UUID, entity_id: UUID, at: datetime) -> None:
        self._conn = conn
        self._scope = (agent_id, entity_id)
        self._at = at

    async def tombstone(self, message_ids: Sequence[str], room_id: UUID | None) -> list[str]:
        """Tombstones the messages (and those evaluated in room_id); returns the ids not forgotten before."""
        other = await self._of_another_entity(message_ids)
        if other is not None:
            raise InvalidInput(f"message {other!r} was evaluated for another entity; nothing was forgotten")
        evaluated = await self._conn.fetch(TOMBSTONE_EVALUATED, *self._scope, list(message_ids), room_id, self._at)
        unseen = await self._conn.fetch(TOMBSTONE_UNSEEN, *self._scope, list(message_ids), room_id, self._at)
        return [r["message_id"] for r in [*evaluated, *unseen]]

    async def citing(self, message_ids: Sequence[str]) -> list[tuple[UUID, Cited]]:
        rows = await self._conn.fetch(CITING, *self._scope, list(message_ids))
        return [
            (
                r["id"],
                Cited(evidence=tuple(r["evidence_message_ids"]), confidence=r["confidence"], vouched=r["vouched"]),
            )
            for r in rows
        ]

    async def delete_facts(self, fact_ids: Sequence[UUID], reason: str) -> int:
        mark = mark_values(HistoryAction.DELETED, ACTOR, reason)
        return row_count(await self._conn.execute(DELETE_FACTS, *self._scope, list(fact_ids), *mark))

    async def set_evidence(self, changes: Sequence[tuple[UUID, tuple[str, ...], float]], reason: str) -> None:
        mark = mark_values(HistoryAction.EDITED, ACTOR, reason)
        await self._conn.executemany(SET_EVIDENCE, [(*self._scope, i, list(e), c, *mark) for i, e, c in changes])

    async def unlink(self, message_ids: Sequence[str]) -> tuple[int, int]:
        """Takes the messages out of every relationship's and identity's evidence and deletes those they alone
        supported; returns how many relationships and identities were deleted."""
        agent_id, ids = self._scope[0], list(message_ids)
        linked = await self._linked(ids)
        if linked is None:
            await self._conn.execute(UNLINK_RELATIONSHIPS, agent_id, ids)
            relationships = row_count(await self._conn.execute(DELETE_UNSUPPORTED_RELATIONSHIPS, agent_id))
            await self._conn.execute(UNLINK_IDENTITIES, agent_id, ids)
            identities = row_count(await self._conn.execute(DELETE_UNSUPPORTED_IDENTITIES, agent_id))
            return relationships, identities
        relationships = identities = 0
        for person in linked:
            await self._conn.execute(UNLINK_RELATIONSHIPS_OF, agent_id, ids, person)
            relationships += row_count(await self._conn.execute(DELETE_UNSUPPORTED_RELATIONSHIPS_OF, agent_id, person))
            await self._conn.execute(UNLINK_IDENTITIES_OF, agent_id, ids, person)
            identities += row_count(await self._conn.execute(DELETE_UNSUPPORTED_IDENTITIES_OF, agent_id, person))
        return relationships, identities

    async def _of_another_entity(self, message_ids: Sequence[str]) -> str | None:
        """A message id of the list evaluated for another of the agent's people (the caller's mistake), if any."""
        other: str | None = await self._conn.fetchval(OF_ANOTHER_ENTITY, *self._scope, list(message_ids))
        return other

    async def _linked(self, ids: list[str]) -> list[UUID] | None:
        """The people whose links the messages' turns wrote; None: look at every link of the agent (as here)."""
        return None

    async def void_tickets(self, message_ids: Sequence[str]) -> int:
        """Drops the content of the open tickets that may show the messages, and records the messages as deleted,
        so that CompleteEvaluation refuses any other ticket showing one; returns how many tickets were voided."""
        agent_id, ids = self._scope[0], sorted(set(message_ids))
        await self._conn.execute(PRUNE_DELETED, agent_id, self._at - DELETED_IDS_KEPT)
        await self._conn.executemany(RECORD_DELETED, [(agent_id, i, self._at) for i in ids])
        return await self._void_tickets(ids)

    async def _void_tickets(self, ids: list[str]) -> int:
        """The person's open tickets and any of the agent's whose body names one of the messages."""
        return row_count(await self._conn.execute(VOID_TICKETS, *self._scope, ids))

    async def erase_words(self, message_ids: Sequence[str], deleted: Sequence[UUID]) -> int:
        """A shared subject's words of the messages, past its facts (shared_words.py); review items deleted."""
        return await shared_words.erase(self._conn, *self._scope, message_ids, deleted)

    async def close_raised(self, message_ids: Sequence[str]) -> int:
        """Closes the pending candidates and open possible-duplicate pairs the messages raised; returns the
        number of candidates closed."""
        ids = list(message_ids)
        closed = await self._conn.execute(CLOSE_RAISED_CANDIDATES, *self._scope, ids, self._at, ACTOR)
        await self._conn.execute(CLOSE_RAISED_PAIRS, *self._scope, ids, self._at)
        return row_count(closed)


class PostgresMessages:
    """ForgetMessages' reads and transactions through the service's pool (implements ports.MessageStore)."""

    # One entity's transaction (PerPersonMessages: distributed by person).
    _tx: type[ForgetTx] = ForgetTx

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def entities_in_room(self, agent_id: UUID, room_id: UUID) -> list[UUID]:
        async with connection(self._pool) as conn:
            return [r["entity_id"] for r in await conn.fetch(ENTITIES_IN_ROOM, agent_id, room_id)]

    async def evaluated_by(self, agent_id: UUID, entity_id: UUID) -> list[str]:
        async with connection(self._pool) as conn:
            return [r["message_id"] for r in await conn.fetch(EVALUATED_BY, agent_id, entity_id)]

    async def shared_subjects(self, agent_id: UUID) -> list[SharedSubject]:
        """The agent's shared subjects: its worlds', the agent-wide one, the held claims'."""
        async with connection(self._pool) as conn:
            return await shared.list_subjects(conn, agent_id)

    @asynccontextmanager
    async def forgetting(
        self, agent_id: UUID, entity_ids: Sequence[UUID], at: datetime, shared_ids: Sequence[UUID] = ()
    ) -> AsyncIterator[list[ForgetTx]]:
        """One transaction over the entities, each one's lock taken in id order, then the shared subjects' in the
        given order (after every person's, as Evaluate takes them); commits on success."""
        people = sorted(set(entity_ids) - set(shared_ids))
        async with locked(self._pool, agent_id, *people, *shared_ids) as (conn, _):
            yield [self._tx(conn, agent_id, e, at) for e in [*people, *shared_ids]]


class PerPersonForgetTx(ForgetTx):
    """One entity's ForgetMessages transaction on a database distributed by person (Citus, docs/scaling.md): it
    stays on the person's shard where it can. Message ids are unique per person there (no look for another's);
    the person's own tickets are voided (a room-mate's showing a message is refused by its recorded id); links are
    looked for on the shards of the people the turns linked, when every message's are recorded."""

    async def _of_another_entity(self, message_ids: Sequence[str]) -> str | None:
        return None

    async def _linked(self, ids: list[str]) -> list[UUID] | None:
        rows = await self._conn.fetch(LINKED_BY, *self._scope, ids)
        if len(rows) < len(set(ids)) or any(r["linked_entities"] is None for r in rows):
            return None
        return sorted({person for r in rows for person in r["linked_entities"]})

    async def _void_tickets(self, ids: list[str]) -> int:
        return row_count(await self._conn.execute(VOID_TICKETS_OF_PERSON, *self._scope))


class PerPersonMessages(PostgresMessages):
    """ForgetMessages' store on a database distributed by person: its transactions are PerPersonForgetTx."""

    _tx = PerPersonForgetTx
