"""Upgrading a cluster distributed by an earlier release: its later migrations run through the coordinator, one
statement at a time, and the tables they create are placed as `factmemory distribute` places them, so that the
upgraded database is the same as one migrated first and distributed after (the session's `citus_url`)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import asyncpg
import numpy as np
import pytest
from pgvector.asyncpg import register_vector

from factmemory.adapters.postgres.deployment.citus import apply_on_cluster
from factmemory.adapters.postgres.deployment.database import migrate, migration_files
from factmemory.adapters.postgres.deployment.distribution import distribute
from factmemory.adapters.postgres.deployment.setup_errors import DatabaseSetupError
from tests.conftest import make_settings, start_service, with_database
from tests.support.citus import cluster_database
from tests.support.fm import Person, add_durable, facts_of, facts_reply
from tests.support.llm_stub import Reply, ScriptedLLM

# The last migration of the release that first distributed a cluster was 0070 (docs/scaling.md); 0061 (the
# earliest tried; the functions `distribute` places are there) leaves 0063 and 0070 to create tables on the
# cluster (deleted_messages places itself, shared_subjects is placed by the runner) and 0072 to rewrite `facts`
# and add a function with its trigger (what failed before: "cannot run function command because there was a
# parallel operation on a distributed table in the transaction").
OLD = 61
DIMENSIONS = 384

# What makes two distributed databases the same, read on the coordinator.
SHAPE = {
    "placement": """
        SELECT table_name::text, citus_table_type, distribution_column, shard_count,
               colocation_id = (SELECT colocation_id FROM citus_tables WHERE table_name = 'facts'::regclass)
          FROM citus_tables""",
    "columns": """
        SELECT table_name::text, column_name::text, udt_name::text, is_nullable::text, column_default
          FROM information_schema.columns WHERE table_schema = 'public'
           AND table_name IN (SELECT table_name::text FROM citus_tables)""",
    "constraints": """
        SELECT conrelid::regclass::text, conname::text, pg_get_constraintdef(oid) FROM pg_constraint
         WHERE conrelid IN (SELECT logicalrelid FROM pg_dist_partition)""",
    "indexes": """
        SELECT indexrelid::regclass::text, pg_get_indexdef(indexrelid) FROM pg_index
         WHERE indrelid IN (SELECT logicalrelid FROM pg_dist_partition)""",
    "triggers": """
        SELECT tgrelid::regclass::text, pg_get_triggerdef(oid), tgenabled::text FROM pg_trigger
         WHERE NOT tgisinternal AND tgrelid IN (SELECT logicalrelid FROM pg_dist_partition)""",
    "functions on every node": """
        SELECT objid::regprocedure::text FROM pg_dist_object WHERE classid = 'pg_proc'::regclass""",
}
# The same, on a worker: its shards' triggers and columns (named by their table: the shard ids differ between two
# databases, and so may the number of shards a worker holds after a rebalance).
WORKER_SHAPE = {
    "shard triggers": """
        SELECT DISTINCT regexp_replace(tgname::text, '_[0-9]+$', ''), pg_get_triggerdef(oid) ~ 'FOR EACH ROW'
          FROM pg_trigger WHERE NOT tgisinternal AND tgrelid::regclass::text ~ '_[0-9]+$'""",
    "shard columns": """
        SELECT DISTINCT regexp_replace(table_name::text, '_[0-9]+$', ''), column_name::text, udt_name::text
          FROM information_schema.columns WHERE table_schema = 'public' AND table_name ~ '_[0-9]+$'""",
}
SHOW_SHARDS = "SET citus.show_shards_for_app_name_prefixes = '*'"

# Facts written by the earlier release (its schema at OLD), through the coordinator, for two people of one agent.
OLD_FACT = """
INSERT INTO facts (id, agent_id, entity_id, kind, category, claim, confidence, created_at, last_confirmed_at,
                   embedding, embedding_model, lexemes)
