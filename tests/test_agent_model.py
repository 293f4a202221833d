"""Agent-model mode (PrepareEvaluation + CompleteEvaluation): the caller's model answers the prompt the service
composes, and the service applies that reply exactly as it applies its own model's. Real gRPC, real PostgreSQL +
pgvector, the scripted LLM's rules answering the prepared prompt as they answer the service's own call."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import AsyncIterator, Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

import grpc
import pytest
import pytest_asyncio

from factmemory.adapters.postgres.tickets import Tickets
from factmemory.app import create_server
from factmemory.domain.errors import Unavailable
from factmemory.domain.prompts import FACT_LINE
from factmemory.domain.tickets import TicketPolicy, new_token, token_hash
from factmemory.usecases.deps import AgentModel, Deps
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service, make_settings
from tests.support.fm import NOW, Person, add_current, add_durable, change, days_ago, facts_of, new_id
from tests.support.llm_stub import Reply, ScriptedLLM, per_message

LISBON = "I moved to Lisbon in spring"
KNEE = "my knee hurts after the run today"
NURSE = "I work as a nurse at the city hospital"
HELLO = "nothing much, just saying hi"
AGAIN = "still in Lisbon, loving it"


def ops_for(prompt: str) -> Callable[[int, str], list[dict[str, Any]]]:
    """What the scripted model says of each message; a known fact is strengthened by the handle it was shown under."""
    shown = {m["claim"]: m["handle"] for m in FACT_LINE.finditer(prompt)}

    def ops(_index: int, text: str) -> list[dict[str, Any]]:
        if LISBON in text:
            return [add_durable("lives in Lisbon", "identity")]
        if KNEE in text:
            return [add_current("knee hurts after running", "physical_state")]
        if NURSE in text:
            return [add_durable("works as a nurse at the city hospital", "business_role")]
        if AGAIN in text and "lives in Lisbon" in shown:
            return [change("strengthen", shown["lives in Lisbon"], "said again")]
        return []

    return ops


def answer(body: dict[str, Any]) -> str:
    """The scripted model's reply to a chat request body, as raw text (what a caller's model hands back)."""
    prompt = "\n".join(m["content"] for m in body["messages"])
    rule = per_message(ops_for(prompt), relationships=[], identities=[], success={"completed": True, "reason": "ok"})
    content = rule(body).content
    return content if isinstance(content, str) else json.dumps(content)


def script(llm: ScriptedLLM) -> None:
    llm.default = lambda body: Reply(json.loads(answer(body)))


def body_of(prepared: pb.PrepareEvaluationResponse) -> dict[str, Any]:
    return {"messages": [{"role": m.role, "content": m.content} for m in prepared.prompt]}


def twin(person: Person) -> Person:
    """The same person and room under another agent: the same requests give the same prompts."""
    other = Person(person.name)
    other.entity_id, other.room_id = person.entity_id, person.room_id
    return other


async def complete(
    service: Service, person: Person, prepared: pb.PrepareEvaluationResponse, reply: str | None = None, **kw: Any
) -> pb.CompleteEvaluationResponse:
    response: pb.CompleteEvaluationResponse = await service.stub.CompleteEvaluation(
        pb.CompleteEvaluationRequest(
            agent_id=person.agent_id,
            entity_id=person.entity_id,
            ticket=prepared.ticket,
            reply=answer(body_of(prepared)) if reply is None else reply,
            **kw,
        )
    )
    return response


def comparable(fact: pb.Fact) -> tuple[Any, ...]:
    return (
        fact.kind,
        fact.category,
        fact.claim,
        round(fact.confidence, 6),
        tuple(fact.evidence_message_ids),
        fact.verification_status,
        fact.created_at.ToDatetime(),
        fact.last_confirmed_at.ToDatetime(),
        fact.valid_at.ToDatetime() if fact.HasField("valid_at") else None,
    )


def op_view(result: pb.EvaluateResponse) -> list[tuple[Any, ...]]:
    return [(o.op, o.fact.claim, o.deduplicated, o.rejected, o.handle) for o in result.ops]


async def test_facts_learned_through_the_agents_model_are_identical_to_the_services(
    service: Service, llm: ScriptedLLM
) -> None:
    script(llm)
    own = Person("Rui")
    agent = twin(own)
    turns = [(LISBON, days_ago(3)), (KNEE, days_ago(2)), (AGAIN, days_ago(1))]
    for text, when in turns:
        message_id = new_id()
        calls = len(llm.requests)
        served = await service.stub.Evaluate(own.evaluate(text, when, message_id))
        sent = llm.requests[calls]
        prepared = await service.stub.PrepareEvaluation(
            pb.PrepareEvaluationRequest(single=agent.evaluate(text, when, message_id))
        )
        # The prompt and the schema are the ones the service sent its own model.
        assert body_of(prepared)["messages"] == sent["messages"]
        assert json.loads(prepared.json_schema) == sent["response_format"]["json_schema"]["schema"]
        assert prepared.schema_name == "extraction" and prepared.ticket
        completed = await complete(service, agent, prepared)
        assert len(llm.requests) == calls + 1  # the agent's model was not the service's
        assert [op_view(r) for r in completed.results] == [op_view(served)]
    assert sorted(map(comparable, await facts_of(service, agent))) == sorted(
        map(comparable, await facts_of(service, own))
    )
    strengthened = [f for f in await facts_of(service, agent) if f.claim == "lives in Lisbon"]
    assert len(strengthened) == 1 and len(strengthened[0].evidence_message_ids) == 2

    # A batch: EvaluateBatch and PrepareEvaluation(batch) + CompleteEvaluation learn the same, message by message.
    ids = [new_id(), new_id()]
    texts = [(NURSE, days_ago(0.5)), (HELLO, days_ago(0.25))]
    served_batch = await service.stub.EvaluateBatch(
        own.batch(*(own.message(t, w, i) for (t, w), i in zip(texts, ids, strict=True)))
    )
    prepared = await service.stub.PrepareEvaluation(
        pb.PrepareEvaluationRequest(
            batch=agent.batch(*(agent.message(t, w, i) for (t, w), i in zip(texts, ids, strict=True)))
        )
    )
    assert body_of(prepared)["messages"] == llm.requests[-1]["messages"]
    completed = await complete(service, agent, prepared, usage=pb.Usage(prompt_tokens=900, completion_tokens=40))
    assert [op_view(r) for r in completed.results] == [op_view(r) for r in served_batch.results]
    assert sorted(map(comparable, await facts_of(service, agent))) == sorted(
        map(comparable, await facts_of(service, own))
    )
    # The caller's call is the one model call; its tokens are the ones the caller reported.
    assert completed.usage == pb.Usage(llm_calls=1, prompt_tokens=900, completion_tokens=40)
    assert completed.results[-1].usage == completed.usage and completed.results[0].usage.llm_calls == 0


async def test_messages_evaluated_before_get_their_stored_results_and_no_ticket(
    service: Service, llm: ScriptedLLM
) -> None:
    person = Person()
    message = person.evaluate(LISBON, days_ago(1))
    prepared = await service.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=message))
    first = await complete(service, person, prepared)
    assert [o.fact.claim for o in first.results[0].ops] == ["lives in Lisbon"]

    again = await service.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=message))
    assert again.ticket == "" and not again.prompt
    assert [r.replayed for r in again.results] == [True]
    assert op_view(again.results[0]) == op_view(first.results[0])
    replay = await service.stub.Evaluate(message)  # the service mode sees the same message as evaluated
    assert replay.replayed and op_view(replay) == op_view(first.results[0])
    assert llm.requests == []
    assert len(await facts_of(service, person)) == 1

    # A batch with one message evaluated before: the prompt covers the other one only, that one is context.
    other = person.message(NURSE, days_ago(0.5))
    prepared = await service.stub.PrepareEvaluation(
        pb.PrepareEvaluationRequest(batch=person.batch(other, message.message))
    )
    assert prepared.ticket and NURSE in prepared.prompt[1].content
    completed = await complete(service, person, prepared)
    assert [r.replayed for r in completed.results] == [False, True]  # the request's order
    assert [o.fact.claim for o in completed.results[0].ops] == ["works as a nurse at the city hospital"]


async def code_of(call: Any) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call
    return caught.value.code(), caught.value.details() or ""


async def test_a_ticket_is_used_once_and_a_retry_applies_nothing_twice(service: Service) -> None:
    person = Person()
    prepared = await service.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=person.evaluate(LISBON)))
    results = await asyncio.gather(
        complete(service, person, prepared), complete(service, person, prepared), return_exceptions=True
    )
    won = [r for r in results if isinstance(r, pb.CompleteEvaluationResponse)]
    lost = [r for r in results if isinstance(r, grpc.aio.AioRpcError)]
    assert len(won) == 1 and len(lost) == 1
    assert lost[0].code() == grpc.StatusCode.FAILED_PRECONDITION and "already used" in (lost[0].details() or "")
    code, details = await code_of(complete(service, person, prepared))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "already used" in details
    facts = await facts_of(service, person)
    assert [(f.claim, len(f.evidence_message_ids)) for f in facts] == [("lives in Lisbon", 1)]


async def test_unknown_forged_and_foreign_tickets_are_refused(service: Service) -> None:
    person = Person()
    prepared = await service.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=person.evaluate(LISBON)))
    forged = pb.PrepareEvaluationResponse(ticket=new_token())
    forged.prompt.extend(prepared.prompt)
    assert (await code_of(complete(service, person, forged)))[0] == grpc.StatusCode.NOT_FOUND
    malformed = pb.PrepareEvaluationResponse(ticket="not a ticket")
    malformed.prompt.extend(prepared.prompt)
    code, details = await code_of(complete(service, person, malformed))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "malformed" in details
    another_agent = Person(agent_id=new_id())
    another_agent.entity_id = person.entity_id
    assert (await code_of(complete(service, another_agent, prepared)))[0] == grpc.StatusCode.NOT_FOUND
    another_entity = Person(agent_id=person.agent_id)
    code, details = await code_of(complete(service, another_entity, prepared))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "another agent or entity" in details
    # None of them used the ticket up.
    completed = await complete(service, person, prepared)
    assert [o.fact.claim for o in completed.results[0].ops] == ["lives in Lisbon"]


async def test_a_reply_that_breaks_the_contract_applies_nothing_and_burns_nothing(service: Service) -> None:
    person = Person()
    prepared = await service.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=person.evaluate(LISBON)))
    for bad in ("I could not find any facts.", '{"facts": {"ops": "none"}}', "[1, 2]"):
        code, details = await code_of(complete(service, person, prepared, reply=bad))
        assert code == grpc.StatusCode.INVALID_ARGUMENT and "nothing was applied" in details, details
    assert await facts_of(service, person) == []
    # The same ticket takes a corrected reply; JSON wrapped in prose and a code fence is read as the service reads it.
    wrapped = "Here you go:\n```json\n" + answer(body_of(prepared)) + "\n```"
    completed = await complete(service, person, prepared, reply=wrapped)
    assert [o.fact.claim for o in completed.results[0].ops] == ["lives in Lisbon"]


async def test_a_ticket_from_before_a_forget_is_refused_and_keeps_nothing(service: Service) -> None:
    person = Person()
    prepared = await service.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=person.evaluate(LISBON)))
    await service.stub.ForgetEntity(pb.ForgetEntityRequest(agent_id=person.agent_id, entity_id=person.entity_id))
    body = await service.pool.fetchval(
        "SELECT body FROM evaluation_tickets WHERE agent_id = $1 AND entity_id = $2",
        UUID(person.agent_id),
        UUID(person.entity_id),
    )
    assert body is None  # the message and the facts shown left with the forget
    code, details = await code_of(complete(service, person, prepared))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "forgotten" in details
    assert await facts_of(service, person) == []


async def test_a_lost_race_is_aborted_and_the_rest_can_be_prepared_again(service: Service, llm: ScriptedLLM) -> None:
    script(llm)
    person = Person()
    first, second = person.message(LISBON, days_ago(2)), person.message(NURSE, days_ago(1))
    prepared = await service.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(batch=person.batch(first, second)))
    await service.stub.EvaluateBatch(person.batch(first))  # the service's own model took the first message meanwhile
    code, details = await code_of(complete(service, person, prepared))
    assert code == grpc.StatusCode.ABORTED and "PrepareEvaluation again" in details
    assert [f.claim for f in await facts_of(service, person)] == ["lives in Lisbon"]
    again = await service.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(batch=person.batch(first, second)))
    completed = await complete(service, person, again)
    assert [r.replayed for r in completed.results] == [True, False]
    assert sorted(f.claim for f in await facts_of(service, person)) == [
        "lives in Lisbon",
        "works as a nurse at the city hospital",
    ]


async def test_a_write_landing_between_prepare_and_complete_is_planned_against(
    service: Service, llm: ScriptedLLM
) -> None:
    script(llm)
    person = Person()
    prepared = await service.stub.PrepareEvaluation(
        pb.PrepareEvaluationRequest(single=person.evaluate(LISBON, days_ago(1)))
    )
    await service.stub.Evaluate(person.evaluate(LISBON, days_ago(2)))  # another message, the same claim
    completed = await complete(service, person, prepared)
    [op] = completed.results[0].ops
    assert op.op == pb.OP_TYPE_STRENGTHEN and op.deduplicated  # re-planned under the lock, as Evaluate does
    [fact] = await facts_of(service, person)
    assert len(fact.evidence_message_ids) == 2


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest_asyncio.fixture
async def clocked(
    service: Service, pg_url: str, llm: ScriptedLLM, tmp_path: Path
) -> AsyncIterator[tuple[Service, Clock]]:
    """A second server on the same deps, with the tickets' clock in the test's hands, no LLM of its own and small
    ticket bounds (3 per person)."""
    clock = Clock(NOW)
    assert service.deps.agent_model is not None
    policy = dataclasses.replace(service.deps.agent_model.policy, max_per_entity=3)
    deps: Deps = dataclasses.replace(
        service.deps, extractor=None, agent_model=AgentModel(service.deps.agent_model.tickets, policy, clock)
    )
    server, port = create_server(deps, make_settings(pg_url, llm, tmp_path))
    await server.start()
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        yield Service(deps, port, channel), clock
    await server.stop(1)


async def test_without_an_llm_evaluate_is_refused_and_the_agent_model_mode_works(
    clocked: tuple[Service, Clock], llm: ScriptedLLM
) -> None:
    service, _ = clocked
    person = Person()
    code, details = await code_of(service.stub.Evaluate(person.evaluate(LISBON)))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "no LLM" in details
    prepared = await service.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=person.evaluate(LISBON)))
    completed = await complete(service, person, prepared)
    assert [o.fact.claim for o in completed.results[0].ops] == ["lives in Lisbon"]
    assert llm.requests == []


async def test_an_expired_ticket_is_refused_and_its_messages_can_be_prepared_again(
    clocked: tuple[Service, Clock],
) -> None:
    service, clock = clocked
    person = Person()
    message = person.evaluate(LISBON)
    prepared = await service.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=message))
    assert prepared.expires_at.ToDatetime().replace(tzinfo=NOW.tzinfo) == NOW + timedelta(seconds=120)
    clock.now = NOW + timedelta(seconds=119)
    code, _ = await code_of(complete(service, person, prepared, reply="no json"))  # still open: the reply is at fault
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    clock.now = NOW + timedelta(seconds=120)
    code, details = await code_of(complete(service, person, prepared))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "expired" in details
    assert await facts_of(service, person) == []
    again = await service.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=message))
    assert [o.fact.claim for o in (await complete(service, person, again)).results[0].ops] == ["lives in Lisbon"]


async def test_tickets_are_bounded_per_person_the_oldest_giving_way(clocked: tuple[Service, Clock]) -> None:
    service, clock = clocked
    person = Person()
    tickets = []
    for i in range(4):
        clock.now = NOW + timedelta(seconds=i)
        tickets.append(
            await service.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=person.evaluate(LISBON)))
        )
    count = await service.pool.fetchval(
        "SELECT count(*) FROM evaluation_tickets WHERE agent_id = $1", UUID(person.agent_id)
    )
    assert count == 3
    assert (await code_of(complete(service, person, tickets[0])))[0] == grpc.StatusCode.NOT_FOUND
    assert (await complete(service, person, tickets[3])).results[0].ops


async def test_bad_requests_are_refused_before_anything_is_read(service: Service) -> None:
    code, details = await code_of(service.stub.PrepareEvaluation(pb.PrepareEvaluationRequest()))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "single" in details
    person = Person()
    request = person.evaluate(LISBON)
    request.message.entity_id = new_id()  # not the person's message
    assert (await code_of(service.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=request))))[
        0
    ] == grpc.StatusCode.INVALID_ARGUMENT
    prepared = await service.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=person.evaluate(LISBON)))
    code, _ = await code_of(complete(service, person, prepared, usage=pb.Usage(prompt_tokens=-1)))
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    code, details = await code_of(complete(service, person, prepared, reply="x" * 300_000))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "longer than" in details
    assert len(prepared.ticket) == 43  # 256 random bits, URL-safe base64


async def test_tickets_are_bounded_in_total(service: Service) -> None:
    """FACTMEMORY_MAX_TICKETS holds for the database's OPEN tickets: at the bound, a new ticket is refused
    (UNAVAILABLE, retry), saying which bound is full."""
    tickets = Tickets(service.pool)
    open_now = await service.pool.fetchval(
        "SELECT count(*) FROM evaluation_tickets WHERE used_at IS NULL AND body IS NOT NULL AND expires_at > $1", NOW
    )
    policy = TicketPolicy(ttl_s=120, max_per_entity=8, max_total=open_now + 1, max_reply_chars=1000)
    agent, entity = UUID(new_id()), UUID(new_id())

    async def issue() -> None:
        await tickets.issue(agent, entity, token_hash(new_token()), 0, "{}", NOW, NOW + timedelta(seconds=120), policy)

    await issue()
    with pytest.raises(Unavailable, match="FACTMEMORY_MAX_TICKETS"):
        await issue()
    assert await service.pool.fetchval("SELECT count(*) FROM evaluation_tickets WHERE agent_id = $1", agent) == 1


async def test_a_ticket_whose_messages_were_all_evaluated_meanwhile_answers_their_stored_results(
    service: Service, llm: ScriptedLLM
) -> None:
    script(llm)
    person = Person()
    message = person.evaluate(LISBON)
    prepared = await service.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=message))
    served = await service.stub.Evaluate(message)
    completed = await complete(service, person, prepared)
    assert [r.replayed for r in completed.results] == [True]
    assert op_view(completed.results[0]) == op_view(served)
    facts = await facts_of(service, person)
    assert [(f.claim, len(f.evidence_message_ids)) for f in facts] == [("lives in Lisbon", 1)]


async def test_a_lost_race_to_another_persons_message_of_the_same_id_is_refused_not_shown(
    service: Service, llm: ScriptedLLM
) -> None:
    script(llm)
    person = Person()
    other = Person(agent_id=person.agent_id)
    message = person.evaluate(LISBON)
    prepared = await service.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=message))
    theirs = other.evaluate(NURSE)
    theirs.message.id = message.message.id  # the same id, evaluated for someone else meanwhile
    await service.stub.Evaluate(theirs)
    code, details = await code_of(complete(service, person, prepared))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "another entity" in details
    assert "nurse" not in details
    assert await facts_of(service, person) == []
    assert [f.claim for f in await facts_of(service, other)] == ["works as a nurse at the city hospital"]
