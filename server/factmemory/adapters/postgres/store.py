"""The fact stores, one per port of the use-cases but Provide's: PostgresEvaluate (what Evaluate reads before its
lock, and its write transaction), PostgresReview (a reviewer's transaction), PostgresBrowse (the read RPCs, on the
replica when there is one) and PostgresBulk (import, export, restore, ForgetEntity), on one pool. Provide reads
through its own store (read/provide_store.py). The statements live by what they do: rows (columns, row mapping,
insert and delete), read/ (ranking), write/ (Evaluate), review/, erasure/ (ForgetEntity), export; connection holds
the pool, transient errors and the per-entity lock."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any
from uuid import UUID

import asyncpg

from factmemory.adapters.postgres import shared
from factmemory.adapters.postgres.connection import connection, locked
from factmemory.adapters.postgres.deployment.replica import ReadRoute, Reads
from factmemory.adapters.postgres.erasure.forgetting import forget_entity
from factmemory.adapters.postgres.erasure.forgetting import forget_epoch as read_forget_epoch
from factmemory.adapters.postgres.export import export_rows
from factmemory.adapters.postgres.read.nearest import NearestReads
from factmemory.adapters.postgres.review import transaction as review
from factmemory.adapters.postgres.review.transaction import ReviewTx
from factmemory.adapters.postgres.rows import (
    DISPUTED_BY,
    FACT_COLUMNS,
    IMPORT_FACTS,
    MARK_IMPORT,
    import_values,
    mark_values,
    row_to_fact,
    row_to_history,
)
from factmemory.adapters.postgres.write import import_ledger, restore
from factmemory.adapters.postgres.write.context import read_write_context
from factmemory.adapters.postgres.write.transaction import PostgresWriteTransaction
from factmemory.adapters.postgres.write.turn_start import TURN_START, TURN_START_BY_PERSON, read_turn_start
from factmemory.domain.dedup.planning import OpenPair
from factmemory.domain.excerpts import EvidenceSource
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
    Kind,
)
from factmemory.domain.new_fact import NewFact
from factmemory.domain.vectors import Vector
from factmemory.ports import Position, TurnStart, WriteContext

GET_EVALUATIONS = """
SELECT message_id, entity_id, result FROM evaluations WHERE agent_id = $1 AND message_id = ANY ($2::text[])
"""
# Distributed by person (Citus), message ids are unique per person and the read names the person: one shard.
GET_EVALUATIONS_BY_PERSON = GET_EVALUATIONS.rstrip() + " AND entity_id = $3\n"

LIST_FACTS = f"""
SELECT {FACT_COLUMNS}, {DISPUTED_BY} FROM facts
 WHERE agent_id = $1 AND entity_id = $2 AND ($3::text IS NULL OR kind = $3) AND ($4::uuid IS NULL OR id > $4)
 ORDER BY id
 LIMIT $5
"""

COUNT_FACTS = "SELECT count(*) FROM facts WHERE agent_id = $1 AND entity_id = $2"


class PoolStore:
    """What the fact stores share: the pool, and the route of the read RPCs' reads (`reads`: on the replica with a
    ReadRoute, FACTMEMORY_DATABASE_READ_URL; else on the primary)."""

    def __init__(self, pool: asyncpg.Pool, route: ReadRoute | None = None) -> None:
        self._pool = pool
        self.reads = Reads(pool, route)

    @property
    def pool(self) -> asyncpg.Pool:
        """The connection pool (for tools and tests that inspect the database directly)."""
        return self._pool


class OneFactRead(PoolStore):
    """ports.OneFact: one fact with its dispute, on the replica when the caller says `replica_ok` (GetFact, not
    an edit)."""

    async def get_fact(
        self, agent_id: UUID, entity_id: UUID, fact_id: UUID, *, replica_ok: bool = False
    ) -> Fact | None:
        row = await self.reads.run(
            agent_id,
            entity_id,
            lambda conn: conn.fetchrow(review.GET_FACT_WITH_DISPUTE, agent_id, entity_id, fact_id),
            replica_ok,
        )
        return None if row is None else row_to_fact(row)


class PostgresEvaluate(NearestReads, PoolStore):
    """ports.EvaluateStore: what Evaluate reads before its lock (on the primary) and its write transaction. On one
    PostgreSQL a turn reads the stored evaluations of its message ids of any of the agent's people (one evaluated
    for another is refused); PerPersonEvaluate: distributed by person."""

    # A turn's first read (write/turn_start.py).
    _turn_start = TURN_START

    @asynccontextmanager
    async def writing(self, agent_id: UUID, entity_id: UUID) -> AsyncIterator[PostgresWriteTransaction]:
        """A transaction under the per-entity lock, with the revision and forget epoch as read under it."""
        async with locked(self._pool, agent_id, entity_id) as (conn, (revision,)):
            epoch = await read_forget_epoch(conn, agent_id, entity_id)
            yield PostgresWriteTransaction(conn, agent_id, entity_id, revision, epoch)

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
        async with connection(self._pool) as conn:
            return await read_write_context(conn, agent_id, entity_id, kinds, vectors, claims, limit)

    async def turn_start(
        self,
        agent_id: UUID,
        entity_id: UUID,
        message_ids: Sequence[str],
        pairs_limit: int,
        ttl_turns: int,
        subject_ids: Sequence[UUID] = (),
    ) -> TurnStart:
        """Before anything is learned, one round trip: forget epoch, stored results, open pairs, recorded subjects."""
        async with connection(self._pool) as conn:
            return await read_turn_start(
                conn, agent_id, entity_id, message_ids, pairs_limit, ttl_turns, subject_ids, self._turn_start
            )

    async def open_pairs(self, agent_id: UUID, entity_id: UUID, limit: int, ttl_turns: int) -> list[OpenPair]:
        """The likeliest open possible-duplicate pairs recorded within ttl_turns turns, with both facts."""
        return (await self.turn_start(agent_id, entity_id, (), limit, ttl_turns)).open_pairs

    async def get_evaluations(
        self, agent_id: UUID, message_ids: Sequence[str], entity_id: UUID | None = None
    ) -> dict[str, tuple[UUID, EvaluateResult]]:
        """One round trip for a batch, without rows of calls still running: of any of the agent's people."""
        async with connection(self._pool) as conn:
            return evaluations_of(await conn.fetch(GET_EVALUATIONS, agent_id, list(message_ids)))


