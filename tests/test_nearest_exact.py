"""The nearest facts of a large entity come from a half-precision shortlist (migration 0008) and must be exactly the
facts, in the order, of `ORDER BY embedding <=> q, id` over the whole entity; the migration backfills existing rows
and a trigger keeps the copy in step with the vector."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import asyncpg
import numpy as np
from asyncpg.pool import PoolConnectionProxy
from pgvector.asyncpg import register_vector

from factmemory.adapters.postgres.deployment.database import migrate
from factmemory.adapters.postgres.read.nearest import HALF_MARGIN, NEAREST_BY_KIND, NEAREST_CTES, SHORTLIST
from factmemory.adapters.postgres.rows import vector_array
from factmemory.adapters.postgres.store import PostgresEvaluate
from factmemory.domain.models import Kind
from factmemory.domain.vectors import Matrix
from factmemory_tools.bench.run import EXACT_NEAREST as EXACT
from tests.conftest import Service

DIMENSIONS = 384
AT = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)

SHORTLISTED = f"""{NEAREST_CTES}
SELECT (SELECT shortlisted FROM durable_cut) AS durable, (SELECT shortlisted FROM current_cut) AS current
"""
# One statement for all rows: the per-statement triggers then run once (see rows.IMPORT_FACTS).
INSERT = """
INSERT INTO facts (id, agent_id, entity_id, kind, category, claim, confidence, created_at, last_confirmed_at,
                   embedding, embedding_model)
SELECT u.id, $1, $2, u.kind, 'preference', u.claim, 0.7, $3, $3, u.embedding, 'test'
  FROM unnest($4::uuid[], $5::text[], $6::text[], $7::vector[]) AS u(id, kind, claim, embedding)
"""


def clustered(rng: np.random.Generator, count: int) -> Matrix:
    """Noisy copies of a few directions, as the benchmark's facts are: many facts at almost the same distance."""
    centers = rng.normal(size=(8, DIMENSIONS)) + 3.0  # a shared offset, like a real embedder's anisotropy
    vectors = centers[rng.integers(0, 8, count)] + rng.normal(0.0, 0.6, (count, DIMENSIONS))
    return np.asarray(vectors / np.linalg.norm(vectors, axis=1, keepdims=True), dtype=np.float32)


async def fill(
    conn: asyncpg.Connection | PoolConnectionProxy[asyncpg.Record],
    agent: uuid.UUID,
    entity: uuid.UUID,
    per_kind: int,
    seed: int,
) -> None:
    rng = np.random.default_rng(seed)
    rows = [
        (uuid.uuid4(), kind, f"fact {i}", vector)
        for kind in ("durable", "current")
        for i, vector in enumerate(clustered(rng, per_kind))
    ]
    ids, kinds, claims, vectors = zip(*rows, strict=True)
    await conn.execute(INSERT, agent, entity, AT, list(ids), list(kinds), list(claims), vector_array(vectors))


async def test_a_large_entity_gets_exactly_the_exact_order(service: Service) -> None:
    store = service.store
    assert isinstance(store, PostgresEvaluate)
    agent, entity = uuid.uuid4(), uuid.uuid4()
    async with store.pool.acquire() as conn:
        await fill(conn, agent, entity, SHORTLIST * 3, seed=1)
        await conn.execute("ANALYZE facts")
        rng = np.random.default_rng(2)
        for query in clustered(rng, 20):
            found = await store.nearest(agent, entity, query, 24, 24)
            exact = [r["id"] for r in await conn.fetch(EXACT, agent, entity, query, 24, 24)]
            assert [s.fact.id for s in found] == exact
            used = await conn.fetchrow(SHORTLISTED, agent, entity, query, 24, 24, SHORTLIST, HALF_MARGIN)
            assert used is not None
            assert used["durable"] and used["current"]  # the shortlist path ran, not the exact fallback


async def test_the_exact_plan_runs_when_the_shortlist_cannot_prove_its_order(service: Service) -> None:
    store = service.store
    assert isinstance(store, PostgresEvaluate)
    agent, entity = uuid.uuid4(), uuid.uuid4()
    async with store.pool.acquire() as conn:
        await fill(conn, agent, entity, SHORTLIST + 50, seed=3)
        query = clustered(np.random.default_rng(4), 1)[0]
        wide = 2.0  # no shortlist of 200 can be 2.0 wider than the 24th distance: the exact plan answers
        assert tuple(await conn.fetchrow(SHORTLISTED, agent, entity, query, 24, 24, SHORTLIST, wide) or ()) == (
            False,
            False,
        )
        rows = await conn.fetch(NEAREST_BY_KIND, agent, entity, query, 24, 24, SHORTLIST, wide)
        assert [r["id"] for r in rows] == [r["id"] for r in await conn.fetch(EXACT, agent, entity, query, 24, 24)]


