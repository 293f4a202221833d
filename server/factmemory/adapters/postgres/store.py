"""The PostgreSQL edge: every query, scoped by (agent_id, entity_id), as a named constant with $n parameters."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any
from uuid import UUID, uuid4

import asyncpg
from pgvector.asyncpg import register_vector

from factmemory.domain.errors import Conflict, NotFound, Unavailable
from factmemory.domain.models import (
    Candidate,
    CandidateStatus,
    EvaluateResult,
    Fact,
    ForgetCounts,
    Identity,
    Kind,
    Relationship,
    Verification,
)
from factmemory.ports import NewFact, Similar, Vector

FACT_COLUMNS = """
    id, agent_id, entity_id, kind, category, claim, structured_fields, confidence,
    evidence_message_ids, verification_status, created_at, last_confirmed_at, valid_at, previous_claims
"""

# One round trip for both kinds. Small entities use the scope index and an exact sort;
# large ones may use the HNSW index with an iterative scan (see configure_session).
NEAREST_BY_KIND = f"""
(SELECT {FACT_COLUMNS}, 1 - (embedding <=> $3) AS similarity
   FROM facts
  WHERE agent_id = $1 AND entity_id = $2 AND kind = 'durable'
  ORDER BY embedding <=> $3, id
  LIMIT $4)
UNION ALL
(SELECT {FACT_COLUMNS}, 1 - (embedding <=> $3) AS similarity
   FROM facts
  WHERE agent_id = $1 AND entity_id = $2 AND kind = 'current'
  ORDER BY embedding <=> $3, id
  LIMIT $5)
"""

# Fallback ranking without embeddings: full-text match plus recency, both kinds.
TEXT_SEARCH_BY_KIND = f"""
(SELECT {FACT_COLUMNS}, ts_rank(search, plainto_tsquery('simple', $3)) AS similarity
   FROM facts
  WHERE agent_id = $1 AND entity_id = $2 AND kind = 'durable'
  ORDER BY similarity DESC, confidence DESC, id
  LIMIT $4)
UNION ALL
(SELECT {FACT_COLUMNS}, ts_rank(search, plainto_tsquery('simple', $3)) AS similarity
   FROM facts
  WHERE agent_id = $1 AND entity_id = $2 AND kind = 'current'
  ORDER BY similarity DESC, valid_at DESC NULLS LAST, id
  LIMIT $5)
"""

SIMILAR_IN_CATEGORY = f"""
SELECT {FACT_COLUMNS}, 1 - (embedding <=> $5) AS similarity
  FROM facts
 WHERE agent_id = $1 AND entity_id = $2 AND kind = $3 AND (category = $4 OR category = 'uncategorized')
 ORDER BY embedding <=> $5, id
 LIMIT $6
"""

GET_FACT = f"""
SELECT {FACT_COLUMNS} FROM facts WHERE agent_id = $1 AND entity_id = $2 AND id = $3
"""

GET_FACT_FOR_UPDATE = GET_FACT + " FOR UPDATE"

INSERT_FACT = f"""
INSERT INTO facts (id, agent_id, entity_id, kind, category, claim, structured_fields, confidence,
                   evidence_message_ids, verification_status, created_at, last_confirmed_at, valid_at,
                   embedding, embedding_model)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12, $13, $14)
RETURNING {FACT_COLUMNS}
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

REPLACE_CLAIM = f"""
UPDATE facts
   SET previous_claims = array_append(previous_claims, claim),
       claim = $4,
       embedding = $5,
       embedding_model = $6,
       verification_status = $7,
       last_confirmed_at = GREATEST(last_confirmed_at, $8),
       evidence_message_ids = CASE WHEN $9 = ANY (evidence_message_ids) THEN evidence_message_ids
                                   ELSE array_append(evidence_message_ids, $9) END
 WHERE agent_id = $1 AND entity_id = $2 AND id = $3
RETURNING {FACT_COLUMNS}
"""

INSERT_CANDIDATE = """
INSERT INTO fact_candidates (id, agent_id, entity_id, fact_id, related_fact_id, proposed_claim, reason, source,
                             evidence_message_id, status, created_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', $10)
"""

