"""What the write path reads before its plan, in one statement: the entity's revision, each add's nearest facts of
its kind, and the stored facts with the same exact-duplicate key."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

import asyncpg

from factmemory.adapters.postgres.rows import FACT_COLUMNS, row_to_fact, vector_array
from factmemory.domain.models import Fact, Kind
from factmemory.ports import Similar, Vector, WriteContext

# $3, $4, $5: each add's kind, vector and claim (add n is the nth). Rows: the revision (in `n`); per add its
# exact-duplicate key (migration 0003: factmemory_claim_key, the one home of the normalisation) and its $6 nearest
# facts of its kind (the rule itself compares within a category; possible duplicates are recorded across categories
# of the kind), nearest first; the stored facts having one of the keys. One statement: one snapshot, so the
# revision is the one the neighbours were read at.
WRITE_CONTEXT = f"""
WITH adds AS MATERIALIZED (
    SELECT a.n, a.kind, a.vec, factmemory_claim_key(a.claim) AS key
      FROM unnest($3::text[], $4::vector[], $5::text[]) WITH ORDINALITY AS a(kind, vec, claim, n)
)
SELECT t.part, t.n, t.key, t.distance, {FACT_COLUMNS}
  FROM (SELECT 'revision' AS part,
               coalesce((SELECT revision FROM entity_revisions WHERE agent_id = $1 AND entity_id = $2), 0)::bigint
                   AS n,
               NULL::text AS key, NULL::float8 AS distance, NULL::uuid AS fact_id
        UNION ALL
        SELECT 'key', adds.n, adds.key, NULL, NULL FROM adds
        UNION ALL
        SELECT 'near', adds.n, NULL, near.distance, near.id
          FROM adds
         CROSS JOIN LATERAL (SELECT f.id, f.embedding <=> adds.vec AS distance
                               FROM facts f
                              WHERE f.agent_id = $1 AND f.entity_id = $2 AND f.kind = adds.kind
                                AND f.archived_at IS NULL
                              ORDER BY f.embedding <=> adds.vec, f.id
                              LIMIT $6) near
        UNION ALL
        SELECT 'keyed', NULL, f.claim_key, NULL, f.id
          FROM facts f
         WHERE f.agent_id = $1 AND f.entity_id = $2 AND f.claim_key IN (SELECT key FROM adds WHERE key IS NOT NULL)
       ) t
  LEFT JOIN facts ON facts.agent_id = $1 AND facts.id = t.fact_id
 ORDER BY t.part, t.n, t.distance, t.fact_id
"""


async def read_write_context(
    conn: asyncpg.Connection,
    agent_id: UUID,
    entity_id: UUID,
    kinds: Sequence[Kind],
    vectors: Sequence[Vector],
    claims: Sequence[str],
    limit: int,
) -> WriteContext:
    """The revision and what the adds are compared with, at one snapshot."""
    rows = await conn.fetch(
        WRITE_CONTEXT,
        agent_id,
        entity_id,
        [k.value for k in kinds],
        vector_array(vectors),
        list(claims),
        limit,
    )
    revision = 0
    neighbours: list[list[Similar]] = [[] for _ in kinds]
    keys: list[str | None] = [None for _ in claims]
    by_key: dict[tuple[Kind, str, str], Fact] = {}
    for row in rows:
        part = row["part"]
        if part == "revision":
            revision = int(row["n"])
        elif part == "key":
            keys[row["n"] - 1] = row["key"]
        elif part == "near":
            neighbours[row["n"] - 1].append(Similar(row_to_fact(row), 1 - float(row["distance"])))
        else:
            fact = row_to_fact(row)
            by_key[(fact.kind, fact.category, row["key"])] = fact
    return WriteContext(revision, neighbours, keys, by_key)