async def test_a_small_entity_keeps_the_exact_plan(service: Service) -> None:
    store = service.store
    assert isinstance(store, PostgresEvaluate)
    agent, entity = uuid.uuid4(), uuid.uuid4()
    async with store.pool.acquire() as conn:
        await fill(conn, agent, entity, 60, seed=5)
        query = clustered(np.random.default_rng(6), 1)[0]
        assert tuple(await conn.fetchrow(SHORTLISTED, agent, entity, query, 24, 24, SHORTLIST, HALF_MARGIN) or ()) == (
            False,
            False,
        )
        found = await store.nearest(agent, entity, query, 24, 24)
        assert [s.fact.id for s in found] == [r["id"] for r in await conn.fetch(EXACT, agent, entity, query, 24, 24)]


async def test_migration_0008_backfills_the_half_precision_copy(empty_database: str) -> None:
    await migrate(empty_database, DIMENSIONS, until=7)
    conn = await asyncpg.connect(empty_database)
    try:
        await register_vector(conn)
        agent, entity = uuid.uuid4(), uuid.uuid4()
        await fill(conn, agent, entity, 5, seed=7)

        await migrate(empty_database, DIMENSIONS)

        missing = await conn.fetchval("SELECT count(*) FROM facts WHERE embedding_half IS NULL")
        differs = await conn.fetchval("SELECT count(*) FROM facts WHERE embedding_half <> embedding::halfvec")
        assert (missing, differs) == (0, 0)
        await fill(conn, agent, entity, 1, seed=8)  # new rows get it too (the trigger)
        assert await conn.fetchval("SELECT count(*) FROM facts WHERE embedding_half IS NOT NULL") == 12
        await conn.execute("UPDATE facts SET embedding = $1", clustered(np.random.default_rng(9), 1)[0])
        assert await conn.fetchval("SELECT count(*) FROM facts WHERE embedding_half <> embedding::halfvec") == 0
        index = await conn.fetchval("SELECT indexdef FROM pg_indexes WHERE indexname = 'facts_nearest_half_idx'")
        assert "INCLUDE (id, embedding_half)" in index
        storage = await conn.fetchval(
            "SELECT attstorage::text FROM pg_attribute WHERE attrelid = 'facts'::regclass AND attname = 'embedding'"
        )
        assert storage == "m"  # the full vector stays in the row
    finally:
        await conn.close()


EXACT_OF_KIND = """
SELECT id FROM facts WHERE agent_id = $1 AND entity_id = $2 AND kind = $3 AND archived_at IS NULL
 ORDER BY embedding <=> $4, id LIMIT $5
"""


async def test_the_write_context_of_a_large_entity_has_exactly_the_nearest_facts(service: Service) -> None:
    """Evaluate's duplicate check reads each add's neighbours from the same half-precision shortlist; with the HNSW
    index gone (migration 0052) they are the exact nearest of the add's kind, in order, for a person with thousands
    of facts too (the planner took the approximate graph here before)."""
    store = service.store
    assert isinstance(store, PostgresEvaluate)
    agent, entity = uuid.uuid4(), uuid.uuid4()
    async with store.pool.acquire() as conn:
        await fill(conn, agent, entity, SHORTLIST * 3, seed=7)
        await conn.execute("ANALYZE facts")
        assert not await conn.fetch("SELECT 1 FROM pg_indexes WHERE tablename = 'facts' AND indexdef LIKE '%hnsw%'")
        queries = clustered(np.random.default_rng(8), 6)
        kinds = [Kind.DURABLE, Kind.CURRENT] * 3
        context = await store.write_context(agent, entity, kinds, list(queries), [f"new {i}" for i in range(6)], 8)
        for kind, query, near in zip(kinds, queries, context.neighbours, strict=True):
            exact = [r["id"] for r in await conn.fetch(EXACT_OF_KIND, agent, entity, kind.value, query, 8)]
            assert [s.fact.id for s in near] == exact