VALUES ($1, $2, $3, 'durable', 'identity', $4, 0.9, $5, $5, $6, 'test', $7)
"""
OLD_EVALUATION = "INSERT INTO evaluations (agent_id, message_id, entity_id, result) VALUES ($1, $2, $3, '{}')"


async def shape(url: str, queries: dict[str, str], *setup: str) -> dict[str, set[tuple[Any, ...]]]:
    conn = await asyncpg.connect(url)
    try:
        for statement in setup:
            await conn.execute(statement)
        return {name: {tuple(r) for r in await conn.fetch(sql)} for name, sql in queries.items()}
    finally:
        await conn.close()


def unit(index: int) -> np.ndarray:
    vector = np.zeros(DIMENSIONS, dtype=np.float32)
    vector[index] = 1.0
    return vector


async def test_a_cluster_distributed_by_an_earlier_release_takes_the_new_migrations_and_equals_a_fresh_one(
    citus_cluster: Any, citus_url: str, llm: ScriptedLLM, tmp_path: Path
) -> None:
    agent = str(uuid.uuid4())
    old = [Person(f"Old{i}", agent_id=agent) for i in range(2)]
    async with cluster_database(citus_cluster, "upgrade") as url:
        await migrate(url, DIMENSIONS, until=OLD)
        await distribute(url)
        conn = await asyncpg.connect(url)
        try:
            await register_vector(conn)
            for i, person in enumerate(old):
                scope = (uuid.UUID(person.agent_id), uuid.UUID(person.entity_id))
                await conn.execute(
                    OLD_FACT, uuid.uuid4(), *scope, f"grew up in town {i}", datetime.now(UTC), unit(i), ["town"]
                )
                await conn.execute(OLD_EVALUATION, scope[0], f"old-message-{i}", scope[1])
            applied = await migrate(url, DIMENSIONS)
            recorded = {r[0] for r in await conn.fetch("SELECT version FROM factmemory_migrations")}
            # 0072 gave the facts already stored their claim's vector as the search vector, on the shards.
            searched = await conn.fetch("SELECT search_half = embedding_half AS same, source_terms FROM facts")
            links = await conn.fetch("SELECT linked_entities FROM evaluations")
        finally:
            await conn.close()
        assert applied == [name for version, name, _ in migration_files() if version > OLD]
        assert recorded == {version for version, _, _ in migration_files()}
        assert [(r["same"], r["source_terms"]) for r in searched] == [(True, [])] * 2
        assert [r["linked_entities"] for r in links] == [None, None]

        # The same as a database migrated first and distributed after, on the coordinator and on the workers.
        assert await shape(url, SHAPE) == await shape(citus_url, SHAPE)
        for node in (1, 2):
            fresh = citus_cluster.node_url(node)
            upgraded = with_database(fresh, urlsplit(url).path.lstrip("/"))
            assert await shape(upgraded, WORKER_SHAPE, SHOW_SHARDS) == await shape(fresh, WORKER_SHAPE, SHOW_SHARDS)

        # The service on the upgraded cluster: the earlier facts are there, a turn learns and Provide serves it.
        async for svc in start_service(make_settings(url, llm, tmp_path)):
            for i, person in enumerate(old):
                assert [f.claim for f in await facts_of(svc, person)] == [f"grew up in town {i}"]
            llm.on("I work as a baker", Reply(facts_reply(add_durable("works as a baker", "identity"))))
            evaluated = await svc.stub.Evaluate(old[0].evaluate("I work as a baker"))
            assert [o.rejected for o in evaluated.ops] == [False]
            assert {f.claim for f in await facts_of(svc, old[0])} == {"grew up in town 0", "works as a baker"}
            provided = await svc.stub.Provide(old[0].provide("what is my job?"))
            assert "works as a baker" in provided.text
            newcomer = Person("New", agent_id=agent)
            llm.on("I live in Porto", Reply(facts_reply(add_durable("lives in Porto", "identity"))))
            await svc.stub.Evaluate(newcomer.evaluate("I live in Porto"))
            assert "lives in Porto" in (await svc.stub.Provide(newcomer.provide("where do I live?"))).text


async def test_a_migration_creating_a_table_no_list_places_is_refused_and_changes_nothing(citus_url: str) -> None:
    """A table in neither DISTRIBUTED nor REFERENCE would stay local on the coordinator (the error of issue 37:
    joins with it refused): the migration is refused with the fix, and its transaction leaves nothing."""
    migration = """
    CREATE FUNCTION stray_one() RETURNS integer LANGUAGE plpgsql AS $$
    BEGIN
        RETURN 1; -- a statement inside the body; the splitter keeps it whole
    END $$;
    CREATE TABLE stray_notes (agent_id uuid NOT NULL, entity_id uuid NOT NULL, n integer DEFAULT stray_one(),
                              PRIMARY KEY (agent_id, entity_id));
    """
    conn = await asyncpg.connect(citus_url)
    try:
        with pytest.raises(DatabaseSetupError, match="table stray_notes is not placed on the cluster"):
            async with conn.transaction():
                await apply_on_cluster(conn, migration)
        left = await conn.fetchrow("SELECT to_regclass('stray_notes') AS t, to_regproc('stray_one') AS f")
    finally:
        await conn.close()
    assert left is not None and (left["t"], left["f"]) == (None, None)
