"""The PostgreSQL edge: every query, scoped by (agent_id, entity_id), as a named constant with $n parameters."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID, uuid4

import asyncpg
from pgvector.asyncpg import register_vector

from factmemory.adapters.postgres import review
from factmemory.adapters.postgres.review import DISPUTED_BY, FACT_COLUMNS, ReviewTx, fact_values, mark, row_to_fact
from factmemory.domain.duplicates import MergedFact, OpenPair
from factmemory.domain.errors import Conflict, Unavailable
from factmemory.domain.models import (
    Candidate,
    CandidateSource,
    CandidateStatus,
    EntitySummary,
    EvaluateResult,
    Fact,
    ForgetCounts,
    HistoryAction,
    HistoryEntry,
    Identity,
    Kind,
    Relationship,
)
from factmemory.domain.times import from_storage
from factmemory.ports import NO_HOP, Hop, NewFact, Position, Similar, Vector, WriteContext

if TYPE_CHECKING:
    from factmemory.adapters.postgres.replica import ReadRoute

T = TypeVar("T")


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


def _nearest_of_kind(kind: str, limit: str, extra: str = "") -> str:
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
{_nearest_of_kind("durable", "$4")}
UNION ALL
{_nearest_of_kind("current", "$5")}
"""
# Shortlist size per kind (also the entity size from which the shortlist is used) and its margin: rounding each
# component to half precision changes it by at most 2^-11 relatively, which moves a cosine by at most ~4 x 2^-11
# (1.95e-3) plus float rounding of the sums; 2.5e-3 bounds it, and a distance within twice that may be either side.
SHORTLIST = 200
HALF_MARGIN = 2 * 2.5e-3

# Facts containing any of the turn's words ($8: to_tsquery operands, one per word; GIN index on `search`),
# at most $9 per word in id order, so a rare word ("Bertha", "150") brings in every fact it is in while a
# common one cannot flood the pool. Each with its cosine, so both signals are known for every candidate.
# The entity's facts matching any word are read once (one GIN lookup, or one walk of the entity's range when the
# cached generic plan takes the scope index), then split by word: one lookup per word made the generic plan walk
# a 20,000-fact entity once per word (~5 ms).
ANY_TERM_CTE = """
any_term AS MATERIALIZED (
    SELECT id, search FROM facts
     WHERE agent_id = $1 AND entity_id = $2 AND archived_at IS NULL
       AND search @@ to_tsquery('simple', array_to_string($8::text[], ' | ')))"""
TEXT_MATCHES = f"""
SELECT {FACT_COLUMNS}, {DISPUTED_BY}, 1 - (embedding <=> $3) AS similarity
  FROM (SELECT DISTINCT m.id AS hit_id
          FROM unnest($8::text[]) AS t(term)
         CROSS JOIN LATERAL (
               SELECT id FROM any_term
                WHERE search @@ to_tsquery('simple', t.term)
                ORDER BY id
                LIMIT $9) AS m) AS hits
  JOIN facts ON facts.agent_id = $1 AND facts.id = hits.hit_id
 WHERE agent_id = $1 AND entity_id = $2
"""

# The provider's candidate pool: nearest by vector per kind plus full-text matches, in one round trip.
HYBRID_BY_KIND = f"""
{NEAREST_CTES},{ANY_TERM_CTE}
{_nearest_of_kind("durable", "$4")}
UNION ALL
{_nearest_of_kind("current", "$5")}
UNION ALL
({TEXT_MATCHES})
"""

# Lexical evidence weighed by the person's facts (migration 0009): the turn's English stems ($8: the turn's text),
# each weighted by its inverse document frequency over the entity's live facts, ln(N / df) from entity_lexemes (a
# stem in every fact, such as the person's own name, weighs exactly 0); per candidate, the summed weight of the
# turn's stems it contains (`lexical`) and of all the turn's stems the person has (`lexical_total`). Candidates:
# nearest by vector per kind, plus every fact containing one of the turn's $10 rarest stems found in at most $9 of
# the entity's facts.
LEXICAL_CTES = """
turn AS MATERIALIZED (SELECT DISTINCT unnest(factmemory_lexemes($8)) AS lexeme),
counts AS MATERIALIZED (
    SELECT lexeme, facts FROM entity_lexemes
     WHERE agent_id = $1 AND entity_id = $2 AND lexeme = ANY (ARRAY(SELECT lexeme FROM turn) || ''::text)),
weights AS MATERIALIZED (
    SELECT c.lexeme, c.facts AS df, ln(greatest(n.facts, c.facts)::float8 / c.facts) AS idf
      FROM counts c CROSS JOIN (SELECT facts FROM counts WHERE lexeme = '') AS n
     WHERE c.lexeme <> ''),
rare AS MATERIALIZED (
    SELECT array_agg(lexeme) AS stems
      FROM (SELECT lexeme FROM weights WHERE df <= $9 ORDER BY df, lexeme LIMIT $10) AS r),"""
# The second hop: the $11 facts nearest the turn (of either kind) are seeds; a word of a seed that is not in the
# turn and is in at most $12 of the entity's facts (a name: "Ines has an aunt called Radomir") links the seed to
# the other facts containing it ("Radomir is training for an ironman"), at most $13 of them, each with its
# nearest seed (`via`).
LINKED_CTES = """
seeds AS MATERIALIZED (
    SELECT id, distance
      FROM (SELECT id, distance FROM durable_half UNION ALL SELECT id, distance FROM current_half) AS s
     ORDER BY distance, id
     LIMIT $11),
links AS MATERIALIZED (
    SELECT s.id AS seed, s.distance, l.lexeme
      FROM seeds s
      JOIN facts f ON f.agent_id = $1 AND f.id = s.id
     CROSS JOIN LATERAL unnest(f.lexemes) AS l(lexeme)
      JOIN entity_lexemes e ON e.agent_id = $1 AND e.entity_id = $2 AND e.lexeme = l.lexeme AND e.facts <= $12
     WHERE l.lexeme NOT IN (SELECT lexeme FROM turn)),
linked AS MATERIALIZED (
    SELECT DISTINCT ON (f.id) f.id, k.seed
      FROM facts f
      JOIN links k ON k.lexeme = ANY (f.lexemes)
     WHERE f.agent_id = $1 AND f.entity_id = $2 AND f.archived_at IS NULL
       AND f.lexemes && (SELECT coalesce(array_agg(lexeme), '{}') FROM links)
       AND f.id NOT IN (SELECT id FROM seeds)
     ORDER BY f.id, k.distance, k.seed
     LIMIT $13)"""
