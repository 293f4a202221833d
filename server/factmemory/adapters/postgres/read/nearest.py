"""The ranking queries: nearest facts per kind by vector (exact, with a half-precision shortlist for large
entities), the provider's hybrid pool (nearest plus full-text matches), and the full-text fallback."""

from __future__ import annotations

from uuid import UUID

from factmemory.adapters.postgres.deployment.replica import Reads
from factmemory.adapters.postgres.rows import DISPUTED_BY, FACT_COLUMNS, row_to_fact
from factmemory.domain.vectors import Vector
from factmemory.ports import Similar


# Nearest facts per kind, exactly as `ORDER BY embedding <=> $3, id`, in one round trip (migration 0008).
# A kind with more than $6 live facts is ranked from a shortlist: its facts' half-precision vectors, read from the
# covering index facts_nearest_half_idx (an index-only scan of ~0.8 kB per fact instead of ~2 kB wide heap rows),
# keep those within $7 of the $4-th best half-precision distance, re-ranked by the exact distance. $7 is twice the
# largest difference rounding to half precision can make to a cosine distance (below 2.5e-3, see HALF_MARGIN), so
# no fact outside the shortlist can rank above the $4-th. When the shortlist cannot prove that (it ends within $7
# of the $4-th), and for kinds with at most $6 facts, the exact plan runs: the scope index and a sort, as before.
def _nearest_cte(kind: str, limit: str) -> str:
    return f"""
{kind}_half AS MATERIALIZED (
    SELECT id, embedding_half <=> (SELECT $3::vector::halfvec) AS distance
      FROM facts
     WHERE agent_id = $1 AND entity_id = $2 AND kind = '{kind}' AND archived_at IS NULL
     ORDER BY distance
     LIMIT $6),
{kind}_kth AS (
    SELECT distance FROM {kind}_half ORDER BY distance OFFSET GREATEST({limit}, 1) - 1 LIMIT 1),
{kind}_cut AS (
    SELECT coalesce(count(*) = $6 AND max(distance) > (SELECT distance FROM {kind}_kth) + $7, false) AS shortlisted,
           (SELECT distance FROM {kind}_kth) + $7 AS bound
      FROM {kind}_half)"""


def nearest_of_kind(kind: str, limit: str, extra: str = "") -> str:
    return f"""
(SELECT {FACT_COLUMNS}, {DISPUTED_BY}, 1 - (embedding <=> $3) AS similarity{extra}
   FROM facts
  WHERE agent_id = $1 AND entity_id = $2
    AND id IN (SELECT id FROM {kind}_half WHERE distance <= (SELECT bound FROM {kind}_cut))
    AND (SELECT shortlisted FROM {kind}_cut)
  ORDER BY embedding <=> $3, id
  LIMIT {limit})
UNION ALL
(SELECT {FACT_COLUMNS}, {DISPUTED_BY}, 1 - (embedding <=> $3) AS similarity{extra}
   FROM facts
  WHERE agent_id = $1 AND entity_id = $2 AND kind = '{kind}' AND archived_at IS NULL
    AND NOT (SELECT shortlisted FROM {kind}_cut)
  ORDER BY (embedding <=> $3) + 0, id
  LIMIT {limit})"""


NEAREST_CTES = f"WITH {_nearest_cte('durable', '$4')},{_nearest_cte('current', '$5')}"
NEAREST_BY_KIND = f"""
{NEAREST_CTES}
{nearest_of_kind("durable", "$4")}
UNION ALL
{nearest_of_kind("current", "$5")}
"""
# Shortlist size per kind (also the entity size from which the shortlist is used) and its margin: rounding each
# component to half precision changes it by at most 2^-11 relatively, which moves a cosine by at most ~4 x 2^-11
# (1.95e-3) plus float rounding of the sums; 2.5e-3 bounds it, and a distance within twice that may be either side.
SHORTLIST = 200
HALF_MARGIN = 2 * 2.5e-3

# Fallback ranking without embeddings: the turn's terms ($3: the language layer's stems joined by |) matched
# against each fact's stored stems (facts.lexemes, written by the same layer, migration 0055), plus recency, both kinds.
TEXT_SEARCH_BY_KIND = f"""
(SELECT {FACT_COLUMNS}, {DISPUTED_BY}, ts_rank(array_to_tsvector(lexemes), to_tsquery('simple', $3)) AS similarity
   FROM facts
  WHERE agent_id = $1 AND entity_id = $2 AND kind = 'durable' AND archived_at IS NULL
  ORDER BY similarity DESC, confidence DESC, id
  LIMIT $4)
UNION ALL
(SELECT {FACT_COLUMNS}, {DISPUTED_BY}, ts_rank(array_to_tsvector(lexemes), to_tsquery('simple', $3)) AS similarity
   FROM facts
  WHERE agent_id = $1 AND entity_id = $2 AND kind = 'current' AND archived_at IS NULL
  ORDER BY similarity DESC, valid_at DESC NULLS LAST, id
  LIMIT $5)
"""


def nearest_args(embedding: Vector, durable_limit: int, current_limit: int) -> tuple[object, ...]:
    """$3 to $7 of NEAREST_BY_KIND: the shortlist is SHORTLIST, or longer for large limits (it must reach past them)."""
    shortlist = max(SHORTLIST, 4 * max(durable_limit, current_limit))
    return embedding, durable_limit, current_limit, shortlist, HALF_MARGIN


class NearestReads:
    """ports.NearestFacts over `reads`: the store of Evaluate (on the primary) and Provide's (`replica_ok`)."""

    reads: Reads

    async def nearest(
        self,
        agent_id: UUID,
        entity_id: UUID,
        embedding: Vector,
        durable_limit: int,
        current_limit: int,
        *,
        replica_ok: bool = False,
    ) -> list[Similar]:
        args = nearest_args(embedding, durable_limit, current_limit)
        return await self.ranked(replica_ok, NEAREST_BY_KIND, agent_id, entity_id, *args)

    async def ranked(
        self, replica_ok: bool, query: str, agent_id: UUID, entity_id: UUID, *args: object
    ) -> list[Similar]:
        """Rows of a per-kind ranking query (NEAREST_BY_KIND, TEXT_SEARCH_BY_KIND), each with its `similarity`."""
        rows = await self.reads.run(
            agent_id, entity_id, lambda conn: conn.fetch(query, agent_id, entity_id, *args), replica_ok
        )
        return [Similar(row_to_fact(r), float(r["similarity"])) for r in rows]
