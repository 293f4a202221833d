"""Provide reads its candidates on connections of their own, which plan the candidate statement once
(connection.GENERIC_PLANS): PostgreSQL's default planned it anew on every call, which cost more than running it for
most people. Every other statement keeps the default, whose custom plans some of them need."""

from __future__ import annotations

import uuid

from factmemory.adapters.postgres.connection import pooled
from factmemory.adapters.postgres.read.provide_pool import CANDIDATES
from tests.conftest import Service
from tests.support.big_person import load
from tests.support.fm import Person

CALLS = 8  # more than the five custom plans PostgreSQL's default makes before it considers the generic one
PLANS = "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement = $1"


async def test_provide_plans_its_candidate_statement_once_and_nothing_else_changes(service: Service) -> None:
    person = Person()
    agent, entity = uuid.UUID(person.agent_id), uuid.UUID(person.entity_id)
    async with service.pool.acquire() as conn:
        await load(pooled(conn), agent, entity, 80, service.deps.embedder.dimensions, uuid.uuid4())
    assert service.provide.candidates_pool is not service.pool
    shown = []
    for i in range(CALLS):
        response = await service.stub.Provide(person.provide(f"what do you remember about my work, part {i}?"))
        shown.append(len(response.durable))
    assert all(n > 0 for n in shown)
    # Calls one after another take the same connection of the pool (the most recently released).
    async with service.provide.candidates_pool.acquire() as conn:
        mode = await conn.fetchval("SHOW plan_cache_mode")
        plans = await conn.fetch(PLANS, CANDIDATES)
    assert mode == "force_generic_plan"
    assert plans, "the candidate statement was not prepared on the candidates' connection"
    assert sum(p["custom_plans"] for p in plans) == 0
    assert sum(p["generic_plans"] for p in plans) >= CALLS
    async with service.pool.acquire() as conn:
        assert await conn.fetchval("SHOW plan_cache_mode") == "auto"
