"""Agents by name in PostgreSQL: the registered names (migration 0016) and every agent with its counts."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

import asyncpg

from factmemory.adapters.postgres.connection import connection
from factmemory.domain.agents import AgentSummary
from factmemory.domain.times import from_storage

REGISTER_AGENT = """
INSERT INTO agents (agent_id, name, registered_at, updated_at) VALUES ($1, $2, $3, $3)
ON CONFLICT (agent_id) DO UPDATE SET name = EXCLUDED.name, updated_at = EXCLUDED.updated_at
"""

AGENT_NAME = "SELECT name FROM agents WHERE agent_id = $1"

# Every agent that holds facts, review items or people's names, or registered a name, with its people (not its
# communities' shared subjects, counted apart: by world, and the agent-wide one); one query over the agent columns
# (a scan of each table: this is the review page's start page and the CLI's name lookup, not a hot path).
# $1 is a LIKE pattern (escaped) matched anywhere in the name and at the start of the id.
LIST_AGENTS = """
WITH people AS (
    SELECT agent_id, entity_id, max(GREATEST(created_at, last_confirmed_at)) AS at, count(*) AS facts, 0 AS pending
      FROM facts GROUP BY agent_id, entity_id
    UNION ALL
    SELECT agent_id, entity_id, max(GREATEST(created_at, resolved_at)), 0, count(*) FILTER (WHERE status = 'pending')
      FROM fact_candidates GROUP BY agent_id, entity_id
    UNION ALL
    SELECT agent_id, entity_id, last_seen_at, 0, 0 FROM entities
), by_agent AS (
    SELECT p.agent_id, count(DISTINCT p.entity_id) FILTER (WHERE s.subject_id IS NULL)::int AS entities,
           count(DISTINCT coalesce(s.world_id::text, 'agent-wide')) FILTER (WHERE s.subject_id IS NOT NULL)::int
               AS communities,
           sum(p.facts)::int AS facts, sum(p.pending)::int AS pending, max(p.at) AS at
      FROM people p
      LEFT JOIN shared_subjects s ON s.agent_id = p.agent_id AND s.subject_id = p.entity_id
     GROUP BY p.agent_id
), summary AS (
    SELECT coalesce(b.agent_id, a.agent_id) AS agent_id, coalesce(a.name, '') AS name,
           coalesce(b.entities, 0) AS entities, coalesce(b.communities, 0) AS communities,
           coalesce(b.facts, 0) AS facts, coalesce(b.pending, 0) AS pending,
           GREATEST(b.at, a.updated_at) AS last_activity
      FROM by_agent b FULL JOIN agents a ON a.agent_id = b.agent_id
)
SELECT * FROM summary
 WHERE ($1 = '' OR name ILIKE '%' || $1 || '%' OR agent_id::text LIKE lower($1) || '%')
   AND ($2::timestamptz IS NULL OR (last_activity, agent_id) < ($2, $3::uuid))
 ORDER BY last_activity DESC, agent_id DESC
 LIMIT $4
"""


class PostgresAgents:
    """Agent names and the agent list through the service's pool (implements ports.AgentStore)."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def register(self, agent_id: UUID, name: str, at: datetime) -> None:
        async with connection(self._pool) as conn:
            await conn.execute(REGISTER_AGENT, agent_id, name, at)

    async def agent_name(self, agent_id: UUID) -> str:
        async with connection(self._pool) as conn:
            name = await conn.fetchval(AGENT_NAME, agent_id)
        return str(name or "")

    async def list_agents(self, pattern: str, after: tuple[datetime, UUID] | None, limit: int) -> list[AgentSummary]:
        at, last_id = after if after is not None else (None, None)
        async with connection(self._pool) as conn:
            rows = await conn.fetch(LIST_AGENTS, pattern, at, last_id, limit)
        return [_summary(r) for r in rows]


def _summary(row: asyncpg.Record) -> AgentSummary:
    return AgentSummary(
        agent_id=row["agent_id"],
        name=row["name"],
        entities=row["entities"],
        communities=row["communities"],
        facts=row["facts"],
        pending_candidates=row["pending"],
        last_activity=None if row["last_activity"] is None else from_storage(row["last_activity"]),
    )