LEXICAL_COLUMNS = """,
       (SELECT coalesce(sum(w.idf), 0) FROM weights w WHERE w.lexeme = ANY (facts.lexemes))::float8 AS lexical,
       (SELECT coalesce(sum(w.idf), 0) FROM weights w)::float8 AS lexical_total"""
UNLINKED = f"{LEXICAL_COLUMNS}, NULL::uuid AS via"
LEXICAL_BY_KIND = f"""
{NEAREST_CTES},{LEXICAL_CTES}{LINKED_CTES}
{_nearest_of_kind("durable", "$4", UNLINKED)}
UNION ALL
{_nearest_of_kind("current", "$5", UNLINKED)}
UNION ALL
(SELECT {FACT_COLUMNS}, {DISPUTED_BY}, 1 - (embedding <=> $3) AS similarity{UNLINKED}
   FROM facts
  WHERE agent_id = $1 AND entity_id = $2 AND archived_at IS NULL AND lexemes && (SELECT stems FROM rare)
  ORDER BY id
  LIMIT $9 * $10)
UNION ALL
(SELECT {FACT_COLUMNS}, {DISPUTED_BY}, 1 - (embedding <=> $3) AS similarity{LEXICAL_COLUMNS},
        (SELECT l.seed FROM linked l WHERE l.id = facts.id) AS via
   FROM facts
  WHERE agent_id = $1 AND entity_id = $2 AND id IN (SELECT l.id FROM linked l))
"""

# Fallback ranking without embeddings: full-text match ($3: words joined by |) plus recency, both kinds.
TEXT_SEARCH_BY_KIND = f"""
(SELECT {FACT_COLUMNS}, {DISPUTED_BY}, ts_rank(search, to_tsquery('simple', $3)) AS similarity
   FROM facts
  WHERE agent_id = $1 AND entity_id = $2 AND kind = 'durable' AND archived_at IS NULL
  ORDER BY similarity DESC, confidence DESC, id
  LIMIT $4)
UNION ALL
(SELECT {FACT_COLUMNS}, {DISPUTED_BY}, ts_rank(search, to_tsquery('simple', $3)) AS similarity
   FROM facts
  WHERE agent_id = $1 AND entity_id = $2 AND kind = 'current' AND archived_at IS NULL
  ORDER BY similarity DESC, valid_at DESC NULLS LAST, id
  LIMIT $5)
"""

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

GET_FACT = f"""
SELECT {FACT_COLUMNS} FROM facts WHERE agent_id = $1 AND entity_id = $2 AND id = $3
"""

STRENGTHEN_FACT = f"""
UPDATE facts
   SET confidence = CASE WHEN $6 = ANY (evidence_message_ids) THEN confidence  -- one message supports a fact once
                         ELSE round(LEAST(1.0, confidence + $4)::numeric, 4)::float8 END,
       last_confirmed_at = GREATEST(last_confirmed_at, $5),
       evidence_message_ids = CASE WHEN $6 = ANY (evidence_message_ids) THEN evidence_message_ids
                                   ELSE array_append(evidence_message_ids, $6) END,
       category = CASE WHEN category = 'uncategorized' THEN $7 ELSE category END,
       verification_status = CASE WHEN $8 = 'confirmed' THEN 'confirmed' ELSE verification_status END
 WHERE agent_id = $1 AND entity_id = $2 AND id = $3
RETURNING {FACT_COLUMNS}
"""

DECAY_FACT = f"""
UPDATE facts
   SET confidence = round(GREATEST(0.0, confidence - $4)::numeric, 4)::float8
 WHERE agent_id = $1 AND entity_id = $2 AND id = $3
RETURNING {FACT_COLUMNS}
"""

DELETE_FACT = "DELETE FROM facts WHERE agent_id = $1 AND entity_id = $2 AND id = $3"

RECLASSIFY_FACT = f"""
UPDATE facts SET kind = $4, category = $5, valid_at = CASE WHEN $4 = 'current' THEN coalesce(valid_at, created_at)
                                                           ELSE NULL END
 WHERE agent_id = $1 AND entity_id = $2 AND id = $3
RETURNING {FACT_COLUMNS}
"""

# Not between two facts a reviewer kept as both true.
INSERT_CANDIDATE = """
INSERT INTO fact_candidates (id, agent_id, entity_id, fact_id, related_fact_id, proposed_claim, reason, source,
                             evidence_message_id, status, created_at)
SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', $10
 WHERE NOT EXISTS (SELECT 1 FROM kept_pairs k
                    WHERE k.agent_id = $2 AND k.entity_id = $3
                      AND k.fact_a = LEAST($4::uuid, $5::uuid) AND k.fact_b = GREATEST($4::uuid, $5::uuid))
RETURNING id
"""

UPSERT_RELATIONSHIP = """
INSERT INTO relationships (agent_id, source_entity_id, target_entity_id, tags, interaction_count,
                           created_at, updated_at)
VALUES ($1, $2, $3, $4, 1, $5, $5)
ON CONFLICT (agent_id, source_entity_id, target_entity_id) DO UPDATE
   -- At most $6 tags: the ones it had first, then new ones while room is left; sorted.
   SET tags = ARRAY(SELECT t FROM (SELECT t, min(o) AS first
                                     FROM unnest(relationships.tags || EXCLUDED.tags) WITH ORDINALITY AS u(t, o)
                                    GROUP BY t ORDER BY first LIMIT $6) AS kept
                     ORDER BY t),
       interaction_count = relationships.interaction_count + 1,
       updated_at = GREATEST(relationships.updated_at, EXCLUDED.updated_at)
RETURNING source_entity_id, target_entity_id, tags, interaction_count
"""

