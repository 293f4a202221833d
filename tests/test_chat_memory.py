"""A person's requests about their own memory in a conversation (FindFacts, and DeleteFact / UpdateFact /
ForgetEntity with a chat origin), over real gRPC against real PostgreSQL with the local embedder."""

from __future__ import annotations

import logging

import grpc
import pytest

from factmemory.api.http import labels
from factmemory.domain import finding
from factmemory.v1 import factmemory_pb2 as pb
from factmemory_client import connect
from factmemory_client import pb as client_pb
from tests.conftest import Service
from tests.support.fm import Person, add_durable, change, facts_reply
from tests.support.llm_stub import Reply, ScriptedLLM

REVIEWER = (("x-factmemory-reviewer", "alice@example.org"),)


async def stored(service: Service, person: Person, kind: pb.Kind, category: str, claim: str) -> pb.Fact:
    request = pb.AddFactRequest(
        agent_id=person.agent_id, entity_id=person.entity_id, kind=kind, category=category, claim=claim
    )
    added: pb.AddFactResponse = await service.stub.AddFact(request, metadata=REVIEWER)
    return added.fact


async def claims(service: Service, person: Person) -> list[str]:
    return sorted(f.claim for f in (await service.stub.ListFacts(person.list_facts())).facts)


def find(person: Person, text: str, limit: int = 0) -> pb.FindFactsRequest:
    return pb.FindFactsRequest(agent_id=person.agent_id, entity_id=person.entity_id, text=text, limit=limit)


def test_the_words_of_a_request_are_not_its_topic() -> None:
    assert finding.topic_terms("Forget that I'm vegetarian, please") == {"vegetarian"}
    assert finding.topic_terms("What do you remember about my job?") == {"job"}
    assert finding.topic_terms("what do you know about me?") == frozenset()


def test_the_review_page_shows_a_change_asked_in_the_chat_as_the_persons() -> None:
    assert labels.short_actor("chat:3f1b2c4d-5e6f-4a1b-8c2d-9e0f1a2b3c4d") == "the person, in the chat"
    assert labels.short_actor("reviewer:ann@example.org") == "reviewer:ann@example.org"


def test_a_common_verb_alone_names_no_fact() -> None:
    def named(request: str, claim: str) -> bool:
        return finding.names(finding.topic_terms(request), finding.terms(claim))

    assert not named("Forget that I like coffee", "likes tea")
    assert named("Forget that I like coffee", "likes coffee")
    assert named("Forget that I like coffee", "drinks coffee every morning")
    assert named("Forget where I live", "lives in Lisbon")
    assert not named("Forget that I live with Tom", "lives in Lisbon")


async def test_find_facts_splits_the_persons_facts_into_matches_and_near(service: Service) -> None:
    dana = Person("Dana")
    sam = Person("Sam", agent_id=dana.agent_id)
    await stored(service, dana, pb.KIND_DURABLE, "preference", "is vegetarian")
    await stored(service, dana, pb.KIND_DURABLE, "identity", "lives in Lisbon")
    await stored(service, dana, pb.KIND_DURABLE, "business_role", "works as a nurse")
    await stored(service, sam, pb.KIND_DURABLE, "preference", "is vegetarian too, like Dana")

    found = await service.stub.FindFacts(find(dana, "Forget that I'm vegetarian"))
    assert [s.fact.claim for s in found.matches] == ["is vegetarian"]
    assert sorted(s.fact.claim for s in found.near) == ["lives in Lisbon", "works as a nurse"]
    assert all(s.fact.entity_id == dana.entity_id for s in [*found.matches, *found.near])

    everything = await service.stub.FindFacts(find(dana, "what do you know about me?"))
    assert not everything.matches
    assert len(everything.near) == 3
    # The category's words count: "my job" names no claim's word, "business role" does not either; "nurse" does.
    assert [s.fact.claim for s in (await service.stub.FindFacts(find(dana, "forget I'm a nurse"))).matches] == [
        "works as a nurse"
    ]
    assert [s.fact.claim for s in (await service.stub.FindFacts(find(dana, "that I'm a vegetarian", 1))).matches] == [
        "is vegetarian"
    ]