class PostgresReview(shared.SubjectReads, OneFactRead):
    """ports.ReviewStore: a reviewer's transaction under the per-entity lock and what it reads first."""

    @asynccontextmanager
    async def review(self, agent_id: UUID, entity_id: UUID) -> AsyncIterator[ReviewTx]:
        """A reviewer's transaction holding the per-entity lock; commits on success, rolls back on any error."""
        async with locked(self._pool, agent_id, entity_id) as (conn, _):
            yield ReviewTx(conn, agent_id, entity_id)

    async def get_candidate(self, agent_id: UUID, entity_id: UUID, candidate_id: UUID) -> Candidate | None:
        async with connection(self._pool) as conn:
            row = await conn.fetchrow(review.GET_CANDIDATE, agent_id, entity_id, candidate_id)
        return None if row is None else review.row_to_candidate(row)


class PostgresBrowse(shared.SubjectReads, OneFactRead):
    """ports.BrowseStore: the read RPCs and the review page's reads, on the replica when there is one."""

    async def list_facts(
        self, agent_id: UUID, entity_id: UUID, kind: Kind | None, after: UUID | None, limit: int
    ) -> list[Fact]:
        rows = await self.reads.run(
            agent_id,
            entity_id,
            lambda conn: conn.fetch(
                LIST_FACTS, agent_id, entity_id, None if kind is None else kind.value, after, limit
            ),
        )
        return [row_to_fact(r) for r in rows]

    async def teaching_sources(
        self, agent_id: UUID, subject_id: UUID, message_ids: Sequence[str]
    ) -> list[EvidenceSource]:
        """A shared fact's messages, each excerpt led by its teacher's name ('Ada: the hackathon moved ...')."""
        rows = await self.reads.run(
            agent_id,
            subject_id,
            lambda conn: conn.fetch(shared.TEACHING_SOURCES, agent_id, subject_id, list(message_ids)),
        )
        return [EvidenceSource(r["message_id"], r["excerpt"], r["created_at"]) for r in rows]

    async def evidence_sources(
        self, agent_id: UUID, entity_id: UUID, message_ids: Sequence[str]
    ) -> list[EvidenceSource]:
        rows = await self.reads.run(
            agent_id, entity_id, lambda conn: conn.fetch(review.EVIDENCE_SOURCES, agent_id, entity_id, message_ids)
        )
        return [EvidenceSource(r["message_id"], r["excerpt"], r["created_at"]) for r in rows]

    async def fact_history(self, agent_id: UUID, entity_id: UUID, fact_id: UUID) -> list[HistoryEntry]:
        rows = await self.reads.run(
            agent_id, entity_id, lambda conn: conn.fetch(review.HISTORY, agent_id, entity_id, fact_id)
        )
        return [row_to_history(r) for r in rows]

    async def list_candidates(
        self,
        agent_id: UUID,
        entity_id: UUID | None,
        status: CandidateStatus | None,
        source: CandidateSource | None,
        after: Position | None,
        limit: int,
    ) -> list[Candidate]:
        return await self.reads.run(
            agent_id,
            entity_id,
            lambda conn: review.list_candidates(conn, agent_id, entity_id, status, source, after, limit),
        )

    async def list_entities(
        self, agent_id: UUID, pattern: str, after: Position | None, limit: int
    ) -> list[EntitySummary]:
        return await self.reads.run(
            agent_id, None, lambda conn: review.list_entities(conn, agent_id, pattern, after, limit)
        )