UPSERT_IDENTITY = """
INSERT INTO identities (agent_id, entity_id, platform, handle, confidence, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $6)
ON CONFLICT (agent_id, entity_id, platform, handle) DO UPDATE
   SET confidence = GREATEST(identities.confidence, EXCLUDED.confidence),
       updated_at = GREATEST(identities.updated_at, EXCLUDED.updated_at)
RETURNING entity_id, platform, handle, confidence
"""

# Serializes the write path per (agent, entity): confidences and dedup see every earlier turn. Taking the lock also
# bumps the entity's revision, so a write planned before the lock can tell whether anything changed since.
LOCK_ENTITY = """
WITH locked AS (SELECT pg_advisory_xact_lock(hashtextextended($1::text || '/' || $2::text, 0)))
INSERT INTO entity_revisions AS r (agent_id, entity_id, revision)
SELECT $1::text::uuid, $2::text::uuid, 1 FROM locked
ON CONFLICT (agent_id, entity_id) DO UPDATE SET revision = r.revision + 1
RETURNING revision
"""

OPEN_PAIRS = f"""
SELECT p.first_id, p.second_id, {FACT_COLUMNS}
  FROM (SELECT fact_id AS first_id, other_fact_id AS second_id, created_at AS pair_created
          FROM possible_duplicates
         WHERE agent_id = $1 AND entity_id = $2 AND status = 'open'
         ORDER BY created_at, fact_id, other_fact_id
         LIMIT $3) p
  JOIN facts ON facts.agent_id = $1 AND facts.id IN (p.first_id, p.second_id)
 ORDER BY p.pair_created, p.first_id, p.second_id, facts.id
"""

# Not between two facts a reviewer kept as both true.
INSERT_PAIR = """
INSERT INTO possible_duplicates (agent_id, entity_id, fact_id, other_fact_id, similarity, reason,
                                 evidence_message_id, created_at)
SELECT $1, $2, LEAST($3::uuid, $4::uuid), GREATEST($3::uuid, $4::uuid), $5, $6, $7, $8
 WHERE NOT EXISTS (SELECT 1 FROM kept_pairs k
                    WHERE k.agent_id = $1 AND k.entity_id = $2
                      AND k.fact_a = LEAST($3::uuid, $4::uuid) AND k.fact_b = GREATEST($3::uuid, $4::uuid))
ON CONFLICT (agent_id, fact_id, other_fact_id) DO NOTHING
"""

CLOSE_PAIR = """
UPDATE possible_duplicates SET status = 'closed', closed_at = $5
 WHERE agent_id = $1 AND entity_id = $2 AND fact_id = LEAST($3::uuid, $4::uuid)
   AND other_fact_id = GREATEST($3::uuid, $4::uuid) AND status = 'open'
"""

# A merge: the kept fact takes the united values, the duplicate's candidates move to it (or close when they were
# about the two facts themselves), and the duplicate is deleted (its pairs go with it).
MERGE_INTO_KEPT = f"""
UPDATE facts
   SET confidence = $5, evidence_message_ids = $6, previous_claims = $7,
       last_confirmed_at = $8, verification_status = $9, structured_fields = $10
 WHERE agent_id = $1 AND entity_id = $2 AND id = $3
   AND EXISTS (SELECT 1 FROM facts d WHERE d.agent_id = $1 AND d.entity_id = $2 AND d.id = $4)
RETURNING {FACT_COLUMNS}
"""

CLOSE_CANDIDATES_BETWEEN = """
UPDATE fact_candidates SET status = 'rejected', resolution = 'merge', resolved_by = $5, resolved_at = $6
 WHERE agent_id = $1 AND entity_id = $2 AND status = 'pending'
   AND ((fact_id = $3 AND related_fact_id = $4) OR (fact_id = $4 AND related_fact_id = $3))
"""

# Every candidate of the duplicate moves to the kept fact, resolved ones too (their history stays with it); a
# candidate about the two facts themselves keeps no related fact.
MOVE_CANDIDATES = """
UPDATE fact_candidates
   SET fact_id = CASE WHEN fact_id = $4 THEN $3 ELSE fact_id END,
       related_fact_id = CASE WHEN fact_id IN ($3, $4) AND related_fact_id IN ($3, $4) THEN NULL
                              WHEN related_fact_id = $4 THEN $3 ELSE related_fact_id END
 WHERE agent_id = $1 AND entity_id = $2 AND (fact_id = $4 OR related_fact_id = $4)
"""

CLAIM_EVALUATION = """
INSERT INTO evaluations (agent_id, message_id, entity_id, room_id, result)
VALUES ($1, $2, $3, $4, '{}'::jsonb)
ON CONFLICT (agent_id, message_id) DO NOTHING
RETURNING message_id
"""

FINISH_EVALUATION = """
UPDATE evaluations
   SET result = $3, prompt_tokens = $4, completion_tokens = $5, success_completed = $6, success_reason = $7
 WHERE agent_id = $1 AND message_id = $2
"""

GET_EVALUATIONS = """
SELECT message_id, entity_id, result FROM evaluations WHERE agent_id = $1 AND message_id = ANY ($2::text[])
"""

LIST_FACTS = f"""
SELECT {FACT_COLUMNS}, {DISPUTED_BY} FROM facts
 WHERE agent_id = $1 AND entity_id = $2 AND ($3::text IS NULL OR kind = $3) AND ($4::uuid IS NULL OR id > $4)
 ORDER BY id
 LIMIT $5
"""