async def test_the_python_client_finds_a_persons_facts(service: Service) -> None:
    dana = Person("Dana")
    await stored(service, dana, pb.KIND_DURABLE, "preference", "is vegetarian")
    await stored(service, dana, pb.KIND_DURABLE, "identity", "lives in Lisbon")
    async with connect(f"127.0.0.1:{service.port}") as client:
        found = await client.find_facts(
            client_pb.FindFactsRequest(agent_id=dana.agent_id, entity_id=dana.entity_id, text="where do I live?")
        )
    assert [s.fact.claim for s in found.matches] == ["lives in Lisbon"]
    assert [s.fact.claim for s in found.near] == ["is vegetarian"]


async def test_find_facts_refuses_bad_input(service: Service) -> None:
    dana = Person("Dana")
    for request in (find(dana, "x", limit=10_000), find(dana, "x", limit=-1), find(dana, "x" * 100_000)):
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await service.stub.FindFacts(request)
        assert info.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    bad_id = pb.FindFactsRequest(agent_id="nope", entity_id=dana.entity_id, text="x")
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await service.stub.FindFacts(bad_id)
    assert info.value.code() is grpc.StatusCode.INVALID_ARGUMENT


async def test_a_deletion_asked_in_the_chat_names_the_person_in_history_and_audit(
    service: Service, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="factmemory.audit")
    dana = Person("Dana")
    fact = await stored(service, dana, pb.KIND_DURABLE, "preference", "is vegetarian")
    await service.stub.DeleteFact(
        pb.DeleteFactRequest(
            agent_id=dana.agent_id, entity_id=dana.entity_id, fact_id=fact.id, chat=pb.ChatRequest(message_id="m-1")
        )
    )
    assert await claims(service, dana) == []
    history = (
        await service.stub.GetFact(pb.GetFactRequest(agent_id=dana.agent_id, entity_id=dana.entity_id, fact_id=fact.id))
    ).history
    assert (history[-1].action, history[-1].actor, history[-1].reason) == (
        pb.HISTORY_ACTION_DELETED,
        f"chat:{dana.entity_id}",
        "deleted in the chat",
    )
    lines = [r.getMessage() for r in caplog.records if r.name == "factmemory.audit"]
    assert any(
        f"delete_fact by chat:{dana.entity_id} via chat: ok" in line and "message_id=m-1" in line for line in lines
    ), lines


async def test_a_health_fact_is_deleted_from_the_chat_only_once_confirmed(service: Service) -> None:
    dana = Person("Dana")
    fact = await stored(service, dana, pb.KIND_DURABLE, "health", "is allergic to peanuts")
    request = pb.DeleteFactRequest(
        agent_id=dana.agent_id, entity_id=dana.entity_id, fact_id=fact.id, chat=pb.ChatRequest(message_id="m-1")
    )
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await service.stub.DeleteFact(request)
    assert info.value.code() is grpc.StatusCode.FAILED_PRECONDITION
    assert await claims(service, dana) == ["is allergic to peanuts"]
    request.chat.confirmed = True
    await service.stub.DeleteFact(request)
    assert await claims(service, dana) == []


async def test_a_correction_in_the_chat_changes_the_fact_and_its_history_says_so(service: Service) -> None:
    dana = Person("Dana")
    fact = await stored(service, dana, pb.KIND_DURABLE, "identity", "lives in Lisbon")
    changed = await service.stub.UpdateFact(
        pb.UpdateFactRequest(
            agent_id=dana.agent_id,
            entity_id=dana.entity_id,
            fact_id=fact.id,
            claim="lives in Porto",
            chat=pb.ChatRequest(message_id="m-2"),
        )
    )
    assert (changed.fact.id, changed.fact.claim, list(changed.fact.previous_claims)) == (
        fact.id,
        "lives in Porto",
        ["lives in Lisbon"],
    )
    assert await claims(service, dana) == ["lives in Porto"]
    history = (
        await service.stub.GetFact(pb.GetFactRequest(agent_id=dana.agent_id, entity_id=dana.entity_id, fact_id=fact.id))
    ).history
    assert (history[-1].action, history[-1].actor, history[-1].reason) == (
        pb.HISTORY_ACTION_EDITED,
        f"chat:{dana.entity_id}",
        "corrected in the chat",
    )


