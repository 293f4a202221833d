"""FactMemory on a real Citus cluster (a coordinator and two workers on loopback, `./dev citus`): a database that
already holds data is distributed by person (`factmemory distribute`), then the service's own scenarios run against
the coordinator."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest
import pytest_asyncio

from factmemory.adapters.postgres.citus import DISTRIBUTED, REFERENCE, distribute
from tests.conftest import Service, make_settings, start_service
from tests.support.fm import Person, add_durable, facts_of, facts_reply
from tests.support.llm_stub import Reply, ScriptedLLM

# The service's scenarios, run here against the coordinator (the module's `service` fixture below).
from tests.test_service import (  # noqa: F401
    test_categorization_examples_are_stored_as_such,
    test_entities_are_isolated,
    test_forget_entity_and_export,
    test_moved_to_tokyo_creates_candidate_and_keeps_berlin,
    test_other_agent_sees_nothing,
    test_provider_sections_and_determinism,
    test_rejecting_a_candidate_leaves_the_fact,
    test_replay_of_same_message_applies_nothing,
)

BEFORE = Person("Before")


@pytest_asyncio.fixture(scope="module")
async def citus_url(citus_cluster: Any, llm_server: ScriptedLLM, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The coordinator's database, holding one person's facts learned before it was distributed."""
    url: str = citus_cluster.url
    llm_server.on("I live in Lisbon", Reply(facts_reply(add_durable("lives in Lisbon", "identity"))))
    settings = make_settings(url, llm_server, tmp_path_factory.mktemp("before"))
    async for svc in start_service(settings):
        await svc.stub.Evaluate(BEFORE.evaluate("I live in Lisbon"))
    await distribute(url)
    return url


@pytest_asyncio.fixture(scope="module")
async def service(
    citus_url: str, llm_server: ScriptedLLM, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Service]:
    """The real service connected to the coordinator of the distributed database."""
    settings = make_settings(citus_url, llm_server, tmp_path_factory.mktemp("svc"))
    async for svc in start_service(settings):
        yield svc


async def test_every_table_is_distributed_by_person_or_a_reference_table(citus_url: str) -> None:
    conn = await asyncpg.connect(citus_url)
    try:
        rows = await conn.fetch("SELECT table_name::text, citus_table_type, distribution_column FROM citus_tables")
        tables = await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE '%\\_1%'"
        )
    finally:
        await conn.close()
    placed = {r["table_name"]: (r["citus_table_type"], r["distribution_column"]) for r in rows}
    assert placed == {
        **{table: ("distributed", column) for table, column in DISTRIBUTED},
        **{table: ("reference", "<none>") for table in REFERENCE},
    }
    assert {r["tablename"] for r in tables} == set(placed), "a table left local on the coordinator"


async def test_facts_learned_before_distribution_are_still_there(service: Service) -> None:
    assert [f.claim for f in await facts_of(service, BEFORE)] == ["lives in Lisbon"]
    provided = await service.stub.Provide(BEFORE.provide("where do I live?"))
    assert "lives in Lisbon" in provided.text


async def test_distribute_again_does_nothing(citus_url: str) -> None:
    assert await distribute(citus_url) == []


def test_tmp(tmp_path: Path) -> None:
    assert tmp_path.exists()
