"""ForgetEntity is final: nothing learned from a message processed before it returned survives it."""

from __future__ import annotations

import asyncio
import uuid

import grpc
import pytest

from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service
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
