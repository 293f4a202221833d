"""The PostgreSQL side of review: the reviewer's transaction, a fact's history, the agent-wide queue and entity list.

The history trigger records every change of a fact under the mark its statement carries (rows.mark_cte); this module
writes entries itself only for events that change no field (a rejected candidate: rows.history_entry)."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

import asyncpg

from factmemory.adapters.postgres import shared
from factmemory.adapters.postgres.rows import (
    DELETE_FACT,
    DISPUTED_BY,
    FACT_COLUMNS,
    INSERT_FACT,
    RECORD,
    claim_terms,
    fact_values,
    mark_cte,
    mark_values,
    one,
    row_to_fact,
)
from factmemory.domain.models import (
    Candidate,
    CandidateSource,
    CandidateStatus,
    EntityKind,
    EntitySummary,
    Fact,
    HistoryAction,
    Resolution,
)
from factmemory.domain.new_fact import NewFact
from factmemory.domain.shared import SharedSubject
from factmemory.domain.times import from_storage, optional_from_storage
from factmemory.ports import FactChange, Position

GET_FACT_FOR_UPDATE = f"""
SELECT {FACT_COLUMNS}, {DISPUTED_BY} FROM facts WHERE agent_id = $1 AND entity_id = $2 AND id = $3 FOR UPDATE
"""

GET_FACT_WITH_DISPUTE = f"""
SELECT {FACT_COLUMNS}, {DISPUTED_BY} FROM facts WHERE agent_id = $1 AND entity_id = $2 AND id = $3
"""

CHANGE_FACT = f"""
WITH {mark_cte(15)}
UPDATE facts
   SET previous_claims = CASE WHEN $11 AND $4::text IS NOT NULL AND $4 <> claim
                              THEN array_append(previous_claims, claim) ELSE previous_claims END,
       claim = coalesce($4, claim),
       lexemes = CASE WHEN $4::text IS NOT NULL THEN $14::text[] ELSE lexemes END,
       category = coalesce($5, category),
       kind = coalesce($6, kind),
       confidence = coalesce($7, confidence),
       verification_status = coalesce($8, verification_status),
       embedding = coalesce($9, embedding),
       embedding_model = coalesce($10, embedding_model),
       evidence_message_ids = ARRAY(SELECT DISTINCT e FROM unnest(evidence_message_ids || $12::text[]) AS e
                                     ORDER BY e),
       last_confirmed_at = GREATEST(last_confirmed_at, coalesce($13, last_confirmed_at))
  FROM mark
 WHERE agent_id = $1 AND entity_id = $2 AND id = $3
RETURNING {FACT_COLUMNS}
"""

CANDIDATE_COLUMNS = """
    c.id, c.agent_id, c.entity_id, c.fact_id, c.related_fact_id, c.proposed_claim, c.reason, c.source,
    c.evidence_message_id, c.status, c.created_at, c.resolved_at, c.resolution, c.resolved_by
"""

# The candidate with its fact as it is now, in one query (f.* is NULL when the fact is gone).
CANDIDATE_WITH_FACT = f"""
SELECT {CANDIDATE_COLUMNS},
       f.id AS f_id, f.agent_id AS f_agent_id, f.entity_id AS f_entity_id, f.kind AS f_kind,
       f.category AS f_category, f.claim AS f_claim, f.structured_fields AS f_structured_fields,
       f.confidence AS f_confidence, f.evidence_message_ids AS f_evidence_message_ids,
       f.verification_status AS f_verification_status, f.created_at AS f_created_at,
       f.last_confirmed_at AS f_last_confirmed_at, f.valid_at AS f_valid_at, f.previous_claims AS f_previous_claims
  FROM fact_candidates c
  LEFT JOIN facts f ON f.agent_id = c.agent_id AND f.entity_id = c.entity_id AND f.id = c.fact_id
"""

GET_CANDIDATE = CANDIDATE_WITH_FACT + " WHERE c.agent_id = $1 AND c.entity_id = $2 AND c.id = $3"
GET_CANDIDATE_FOR_UPDATE = GET_CANDIDATE + " FOR UPDATE OF c"

LIST_CANDIDATES = (
    CANDIDATE_WITH_FACT
    + """
 WHERE c.agent_id = $1 AND ($2::uuid IS NULL OR c.entity_id = $2)
   AND ($3::text IS NULL OR c.status = $3) AND ($4::text IS NULL OR c.source = $4)
   -- Archived resolved candidates (migration 0006) are listed only when their status is asked for.
   AND ($3::text IS NOT NULL OR c.archived_at IS NULL)
   AND ($5::timestamptz IS NULL OR (c.created_at, c.id) > ($5, $6::uuid))
 ORDER BY c.created_at, c.id
 LIMIT $7
