"""Provide builds a candidate's fact from its row only when the row changed since this process last built it
(adapters/postgres/read/fact_memo.py): the database still says which facts are candidates and what they say, whoever
wrote them; a forgotten person's facts leave the process's memory."""

from __future__ import annotations

import uuid
from typing import cast

import asyncpg

from factmemory.adapters.postgres.connection import pooled
from factmemory.adapters.postgres.deployment.replica import Reads
from factmemory.adapters.postgres.read.cached_provide import CachedProvide
from factmemory.adapters.postgres.read.fact_memo import FactMemo, Held
from factmemory.adapters.postgres.read.forgotten import ForgetWatch
from factmemory.adapters.postgres.read.vector_cache import VectorCopies
from factmemory.adapters.postgres.store import PostgresBulk
from factmemory.domain.provide_tuning import RARE_DF, RARE_FACTS
from factmemory.domain.vector_cache import VectorCache
from factmemory.ports import Pool
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service
from tests.support.big_person import load
from tests.support.fm import NOW, Person

EDIT = "UPDATE facts SET claim = 'collects coins now' WHERE agent_id = $1 AND id = $2"
CONTRADICTION = """
INSERT INTO fact_candidates (id, agent_id, entity_id, fact_id, proposed_claim, source, evidence_message_id,
                             created_at)
VALUES (gen_random_uuid(), $1, $2, $3, 'gave the stamps away', 'contradict', 'm2', now())
"""


async def test_a_fact_is_built_again_only_when_its_row_or_its_dispute_changed(service: Service) -> None:
    person = Person()
    agent, entity = uuid.UUID(person.agent_id), uuid.UUID(person.entity_id)
    async with service.pool.acquire() as conn:
        await load(pooled(conn), agent, entity, 80, service.deps.embedder.dimensions, uuid.uuid4())
    store = service.provide
    vector = (await service.deps.embedder.queries(["which stamps do I collect?"]))[0]

    async def candidates() -> Pool:
        return await store.provide_pool(agent, entity, vector, ["stamp"], 60, RARE_DF, RARE_FACTS)

    first = await candidates()
    before = store.fact_memo.counts.copy()
    second = await candidates()
    assert store.fact_memo.counts - before == {"known": 60}  # every row sent as its id and version only
    assert len(first.found) == 60
    assert [s.fact.id for s in second.found] == [s.fact.id for s in first.found]
    assert all(b.fact is a.fact for a, b in zip(first.found, second.found, strict=True))  # not built again
    assert store.fact_memo.holds(agent, entity) == 60

    edited, disputed = first.found[0].fact, next(s.fact for s in first.found[1:] if not s.fact.disputed_by)
    async with service.pool.acquire() as conn:  # another writer: SQL by hand
        await conn.execute(
            "UPDATE facts SET claim = 'collects coins now' WHERE agent_id = $1 AND id = $2", agent, edited.id
        )
        await conn.execute(CONTRADICTION, agent, entity, disputed.id)
    third = {s.fact.id: s.fact for s in (await candidates()).found}
    assert third[edited.id].claim == "collects coins now"
    assert third[disputed.id].disputed_by == "gave the stamps away"
    assert third[disputed.id].claim == disputed.claim
    unchanged = [s.fact for s in first.found if s.fact.id not in (edited.id, disputed.id)]
    assert all(third[f.id] is f for f in unchanged)
    shown = await service.stub.Provide(person.provide("which stamps do I collect?", "coins too"))
    assert "collects coins now" in shown.text
    assert "collects stamps number" in shown.text

    other = Person()
    other_agent, other_entity = uuid.UUID(other.agent_id), uuid.UUID(other.entity_id)
    async with service.pool.acquire() as conn:
        await load(pooled(conn), other_agent, other_entity, 30, service.deps.embedder.dimensions, uuid.uuid4())
    await store.provide_pool(other_agent, other_entity, vector, ["stamp"], 60, RARE_DF, RARE_FACTS)
    await service.stub.ForgetEntity(pb.ForgetEntityRequest(agent_id=person.agent_id, entity_id=person.entity_id))
    assert store.fact_memo.holds(agent, entity) == 0
    assert store.fact_memo.holds(other_agent, other_entity) == 30
    assert not (await candidates()).found


