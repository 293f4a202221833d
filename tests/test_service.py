"""The design's scenarios end to end: real gRPC, real PostgreSQL + pgvector, real local embedder, scripted LLM."""

from __future__ import annotations

import json
import math
from datetime import datetime
from pathlib import Path
from typing import cast

import grpc
import pytest

from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service
from tests.support.fm import (
    NOW,
    Person,
    add_current,
    add_durable,
    change,
    days_ago,
    facts_of,
    facts_reply,
    new_id,
)
from tests.support.llm_stub import Reply, ScriptedLLM, current_message


async def learn(
    service: Service, llm: ScriptedLLM, person: Person, text: str, *ops: dict[str, object], when: datetime = NOW
) -> pb.EvaluateResponse:
    llm.on(text, Reply(facts_reply(*ops)))
    response: pb.EvaluateResponse = await service.stub.Evaluate(person.evaluate(text, when))
    return response


def stored(facts: list[pb.Fact]) -> set[tuple[str, str]]:
    kinds = {pb.KIND_DURABLE: "durable", pb.KIND_CURRENT: "current"}
    return {(f"{kinds[f.kind]}.{f.category}", f.claim) for f in facts}


CATEGORIZATION = [
    (
        "My cortisol curve is flat, the lab confirmed it last week.",
        [add_durable("has a flat cortisol curve confirmed by lab", "health", "confirmed")],
        {("durable.health", "has a flat cortisol curve confirmed by lab")},
    ),
    (
        "I'm feeling anxious this morning.",
        [add_current("anxious this morning", "feeling")],
        {("current.feeling", "anxious this morning")},
    ),
    (
        "I moved to Berlin last March.",
        [
            add_durable("moved to Berlin in 2026-03", "life_event", date="2026-03"),
            add_durable("lives in Berlin", "identity"),
        ],
        {("durable.life_event", "moved to Berlin in 2026-03"), ("durable.identity", "lives in Berlin")},
    ),
    (
        "Still debugging the auth flow.",
        [add_current("debugging the auth flow", "working_on")],
        {("current.working_on", "debugging the auth flow")},
    ),
    (
        "I'm going through a divorce.",
        [add_current("going through a divorce", "going_through")],
        {("current.going_through", "going through a divorce")},
    ),
    (
        "I founded a company in 2024, I run it now.",
        [
            add_durable("founded a company in 2024", "life_event", date="2024"),
            add_durable("founder of a company since 2024", "business_role"),
        ],
        {
            ("durable.life_event", "founded a company in 2024"),
            ("durable.business_role", "founder of a company since 2024"),
        },
    ),
    (
        "I'm allergic to penicillin.",
        [add_durable("allergic to penicillin", "health")],
        {("durable.health", "allergic to penicillin")},
    ),
    (
        "Today's been rough.",
        [add_current("having a rough day", "feeling")],
        {("current.feeling", "having a rough day")},
    ),
    (
        "I always struggle with mornings.",
        [add_durable("struggles with mornings", "health", pattern="recurring")],
        {("durable.health", "struggles with mornings")},
    ),
]


@pytest.mark.parametrize(("text", "ops", "expected"), CATEGORIZATION, ids=[c[0][:30] for c in CATEGORIZATION])
async def test_categorization_examples_are_stored_as_such(
    service: Service, llm: ScriptedLLM, text: str, ops: list[dict[str, object]], expected: set[tuple[str, str]]
) -> None:
    person = Person()
    response = await learn(service, llm, person, text, *ops)
    assert [o.rejected for o in response.ops] == [False] * len(ops)
    facts = await facts_of(service, person)
    assert stored(facts) == expected
    assert all(math.isclose(f.confidence, 0.7) for f in facts)
    if "cortisol" in text:
        assert facts[0].verification_status == pb.VERIFICATION_STATUS_CONFIRMED
    if "mornings" in text:
        assert dict(facts[0].structured_fields) == {"pattern": "recurring"}
    if "Berlin" in text:
        event = next(f for f in facts if f.category == "life_event")
        assert dict(event.structured_fields) == {"date": "2026-03"}
    for fact in facts:
        assert fact.created_at.ToDatetime().replace(tzinfo=NOW.tzinfo) == NOW
        assert (fact.kind == pb.KIND_CURRENT) == fact.HasField("valid_at")