"""
)

CLOSE_CANDIDATE = """
UPDATE fact_candidates SET status = $4, resolution = $5, resolved_by = $6, resolved_at = $7
 WHERE agent_id = $1 AND entity_id = $2 AND id = $3
"""

KEEP_PAIR = """
INSERT INTO kept_pairs (agent_id, entity_id, fact_a, fact_b) VALUES ($1, $2, LEAST($3::uuid, $4::uuid),
       GREATEST($3::uuid, $4::uuid))
ON CONFLICT DO NOTHING
"""

HISTORY = """
SELECT id, fact_id, at, action, actor, reason, before, after FROM fact_history
 WHERE agent_id = $1 AND entity_id = $2 AND fact_id = $3
 ORDER BY at, id
"""

# The kept excerpts of the messages that are a fact's evidence (reduced or forgotten evaluations have none).
EVIDENCE_SOURCES = """
SELECT message_id, excerpt, created_at FROM evaluations
 WHERE agent_id = $1 AND entity_id = $2 AND message_id = ANY ($3::text[]) AND excerpt IS NOT NULL
 ORDER BY created_at, message_id
"""

# Every entity that has facts, candidates or a recorded name, with its counts and last activity; one query. A
# community's name is its world's (the latest given to any of the world's subjects: a world subject a reviewer's
# accept made has the held one's), else its label. $2 is a LIKE pattern (escaped) matched against the id's text and,
# anywhere, the name.
LIST_ENTITIES = """
WITH activity AS (
    SELECT entity_id, max(GREATEST(created_at, last_confirmed_at)) AS at,
           count(*) FILTER (WHERE kind = 'durable') AS durable, count(*) FILTER (WHERE kind = 'current') AS current,
           0 AS pending
      FROM facts WHERE agent_id = $1 GROUP BY entity_id
    UNION ALL
    SELECT entity_id, max(GREATEST(created_at, resolved_at)), 0, 0, count(*) FILTER (WHERE status = 'pending')
      FROM fact_candidates WHERE agent_id = $1 GROUP BY entity_id
    UNION ALL
    SELECT entity_id, last_seen_at, 0, 0, 0 FROM entities WHERE agent_id = $1
), summary AS (
    SELECT entity_id, max(at) AS last_activity, sum(durable)::int AS durable_facts,
           sum(current)::int AS current_facts, sum(pending)::int AS pending_candidates
      FROM activity GROUP BY entity_id
)
SELECT s.*, coalesce(w.name, e.name, '') AS name, coalesce(sub.scope, 'person') AS kind, sub.world_id,
       coalesce(w.name, '') AS world_name
  FROM summary s LEFT JOIN entities e ON e.agent_id = $1 AND e.entity_id = s.entity_id
  LEFT JOIN shared_subjects sub ON sub.agent_id = $1 AND sub.subject_id = s.entity_id
  LEFT JOIN LATERAL (SELECT n.name FROM shared_subjects n
                      WHERE n.agent_id = $1 AND n.world_id = sub.world_id AND n.name IS NOT NULL
                      ORDER BY n.named_at DESC LIMIT 1) w ON true
 WHERE ($2 = '' OR s.entity_id::text LIKE lower($2) || '%' OR e.name ILIKE '%' || $2 || '%'
        OR w.name ILIKE '%' || $2 || '%')
   AND ($3::timestamptz IS NULL OR (s.last_activity, s.entity_id) < ($3, $4::uuid))
 ORDER BY s.last_activity DESC, s.entity_id DESC
 LIMIT $5