CANDIDATE_COLUMNS = """
    c.id, c.agent_id, c.entity_id, c.fact_id, c.related_fact_id, c.proposed_claim, c.reason, c.source,
    c.evidence_message_id, c.status, c.created_at, c.resolved_at
"""

LIST_PENDING_CANDIDATES = f"""
SELECT {CANDIDATE_COLUMNS} FROM fact_candidates c
 WHERE c.agent_id = $1 AND c.entity_id = $2 AND c.status = 'pending'
 ORDER BY c.created_at, c.id
"""

GET_CANDIDATE = f"""
SELECT {CANDIDATE_COLUMNS} FROM fact_candidates c
 WHERE c.agent_id = $1 AND c.entity_id = $2 AND c.id = $3
"""

GET_CANDIDATE_FOR_UPDATE = GET_CANDIDATE + " FOR UPDATE"

CLOSE_CANDIDATE = """
UPDATE fact_candidates SET status = $4, resolved_at = $5
 WHERE agent_id = $1 AND entity_id = $2 AND id = $3
"""

MERGE_EVIDENCE_AND_DELETE = """
WITH gone AS (
    DELETE FROM facts WHERE agent_id = $1 AND entity_id = $2 AND id = $4 RETURNING evidence_message_ids
)
UPDATE facts f
   SET evidence_message_ids = ARRAY(SELECT DISTINCT unnest(f.evidence_message_ids || gone.evidence_message_ids))
  FROM gone
 WHERE f.agent_id = $1 AND f.entity_id = $2 AND f.id = $3
"""

UPSERT_RELATIONSHIP = """
INSERT INTO relationships (agent_id, source_entity_id, target_entity_id, tags, interaction_count,
                           created_at, updated_at)
VALUES ($1, $2, $3, $4, 1, $5, $5)
ON CONFLICT (agent_id, source_entity_id, target_entity_id) DO UPDATE
   SET tags = ARRAY(SELECT DISTINCT t FROM unnest(relationships.tags || EXCLUDED.tags) AS t ORDER BY t),
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

# Serializes the write path per (agent, entity): confidences and dedup see every earlier turn.
LOCK_ENTITY = "SELECT pg_advisory_xact_lock(hashtextextended($1::text || '/' || $2::text, 0))"

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

GET_EVALUATION = """
SELECT entity_id, result FROM evaluations WHERE agent_id = $1 AND message_id = $2
"""

LIST_FACTS = f"""
SELECT {FACT_COLUMNS} FROM facts
 WHERE agent_id = $1 AND entity_id = $2 AND ($3::text IS NULL OR kind = $3) AND ($4::uuid IS NULL OR id > $4)
 ORDER BY id
 LIMIT $5
"""

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

EXPORT_FACTS = f"""
SELECT {FACT_COLUMNS}, embedding_model FROM facts WHERE agent_id = $1 AND entity_id = $2 ORDER BY created_at, id
"""
EXPORT_CANDIDATES = f"""
SELECT {CANDIDATE_COLUMNS} FROM fact_candidates c WHERE c.agent_id = $1 AND c.entity_id = $2
 ORDER BY c.created_at, c.id
"""
EXPORT_RELATIONSHIPS = """
SELECT source_entity_id, target_entity_id, tags, interaction_count, created_at, updated_at FROM relationships
 WHERE agent_id = $1 AND (source_entity_id = $2 OR target_entity_id = $2)
 ORDER BY source_entity_id, target_entity_id
"""
EXPORT_IDENTITIES = """
SELECT platform, handle, confidence, created_at, updated_at FROM identities
 WHERE agent_id = $1 AND entity_id = $2 ORDER BY platform, handle
"""
EXPORT_EVALUATIONS = """
SELECT message_id, room_id, result, prompt_tokens, completion_tokens, success_completed, success_reason, created_at
  FROM evaluations WHERE agent_id = $1 AND entity_id = $2 ORDER BY created_at, message_id
