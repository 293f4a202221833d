"""Shared subjects (domain/shared.py): a write transaction entering one besides its person, and the table that
names them (migration 0070)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

import asyncpg

from factmemory.adapters.postgres.connection import connection, lock_entity
from factmemory.adapters.postgres.erasure.forgetting import forget_entity
from factmemory.adapters.postgres.rows import RECORD_NAME
from factmemory.domain.shared import ClaimSource, Scope, SharedSubject, label, subject_of

RECORD_SUBJECT = """
INSERT INTO shared_subjects (agent_id, subject_id, scope, world_id) VALUES ($1, $2, $3, $4)
ON CONFLICT (agent_id, subject_id) DO NOTHING
RETURNING subject_id
"""

# Which of the ids $2 are recorded shared subjects of the agent (a person's id is never one).
RECORDED_AMONG = """
SELECT subject_id FROM shared_subjects WHERE agent_id = $1 AND subject_id = ANY ($2::uuid[])
"""

# A world's name on its recorded subjects ($2 the world), when it is newer than the stored one and differs (a turn
# that repeats the name writes nothing). Latest wins by the message's time ($4).
NAME_WORLD = """
UPDATE shared_subjects SET name = $3, named_at = $4
 WHERE agent_id = $1 AND world_id = $2 AND name IS DISTINCT FROM $3 AND (named_at IS NULL OR named_at <= $4)
"""

LIST_SUBJECTS = """
SELECT scope, world_id FROM shared_subjects WHERE agent_id = $1 ORDER BY scope, world_id
"""

GET_SUBJECT = """
SELECT scope, world_id FROM shared_subjects WHERE agent_id = $1 AND subject_id = $2
"""


# Provenance of a shared fact: its messages' excerpts, each named by who said it (the teacher). The evaluations are
# the teachers' (a shared subject has none of its own); only for a subject of shared_subjects.
TEACHING_SOURCES = """
SELECT ev.message_id, coalesce(nullif(n.name, ''), ev.entity_id::text) || ': ' || ev.excerpt AS excerpt, ev.created_at
  FROM evaluations ev
  LEFT JOIN entities n ON n.agent_id = ev.agent_id AND n.entity_id = ev.entity_id
 WHERE ev.agent_id = $1 AND ev.message_id = ANY ($3::text[]) AND ev.excerpt IS NOT NULL
   AND EXISTS (SELECT 1 FROM shared_subjects s WHERE s.agent_id = $1 AND s.subject_id = $2)
 ORDER BY ev.created_at, ev.message_id
"""


# Who said each message (its evaluation's entity and name) and its kept excerpt: the speakers of shared claims.
CLAIM_SOURCES = """
SELECT ev.message_id, ev.entity_id, coalesce(n.name, '') AS name, ev.excerpt
  FROM evaluations ev
  LEFT JOIN entities n ON n.agent_id = ev.agent_id AND n.entity_id = ev.entity_id
 WHERE ev.agent_id = $1 AND ev.message_id = ANY ($2::text[]) AND ev.excerpt IS NOT NULL
"""


async def enter(conn: asyncpg.Connection, agent_id: UUID, subject: SharedSubject, at: datetime) -> int:
    """Takes the subject's lock in the caller's transaction (after its person's: the order is always person,
    held, world, agent), records the subject and its name; the subject's revision under the lock."""
    revision = await lock_entity(conn, agent_id, subject.subject_id)
    recorded = await conn.fetchval(RECORD_SUBJECT, agent_id, subject.subject_id, subject.scope.value, subject.world_id)
    if recorded is not None:
        # Recorded now: whatever its id held before was stored by a caller using it as a person's id (refused
        # since, but not for a world never seen): none of it may become the world's.
        await forget_entity(conn, agent_id, subject.subject_id)
    await conn.execute(RECORD_NAME, agent_id, subject.subject_id, label(subject), at)
    return revision


async def name_world(conn: asyncpg.Connection, agent_id: UUID, world_id: UUID, name: str, at: datetime) -> None:
    """The world's name on its recorded subjects (the world's and the held one), unless a later one is stored."""
    await conn.execute(NAME_WORLD, agent_id, world_id, name, at)


async def recorded_among(conn: asyncpg.Connection, agent_id: UUID, ids: Sequence[UUID]) -> frozenset[UUID]:
    """The ids of `ids` that are recorded shared subjects of the agent."""
    return frozenset(r["subject_id"] for r in await conn.fetch(RECORDED_AMONG, agent_id, list(ids)))


async def list_subjects(conn: asyncpg.Connection, agent_id: UUID) -> list[SharedSubject]:
    rows = await conn.fetch(LIST_SUBJECTS, agent_id)
    return [subject_of(agent_id, Scope(r["scope"]), r["world_id"]) for r in rows]


async def get_subject(conn: asyncpg.Connection, agent_id: UUID, subject_id: UUID) -> SharedSubject | None:
    row = await conn.fetchrow(GET_SUBJECT, agent_id, subject_id)
    return None if row is None else subject_of(agent_id, Scope(row["scope"]), row["world_id"])


class SubjectReads:
    """The fact stores' reads of shared subjects (on the primary: a subject is recorded once, for good)."""

    _pool: asyncpg.Pool

    async def shared_among(self, agent_id: UUID, ids: Sequence[UUID]) -> frozenset[UUID]:
        """The ids of `ids` that are the agent's recorded shared subjects (domain/shared.py)."""
        async with connection(self._pool) as conn:
            return await recorded_among(conn, agent_id, ids)

    async def claim_sources(self, agent_id: UUID, message_ids: Sequence[str]) -> list[ClaimSource]:
        """Who said each of the messages, with its kept excerpt (messages whose words are not kept are left out)."""
        async with connection(self._pool) as conn:
            rows = await conn.fetch(CLAIM_SOURCES, agent_id, list(message_ids))
        return [ClaimSource(r["message_id"], r["entity_id"], r["name"], r["excerpt"]) for r in rows]

    async def shared_subject(self, agent_id: UUID, subject_id: UUID) -> SharedSubject | None:
        """The shared subject (domain/shared.py) this entity id is, or None for a person."""
        async with connection(self._pool) as conn:
            return await get_subject(conn, agent_id, subject_id)