async def test_a_person_forgotten_by_another_process_leaves_this_one_s_memory(service: Service) -> None:
    """Two processes on one database (two stores): the one that forgets drops the person at once, the other at its
    next look for forgets (forgotten.py), facts and vectors alike, once per forget."""
    people = [Person(), Person()]
    ids = [(uuid.UUID(p.agent_id), uuid.UUID(p.entity_id)) for p in people]
    for agent, entity in ids:
        async with service.pool.acquire() as conn:
            await load(pooled(conn), agent, entity, 80, service.deps.embedder.dimensions, uuid.uuid4())
    vector = (await service.deps.embedder.queries(["which stamps do I collect?"]))[0]
    here = CachedProvide(Reads(service.pool), VectorCopies(VectorCache(2**24), 50))
    elsewhere = CachedProvide(Reads(service.pool), VectorCopies(VectorCache(2**24), 50))
    for store in (here, elsewhere):
        for agent, entity in ids:
            await store.provide_pool(agent, entity, vector, ["stamp"], 60, RARE_DF, RARE_FACTS)
    assert here.copies is not None and elsewhere.copies is not None
    assert all(here.fact_memo.holds(*p) == 60 and here.copies.holds(*p) for p in ids)
    watch = ForgetWatch(service.pool, here.drop_held)
    assert await watch.look() == []

    await PostgresBulk(service.pool, forgotten=elsewhere.drop_held).forget_entity(*ids[0])
    assert elsewhere.fact_memo.holds(*ids[0]) == 0 and not elsewhere.copies.holds(*ids[0])
    assert here.fact_memo.holds(*ids[0]) == 60 and here.copies.holds(*ids[0])  # until it looks
    assert ids[0] in await watch.look()  # (with anyone else forgotten in the last LOOK_BACK)
    assert here.fact_memo.holds(*ids[0]) == 0 and not here.copies.holds(*ids[0])
    assert here.fact_memo.holds(*ids[1]) == 60 and here.copies.holds(*ids[1])
    assert ids[0] not in await watch.look()  # that forget is seen once


def test_the_memo_holds_at_most_its_budget_counting_what_each_fact_holds() -> None:
    agent, entity = uuid.uuid4(), uuid.uuid4()
    memo = FactMemo(budget_bytes=20_000)
    nothing = Held({})
    for i in range(50):  # each fact carries 100 earlier claims of 50 characters: ~5 kB
        memo.fact(cast(asyncpg.Record, row(agent, entity, previous=[f"{i:02d}" + "x" * 48] * 100)), nothing)
    assert 0 < len(memo) <= 4 and memo.nbytes <= 20_000
    assert memo.holds(agent, entity) == len(memo)
    small = [row(agent, entity) for _ in range(10)]
    for r in small:
        memo.fact(cast(asyncpg.Record, r), nothing)
    assert memo.holds(agent, entity) == len(memo) and memo.nbytes <= 20_000
    memo.forget(agent, entity)
    assert len(memo) == 0 and memo.nbytes == 0


def row(agent: uuid.UUID, entity: uuid.UUID, previous: list[str] | None = None) -> dict[str, object]:
    """A candidate statement's row of a fact not held (what FactMemo.fact reads of it)."""
    return {
        "id": uuid.uuid4(),
        "agent_id": agent,
        "entity_id": entity,
        "kind": "durable",
        "category": "preference",
        "claim": "collects stamps",
        "structured_fields": "{}",
        "confidence": 0.9,
        "evidence_message_ids": ["m1"],
        "verification_status": "self_reported",
        "created_at": NOW,
        "last_confirmed_at": NOW,
        "valid_at": None,
        "previous_claims": previous or [],
        "archived_at": None,
        "disputed_by": None,
        "lexemes": ["collect", "stamp"],
        "version": "1",
        "known": False,
    }