"""


def row_to_fact(row: asyncpg.Record) -> Fact:
    """A facts row as a domain Fact."""
    fields = row["structured_fields"]
    return Fact(
        id=row["id"],
        agent_id=row["agent_id"],
        entity_id=row["entity_id"],
        kind=Kind(row["kind"]),
        category=row["category"],
        claim=row["claim"],
        structured_fields=json.loads(fields) if isinstance(fields, str) else dict(fields),
        confidence=row["confidence"],
        evidence_message_ids=tuple(row["evidence_message_ids"]),
        verification_status=Verification(row["verification_status"]),
        created_at=row["created_at"],
        last_confirmed_at=row["last_confirmed_at"],
        valid_at=row["valid_at"],
        previous_claims=tuple(row["previous_claims"]),
    )


def row_to_candidate(row: asyncpg.Record, fact: Fact | None) -> Candidate:
    return Candidate(
        id=row["id"],
        agent_id=row["agent_id"],
        entity_id=row["entity_id"],
        fact=fact,
        proposed_claim=row["proposed_claim"],
        reason=row["reason"],
        source=row["source"],
        evidence_message_id=row["evidence_message_id"],
        status=CandidateStatus(row["status"]),
        created_at=row["created_at"],
        resolved_at=row["resolved_at"],
    )


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
        url, min_size=min_size, max_size=max_size, init=_init_connection, command_timeout=timeout_s,
        timeout=timeout_s,
    )
    try:
        yield pool
    finally:
        await pool.close()


class Turn:
    """One Evaluate's write transaction, holding the per-entity lock (implements ports.WriteTransaction)."""

    def __init__(self, conn: asyncpg.Connection, agent_id: UUID, entity_id: UUID) -> None:
        self._conn = conn
        self.agent_id = agent_id
        self.entity_id = entity_id

    async def claim_evaluation(self, message_id: str, room_id: UUID | None) -> bool:
        """Reserves the message; False when it was evaluated already (the caller then replays)."""
        row = await self._conn.fetchval(CLAIM_EVALUATION, self.agent_id, message_id, self.entity_id, room_id)
        return row is not None

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

    async def similar_in_category(self, kind: Kind, category: str, embedding: Vector, limit: int) -> list[Similar]:
        rows = await self._conn.fetch(
            SIMILAR_IN_CATEGORY, self.agent_id, self.entity_id, kind.value, category, embedding, limit
        )
        return [Similar(row_to_fact(r), float(r["similarity"])) for r in rows]

    async def insert_fact(self, new: NewFact) -> Fact:
        row = await self._conn.fetchrow(
            INSERT_FACT,
            uuid4(),
            self.agent_id,
            self.entity_id,
            new.kind.value,
            new.category,
            new.claim,
            new.structured_fields,
            new.confidence,
            [new.message_id],
            new.verification.value,
            new.at,
            new.valid_at,
            new.embedding,
            new.embedding_model,
        )
        return row_to_fact(row)

    async def strengthen(
        self, fact_id: UUID, delta: float, at: datetime, message_id: str, category: str, verification: str
    ) -> Fact | None:
        row = await self._conn.fetchrow(
            STRENGTHEN_FACT, self.agent_id, self.entity_id, fact_id, delta, at, message_id, category, verification
        )
        return None if row is None else row_to_fact(row)

    async def decay(self, fact_id: UUID, delta: float, delete_below: float) -> tuple[Fact | None, bool]:
        """Lowers confidence; deletes the fact when it falls below the floor. Returns (fact, deleted)."""
        row = await self._conn.fetchrow(DECAY_FACT, self.agent_id, self.entity_id, fact_id, delta)
        if row is None:
            return None, False
        fact = row_to_fact(row)
        if fact.confidence < delete_below:
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
    ) -> UUID:
        candidate_id = uuid4()
        await self._conn.execute(
            INSERT_CANDIDATE,
            candidate_id,
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
        return candidate_id

    async def upsert_relationship(self, source: UUID, target: UUID, tags: Sequence[str], at: datetime) -> Relationship:
        row = await self._conn.fetchrow(UPSERT_RELATIONSHIP, self.agent_id, source, target, list(tags), at)
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
            entity_id=str(row["entity_id"]), platform=row["platform"], handle=row["handle"],
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
)


