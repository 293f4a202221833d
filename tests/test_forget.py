"""ForgetEntity is final: nothing learned from a message processed before it returned survives it."""

from __future__ import annotations

import asyncio
import uuid

import asyncpg
import grpc
import pytest

from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service
from tests.support.big_person import load
from tests.support.big_person import stored as stored_about
from tests.support.fm import Person, add_durable, facts_reply
from tests.support.llm_stub import Reply, ScriptedLLM

TABLES = ("facts", "fact_candidates", "evaluations", "relationships", "identities")


async def stored(service: Service, person: Person) -> dict[str, int]:
    agent, entity = uuid.UUID(person.agent_id), uuid.UUID(person.entity_id)
    async with service.pool.acquire() as conn:
        return {
            t: await conn.fetchval(f"SELECT count(*) FROM {t} WHERE agent_id = $1 AND entity_id = $2", agent, entity)
            if t != "relationships"
            else await conn.fetchval(
                "SELECT count(*) FROM relationships WHERE agent_id = $1 AND "
                "(source_entity_id = $2 OR target_entity_id = $2)",
                agent,
                entity,
            )
            for t in TABLES
        }


def forget(person: Person) -> pb.ForgetEntityRequest:
    return pb.ForgetEntityRequest(agent_id=person.agent_id, entity_id=person.entity_id)


@pytest.mark.timing  # wall clock: the forget must commit within the model's 1.5 s
async def test_evaluate_waiting_on_the_llm_commits_nothing_after_a_forget(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    llm.on("in flight", Reply(facts_reply(add_durable("lives in Berlin", "identity")), delay_s=1.5))
    call = asyncio.ensure_future(service.stub.Evaluate(person.evaluate("in flight: I live in Berlin")))
    for _ in range(200):  # forget while the Evaluate waits on the model
        if llm.calls_for("in flight"):
            break
        await asyncio.sleep(0.02)
    assert llm.calls_for("in flight") and not call.done()
    await service.stub.ForgetEntity(forget(person))
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await call
    assert error.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "forgotten" in (error.value.details() or "")
    assert await stored(service, person) == dict.fromkeys(TABLES, 0)


async def test_resending_an_old_message_after_a_forget_evaluates_it_as_new(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    llm.on("old message", Reply(facts_reply(add_durable("likes tea", "preference"))))
    request = person.evaluate("old message: I like tea")
    await service.stub.Evaluate(request)
    counts = await service.stub.ForgetEntity(forget(person))
    assert counts.facts_deleted == 1 and counts.evaluations_deleted == 1
    again = await service.stub.Evaluate(request)
    assert not again.replayed and len(again.ops) == 1  # the forget erased the record that it was ever seen
    assert (await stored(service, person))["facts"] == 1
    # A second forget is final too; an Evaluate started after it returned is a new message, not a resurrection.
    await service.stub.ForgetEntity(forget(person))
    assert await stored(service, person) == dict.fromkeys(TABLES, 0)


READ_POSITION = "SELECT coalesce(max(version), 0) FROM read_positions WHERE agent_id = $1 AND entity_id = $2"
EPOCH = "SELECT coalesce(max(epoch), 0) FROM forget_epochs WHERE agent_id = $1 AND entity_id = $2"


async def test_forgetting_a_person_of_thousands_of_facts_leaves_nothing_and_touches_no_one_else(
    service: Service, pg_url: str
) -> None:
    """The whole-person erase (migration 0091): what the row triggers maintain is deleted set-based, and their
    per-fact work skipped for the person, with the same end: nothing of the person left, the neighbour's rows and
    stem counts as they were, and the read position and forget epoch moved as before."""
    agent, person, neighbour = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    dims = service.deps.embedder.dimensions
    conn = await asyncpg.connect(pg_url)  # the service's database; without the pool's statement timeout
    try:
        await load(conn, agent, person, 3_000, dims, uuid.uuid4())  # the row triggers write history and counts
        await load(conn, agent, neighbour, 40, dims, person)
        before = await stored_about(conn, agent, person)
        kept = await stored_about(conn, agent, neighbour)
        position, epoch = await conn.fetchval(READ_POSITION, agent, person), await conn.fetchval(EPOCH, agent, person)
        assert before["facts"] == before["fact_history"] == 3_000 and before["stem counts"] == 5 * 3_000

        counts = await service.stub.ForgetEntity(pb.ForgetEntityRequest(agent_id=str(agent), entity_id=str(person)))

        assert counts.facts_deleted == 3_000 and counts.identities_deleted == 1 and counts.relationships_deleted == 2
        assert set((await stored_about(conn, agent, person)).values()) == {0}
        # The neighbour's relationship named the person as its target: it went with the person.
        assert await stored_about(conn, agent, neighbour) == {**kept, "relationships": 0}
        assert await conn.fetchval(READ_POSITION, agent, person) > position  # replicas learn of the forget
        assert await conn.fetchval(EPOCH, agent, person) == epoch + 1  # an Evaluate begun before commits nothing
    finally:
        await conn.close()