async def test_another_persons_fact_is_not_found_through_the_chat(service: Service) -> None:
    dana = Person("Dana")
    sam = Person("Sam", agent_id=dana.agent_id)
    fact = await stored(service, sam, pb.KIND_DURABLE, "preference", "is vegetarian")
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await service.stub.DeleteFact(
            pb.DeleteFactRequest(
                agent_id=dana.agent_id, entity_id=dana.entity_id, fact_id=fact.id, chat=pb.ChatRequest(message_id="m")
            )
        )
    assert info.value.code() is grpc.StatusCode.NOT_FOUND
    assert await claims(service, sam) == ["is vegetarian"]


async def test_forget_me_in_the_chat_is_one_audit_line_naming_the_person(
    service: Service, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="factmemory.audit")
    dana = Person("Dana")
    await stored(service, dana, pb.KIND_DURABLE, "preference", "is vegetarian")
    done = await service.stub.ForgetEntity(
        pb.ForgetEntityRequest(
            agent_id=dana.agent_id, entity_id=dana.entity_id, chat=pb.ChatRequest(message_id="m-9", confirmed=True)
        )
    )
    assert done.facts_deleted == 1
    assert await claims(service, dana) == []
    audit = [r.getMessage() for r in caplog.records if r.name == "factmemory.audit"]
    lines = [line for line in audit if "forget_entity" in line]
    assert len(lines) == 1 and f"by chat:{dana.entity_id} via chat: ok" in lines[0], lines


async def test_a_correction_the_persons_message_raised_is_settled_from_the_chat(
    service: Service, llm: ScriptedLLM, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="factmemory.audit")
    dana = Person("Dana")
    llm.on("I live in Lisbon", Reply(facts_reply(add_durable("lives in Lisbon", "identity"))))
    await service.stub.Evaluate(dana.evaluate("I live in Lisbon"))
    said = dana.evaluate("That's wrong, I moved to Porto in March")
    llm.on("moved to Porto", Reply(facts_reply(change("contradict", "D1", "moved", "lives in Porto"))))
    (op,) = (await service.stub.Evaluate(said)).ops
    assert op.candidate_id
    resolve = pb.ResolveCandidateRequest(
        agent_id=dana.agent_id,
        entity_id=dana.entity_id,
        candidate_id=op.candidate_id,
        resolution=pb.RESOLUTION_ACCEPT,
        chat=pb.ChatRequest(message_id="another message"),
    )
    with pytest.raises(grpc.aio.AioRpcError) as info:  # only the correction this message raised
        await service.stub.ResolveCandidate(resolve)
    assert info.value.code() is grpc.StatusCode.FAILED_PRECONDITION
    resolve.chat.message_id = said.message.id
    settled = await service.stub.ResolveCandidate(resolve)
    assert (settled.fact.claim, list(settled.fact.previous_claims)) == ("lives in Porto", ["lives in Lisbon"])
    assert await claims(service, dana) == ["lives in Porto"]
    history = (
        await service.stub.GetFact(
            pb.GetFactRequest(agent_id=dana.agent_id, entity_id=dana.entity_id, fact_id=settled.fact.id)
        )
    ).history
    assert history[-1].actor == f"chat:{dana.entity_id}"
    assert history[-1].reason == "corrected in the chat: lives in Porto"
    audit = [
        r.getMessage() for r in caplog.records if r.name == "factmemory.audit" and "resolve_candidate" in r.getMessage()
    ]
    assert [line.split(": ")[1] for line in audit] == [
        f"resolve_candidate by chat:{dana.entity_id} via chat",
        f"resolve_candidate by chat:{dana.entity_id} via chat",
    ], audit  # the refused attempt and the settled one, each one line