"""


def row_to_candidate(row: asyncpg.Record) -> Candidate:
    """A CANDIDATE_WITH_FACT row."""
    return Candidate(
        id=row["id"],
        agent_id=row["agent_id"],
        entity_id=row["entity_id"],
        fact=None if row["f_id"] is None else row_to_fact(row, "f_"),
        proposed_claim=row["proposed_claim"],
        reason=row["reason"],
        source=CandidateSource(row["source"]),
        evidence_message_id=row["evidence_message_id"],
        status=CandidateStatus(row["status"]),
        created_at=from_storage(row["created_at"]),
        resolved_at=optional_from_storage(row["resolved_at"]),
        related_fact_id=row["related_fact_id"],
        resolution=None if row["resolution"] is None else Resolution(row["resolution"]),
        resolved_by=row["resolved_by"] or "",
    )


def row_to_entity(row: asyncpg.Record) -> EntitySummary:
    return EntitySummary(
        entity_id=row["entity_id"],
        name=row["name"],
        durable_facts=row["durable_facts"],
        current_facts=row["current_facts"],
        pending_candidates=row["pending_candidates"],
        last_activity=from_storage(row["last_activity"]),
        kind=EntityKind(row["kind"]),
        world_id=row["world_id"],
        world_name=row["world_name"],
    )


class ReviewTx:
    """One reviewer action's transaction, holding the per-entity lock (implements ports.ReviewTransaction)."""

    def __init__(self, conn: asyncpg.Connection, agent_id: UUID, entity_id: UUID) -> None:
        self._conn = conn
        self.agent_id = agent_id
        self.entity_id = entity_id
        self._marked: tuple[str, str, str] = ("", "", "")  # unmarked: the trigger names the action by the change

    async def elsewhere(self, subject: SharedSubject) -> ReviewTx:
        """The same transaction on a shared subject (domain/shared.py), under its lock too, with this mark."""
        await shared.enter(self._conn, self.agent_id, subject, datetime.now(UTC))
        other = ReviewTx(self._conn, self.agent_id, subject.subject_id)
        other._marked = self._marked
        return other

    def mark(self, action: HistoryAction, actor: str, reason: str = "") -> None:
        self._marked = mark_values(action, actor, reason)  # sent with each change (mark_cte), as Evaluate's are

    async def get_fact(self, fact_id: UUID) -> Fact | None:
        row = await self._conn.fetchrow(GET_FACT_FOR_UPDATE, self.agent_id, self.entity_id, fact_id)
        return None if row is None else row_to_fact(row)

    async def get_candidate(self, candidate_id: UUID) -> Candidate | None:
        row = await self._conn.fetchrow(GET_CANDIDATE_FOR_UPDATE, self.agent_id, self.entity_id, candidate_id)
        return None if row is None else row_to_candidate(row)

    async def insert_fact(self, new: NewFact) -> Fact:
        row = await self._conn.fetchrow(INSERT_FACT, *fact_values(self.agent_id, self.entity_id, new), *self._marked)
        return row_to_fact(one(row))

    async def change_fact(self, fact_id: UUID, change: FactChange) -> Fact | None:
        row = await self._conn.fetchrow(
            CHANGE_FACT,
            self.agent_id,
            self.entity_id,
            fact_id,
            change.claim,
            change.category,
            None if change.kind is None else change.kind.value,
            change.confidence,
            None if change.verification is None else change.verification.value,
            change.embedding,
            change.embedding_model,
            change.keep_previous_claim,
            list(change.add_evidence),
            change.confirmed_at,
            [] if change.claim is None else claim_terms(change.claim),
            *self._marked,
        )
        return None if row is None else row_to_fact(row)

    async def delete_fact(self, fact_id: UUID) -> bool:
        status = await self._conn.execute(DELETE_FACT, self.agent_id, self.entity_id, fact_id, *self._marked)
        return bool(status.endswith(" 1"))

    async def record(self, fact_id: UUID, action: HistoryAction, actor: str, reason: str) -> None:
        await self._conn.execute(RECORD, self.agent_id, self.entity_id, fact_id, *mark_values(action, actor, reason))

    async def close_candidate(
        self, candidate_id: UUID, status: CandidateStatus, resolution: Resolution, actor: str, at: datetime
    ) -> Candidate:
        await self._conn.execute(
            CLOSE_CANDIDATE, self.agent_id, self.entity_id, candidate_id, status.value, resolution.value, actor, at
        )
        row = await self._conn.fetchrow(GET_CANDIDATE, self.agent_id, self.entity_id, candidate_id)
        return row_to_candidate(one(row))

    async def keep_pair(self, first: UUID, second: UUID) -> None:
        await self._conn.execute(KEEP_PAIR, self.agent_id, self.entity_id, first, second)


async def list_candidates(
    conn: asyncpg.Connection,
    agent_id: UUID,
    entity_id: UUID | None,
    status: CandidateStatus | None,
    source: CandidateSource | None,
    after: Position | None,
    limit: int,
) -> list[Candidate]:
    rows = await conn.fetch(
        LIST_CANDIDATES,
        agent_id,
        entity_id,
        None if status is None else status.value,
        None if source is None else source.value,
        None if after is None else after[0],
        None if after is None else after[1],
        limit,
    )
    return [row_to_candidate(r) for r in rows]


async def list_entities(
    conn: asyncpg.Connection, agent_id: UUID, pattern: str, after: Position | None, limit: int
) -> list[EntitySummary]:
    rows = await conn.fetch(
        LIST_ENTITIES,
        agent_id,
        pattern,
        None if after is None else after[0],
        None if after is None else after[1],
        limit,
    )
    return [row_to_entity(r) for r in rows]
