"""What the write path reads before its plan: the entity's revision, each add's nearest facts of its kind, and the
stored facts with the same exact-duplicate key."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

import asyncpg

from factmemory.adapters.postgres.rows import FACT_COLUMNS, row_to_fact
from factmemory.domain.models import Fact, Kind
from factmemory.ports import Similar, Vector, WriteContext

# The write-time dedup neighbours of one add: the nearest facts of its kind (the rule itself compares within a
# category; possible duplicates are recorded across categories of the kind).
SIMILAR_IN_KIND = f"""
SELECT {FACT_COLUMNS}, 1 - (embedding <=> $4) AS similarity
  FROM facts
 WHERE agent_id = $1 AND entity_id = $2 AND kind = $3 AND archived_at IS NULL
 ORDER BY embedding <=> $4, id
 LIMIT $5
"""

# The exact-duplicate key of each claim (migration 0003: factmemory_claim_key, the one home of the normalisation).
CLAIM_KEYS = "SELECT factmemory_claim_key(c) AS key FROM unnest($1::text[]) WITH ORDINALITY AS t(c, n) ORDER BY n"

FACTS_BY_KEY = f"""
SELECT {FACT_COLUMNS}, claim_key FROM facts WHERE agent_id = $1 AND entity_id = $2 AND claim_key = ANY ($3::text[])
"""

GET_REVISION = "SELECT revision FROM entity_revisions WHERE agent_id = $1 AND entity_id = $2"


async def read_write_context(
    conn: asyncpg.Connection,
    agent_id: UUID,
    entity_id: UUID,
    kinds: Sequence[Kind],
    vectors: Sequence[Vector],
    claims: Sequence[str],
    limit: int,
) -> WriteContext:
    """The entity's revision first, then what the adds are compared with: a write that commits in between only
    makes the revision look older (so the plan is redone), never newer."""
    revision = await conn.fetchval(GET_REVISION, agent_id, entity_id) or 0
    neighbours = []
    for kind, vector in zip(kinds, vectors, strict=True):
        rows = await conn.fetch(SIMILAR_IN_KIND, agent_id, entity_id, kind.value, vector, limit)
        neighbours.append([Similar(row_to_fact(r), float(r["similarity"])) for r in rows])
    keys: list[str | None] = [r["key"] for r in await conn.fetch(CLAIM_KEYS, list(claims))] if claims else []
    by_key: dict[tuple[Kind, str, str], Fact] = {}
    wanted = sorted({k for k in keys if k})
    if wanted:
        for row in await conn.fetch(FACTS_BY_KEY, agent_id, entity_id, wanted):
            fact = row_to_fact(row)
            by_key[(fact.kind, fact.category, row["claim_key"])] = fact
    return WriteContext(int(revision), neighbours, keys, by_key)