COUNT_FACTS = "SELECT count(*) FROM facts WHERE agent_id = $1 AND entity_id = $2"

# ForgetEntity is final (migration 0005): every forget bumps the (agent, entity) epoch; a turn started before it
# sees another epoch under the lock and commits nothing.
GET_FORGET_EPOCH = "SELECT epoch FROM forget_epochs WHERE agent_id = $1 AND entity_id = $2"
BUMP_FORGET_EPOCH = """
INSERT INTO forget_epochs (agent_id, entity_id) VALUES ($1, $2)
ON CONFLICT (agent_id, entity_id) DO UPDATE SET epoch = forget_epochs.epoch + 1, forgotten_at = now()
"""
FORGET_FACTS = "DELETE FROM facts WHERE agent_id = $1 AND entity_id = $2"
FORGET_CANDIDATES = "DELETE FROM fact_candidates WHERE agent_id = $1 AND entity_id = $2"
FORGET_RELATIONSHIPS = """
DELETE FROM relationships WHERE agent_id = $1 AND (source_entity_id = $2 OR target_entity_id = $2)
"""
FORGET_IDENTITIES = "DELETE FROM identities WHERE agent_id = $1 AND entity_id = $2"
FORGET_EVALUATIONS = "DELETE FROM evaluations WHERE agent_id = $1 AND entity_id = $2"

# Export pages: each list in a fixed order, after the key ($3, $4) of the last item sent ($3 NULL: from the start).
EXPORT_FACTS = f"""
SELECT {FACT_COLUMNS}, embedding_model FROM facts
 WHERE agent_id = $1 AND entity_id = $2
   AND ($3::timestamptz IS NULL OR (created_at, id) > ($3::timestamptz, $4::uuid))
 ORDER BY created_at, id
 LIMIT $5
"""
EXPORT_CANDIDATES = """
SELECT c.id, c.agent_id, c.entity_id, c.fact_id, c.related_fact_id, c.proposed_claim, c.reason, c.source,
       c.evidence_message_id, c.status, c.created_at, c.resolved_at, c.resolution, c.resolved_by
  FROM fact_candidates c
 WHERE c.agent_id = $1 AND c.entity_id = $2
   AND ($3::timestamptz IS NULL OR (c.created_at, c.id) > ($3::timestamptz, $4::uuid))
 ORDER BY c.created_at, c.id
 LIMIT $5
"""
EXPORT_RELATIONSHIPS = """
SELECT source_entity_id, target_entity_id, tags, interaction_count, created_at, updated_at FROM relationships
 WHERE agent_id = $1 AND (source_entity_id = $2 OR target_entity_id = $2)
   AND ($3::uuid IS NULL OR (source_entity_id, target_entity_id) > ($3::uuid, $4::uuid))
 ORDER BY source_entity_id, target_entity_id
 LIMIT $5
"""
EXPORT_IDENTITIES = """
SELECT platform, handle, confidence, created_at, updated_at FROM identities
 WHERE agent_id = $1 AND entity_id = $2
   AND ($3::text IS NULL OR (platform, handle) > ($3::text, $4::text))
 ORDER BY platform, handle
 LIMIT $5
"""
EXPORT_EVALUATIONS = """
SELECT message_id, room_id, result, prompt_tokens, completion_tokens, success_completed, success_reason, created_at
  FROM evaluations
 WHERE agent_id = $1 AND entity_id = $2
   AND ($3::timestamptz IS NULL OR (created_at, message_id) > ($3::timestamptz, $4::text))
 ORDER BY created_at, message_id
 LIMIT $5
"""
EXPORT_HISTORY = """
SELECT id, fact_id, at, action, actor, reason, before, after FROM fact_history
 WHERE agent_id = $1 AND entity_id = $2
   AND ($3::timestamptz IS NULL OR (at, id) > ($3::timestamptz, $4::uuid))
 ORDER BY at, id
 LIMIT $5
"""
EXPORT_PAIRS = """
SELECT fact_id, other_fact_id, similarity, reason, evidence_message_id, status, created_at, closed_at
  FROM possible_duplicates
 WHERE agent_id = $1 AND entity_id = $2
   AND ($3::uuid IS NULL OR (fact_id, other_fact_id) > ($3::uuid, $4::uuid))
 ORDER BY fact_id, other_fact_id
 LIMIT $5
"""
EXPORT_BY_SECTION = {
    "facts": EXPORT_FACTS,
    "candidates": EXPORT_CANDIDATES,
    "relationships": EXPORT_RELATIONSHIPS,
    "identities": EXPORT_IDENTITIES,
    "evaluations": EXPORT_EVALUATIONS,
    "history": EXPORT_HISTORY,
    "possible_duplicates": EXPORT_PAIRS,
}


# Run on every pooled connection (the benchmark runs them too, to EXPLAIN the plans the service gets).
SESSION_SETTINGS = (
    # pgvector 0.8: keep scanning the HNSW graph until enough rows pass the (agent, entity, kind) filter.
    "SET hnsw.iterative_scan = relaxed_order",
)


async def _init_connection(conn: asyncpg.Connection) -> None:
    await register_vector(conn)
    await conn.set_type_codec("jsonb", encoder=json.dumps, decoder=json.loads, schema="pg_catalog")
    for statement in SESSION_SETTINGS:
        await conn.execute(statement)


@asynccontextmanager
async def open_pool(url: str, min_size: int, max_size: int, timeout_s: float) -> AsyncIterator[asyncpg.Pool]:
    """A connection pool with the pgvector and jsonb codecs on every connection."""
    pool = await asyncpg.create_pool(
        url,
        min_size=min_size,
        max_size=max_size,
        init=_init_connection,
        command_timeout=timeout_s,
        timeout=timeout_s,
    )
    try:
        yield pool
    finally:
        await pool.close()