@asynccontextmanager
async def _connection(pool: asyncpg.Pool) -> AsyncIterator[asyncpg.Connection]:
    try:
        async with pool.acquire() as conn:
            yield conn
    except TRANSIENT_DB_ERRORS as exc:
        raise _unavailable(exc) from exc


class Store:
    """Typed access to the facts database through a pool."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    @property
    def pool(self) -> asyncpg.Pool:
        """The connection pool (for tools and tests that inspect the database directly)."""
        return self._pool

    @asynccontextmanager
    async def turn(self, agent_id: UUID, entity_id: UUID, forget_epoch: int | None = None) -> AsyncIterator[Turn]:
        """A transaction holding the per-entity lock; commits on success, rolls back on any error. With
        `forget_epoch` (read when the call started) it refuses to write if the entity was forgotten since."""
        async with _connection(self._pool) as conn, conn.transaction():
            await conn.execute(LOCK_ENTITY, str(agent_id), str(entity_id))
            if forget_epoch is not None and await _epoch(conn, agent_id, entity_id) != forget_epoch:
                raise Conflict("the entity was forgotten while this message was being evaluated; nothing was "
                               "stored (ForgetEntity is final: do not resend messages of a forgotten entity)")
            yield Turn(conn, agent_id, entity_id)

    async def forget_epoch(self, agent_id: UUID, entity_id: UUID) -> int:
        """How many times this (agent, entity) was forgotten; an Evaluate reads it before it learns anything."""
        async with _connection(self._pool) as conn:
            return await _epoch(conn, agent_id, entity_id)

    async def get_evaluation(self, agent_id: UUID, message_id: str) -> tuple[UUID, EvaluateResult] | None:
        async with _connection(self._pool) as conn:
            row = await conn.fetchrow(GET_EVALUATION, agent_id, message_id)
        if row is None or not row["result"]:
            return None
        return row["entity_id"], EvaluateResult.model_validate(row["result"])

    async def nearest(
        self, agent_id: UUID, entity_id: UUID, embedding: Vector, durable_limit: int, current_limit: int
    ) -> list[Similar]:
        return await self._ranked(NEAREST_BY_KIND, agent_id, entity_id, embedding, durable_limit, current_limit)

    async def text_search(
        self, agent_id: UUID, entity_id: UUID, query: str, durable_limit: int, current_limit: int
    ) -> list[Similar]:
        return await self._ranked(TEXT_SEARCH_BY_KIND, agent_id, entity_id, query, durable_limit, current_limit)

    async def _ranked(self, query: str, *args: object) -> list[Similar]:
        """Rows of a per-kind ranking query, each with its `similarity` column."""
        async with _connection(self._pool) as conn:
            rows = await conn.fetch(query, *args)
        return [Similar(row_to_fact(r), float(r["similarity"])) for r in rows]

    async def list_facts(
        self, agent_id: UUID, entity_id: UUID, kind: Kind | None, after: UUID | None, limit: int
    ) -> list[Fact]:
        async with _connection(self._pool) as conn:
            rows = await conn.fetch(
                LIST_FACTS, agent_id, entity_id, None if kind is None else kind.value, after, limit
            )
        return [row_to_fact(r) for r in rows]

    async def list_candidates(self, agent_id: UUID, entity_id: UUID) -> list[Candidate]:
        async with _connection(self._pool) as conn:
            rows = await conn.fetch(LIST_PENDING_CANDIDATES, agent_id, entity_id)
            result = []
            for row in rows:
                fact_row = await conn.fetchrow(GET_FACT, agent_id, entity_id, row["fact_id"])
                result.append(row_to_candidate(row, None if fact_row is None else row_to_fact(fact_row)))
        return result

    async def resolve_candidate(
        self,
        agent_id: UUID,
        entity_id: UUID,
        candidate_id: UUID,
        accept: bool,
        at: datetime,
        embedding: Vector | None,
        embedding_model: str,
    ) -> tuple[Candidate, Fact | None]:
        """Accept: the fact takes the proposed claim (old claim kept in history). Reject: the fact stays."""
        async with _connection(self._pool) as conn, conn.transaction():
            await conn.execute(LOCK_ENTITY, str(agent_id), str(entity_id))
            row = await conn.fetchrow(GET_CANDIDATE_FOR_UPDATE, agent_id, entity_id, candidate_id)
            if row is None:
                raise NotFound(f"candidate {candidate_id} not found for this agent and entity")
            if row["status"] != CandidateStatus.PENDING.value:
                raise Conflict(f"candidate {candidate_id} is already {row['status']}")
            fact_row = await conn.fetchrow(GET_FACT_FOR_UPDATE, agent_id, entity_id, row["fact_id"])
            fact = None if fact_row is None else row_to_fact(fact_row)
            status = CandidateStatus.ACCEPTED if accept else CandidateStatus.REJECTED
            if accept and fact is not None and embedding is not None:
                if row["related_fact_id"] is not None:
                    await conn.execute(
                        MERGE_EVIDENCE_AND_DELETE, agent_id, entity_id, fact.id, row["related_fact_id"]
                    )
                fact_row = await conn.fetchrow(
                    REPLACE_CLAIM, agent_id, entity_id, fact.id, row["proposed_claim"], embedding,
                    embedding_model, Verification.CONFIRMED.value, at, row["evidence_message_id"],
                )
                fact = row_to_fact(fact_row)
            await conn.execute(CLOSE_CANDIDATE, agent_id, entity_id, candidate_id, status.value, at)
            closed = await conn.fetchrow(GET_CANDIDATE_FOR_UPDATE, agent_id, entity_id, candidate_id)
        return row_to_candidate(closed, fact), fact

    async def get_candidate_claim(self, agent_id: UUID, entity_id: UUID, candidate_id: UUID) -> str | None:
        async with _connection(self._pool) as conn:
            row = await conn.fetchrow(GET_CANDIDATE, agent_id, entity_id, candidate_id)
        return None if row is None else str(row["proposed_claim"])

    async def forget_entity(self, agent_id: UUID, entity_id: UUID) -> ForgetCounts:
        async with _connection(self._pool) as conn, conn.transaction():
            await conn.execute(LOCK_ENTITY, str(agent_id), str(entity_id))
            candidates = await conn.execute(FORGET_CANDIDATES, agent_id, entity_id)
            facts = await conn.execute(FORGET_FACTS, agent_id, entity_id)
            relationships = await conn.execute(FORGET_RELATIONSHIPS, agent_id, entity_id)
            identities = await conn.execute(FORGET_IDENTITIES, agent_id, entity_id)
            evaluations = await conn.execute(FORGET_EVALUATIONS, agent_id, entity_id)
            await conn.execute(BUMP_FORGET_EPOCH, agent_id, entity_id)
        return ForgetCounts(
            facts=_count(facts),
            candidates=_count(candidates),
            relationships=_count(relationships),
            identities=_count(identities),
            evaluations=_count(evaluations),
        )

    async def export_entity(self, agent_id: UUID, entity_id: UUID) -> dict[str, Any]:
        """Everything stored about one entity, JSON-ready (embeddings are named by model, not dumped)."""
        async with _connection(self._pool) as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            facts = await conn.fetch(EXPORT_FACTS, agent_id, entity_id)
            candidates = await conn.fetch(EXPORT_CANDIDATES, agent_id, entity_id)
            relationships = await conn.fetch(EXPORT_RELATIONSHIPS, agent_id, entity_id)
            identities = await conn.fetch(EXPORT_IDENTITIES, agent_id, entity_id)
            evaluations = await conn.fetch(EXPORT_EVALUATIONS, agent_id, entity_id)
        return {
            "agent_id": str(agent_id),
            "entity_id": str(entity_id),
            "facts": [
                row_to_fact(r).model_dump(mode="json") | {"embedding_model": r["embedding_model"]} for r in facts
            ],
            "candidates": [_jsonable(dict(r)) for r in candidates],
            "relationships": [_jsonable(dict(r)) for r in relationships],
            "identities": [_jsonable(dict(r)) for r in identities],
            "evaluations": [_jsonable(dict(r)) for r in evaluations],
        }


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
