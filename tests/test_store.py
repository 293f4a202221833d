"""The PostgreSQL store on its own (real PostgreSQL + pgvector): scoping, write-transaction semantics, ranking rows,
erasure. The service tests cover the same code through gRPC; these pin the store's own contract."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID, uuid4

import numpy as np
import pytest

from factmemory.adapters.postgres.store import PostgresEvaluate
from factmemory.domain.models import Kind, Verification
from factmemory.domain.new_fact import NewFact
from factmemory.domain.vectors import Vector
from factmemory.usecases import fact_writes
from tests.conftest import Service

AT = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


def unit(seed: int, dims: int) -> Vector:
    vector = np.random.default_rng(seed).normal(size=dims).astype(np.float32)
    return np.asarray(vector / np.linalg.norm(vector), dtype=np.float32)


def new_fact(
    claim: str,
    embedding: Vector,
    kind: Kind = Kind.DURABLE,
    category: str = "preference",
    message_id: str | None = None,
) -> NewFact:
    return NewFact(
        kind=kind,
        category=category,
        claim=claim,
        structured_fields={},
        confidence=0.7,
        message_id=message_id or str(uuid4()),
        verification=Verification.SELF_REPORTED,
        at=AT,
        valid_at=AT if kind is Kind.CURRENT else None,
        embedding=embedding,
        embedding_model="test-model",
    )


async def insert(store: PostgresEvaluate, agent: UUID, entity: UUID, *facts: NewFact) -> list[UUID]:
    async with store.writing(agent, entity) as turn:
        return [(await turn.insert_fact(f)).id for f in facts]


async def test_nearest_ranks_by_similarity_within_one_agent_and_entity(service: Service) -> None:
    store, dims = service.store, service.deps.embedder.dimensions
    agent, entity, other_entity = uuid4(), uuid4(), uuid4()
    query = unit(1, dims)
    close = np.asarray(query + 0.05 * unit(2, dims), dtype=np.float32)
    far = unit(3, dims)
    near_id, far_id = await insert(
        store, agent, entity, new_fact("likes tea", close / np.linalg.norm(close)), new_fact("likes jazz", far)
    )
    await insert(store, agent, other_entity, new_fact("likes tea too", query))
    await insert(store, uuid4(), entity, new_fact("likes tea as well", query))  # same entity id, another agent
    found = await store.nearest(agent, entity, query, 5, 5)
    assert [s.fact.id for s in found] == [near_id, far_id]
    assert found[0].similarity > 0.95 > found[1].similarity


async def test_one_message_supports_a_fact_once(service: Service) -> None:
    store, dims = service.store, service.deps.embedder.dimensions
    agent, entity = uuid4(), uuid4()
    [fact_id] = await insert(store, agent, entity, new_fact("runs marathons", unit(4, dims)))
    message = str(uuid4())
    async with store.writing(agent, entity) as turn:
        first = await fact_writes.strengthen(turn, fact_id, 0.1, AT, message, "preference", Verification.SELF_REPORTED)
        again = await fact_writes.strengthen(turn, fact_id, 0.1, AT, message, "preference", Verification.SELF_REPORTED)
    assert first is not None and again is not None
    assert first.confidence == pytest.approx(0.8) and again.confidence == pytest.approx(0.8)
    assert again.evidence_message_ids.count(message) == 1


async def test_decay_below_the_floor_deletes_the_fact(service: Service) -> None:
    store, dims = service.store, service.deps.embedder.dimensions
    agent, entity = uuid4(), uuid4()
    [fact_id] = await insert(store, agent, entity, new_fact("plays chess", unit(5, dims)))
    async with store.writing(agent, entity) as turn:
        kept, deleted = await fact_writes.decay(turn, fact_id, 0.15, 0.2)
        assert kept is not None and not deleted and kept.confidence == pytest.approx(0.55)
        gone, deleted = await fact_writes.decay(turn, fact_id, 0.4, 0.2)
        assert gone is not None and deleted
    assert await service.browse.get_fact(agent, entity, fact_id) is None
    history = await service.browse.fact_history(agent, entity, fact_id)
    assert [h.action.value for h in history] == ["created", "decayed", "deleted"]
    assert history[-1].reason == "confidence below 0.2"


async def test_each_write_names_its_action_and_actor_in_the_history(service: Service) -> None:
    """The history mark travels with each statement of the write transaction (one round trip per write)."""
    store, dims = service.store, service.deps.embedder.dimensions
    agent, entity = uuid4(), uuid4()
    message = str(uuid4())
    async with store.writing(agent, entity) as turn:
        assert await turn.claim_evaluation(message, None)
        fact = await turn.insert_fact(new_fact("grows tomatoes", unit(30, dims), category="uncategorized"))
        other = str(uuid4())
        await fact_writes.strengthen(turn, fact.id, 0.1, AT, other, "hobby", Verification.CONFIRMED)
    history = await service.browse.fact_history(agent, entity, fact.id)
    assert [(h.action.value, h.actor) for h in history] == [
        ("created", f"message:{message}"),
        ("reclassified", f"message:{message}"),  # the trigger names a filled `uncategorized` so
    ]
    stored = await service.browse.get_fact(agent, entity, fact.id)
    assert stored is not None and stored.category == "hobby" and stored.confidence == pytest.approx(0.8)
    assert stored.verification_status is Verification.CONFIRMED


async def test_a_failed_turn_leaves_nothing(service: Service) -> None:
    store, dims = service.store, service.deps.embedder.dimensions
    agent, entity = uuid4(), uuid4()
    with pytest.raises(RuntimeError):
        async with store.writing(agent, entity) as turn:
            await turn.insert_fact(new_fact("speaks Basque", unit(6, dims)))
            raise RuntimeError("the turn fails after writing")
    assert await service.browse.list_facts(agent, entity, None, None, 10) == []


async def test_forget_erases_one_entity_and_counts_what_it_erased(service: Service) -> None:
    store, dims = service.store, service.deps.embedder.dimensions
    agent, entity, neighbour = uuid4(), uuid4(), uuid4()
    await insert(
        store,
        agent,
        entity,
        new_fact("owns a cat", unit(7, dims)),
        new_fact("tired today", unit(8, dims), Kind.CURRENT, "physical_state"),
    )
    await insert(store, agent, neighbour, new_fact("owns a dog", unit(9, dims)))
    counts = await service.bulk.forget_entity(agent, entity)
    assert counts.facts == 2
    assert await service.browse.list_facts(agent, entity, None, None, 10) == []
    assert [f.claim for f in await service.browse.list_facts(agent, neighbour, None, None, 10)] == ["owns a dog"]


async def test_list_facts_filters_by_kind_and_pages_by_id(service: Service) -> None:
    store, dims = service.store, service.deps.embedder.dimensions
    agent, entity = uuid4(), uuid4()
    await insert(
        store,
        agent,
        entity,
        *(new_fact(f"durable {i}", unit(10 + i, dims)) for i in range(3)),
        new_fact("a current state", unit(20, dims), Kind.CURRENT, "feeling"),
    )
    durable = await service.browse.list_facts(agent, entity, Kind.DURABLE, None, 10)
    assert len(durable) == 3 and all(f.kind is Kind.DURABLE for f in durable)
    first = await service.browse.list_facts(agent, entity, None, None, 2)
    rest = await service.browse.list_facts(agent, entity, None, first[-1].id, 10)
    assert [f.id for f in first + rest] == sorted(f.id for f in first + rest) and len(first + rest) == 4