async def _write_context(
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


class PostgresWriteTransaction:
    """One Evaluate's write transaction, holding the per-entity lock (implements ports.WriteTransaction)."""

    def __init__(self, conn: asyncpg.Connection, agent_id: UUID, entity_id: UUID, revision: int) -> None:
        self._conn = conn
        self.agent_id = agent_id
        self.entity_id = entity_id
        self.revision = revision
        self._actor = ""

    async def write_context(
        self, kinds: Sequence[Kind], vectors: Sequence[Vector], claims: Sequence[str], limit: int
    ) -> WriteContext:
        return await _write_context(self._conn, self.agent_id, self.entity_id, kinds, vectors, claims, limit)

    async def claim_evaluation(self, message_id: str, room_id: UUID | None) -> bool:
        """Reserves the message; False when it was evaluated already (the caller then replays)."""
        row = await self._conn.fetchval(CLAIM_EVALUATION, self.agent_id, message_id, self.entity_id, room_id)
        self._actor = f"message:{message_id}"
        return row is not None

    async def _mark(self, action: HistoryAction, reason: str = "") -> None:
        await mark(self._conn, action, self._actor, reason)

    async def finish_evaluation(self, message_id: str, result: EvaluateResult) -> None:
        success = result.success
        await self._conn.execute(
            FINISH_EVALUATION,
            self.agent_id,
            message_id,
            result.model_dump(mode="json"),
            result.usage.prompt_tokens,
            result.usage.completion_tokens,
            None if success is None else success.completed,
            None if success is None else success.reason,
        )

    async def get_fact(self, fact_id: UUID) -> Fact | None:
        row = await self._conn.fetchrow(GET_FACT, self.agent_id, self.entity_id, fact_id)
        return None if row is None else row_to_fact(row)

    async def insert_fact(self, new: NewFact) -> Fact:
        await self._mark(HistoryAction.CREATED)
        row = await self._conn.fetchrow(review.INSERT_FACT, *fact_values(self.agent_id, self.entity_id, new))
        return row_to_fact(row)

    async def strengthen(
        self, fact_id: UUID, delta: float, at: datetime, message_id: str, category: str, verification: str
    ) -> Fact | None:
        await self._mark(HistoryAction.STRENGTHENED)
        row = await self._conn.fetchrow(
            STRENGTHEN_FACT, self.agent_id, self.entity_id, fact_id, delta, at, message_id, category, verification
        )
        return None if row is None else row_to_fact(row)

    async def decay(self, fact_id: UUID, delta: float, delete_below: float) -> tuple[Fact | None, bool]:
        """Lowers confidence; deletes the fact when it falls below the floor. Returns (fact, deleted)."""
        await self._mark(HistoryAction.DECAYED)
        row = await self._conn.fetchrow(DECAY_FACT, self.agent_id, self.entity_id, fact_id, delta)
        if row is None:
            return None, False
        fact = row_to_fact(row)
        if fact.confidence < delete_below:
            await self._mark(HistoryAction.DELETED, f"confidence below {delete_below}")
            await self._conn.execute(DELETE_FACT, self.agent_id, self.entity_id, fact_id)
            return fact, True
        return fact, False

    async def insert_candidate(
        self,
        fact_id: UUID,
        proposed_claim: str,
        reason: str,
        source: str,
        message_id: str,
        at: datetime,
        related_fact_id: UUID | None = None,
    ) -> UUID | None:
        candidate_id = await self._conn.fetchval(
            INSERT_CANDIDATE,
            uuid4(),
            self.agent_id,
            self.entity_id,
            fact_id,
            related_fact_id,
            proposed_claim,
            reason,
            source,
            message_id,
            at,
        )
        if candidate_id is not None:
            await self._conn.execute(
                review.RECORD,
                self.agent_id,
                self.entity_id,
                fact_id,
                HistoryAction.CONTRADICTED.value,
                self._actor,
                f"{source}: {proposed_claim}"[:500],
            )
        return cast(UUID | None, candidate_id)

    async def insert_pair(
        self, fact_id: UUID, other_fact_id: UUID, similarity: float, reason: str, message_id: str, at: datetime
    ) -> None:
        """Records two facts as possible duplicates (once per pair, whatever the order)."""
        await self._conn.execute(
            INSERT_PAIR, self.agent_id, self.entity_id, fact_id, other_fact_id, similarity, reason, message_id, at
        )

    async def close_pair(self, fact_id: UUID, other_fact_id: UUID, at: datetime) -> None:
        await self._conn.execute(CLOSE_PAIR, self.agent_id, self.entity_id, fact_id, other_fact_id, at)

    async def merge_facts(
        self, keep_id: UUID, duplicate_id: UUID, merged: MergedFact, at: datetime, reason: str = ""
    ) -> Fact | None:
        """Folds the duplicate into the kept fact and deletes it; None when either fact is gone."""
        await self._mark(HistoryAction.MERGED, reason)
        row = await self._conn.fetchrow(
            MERGE_INTO_KEPT,
            self.agent_id,
            self.entity_id,
            keep_id,
            duplicate_id,
            merged.confidence,
            list(merged.evidence_message_ids),
            list(merged.previous_claims),
            merged.last_confirmed_at,
            merged.verification.value,
            merged.structured_fields,
        )
        if row is None:
            return None
        scope = (self.agent_id, self.entity_id, keep_id, duplicate_id)
        await self._conn.execute(CLOSE_CANDIDATES_BETWEEN, *scope, self._actor, at)
        await self._conn.execute(MOVE_CANDIDATES, *scope)
        await self._conn.execute(DELETE_FACT, self.agent_id, self.entity_id, duplicate_id)
        return row_to_fact(row)

    async def reclassify(self, fact_id: UUID, kind: Kind, category: str) -> Fact | None:
        """An imported fact takes the category (and kind) the model named for it."""
        await self._mark(HistoryAction.RECLASSIFIED)
        row = await self._conn.fetchrow(RECLASSIFY_FACT, self.agent_id, self.entity_id, fact_id, kind.value, category)
        return None if row is None else row_to_fact(row)

    async def record_name(self, name: str, at: datetime) -> None:
        await self._conn.execute(review.RECORD_NAME, self.agent_id, self.entity_id, name, at)

    async def upsert_relationship(
        self, source: UUID, target: UUID, tags: Sequence[str], at: datetime, max_tags: int
    ) -> Relationship:
        row = await self._conn.fetchrow(UPSERT_RELATIONSHIP, self.agent_id, source, target, list(tags), at, max_tags)
        return Relationship(
            source_entity_id=str(row["source_entity_id"]),
            target_entity_id=str(row["target_entity_id"]),
            tags=tuple(row["tags"]),
            interaction_count=row["interaction_count"],
        )

    async def upsert_identity(
        self, entity_id: UUID, platform: str, handle: str, confidence: float, at: datetime
    ) -> Identity:
        row = await self._conn.fetchrow(UPSERT_IDENTITY, self.agent_id, entity_id, platform, handle, confidence, at)
        return Identity(
            entity_id=str(row["entity_id"]),
            platform=row["platform"],
            handle=row["handle"],
            confidence=row["confidence"],
        )


def _unavailable(exc: BaseException) -> Unavailable:
    return Unavailable(f"database unavailable: {type(exc).__name__}: {exc}")


# Errors that mean "the database is not reachable right now", as opposed to a bug in a query.
TRANSIENT_DB_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError,
    asyncpg.exceptions.TooManyConnectionsError,
    asyncpg.exceptions.InterfaceError,
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.SerializationError,
    asyncpg.exceptions.DeadlockDetectedError,
    # Out of disk, memory or connections (SQLSTATE class 53): the operator frees them, then a retry succeeds.
    asyncpg.exceptions.InsufficientResourcesError,
    # A primary demoted to a read-only standby (failover): writes succeed again once the pool reaches the new one.
    asyncpg.exceptions.ReadOnlySQLTransactionError,
)


