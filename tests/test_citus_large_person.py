"""A person who holds most of their shard on the Citus cluster: Provide's statement reads their nearest facts by an
index-only scan of facts_search_half_idx, as on one PostgreSQL. With PostgreSQL's default random_page_cost (4) the
worker's planner read them by a sequential scan that detoasts every search vector: 67-84 ms for a person of 20,000
facts against 15.6 ms (docs/scaling.md; the local cluster's nodes run with 1.1, as the service's own sessions do)."""

from __future__ import annotations

import asyncio
import time
import uuid

import asyncpg
import numpy as np

from factmemory.adapters.postgres.connection import SESSION_SETTINGS
from factmemory.adapters.postgres.read.provide_pool import CANDIDATES, candidate_args
from factmemory.domain.provide_tuning import RARE_DF, RARE_FACTS, VECTOR_POOL
from tests.conftest import Service
from tests.support.big_person import load
from tests.support.fm import new_id

FACTS = 20_000


# How long VACUUM is retried until the person's shard is marked all-visible: a snapshot older than the load, held by
# any session of the worker's database (another test's), keeps VACUUM from marking the pages, and the planner then
# prices an index-only scan as reading every row from the heap.
VISIBLE_WITHIN_S = 60.0
SHARD_PAGES = """
SELECT result FROM run_command_on_placements(
    'facts', $$SELECT relpages || '/' || relallvisible FROM pg_class WHERE oid = '%s'::regclass$$)
 WHERE shardid = get_shard_id_for_distribution_column('facts', $1::uuid)
"""


async def visible(conn: asyncpg.Connection, person: uuid.UUID) -> None:
    """VACUUM (ANALYZE) until at least 90 % of the person's shard is marked all-visible, as autovacuum leaves it."""
    deadline = time.monotonic() + VISIBLE_WITHIN_S
    while True:
        await conn.execute("VACUUM (ANALYZE) facts")
        pages, all_visible = (int(n) for n in (await conn.fetchval(SHARD_PAGES, str(person))).split("/"))
        if all_visible >= 0.9 * pages or time.monotonic() > deadline:
            assert all_visible >= 0.9 * pages, f"{all_visible} of {pages} pages all-visible"
            return
        await asyncio.sleep(1.0)


async def test_a_person_holding_most_of_their_shard_is_read_by_the_index(
    citus_url: str, citus_service: Service
) -> None:
    agent, person = uuid.uuid4(), uuid.uuid4()
    dims = citus_service.deps.embedder.dimensions
    conn = await asyncpg.connect(citus_url)
    try:
        await load(conn, agent, person, FACTS, dims, uuid.UUID(new_id()), without_triggers=True)
        await visible(conn, person)
        turn = np.random.default_rng(1).normal(size=dims)
        turn /= np.linalg.norm(turn)
        args = (*candidate_args(turn.tolist(), VECTOR_POOL, ["stamps"], RARE_DF, RARE_FACTS), [], [])  # none held
        async with citus_service.pool.acquire() as pooled:
            plan = "\n".join(r[0] for r in await pooled.fetch("EXPLAIN " + CANDIDATES, agent, person, *args))
    finally:
        await conn.close()
    assert "Task Count: 1" in plan  # one shard
    assert "Index Only Scan using facts_search_half_idx" in plan, plan
    assert "Seq Scan on facts" not in plan, plan


async def test_the_service_sessions_price_random_reads_as_on_an_ssd(pg_url: str, service: Service) -> None:
    assert "SET random_page_cost = 1.1" in SESSION_SETTINGS
    async with service.pool.acquire() as conn:
        assert await conn.fetchval("SHOW random_page_cost") == "1.1"
    plain = await asyncpg.connect(pg_url)
    try:
        assert await plain.fetchval("SHOW random_page_cost") == "4"  # the server's own default, for contrast
    finally:
        await plain.close()


async def test_the_service_sessions_on_the_coordinator_read_the_catalog_without_citus_hiding_shards(
    citus_service: Service,
) -> None:
    """Citus hides shards from a session's reads of pg_class by a function call on every row, which made asyncpg's
    introspection of a new connection's array types take 600-900 ms on the coordinator (connection.SESSION_SETTINGS);
    the service's sessions turn it off, and still see each table once by its name."""
    async with citus_service.pool.acquire() as conn:
        assert await conn.fetchval("SHOW citus.override_table_visibility") == "off"
        assert await conn.fetchval("SELECT count(*) FROM pg_class WHERE relname = 'facts'") == 1