async def test_one_llm_call_temperature_zero_strict_schema(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    response = await learn(service, llm, person, "I live in Berlin", add_durable("lives in Berlin", "identity"))
    calls = llm.calls_for("I live in Berlin")
    assert len(calls) == 1
    body = calls[0]
    assert body["temperature"] == 0
    fmt = body["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    schema = fmt["json_schema"]["schema"]
    assert set(schema["required"]) == {"facts", "relationships", "identities", "success"}
    assert schema["additionalProperties"] is False
    prompt = body["messages"][1]["content"]
    for tag in ("<taxonomy>", "<known_facts>", "<current_message>"):
        assert tag in prompt
    assert response.usage.llm_calls == 1 and response.usage.prompt_tokens > 0
    assert response.success.completed is True


async def test_known_facts_are_shown_under_handles_never_uuids(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await learn(service, llm, person, "I live in Berlin", add_durable("lives in Berlin", "identity"))
    [fact] = await facts_of(service, person)
    await learn(service, llm, person, "Berlin is lovely in spring")
    prompt = llm.calls_for("Berlin is lovely")[0]["messages"][1]["content"]
    assert "[D1] (identity 0.70) lives in Berlin" in prompt
    assert fact.id not in prompt


async def test_items_subset_asks_only_for_those_properties(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    llm.on("only success", Reply({"success": {"completed": False, "reason": "not yet"}}))
    request = person.evaluate("only success please", items=[pb.ITEM_SUCCESS])
    response = await service.stub.Evaluate(request)
    schema = llm.calls_for("only success")[0]["response_format"]["json_schema"]["schema"]
    assert schema["required"] == ["success"]
    assert response.success.completed is False and not response.ops


# --- dedup -----------------------------------------------------------------------------------------------


async def test_model_strengthen_of_known_claim_raises_confidence(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await learn(service, llm, person, "I love coffee", add_durable("loves coffee", "preference"))
    response = await learn(service, llm, person, "Coffee is my favourite thing", change("strengthen", "D1"))
    facts = await facts_of(service, person)
    assert len(facts) == 1 and math.isclose(facts[0].confidence, 0.8)
    assert response.ops[0].op == pb.OP_TYPE_STRENGTHEN and response.ops[0].handle == "D1"
    assert len(facts[0].evidence_message_ids) == 2


async def test_reworded_add_is_caught_by_write_time_check(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await learn(service, llm, person, "I'm allergic to penicillin", add_durable("allergic to penicillin", "health"))
    response = await learn(
        service, llm, person, "Penicillin allergy, remember", add_durable("is allergic to penicillin", "health")
    )
    facts = await facts_of(service, person)
    assert len(facts) == 1 and math.isclose(facts[0].confidence, 0.8)
    assert response.ops[0].deduplicated and response.ops[0].op == pb.OP_TYPE_STRENGTHEN


async def test_different_allergy_is_kept_as_second_fact(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await learn(service, llm, person, "I'm allergic to penicillin", add_durable("allergic to penicillin", "health"))
    response = await learn(service, llm, person, "Also peanuts", add_durable("allergic to peanuts", "health"))
    assert not response.ops[0].deduplicated
    assert stored(await facts_of(service, person)) == {
        ("durable.health", "allergic to penicillin"),
        ("durable.health", "allergic to peanuts"),
    }


async def test_update_on_same_situation_strengthens(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await learn(
        service,
        llm,
        person,
        "going through a divorce",
        add_current("going through a divorce", "going_through"),
        when=days_ago(3),
    )
    await learn(service, llm, person, "the divorce papers came today", change("strengthen", "C1"))
    [fact] = await facts_of(service, person)
    assert math.isclose(fact.confidence, 0.8)
    assert fact.last_confirmed_at.ToDatetime().replace(tzinfo=NOW.tzinfo) == NOW


async def test_opposite_claim_as_contradict_never_strengthens(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await learn(service, llm, person, "I love coffee", add_durable("loves coffee", "preference"))
    response = await learn(
        service,
        llm,
        person,
        "Actually I hate coffee now",
        change("contradict", "D1", "said the opposite", "hates coffee"),
    )
    [fact] = await facts_of(service, person)
    assert fact.claim == "loves coffee" and math.isclose(fact.confidence, 0.7)
    assert response.ops[0].candidate_id
    candidates = (
        await service.stub.ListCandidates(
            pb.ListCandidatesRequest(agent_id=person.agent_id, entity_id=person.entity_id)
        )
    ).candidates
    assert [c.proposed_claim for c in candidates] == ["hates coffee"]


# --- time weighting ------------------------------------------------------------------------------------


async def test_current_fact_weights_follow_the_curve(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    for days, claim in (
        (1, "anxious about the exam"),
        (14, "anxious about the move"),
        (30, "anxious about the new job"),
    ):
        await learn(service, llm, person, f"msg {claim}", add_current(claim, "feeling"), when=days_ago(days))
    response = await service.stub.Provide(person.provide("I feel anxious", current_limit=6))
    weights = {s.fact.claim: s.time_weight for s in response.current}
    assert math.isclose(weights["anxious about the exam"], math.exp(-1 / 14), rel_tol=1e-6)
    assert math.isclose(weights["anxious about the move"], math.exp(-1), rel_tol=1e-6)
    assert math.isclose(weights["anxious about the new job"], math.exp(-30 / 14), rel_tol=1e-6)
    assert "anxious about the new job" in response.text  # 30 days old, still retrievable when relevant


async def test_durable_facts_keep_full_weight(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await learn(service, llm, person, "m1", add_durable("lives in Berlin", "identity"), when=days_ago(30))
    await learn(service, llm, person, "m2", add_durable("has a sister Mia", "relationship"), when=days_ago(365))
    response = await service.stub.Provide(person.provide("tell me about my family and home"))
    assert [s.time_weight for s in response.durable] == [1.0, 1.0]


# --- strengthen / decay / contradict ---------------------------------------------------------------------


async def test_decay_lowers_and_deletes_below_floor(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await learn(service, llm, person, "I sort of like jazz", add_durable("likes jazz", "preference"))
    first = await learn(service, llm, person, "jazz is ok I guess", change("decay", "D1"))
    assert math.isclose(first.ops[0].fact.confidence, 0.55) and not first.ops[0].deleted
    second = await learn(service, llm, person, "jazz, meh", change("decay", "D1"))
    third = await learn(service, llm, person, "jazz, whatever", change("decay", "D1"))
    assert [second.ops[0].fact.confidence, third.ops[0].fact.confidence] == [0.4, 0.25]
    assert not third.ops[0].deleted
    fourth = await learn(service, llm, person, "not into jazz", change("decay", "D1"))
    assert fourth.ops[0].deleted
    assert await facts_of(service, person) == []


async def test_moved_to_tokyo_creates_candidate_and_keeps_berlin(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await learn(service, llm, person, "I live in Berlin", add_durable("lives in Berlin", "identity"))
    await learn(
        service, llm, person, "actually I moved to Tokyo", change("contradict", "D1", "moved", "lives in Tokyo")
    )
    [fact] = await facts_of(service, person)
    assert fact.claim == "lives in Berlin"
    candidates = (
        await service.stub.ListCandidates(
            pb.ListCandidatesRequest(agent_id=person.agent_id, entity_id=person.entity_id)
        )
    ).candidates
    assert len(candidates) == 1 and candidates[0].status == pb.CANDIDATE_STATUS_PENDING
    resolved = await service.stub.ResolveCandidate(
        pb.ResolveCandidateRequest(
            agent_id=person.agent_id,
            entity_id=person.entity_id,
            candidate_id=candidates[0].id,
            decision=pb.DECISION_ACCEPT,
        )
    )
    assert resolved.fact.claim == "lives in Tokyo"
    assert list(resolved.fact.previous_claims) == ["lives in Berlin"]
    assert resolved.candidate.status == pb.CANDIDATE_STATUS_ACCEPTED
    with pytest.raises(grpc.aio.AioRpcError) as again:
        await service.stub.ResolveCandidate(
            pb.ResolveCandidateRequest(
                agent_id=person.agent_id,
                entity_id=person.entity_id,
                candidate_id=candidates[0].id,
                decision=pb.DECISION_REJECT,
            )
        )
    assert again.value.code() == grpc.StatusCode.FAILED_PRECONDITION


async def test_rejecting_a_candidate_leaves_the_fact(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await learn(service, llm, person, "I live in Berlin", add_durable("lives in Berlin", "identity"))
    response = await learn(service, llm, person, "maybe Tokyo", change("contradict", "D1", "?", "lives in Tokyo"))
    resolved = await service.stub.ResolveCandidate(
        pb.ResolveCandidateRequest(
            agent_id=person.agent_id,
            entity_id=person.entity_id,
            candidate_id=response.ops[0].candidate_id,
            decision=pb.DECISION_REJECT,
        )
    )
    assert resolved.candidate.status == pb.CANDIDATE_STATUS_REJECTED
    assert [f.claim for f in await facts_of(service, person)] == ["lives in Berlin"]


async def test_fixed_auth_bug_outranks_old_state(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await learn(
        service, llm, person, "debugging auth", add_current("debugging the auth flow", "working_on"), when=days_ago(5)
    )
    await learn(service, llm, person, "I fixed the auth bug", add_current("fixed the auth bug", "working_on"))
    response = await service.stub.Provide(person.provide("the auth bug"))
    assert response.current[0].fact.claim == "fixed the auth bug"


# --- provider -----------------------------------------------------------------------------------------


async def test_provider_sections_and_determinism(service: Service, llm: ScriptedLLM) -> None:
    person = Person(name="Sam")
    await learn(
        service,
        llm,
        person,
        "m1",
        add_durable("lives in Berlin", "identity"),
        add_durable("allergic to penicillin", "health"),
        add_current("anxious this morning", "feeling"),
    )
    request = person.provide("how are you", "I'm a bit anxious")
    first = await service.stub.Provide(request)
    second = await service.stub.Provide(request)
    assert first.SerializeToString(deterministic=True) == second.SerializeToString(deterministic=True)
    lines = first.text.splitlines()
    assert lines[0] == "What I know about you:"
    assert "- [durable.identity] lives in Berlin" in lines
    assert "- [durable.health] allergic to penicillin" in lines
    assert "What's currently happening for you:" in lines
    assert "- [current.feeling] anxious this morning (since 2026-11-20)" in lines
    named = await service.stub.Provide(person.provide("hi", subject_name="Sam"))
    assert named.text.startswith("What I know about Sam:") and "happening for Sam:" in named.text


async def test_provider_without_current_facts_has_only_durable_section(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await learn(service, llm, person, "m1", add_durable("lives in Berlin", "identity"))
    response = await service.stub.Provide(person.provide("hello"))
    assert response.text == "What I know about you:\n- [durable.identity] lives in Berlin"
    empty = await service.stub.Provide(Person().provide("hello"))
    assert empty.text == "" and not empty.durable and not empty.current


# --- idempotency, isolation, bad input, bad model --------------------------------------------------------


async def test_replay_of_same_message_applies_nothing(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    llm.on("I live in Berlin", Reply(facts_reply(add_durable("lives in Berlin", "identity"))))
    request = person.evaluate("I live in Berlin")
    first = await service.stub.Evaluate(request)
    second = await service.stub.Evaluate(request)
    assert not first.replayed and second.replayed
    assert list(second.ops) == list(first.ops)
    assert len(llm.calls_for("I live in Berlin")) == 1
    assert len(await facts_of(service, person)) == 1


async def test_entities_are_isolated(service: Service, llm: ScriptedLLM) -> None:
    alice, bob = Person("Alice"), Person("Bob")
    bob.agent_id = alice.agent_id
    await learn(service, llm, alice, "alice lives in Berlin", add_durable("lives in Berlin", "identity"))
    # Bob's model reply names D1, but Bob was shown no facts: the handle cannot reach Alice's fact.
    response = await learn(service, llm, bob, "bob says hi", change("decay", "D1"), change("strengthen", "D2"))
    assert all(o.rejected for o in response.ops)
    assert "unknown handle" in response.ops[0].reason
    provided = await service.stub.Provide(bob.provide("where do I live?"))
    assert provided.text == ""
    [fact] = await facts_of(service, alice)
    assert math.isclose(fact.confidence, 0.7)
    prompt = llm.calls_for("bob says hi")[0]["messages"][1]["content"]
    assert "<known_facts>\n(none)\n</known_facts>" in prompt


async def test_other_agent_sees_nothing(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await learn(service, llm, person, "I live in Berlin", add_durable("lives in Berlin", "identity"))
    other = Person()
    other.entity_id = person.entity_id
    assert await facts_of(service, other) == []


BAD_REQUESTS = {
    "empty agent_id": lambda p: pb.EvaluateRequest(entity_id=p.entity_id, message=p.message("hi")),
    "malformed agent_id": lambda p: pb.EvaluateRequest(
        agent_id="not-a-uuid", entity_id=p.entity_id, message=p.message("hi")
    ),
    "missing message": lambda p: pb.EvaluateRequest(agent_id=p.agent_id, entity_id=p.entity_id),
    "oversized text": lambda p: pb.EvaluateRequest(
        agent_id=p.agent_id, entity_id=p.entity_id, message=p.message("x" * 9000)
    ),
    "unknown item": lambda p: pb.EvaluateRequest(
        agent_id=p.agent_id, entity_id=p.entity_id, message=p.message("hi"), items=[cast(pb.Item, 99)]
    ),
    "message id not uuid": lambda p: pb.EvaluateRequest(
        agent_id=p.agent_id, entity_id=p.entity_id, message=pb.ChatMessage(id="m1", text="hi")
    ),
    "other sender": lambda p: pb.EvaluateRequest(
        agent_id=p.agent_id, entity_id=p.entity_id, message=pb.ChatMessage(id=new_id(), entity_id=new_id(), text="hi")
    ),
}


@pytest.mark.parametrize("case", list(BAD_REQUESTS))
async def test_bad_evaluate_input_is_invalid_argument(service: Service, llm: ScriptedLLM, case: str) -> None:
    person = Person()
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await service.stub.Evaluate(BAD_REQUESTS[case](person))
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.value.details()
    assert llm.requests == []


async def test_bad_provide_input_is_invalid_argument(service: Service) -> None:
    person = Person()
    for request in (
        pb.ProvideRequest(agent_id=person.agent_id, entity_id="x"),
        pb.ProvideRequest(agent_id=person.agent_id, entity_id=person.entity_id, durable_limit=-1),
        pb.ListFactsRequest(agent_id=person.agent_id, entity_id=person.entity_id, kind=cast(pb.Kind, 7)),
    ):
        method = service.stub.Provide if isinstance(request, pb.ProvideRequest) else service.stub.ListFacts
        with pytest.raises(grpc.aio.AioRpcError) as error:
            await method(request)
        assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT


async def test_invalid_json_reply_applies_nothing_and_can_be_retried(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    llm.on(
        "I live in Berlin", Reply("this is not json {"), Reply(facts_reply(add_durable("lives in Berlin", "identity")))
    )
    request = person.evaluate("I live in Berlin")
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await service.stub.Evaluate(request)
    assert error.value.code() == grpc.StatusCode.FAILED_PRECONDITION  # not retryable: the same prompt, the same reply
    assert await facts_of(service, person) == []
    retried = await service.stub.Evaluate(request)
    assert not retried.replayed and len(await facts_of(service, person)) == 1


async def test_wrong_shape_reply_is_rejected(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    llm.on("shape", Reply({"facts": "lives in Berlin"}))
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await service.stub.Evaluate(person.evaluate("shape"))
    assert error.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "wrong shape" in (error.value.details() or "")


async def test_json_schema_rejected_falls_back_to_json_object(pg_url: str, llm: ScriptedLLM, tmp_path: Path) -> None:
    from tests.conftest import make_settings, start_service

    llm.reject_json_schema = True
    async for svc in start_service(make_settings(pg_url, llm, tmp_path)):
        person = Person()
        response = await learn(svc, llm, person, "I live in Berlin", add_durable("lives in Berlin", "identity"))
        formats = [(r.get("response_format") or {}).get("type") for r in llm.calls_for("I live in Berlin")]
        assert formats == ["json_schema", "json_object"]
        assert len(response.ops) == 1 and not response.ops[0].rejected
        llm.reject_json_object = True
        await learn(svc, llm, person, "I love coffee", add_durable("loves coffee", "preference"))
        last = llm.calls_for("I love coffee")[-1]
        assert "response_format" not in last and "JSON schema" in last["messages"][0]["content"]
        assert len(await facts_of(svc, person)) == 2


async def test_no_llm_configured_evaluate_fails_precondition_provide_works(
    pg_url: str, llm: ScriptedLLM, tmp_path: Path
) -> None:
    from tests.conftest import make_settings, start_service

    settings = make_settings(pg_url, llm, tmp_path, OPENAI_API_KEY=None, OPENAI_BASE_URL=None)
    async for svc in start_service(settings):
        person = Person()
        with pytest.raises(grpc.aio.AioRpcError) as error:
            await svc.stub.Evaluate(person.evaluate("hi"))
        assert error.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert (await svc.stub.Provide(person.provide("hi"))).text == ""


async def test_forget_entity_and_export(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await learn(service, llm, person, "I live in Berlin", add_durable("lives in Berlin", "identity"))
    await learn(service, llm, person, "actually Tokyo", change("contradict", "D1", "moved", "lives in Tokyo"))
    exported = json.loads(
        (
            await service.stub.ExportEntity(
                pb.ExportEntityRequest(agent_id=person.agent_id, entity_id=person.entity_id)
            )
        ).json
    )
    assert [f["claim"] for f in exported["facts"]] == ["lives in Berlin"]
    assert len(exported["candidates"]) == 1 and len(exported["evaluations"]) == 2
    counts = await service.stub.ForgetEntity(
        pb.ForgetEntityRequest(agent_id=person.agent_id, entity_id=person.entity_id)
    )
    assert (counts.facts_deleted, counts.candidates_deleted, counts.evaluations_deleted) == (1, 1, 2)
    async with service.pool.acquire() as conn:
        for table in ("facts", "fact_candidates", "identities", "evaluations"):
            left = await conn.fetchval(
                f"SELECT count(*) FROM {table} WHERE entity_id = $1", __import__("uuid").UUID(person.entity_id)
            )
            assert left == 0, table


def test_current_message_helper_reads_the_block() -> None:
    body = {"messages": [{"role": "user", "content": "x <current_message>\nhello\n</current_message>"}]}
    assert current_message(body) == "hello"


async def test_conflicting_near_duplicate_add_is_kept_and_sent_to_review(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await learn(service, llm, person, "I love coffee", add_durable("loves coffee", "preference"))
    response = await learn(service, llm, person, "coffee is awful", add_durable("hates coffee", "preference"))
    op = response.ops[0]
    assert op.op == pb.OP_TYPE_ADD_DURABLE and not op.deduplicated and op.candidate_id
    assert stored(await facts_of(service, person)) == {
        ("durable.preference", "loves coffee"),
        ("durable.preference", "hates coffee"),
    }
    [candidate] = (
        await service.stub.ListCandidates(
            pb.ListCandidatesRequest(agent_id=person.agent_id, entity_id=person.entity_id)
        )
    ).candidates
    assert candidate.source == "dedup_conflict" and candidate.fact.claim == "loves coffee"
    assert candidate.proposed_claim == "hates coffee"
    # Accepting: the old fact takes the new claim and the kept duplicate is folded into it.
    resolved = await service.stub.ResolveCandidate(
        pb.ResolveCandidateRequest(
            agent_id=person.agent_id, entity_id=person.entity_id, candidate_id=candidate.id, decision=pb.DECISION_ACCEPT
        )
    )
    assert resolved.fact.claim == "hates coffee" and list(resolved.fact.previous_claims) == ["loves coffee"]
    [fact] = await facts_of(service, person)
    assert fact.id == candidate.fact.id and len(fact.evidence_message_ids) == 2