@asynccontextmanager
async def _connection(pool: asyncpg.Pool) -> AsyncIterator[asyncpg.Connection]:
    try:
        async with pool.acquire() as conn:
            yield conn
    except TRANSIENT_DB_ERRORS as exc:
        raise _unavailable(exc) from exc


class Store:
    """Typed access to the facts database through a pool. With a ReadRoute (FACTMEMORY_DATABASE_READ_URL), the
    reads of the read RPCs go to the replica: list_facts, fact_history, list_candidates, list_entities,
    export_rows and text_search always; nearest and get_fact when the caller says `replica_ok` (Provide and GetFact,
    not Evaluate or an edit). Every write tells the route, for read-your-writes."""

    def __init__(self, pool: asyncpg.Pool, reads: ReadRoute | None = None) -> None:
        self._pool = pool
        self._reads = reads

    async def _read(
        self,
        agent_id: UUID,
        entity_id: UUID | None,
        query: Callable[[asyncpg.Connection], Awaitable[T]],
        replica_ok: bool = True,
    ) -> T:
        """One read, on the replica when there is one and the call may read it, else on the primary."""
        try:
            if self._reads is not None and replica_ok:
                return await self._reads.run(agent_id, entity_id, query)
            async with self._pool.acquire() as conn:
                return await query(conn)
        except TRANSIENT_DB_ERRORS as exc:
            raise _unavailable(exc) from exc

    def _wrote(self, agent_id: UUID, entity_id: UUID) -> None:
        if self._reads is not None:
            self._reads.wrote(agent_id, entity_id)

    @property
    def pool(self) -> asyncpg.Pool:
        """The connection pool (for tools and tests that inspect the database directly)."""
        return self._pool

    @asynccontextmanager
    async def turn(
        self, agent_id: UUID, entity_id: UUID, forget_epoch: int | None = None
    ) -> AsyncIterator[PostgresWriteTransaction]:
        """A transaction holding the per-entity lock; commits on success, rolls back on any error. With
        `forget_epoch` (read when the call started) it refuses to write if the entity was forgotten since."""
        async with _connection(self._pool) as conn, conn.transaction():
            revision = await conn.fetchval(LOCK_ENTITY, str(agent_id), str(entity_id))
            if forget_epoch is not None and await _epoch(conn, agent_id, entity_id) != forget_epoch:
                raise Conflict(
                    "the entity was forgotten while this message was being evaluated; nothing was "
                    "stored (ForgetEntity is final: do not resend messages of a forgotten entity)"
                )
            yield PostgresWriteTransaction(conn, agent_id, entity_id, int(revision))
        self._wrote(agent_id, entity_id)

    async def write_context(
        self,
        agent_id: UUID,
        entity_id: UUID,
        kinds: Sequence[Kind],
        vectors: Sequence[Vector],
        claims: Sequence[str],
        limit: int,
    ) -> WriteContext:
        """Before the lock: the entity's revision, each add's nearest facts of its kind, stored facts by claim key."""
        async with _connection(self._pool) as conn:
            return await _write_context(conn, agent_id, entity_id, kinds, vectors, claims, limit)

    async def open_pairs(self, agent_id: UUID, entity_id: UUID, limit: int) -> list[OpenPair]:
        """The oldest open possible-duplicate pairs, with both facts."""
        async with _connection(self._pool) as conn:
            rows = await conn.fetch(OPEN_PAIRS, agent_id, entity_id, limit)
        facts: dict[tuple[UUID, UUID], list[Fact]] = {}
        for row in rows:
            facts.setdefault((row["first_id"], row["second_id"]), []).append(row_to_fact(row))
        return [OpenPair(*pair) for pair in facts.values() if len(pair) == 2]

    async def forget_epoch(self, agent_id: UUID, entity_id: UUID) -> int:
        """How many times this (agent, entity) was forgotten; an Evaluate reads it before it learns anything."""
        async with _connection(self._pool) as conn:
            return await _epoch(conn, agent_id, entity_id)

    async def get_evaluations(
        self, agent_id: UUID, message_ids: Sequence[str]
    ) -> dict[str, tuple[UUID, EvaluateResult]]:
        """One round trip for a whole batch; a row claimed by a call still running (no result yet) is left out."""
        async with _connection(self._pool) as conn:
            rows = await conn.fetch(GET_EVALUATIONS, agent_id, list(message_ids))
        return {
            row["message_id"]: (row["entity_id"], EvaluateResult.model_validate(row["result"]))
            for row in rows
            if row["result"]
        }

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
        return await self._ranked(
            replica_ok, NEAREST_BY_KIND, agent_id, entity_id, *_nearest_args(embedding, durable_limit, current_limit)
        )

    async def hybrid(
        self,
        agent_id: UUID,
        entity_id: UUID,
        embedding: Vector,
        durable_limit: int,
        current_limit: int,
        terms: Sequence[str],
        per_term: int,
        *,
        replica_ok: bool = False,
    ) -> list[Similar]:
        """Nearest by vector per kind plus the facts matching any term; a fact found both ways comes once."""
        found = await self._ranked(
            replica_ok,
            HYBRID_BY_KIND,
            agent_id,
            entity_id,
            *_nearest_args(embedding, durable_limit, current_limit),
            list(terms),
            per_term,
        )
        unique: dict[UUID, Similar] = {}
        for similar in found:
            unique.setdefault(similar.fact.id, similar)
        return list(unique.values())

    async def lexical(
        self,
        agent_id: UUID,
        entity_id: UUID,
        embedding: Vector,
        durable_limit: int,
        current_limit: int,
        text: str,
        rare_df: int,
        rare_terms: int,
        hop: Hop = NO_HOP,
        *,
        replica_ok: bool = False,
    ) -> list[Similar]:
        """Nearest by vector per kind, the facts sharing a rare stem with `text`, and the facts linked to the
        nearest ones by a rare word (`hop`), each with its lexical evidence: the share of the text's stem
        weight (idf over the entity's facts) that the fact contains."""
        args = (
            *_nearest_args(embedding, durable_limit, current_limit),
            text,
            rare_df,
            rare_terms,
            hop.seeds,
            hop.max_df,
            hop.limit,
        )
        rows = await self._read(
            agent_id,
            entity_id,
            lambda conn: conn.fetch(LEXICAL_BY_KIND, agent_id, entity_id, *args),
            replica_ok,
        )
        unique: dict[UUID, Similar] = {}
        for r in rows:
            total = float(r["lexical_total"])
            lexical = float(r["lexical"]) / total if total > 0 else 0.0
            found = unique.setdefault(r["id"], Similar(row_to_fact(r), float(r["similarity"]), lexical))
            if r["via"] is not None and found.via is None:
                unique[r["id"]] = dataclasses.replace(found, via=r["via"])
        return list(unique.values())

    async def text_search(
        self, agent_id: UUID, entity_id: UUID, query: str, durable_limit: int, current_limit: int
    ) -> list[Similar]:
        return await self._ranked(True, TEXT_SEARCH_BY_KIND, agent_id, entity_id, query, durable_limit, current_limit)

    async def _ranked(
        self, replica_ok: bool, query: str, agent_id: UUID, entity_id: UUID, *args: object
    ) -> list[Similar]:
        """Rows of a per-kind ranking query, each with its `similarity` column."""
        rows = await self._read(
            agent_id, entity_id, lambda conn: conn.fetch(query, agent_id, entity_id, *args), replica_ok
        )
        return [Similar(row_to_fact(r), float(r["similarity"])) for r in rows]

    async def list_facts(
        self, agent_id: UUID, entity_id: UUID, kind: Kind | None, after: UUID | None, limit: int
    ) -> list[Fact]:
        rows = await self._read(
            agent_id,
            entity_id,
            lambda conn: conn.fetch(
                LIST_FACTS, agent_id, entity_id, None if kind is None else kind.value, after, limit
            ),
        )
        return [row_to_fact(r) for r in rows]

    @asynccontextmanager
    async def review(self, agent_id: UUID, entity_id: UUID) -> AsyncIterator[ReviewTx]:
        """A reviewer's transaction holding the per-entity lock; commits on success, rolls back on any error."""
        async with _connection(self._pool) as conn, conn.transaction():
            await conn.execute(LOCK_ENTITY, str(agent_id), str(entity_id))
            yield ReviewTx(conn, agent_id, entity_id)
        self._wrote(agent_id, entity_id)

    async def get_fact(
        self, agent_id: UUID, entity_id: UUID, fact_id: UUID, *, replica_ok: bool = False
    ) -> Fact | None:
        row = await self._read(
            agent_id,
            entity_id,
            lambda conn: conn.fetchrow(review.GET_FACT_WITH_DISPUTE, agent_id, entity_id, fact_id),
            replica_ok,
        )
        return None if row is None else row_to_fact(row)

    async def fact_history(self, agent_id: UUID, entity_id: UUID, fact_id: UUID) -> list[HistoryEntry]:
        rows = await self._read(
            agent_id, entity_id, lambda conn: conn.fetch(review.HISTORY, agent_id, entity_id, fact_id)
        )
        return [review.row_to_history(r) for r in rows]

    async def get_candidate(self, agent_id: UUID, entity_id: UUID, candidate_id: UUID) -> Candidate | None:
        async with _connection(self._pool) as conn:
            row = await conn.fetchrow(review.GET_CANDIDATE, agent_id, entity_id, candidate_id)
        return None if row is None else review.row_to_candidate(row)

    async def list_candidates(
        self,
        agent_id: UUID,
        entity_id: UUID | None,
        status: CandidateStatus | None,
        source: CandidateSource | None,
        after: Position | None,
        limit: int,
    ) -> list[Candidate]:
        return await self._read(
            agent_id,
            entity_id,
            lambda conn: review.list_candidates(conn, agent_id, entity_id, status, source, after, limit),
        )

    async def list_entities(
        self, agent_id: UUID, pattern: str, after: Position | None, limit: int
    ) -> list[EntitySummary]:
        return await self._read(
            agent_id, None, lambda conn: review.list_entities(conn, agent_id, pattern, after, limit)
        )

    async def import_facts(self, agent_id: UUID, entity_id: UUID, facts: Sequence[NewFact], actor: str) -> int:
        """Inserts the facts not imported before (by import_source_id); returns how many were new."""
        async with _connection(self._pool) as conn, conn.transaction():
            await conn.execute(LOCK_ENTITY, str(agent_id), str(entity_id))
            await mark(conn, HistoryAction.IMPORTED, actor)
            before = await conn.fetchval(COUNT_FACTS, agent_id, entity_id)
            await conn.executemany(review.IMPORT_FACT, [fact_values(agent_id, entity_id, f) for f in facts])
            after = await conn.fetchval(COUNT_FACTS, agent_id, entity_id)
        self._wrote(agent_id, entity_id)
        return int(after - before)

    async def imported_ids(self, agent_id: UUID, entity_id: UUID, source_ids: Sequence[str]) -> set[str]:
        async with _connection(self._pool) as conn:
            rows = await conn.fetch(review.IMPORTED_IDS, agent_id, entity_id, list(source_ids))
        return {r["import_source_id"] for r in rows}

    async def forget_entity(self, agent_id: UUID, entity_id: UUID) -> ForgetCounts:
        async with _connection(self._pool) as conn, conn.transaction():
            await conn.execute(LOCK_ENTITY, str(agent_id), str(entity_id))
            await conn.execute(review.FORGET_MARK)
            candidates = await conn.execute(FORGET_CANDIDATES, agent_id, entity_id)
            facts = await conn.execute(FORGET_FACTS, agent_id, entity_id)
            relationships = await conn.execute(FORGET_RELATIONSHIPS, agent_id, entity_id)
            identities = await conn.execute(FORGET_IDENTITIES, agent_id, entity_id)
            evaluations = await conn.execute(FORGET_EVALUATIONS, agent_id, entity_id)
            await conn.execute(review.FORGET_HISTORY, agent_id, entity_id)
            await conn.execute(review.FORGET_NAME, agent_id, entity_id)
            await conn.execute(BUMP_FORGET_EPOCH, agent_id, entity_id)
        self._wrote(agent_id, entity_id)
        return ForgetCounts(
            facts=_count(facts),
            candidates=_count(candidates),
            relationships=_count(relationships),
            identities=_count(identities),
            evaluations=_count(evaluations),
        )

    async def export_rows(
        self, agent_id: UUID, entity_id: UUID, section: str, after: tuple[str, str] | None, limit: int
    ) -> list[tuple[dict[str, Any], tuple[str, str]]]:
        """Up to limit items of one export list after the key `after`, JSON-ready, each with its key."""
        first, second = after if after is not None else (None, None)
        rows = await self._read(
            agent_id,
            entity_id,
            lambda conn: conn.fetch(
                EXPORT_BY_SECTION[section],
                agent_id,
                entity_id,
                _typed(section, first),
                _typed_second(section, second),
                limit,
            ),
        )
        return [(_export_item(section, r), _export_key(section, r)) for r in rows]


