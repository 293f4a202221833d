"""What the write path reads before its plan, in one statement: the entity's revision, each add's nearest facts of
its kind, and the stored facts with the same exact-duplicate key."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

import asyncpg

from factmemory.adapters.postgres.read.nearest import HALF_MARGIN, SHORTLIST
from factmemory.adapters.postgres.rows import FACT_COLUMNS, row_to_fact, vector_array
from factmemory.domain.models import Fact, Kind
from factmemory.domain.vectors import Vector
from factmemory.ports import Similar, WriteContext

# $3, $4, $5: each add's kind, vector and claim (add n is the nth). Rows: the revision (in `n`); per add its
# exact-duplicate key (migration 0003: factmemory_claim_key, the one home of the normalisation) and its $6 nearest
# facts of its kind (the rule itself compares within a category; possible duplicates are recorded across categories
# of the kind), nearest first; the stored facts having one of the keys. One statement: one snapshot, so the
# revision is the one the neighbours were read at.
# The nearest facts are the exact nearest of a shortlist: the $7 nearest by the half-precision copy, read from the
# narrow covering index of migration 0008 (index-only), of which those within $8 (nearest.HALF_MARGIN: twice the
# most half precision can move a cosine distance) of the $6-th are re-ranked by the exact distance. A kind with at
# most $7 facts is read whole, so the list is exact; beyond that, a fact of the exact $6 nearest is left out only if
# $7 - $6 facts lie within $8 of it, where the neighbours are all alike to the duplicate check anyway. Before
# migration 0052 the planner took the HNSW index here for a large person: approximate, and 9 ms per add at 2,000
# facts.
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
                               FROM (SELECT s.id, s.half,
                                            nth_value(s.half, $6) OVER (ORDER BY s.half, s.id ROWS BETWEEN
                                                UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS kth
                                       FROM (SELECT h.id, h.embedding_half <=> adds.vec::halfvec AS half
                                               FROM facts h
                                              WHERE h.agent_id = $1 AND h.entity_id = $2 AND h.kind = adds.kind
                                                AND h.archived_at IS NULL
                                              ORDER BY half, h.id
                                              LIMIT $7) AS s) AS shortlist
                               JOIN facts f ON f.agent_id = $1 AND f.entity_id = $2 AND f.id = shortlist.id
                              WHERE shortlist.kth IS NULL OR shortlist.half <= shortlist.kth + $8
                              ORDER BY f.embedding <=> adds.vec, f.id
                              LIMIT $6) near
        UNION ALL
        SELECT 'keyed', NULL, f.claim_key, NULL, f.id
          FROM facts f
         WHERE f.agent_id = $1 AND f.entity_id = $2 AND f.claim_key IN (SELECT key FROM adds WHERE key IS NOT NULL)
       ) t
  LEFT JOIN facts ON facts.agent_id = $1 AND facts.entity_id = $2 AND facts.id = t.fact_id
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
        max(SHORTLIST, limit),
        HALF_MARGIN,
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
