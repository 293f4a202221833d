"""Batched evaluation (EvaluateBatch): several messages of one person, one LLM call, each message applied exactly
once. Real gRPC, real PostgreSQL + pgvector, real local embedder, scripted LLM speaking the OpenAI API."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import grpc
import pytest

from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service
from tests.support.fm import NOW, Person, add_current, add_durable, days_ago, facts_of
from tests.support.llm_stub import ScriptedLLM, batch_messages, per_message

# What each message of these tests tells the scripted model.
SAID: dict[str, list[dict[str, Any]]] = {
    "I moved to Lisbon in spring": [add_durable("lives in Lisbon", "identity")],
    "nothing much, just saying hi": [],
    "my knee hurts after the run today": [add_current("knee hurts after running", "physical_state")],
    "I work as a nurse at the city hospital": [add_durable("works as a nurse at the city hospital", "business_role")],
    "still in Lisbon, loving it": [add_durable("lives in Lisbon", "identity")],
}


def ops_for(_index: int, text: str) -> list[dict[str, Any]]:
    return next((ops for said, ops in SAID.items() if said in text), [])


def script(llm: ScriptedLLM) -> None:
    llm.default = per_message(ops_for, relationships=[], identities=[], success={"completed": True, "reason": "ok"})


def extraction_calls(llm: ScriptedLLM) -> list[dict[str, Any]]:
    return [r for r in llm.requests if "messages" in r]


async def test_one_llm_call_learns_from_every_message_with_each_message_as_evidence(
    service: Service, llm: ScriptedLLM
) -> None:
    script(llm)
    person = Person()
    texts = list(SAID)[:4]
    messages = [person.message(t, days_ago(3 - i)) for i, t in enumerate(texts)]
    response: pb.EvaluateBatchResponse = await service.stub.EvaluateBatch(person.batch(*messages))

    calls = extraction_calls(llm)
    assert len(calls) == 1 and batch_messages(calls[0]) == texts
    schema = json.dumps(calls[0]["response_format"])
    assert '"message"' in schema  # a batch's ops name their message
    assert response.usage.llm_calls == 1
    assert [len(r.ops) for r in response.results] == [1, 0, 1, 1]
    assert not any(r.replayed for r in response.results)
    for message, result in zip(messages, response.results, strict=True):
        for op in result.ops:
            assert not op.rejected, op.reason
            assert list(op.fact.evidence_message_ids) == [message.id]
            assert op.fact.created_at.ToDatetime() == message.created_at.ToDatetime()
    # The verdict and the call's usage are on the last message; the others carry their ops only.
    assert response.results[-1].usage.llm_calls == 1 and response.results[-1].success.completed
    assert all(r.usage.llm_calls == 0 and not r.HasField("success") for r in response.results[:-1])
    claims = {f.claim: f for f in await facts_of(service, person)}
    assert set(claims) == {"lives in Lisbon", "knee hurts after running", "works as a nurse at the city hospital"}


async def test_the_same_fact_said_twice_in_one_batch_is_one_fact_strengthened(
    service: Service, llm: ScriptedLLM
) -> None:
    script(llm)
    person = Person()
    first = person.message("I moved to Lisbon in spring", days_ago(2))
    again = person.message("still in Lisbon, loving it", days_ago(1))
    response = await service.stub.EvaluateBatch(person.batch(first, again))
    assert response.results[1].ops[0].op == pb.OP_TYPE_STRENGTHEN and response.results[1].ops[0].deduplicated
    facts = await facts_of(service, person)
    assert len(facts) == 1 and facts[0].confidence > 0.7
    assert list(facts[0].evidence_message_ids) == [first.id, again.id]


async def test_a_replayed_batch_or_message_returns_the_stored_results_without_a_call(
    service: Service, llm: ScriptedLLM
) -> None:
    script(llm)
    person = Person()
    messages = [person.message(t, days_ago(3 - i)) for i, t in enumerate(list(SAID)[:3])]
    first = await service.stub.EvaluateBatch(person.batch(*messages))
    before = await facts_of(service, person)
    llm.requests.clear()

    again = await service.stub.EvaluateBatch(person.batch(*messages))
    single = await service.stub.Evaluate(
        pb.EvaluateRequest(
            agent_id=person.agent_id, entity_id=person.entity_id, room_id=person.room_id, message=messages[2]
        )
    )
    assert extraction_calls(llm) == [] and again.usage.llm_calls == 0
    assert all(r.replayed for r in again.results) and single.replayed
    assert [[o.fact.id for o in r.ops] for r in again.results] == [[o.fact.id for o in r.ops] for r in first.results]
    assert [o.fact.id for o in single.ops] == [o.fact.id for o in first.results[2].ops]
    # A replay reports that it made no call; what the first evaluation cost stays readable (original_usage).
    assert first.results[2].usage.llm_calls == 1 and first.results[2].usage.prompt_tokens > 0
    assert single.usage == pb.Usage() and single.original_usage == first.results[2].usage
    assert all(r.usage == pb.Usage() for r in again.results)
    assert [r.original_usage for r in again.results] == [r.usage for r in first.results]
    after = await facts_of(service, person)
    assert [(f.id, f.confidence) for f in after] == [(f.id, f.confidence) for f in before]


async def test_messages_evaluated_before_are_context_not_learned_again(service: Service, llm: ScriptedLLM) -> None:
    script(llm)
    person = Person()
    old = person.message("I moved to Lisbon in spring", days_ago(2))
    await service.stub.Evaluate(
        pb.EvaluateRequest(agent_id=person.agent_id, entity_id=person.entity_id, room_id=person.room_id, message=old)
    )
    llm.requests.clear()
    new = person.message("my knee hurts after the run today", days_ago(1))
    response = await service.stub.EvaluateBatch(person.batch(old, new))
    calls = extraction_calls(llm)
    assert len(calls) == 1 and batch_messages(calls[0]) == ["my knee hurts after the run today"]
    assert "I moved to Lisbon in spring" in calls[0]["messages"][1]["content"]  # in <recent_messages>
    assert response.results[0].replayed and not response.results[1].replayed
    assert {f.claim for f in await facts_of(service, person)} == {"lives in Lisbon", "knee hurts after running"}
    assert next(f for f in await facts_of(service, person) if f.claim == "lives in Lisbon").confidence == pytest.approx(
        0.7
    )


async def test_messages_are_taken_oldest_first_whatever_the_order_sent(service: Service, llm: ScriptedLLM) -> None:
    script(llm)
    person = Person()
    late = person.message("my knee hurts after the run today", NOW)
    early = person.message("I moved to Lisbon in spring", days_ago(5))
    response = await service.stub.EvaluateBatch(person.batch(late, early))
    assert batch_messages(extraction_calls(llm)[0]) == [
        "I moved to Lisbon in spring",
        "my knee hurts after the run today",
    ]
    # Results stay in the request's order.
    assert response.results[0].ops[0].fact.claim == "knee hurts after running"
    assert response.results[1].ops[0].fact.claim == "lives in Lisbon"


async def test_overlapping_batches_at_once_apply_each_message_exactly_once(service: Service, llm: ScriptedLLM) -> None:
    script(llm)
    llm.latency_s = 0.2  # both calls are in the model at the same time
    person = Person()
    a, b, c = (person.message(t, days_ago(3 - i)) for i, t in enumerate(list(SAID)[2:5]))
    first, second = await asyncio.gather(
        service.stub.EvaluateBatch(person.batch(a, b)), service.stub.EvaluateBatch(person.batch(b, c))
    )
    facts = await facts_of(service, person)
    nurse = [f for f in facts if "nurse" in f.claim]
    assert len(nurse) == 1 and list(nurse[0].evidence_message_ids) == [b.id]
    assert nurse[0].confidence == pytest.approx(0.7)  # not strengthened by a second application
    # Exactly one of the two calls applied b; the other returned its stored result.
    applied_b = [r for r in (first.results[1], second.results[0]) if not r.replayed]
    assert len(applied_b) == 1
    assert {f.claim for f in facts} == {
        "knee hurts after running",
        "works as a nurse at the city hospital",
        "lives in Lisbon",
    }


@pytest.mark.parametrize(
    ("build", "expected"),
    [
        (lambda p: p.batch(), "messages is empty"),
        (lambda p: p.batch(*[p.message(f"m{i}") for i in range(17)]), "at most 16"),
        (lambda p: p.batch(p.message("a", message_id=ID), p.message("b", message_id=ID)), "repeats"),
        (lambda p: p.batch(p.message("a"), p.message("   ")), "messages[1].text is empty"),
        (
            lambda p: p.batch(pb.ChatMessage(id=ID, entity_id=OTHER, text="hi", created_at=p.message("x").created_at)),
            "differs from entity_id",
        ),
    ],
    ids=["empty", "too many", "repeated id", "empty text", "other sender"],
)
async def test_a_bad_batch_is_refused_and_changes_nothing(
    service: Service, llm: ScriptedLLM, build: Any, expected: str
) -> None:
    script(llm)
    person = Person()
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await service.stub.EvaluateBatch(build(person))
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT and expected in (error.value.details() or "")
    assert extraction_calls(llm) == [] and await facts_of(service, person) == []


ID = "7d4f6a0e-2a51-4c43-9d0b-3f2f4f0c9a11"
OTHER = "0b8e1c52-9a0c-4f8e-8d7a-5c1f2e3d4b55"


def test_only_a_batch_schema_asks_ops_to_name_their_message() -> None:
    from factmemory.domain.extraction import strict_schema
    from factmemory.domain.models import ALL_ITEMS

    def op_properties(batched: bool) -> dict[str, Any]:
        facts = strict_schema(ALL_ITEMS, batched)["properties"]["facts"]
        props: dict[str, Any] = facts["properties"]["ops"]["items"]["properties"]
        return props

    assert "message" not in op_properties(False)  # a single message's prompt costs what it did
    batched = strict_schema(ALL_ITEMS, True)["properties"]["facts"]["properties"]["ops"]["items"]
    assert "message" in batched["properties"] and "message" in batched["required"]
    assert set(op_properties(True)) - set(op_properties(False)) == {"message"}