def _nearest_args(embedding: Vector, durable_limit: int, current_limit: int) -> tuple[object, ...]:
    """$3 to $7 of NEAREST_BY_KIND: the shortlist is SHORTLIST, or longer for large limits (it must reach past them)."""
    shortlist = max(SHORTLIST, 4 * max(durable_limit, current_limit))
    return embedding, durable_limit, current_limit, shortlist, HALF_MARGIN


def _typed(section: str, value: str | None) -> object:
    if value is None:
        return None
    if section in ("facts", "candidates", "evaluations", "history"):
        return datetime.fromisoformat(value)
    return UUID(value) if section in ("relationships", "possible_duplicates") else value


def _typed_second(section: str, value: str | None) -> object:
    if value is None:
        return None
    return (
        UUID(value) if section in ("facts", "candidates", "relationships", "history", "possible_duplicates") else value
    )


def _export_item(section: str, row: asyncpg.Record) -> dict[str, Any]:
    if section == "facts":
        return row_to_fact(row).model_dump(mode="json") | {"embedding_model": row["embedding_model"]}
    if section == "history":
        return review.row_to_history(row).model_dump(mode="json")
    return _jsonable(dict(row))


def _export_key(section: str, row: asyncpg.Record) -> tuple[str, str]:
    if section == "facts" or section == "candidates":
        return from_storage(row["created_at"]).isoformat(), str(row["id"])
    if section == "relationships":
        return str(row["source_entity_id"]), str(row["target_entity_id"])
    if section == "identities":
        return str(row["platform"]), str(row["handle"])
    if section == "history":
        return from_storage(row["at"]).isoformat(), str(row["id"])
    if section == "possible_duplicates":
        return str(row["fact_id"]), str(row["other_fact_id"])
    return from_storage(row["created_at"]).isoformat(), str(row["message_id"])


async def _epoch(conn: asyncpg.Connection, agent_id: UUID, entity_id: UUID) -> int:
    return int(await conn.fetchval(GET_FORGET_EPOCH, agent_id, entity_id) or 0)


def _count(status: str) -> int:
    """The row count from an asyncpg command status such as 'DELETE 3'."""
    return int(status.rsplit(" ", 1)[-1])


def _jsonable(row: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in row.items():
        if isinstance(value, UUID):
            out[key] = str(value)
        elif isinstance(value, datetime):
            out[key] = value.isoformat()
        elif isinstance(value, list | tuple):
            out[key] = [str(v) for v in value]
        else:
            out[key] = value
    return out