class PostgresBulk(shared.SubjectReads, restore.Restores, PoolStore):
    """ports.BulkStore: a person's import, export, restore and ForgetEntity. `forgotten`: drops what this process
    holds of a person it forgets or restores (Provide's memo and copies)."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        route: ReadRoute | None = None,
        forgotten: Callable[[UUID, UUID], None] | None = None,
    ) -> None:
        super().__init__(pool, route)
        self._forgotten = forgotten

    async def import_facts(
        self, agent_id: UUID, entity_id: UUID, facts: Sequence[NewFact], actor: str, forget_epoch: int
    ) -> int | None:
        """Inserts the facts whose source row the import ledger has not seen for the agent; returns how many, or
        None, storing and recording nothing, when the entity was forgotten since its epoch was `forget_epoch`."""
        async with locked(self._pool, agent_id, entity_id) as (conn, _):
            if await read_forget_epoch(conn, agent_id, entity_id) != forget_epoch:
                return None
            await conn.execute(MARK_IMPORT, *mark_values(HistoryAction.IMPORTED, actor), agent_id, entity_id)
            before = await conn.fetchval(COUNT_FACTS, agent_id, entity_id)
            fresh = await import_ledger.record(conn, agent_id, [f.import_source_id or "" for f in facts])
            facts = [f for f in facts if f.import_source_id in fresh]
            await conn.execute(IMPORT_FACTS, *import_values(agent_id, entity_id, facts))
            after = await conn.fetchval(COUNT_FACTS, agent_id, entity_id)
        return int(after - before)

    async def forget_epoch(self, agent_id: UUID, entity_id: UUID) -> int:
        async with connection(self._pool) as conn:
            return await read_forget_epoch(conn, agent_id, entity_id)

    async def imported_ids(self, agent_id: UUID, entity_id: UUID, source_ids: Sequence[str]) -> set[str]:
        async with connection(self._pool) as conn:
            return await import_ledger.known(conn, agent_id, source_ids)

    async def forget_entity(self, agent_id: UUID, entity_id: UUID) -> ForgetCounts:
        async with locked(self._pool, agent_id, entity_id) as (conn, _):
            counts = await forget_entity(conn, agent_id, entity_id)
        self.drop_held(agent_id, entity_id)
        return counts

    def drop_held(self, agent_id: UUID, entity_id: UUID) -> None:
        """Drops what this process holds of the person (Provide's candidate facts and their vectors' copy)."""
        if self._forgotten is not None:
            self._forgotten(agent_id, entity_id)

    async def export_rows(
        self, agent_id: UUID, entity_id: UUID, section: str, after: tuple[str, str] | None, limit: int
    ) -> list[tuple[dict[str, Any], tuple[str, str]]]:
        """Up to limit items of one export list after the key `after`, JSON-ready, each with its key."""
        return await self.reads.run(
            agent_id, entity_id, lambda conn: export_rows(conn, agent_id, entity_id, section, after, limit)
        )


class PerPersonEvaluate(PostgresEvaluate):
    """Evaluate's store on a database distributed by person (Citus, docs/scaling.md): message ids are unique per
    person there, and a turn's reads of stored evaluations name the person, so they run on the person's shard
    alone (no look for the same id evaluated for another person)."""

    _turn_start = TURN_START_BY_PERSON

    async def get_evaluations(
        self, agent_id: UUID, message_ids: Sequence[str], entity_id: UUID | None = None
    ) -> dict[str, tuple[UUID, EvaluateResult]]:
        """One round trip for a batch, without rows of calls still running: only `entity_id`'s if given."""
        if entity_id is None:
            return await super().get_evaluations(agent_id, message_ids)
        async with connection(self._pool) as conn:
            return evaluations_of(await conn.fetch(GET_EVALUATIONS_BY_PERSON, agent_id, list(message_ids), entity_id))


def evaluations_of(rows: Sequence[asyncpg.Record]) -> dict[str, tuple[UUID, EvaluateResult]]:
    """The stored evaluations by message id, without rows of calls still running (result '{}')."""
    return {
        row["message_id"]: (row["entity_id"], EvaluateResult.model_validate(row["result"]))
        for row in rows
        if row["result"]
    }
