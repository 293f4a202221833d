"""ForgetMessages: deleted messages leave every fact's evidence, what only they supported goes, what they raised
closes, and they are never learned again (real gRPC, real PostgreSQL, the scripted LLM)."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any
from uuid import UUID

import grpc
import pytest

from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service
from tests.support.fm import Person, add_durable, change, facts_of, facts_reply, new_id
from tests.support.llm_stub import Reply, ScriptedLLM
from tests.test_agent_model import complete

ALICE = (("x-factmemory-reviewer", "alice@example.org"),)


def forget(person: Person, *ids: str, room: str = "", entity: bool = True) -> pb.ForgetMessagesRequest:
    return pb.ForgetMessagesRequest(
        agent_id=person.agent_id, entity_id=person.entity_id if entity else "", message_ids=list(ids), room_id=room
    )


def counts(response: pb.ForgetMessagesResponse) -> tuple[int, int, int, int]:
    return response.messages_forgotten, response.facts_deleted, response.facts_updated, response.candidates_closed


async def learn(service: Service, llm: ScriptedLLM, person: Person, text: str, *ops: dict[str, Any]) -> str:
    """Evaluates one message whose reply is `ops`; returns the message id."""
    llm.on(text, Reply(facts_reply(*ops)))
    request = person.evaluate(text)
    await service.stub.Evaluate(request)
    return request.message.id


def by_claim(facts: list[pb.Fact]) -> dict[str, pb.Fact]:
    return {f.claim: f for f in facts}


async def history(service: Service, person: Person, fact_id: str) -> list[pb.HistoryEntry]:
    got = await service.stub.GetFact(
        pb.GetFactRequest(agent_id=person.agent_id, entity_id=person.entity_id, fact_id=fact_id)
    )
    return list(got.history)


async def test_a_deleted_message_leaves_the_evidence_and_its_only_facts_go(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    first = await learn(
        service,
        llm,
        person,
        "first: I live in Berlin and I like tea",
        add_durable("lives in Berlin", "identity"),
        add_durable("likes tea", "preference"),
    )
    second = await learn(service, llm, person, "second: Berlin is home", add_durable("lives in Berlin", "identity"))
    before = by_claim(await facts_of(service, person))
    assert list(before["lives in Berlin"].evidence_message_ids) == [first, second]
    assert before["lives in Berlin"].confidence == pytest.approx(0.8)

    done = await service.stub.ForgetMessages(forget(person, first))

    assert counts(done) == (1, 1, 1, 0)
    after = by_claim(await facts_of(service, person))
    assert list(after) == ["lives in Berlin"]  # "likes tea" stood on the deleted message alone
    berlin = after["lives in Berlin"]
    assert list(berlin.evidence_message_ids) == [second] and berlin.evidence_count == 1
    assert berlin.confidence == pytest.approx(0.7)  # as if only the second message had said it
    assert berlin.claim == before["lives in Berlin"].claim
    tea = await history(service, person, before["likes tea"].id)
    assert (tea[-1].action, tea[-1].reason) == (pb.HISTORY_ACTION_DELETED, "source message deleted")
    recount = (await history(service, person, berlin.id))[-1]
    assert (recount.reason, recount.actor) == ("source message deleted", "system:message deleted")
    assert recount.before["confidence"] == pytest.approx(0.8) and recount.after["confidence"] == pytest.approx(0.7)

    again = await service.stub.ForgetMessages(forget(person, first))
    assert counts(again) == (0, 0, 0, 0)
    assert by_claim(await facts_of(service, person)) == after


async def links(service: Service, person: Person) -> tuple[set[tuple[str, tuple[str, ...]]], set[tuple[str, str]]]:
    """The person's relationships (target, tags) and identities (platform, handle), from ExportEntity."""
    page = await service.stub.ExportEntity(pb.ExportEntityRequest(agent_id=person.agent_id, entity_id=person.entity_id))
    exported = json.loads(page.json)
    return (
        {(r["target_entity_id"], tuple(r["tags"])) for r in exported["relationships"]},
        {(i["platform"], i["handle"]) for i in exported["identities"]},
    )


async def test_relationships_and_identities_learned_only_from_deleted_messages_go(
    service: Service, llm: ScriptedLLM
) -> None:
    person, kim = Person(), new_id()
    room = [pb.RoomEntity(id=person.entity_id, names=["Sam"]), pb.RoomEntity(id=kim, names=["Kim"])]

    async def said(text: str, tag: str, platform: str, handle: str) -> str:
        reply = facts_reply()
        reply["relationships"] = [{"source_entity_id": person.entity_id, "target_entity_id": kim, "tags": [tag]}]
        reply["identities"] = [
            {"entity_id": person.entity_id, "platform": platform, "handle": handle, "confidence": 0.9}
        ]
        llm.on(text, Reply(reply))
        request = person.evaluate(text, room_entities=room)
        await service.stub.Evaluate(request)
        return request.message.id

    first = await said("links one: Kim is my sister, I'm @sam on GitHub", "family", "github", "@sam")
    second = await said("links two: Kim and I run the bakery, @sam2 on GitLab", "colleague", "gitlab", "@sam2")
    assert await links(service, person) == ({(kim, ("colleague", "family"))}, {("github", "@sam"), ("gitlab", "@sam2")})

    await service.stub.ForgetMessages(forget(person, second))
    # The relationship still stands on the first message; the GitLab handle stood on the second alone.
    assert await links(service, person) == ({(kim, ("colleague", "family"))}, {("github", "@sam")})

    await service.stub.ForgetMessages(forget(person, first))
    assert await links(service, person) == (set(), set())

    replay = await service.stub.Evaluate(person.evaluate("links one again", message_id=first, room_entities=room))
    assert replay.replayed and not replay.relationships and not replay.identities
    assert await links(service, person) == (set(), set())


async def test_links_a_message_wrote_about_room_mates_go_with_it(service: Service, llm: ScriptedLLM) -> None:
    """The turn of one person writes links of others (a relationship from a room-mate, the room-mate's identity):
    they cite the person's message and go with it, and the room-mate's links from their own messages stay."""
    person = Person("Sam")
    kim = Person("Kim", agent_id=person.agent_id)
    kim.room_id = person.room_id
    room = [pb.RoomEntity(id=person.entity_id, names=["Sam"]), pb.RoomEntity(id=kim.entity_id, names=["Kim"])]

    async def said(speaker: Person, text: str, handle: str) -> str:
        reply = facts_reply()
        reply["relationships"] = [
            {"source_entity_id": kim.entity_id, "target_entity_id": person.entity_id, "tags": ["friend"]}
        ]
        reply["identities"] = [{"entity_id": kim.entity_id, "platform": "github", "handle": handle, "confidence": 0.9}]
        llm.on(text, Reply(reply))
        request = speaker.evaluate(text, room_entities=room)
        await service.stub.Evaluate(request)
        return request.message.id

    sams = await said(person, "mates: Kim is my friend, she is @kim on GitHub", "@kim")
    assert await links(service, kim) == ({(person.entity_id, ("friend",))}, {("github", "@kim")})
    await said(kim, "mates: I am @kimk on GitHub", "@kimk")  # Kim's own word, about the same links

    await service.stub.ForgetMessages(forget(person, sams))
    # The relationship stands on Kim's message; the handle Sam alone gave goes.
    assert await links(service, kim) == ({(person.entity_id, ("friend",))}, {("github", "@kimk")})


async def test_a_replayed_evaluate_of_a_deleted_message_applies_nothing(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    llm.on("replayed: I live in Oslo", Reply(facts_reply(add_durable("lives in Oslo", "identity"))))
    request = person.evaluate("replayed: I live in Oslo")
    await service.stub.Evaluate(request)
    await service.stub.ForgetMessages(forget(person, request.message.id))
    calls = len(llm.calls_for("replayed"))

    replay = await service.stub.Evaluate(request)
    batch = await service.stub.EvaluateBatch(person.batch(request.message))

    assert replay.replayed and not replay.ops
    assert batch.results[0].replayed and not batch.results[0].ops and batch.usage.llm_calls == 0
    assert len(llm.calls_for("replayed")) == calls  # the model was not asked again
    assert await facts_of(service, person) == []


async def test_a_deleted_message_in_a_batch_is_neither_learned_nor_shown_as_context(
    service: Service, llm: ScriptedLLM
) -> None:
    person = Person()
    deleted = person.message("batch secret: my PIN is 4711")
    kept = person.message("batch kept: I play the cello")
    llm.on("batch kept", Reply(facts_reply(add_durable("plays the cello", "preference"))))
    await service.stub.ForgetMessages(forget(person, deleted.id))

    batch = await service.stub.EvaluateBatch(person.batch(deleted, kept))

    assert [r.replayed for r in batch.results] == [True, False] and not batch.results[0].ops
    [call] = llm.calls_for("batch kept")
    assert "4711" not in json.dumps(call)  # the model never saw the deleted message
    assert [f.claim for f in await facts_of(service, person)] == ["plays the cello"]


async def test_a_message_deleted_before_it_was_evaluated_is_never_learned(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    llm.on("late: I am a nurse", Reply(facts_reply(add_durable("works as a nurse", "business_role"))))
    request = person.evaluate("late: I am a nurse")

    done = await service.stub.ForgetMessages(forget(person, request.message.id))
    late = await service.stub.Evaluate(request)

    assert counts(done) == (1, 0, 0, 0)
    assert late.replayed and not late.ops and not llm.calls_for("late")
    assert await facts_of(service, person) == []
    assert counts(await service.stub.ForgetMessages(forget(person, request.message.id))) == (0, 0, 0, 0)


@pytest.mark.timing  # wall clock: the deletion must commit within the model's 1.5 s
async def test_a_deletion_while_the_message_is_evaluated_wins(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    llm.on("in flight", Reply(facts_reply(add_durable("has a dog", "relationship")), delay_s=1.5))
    request = person.evaluate("in flight: I have a dog")
    call = asyncio.ensure_future(service.stub.Evaluate(request))
    for _ in range(200):  # delete while the Evaluate waits on the model
        if llm.calls_for("in flight"):
            break
        await asyncio.sleep(0.02)
    assert llm.calls_for("in flight") and not call.done()

    done = await service.stub.ForgetMessages(forget(person, request.message.id))
    result = await call

    assert counts(done) == (1, 0, 0, 0)
    assert result.replayed and not result.ops
    assert await facts_of(service, person) == []


async def test_review_items_raised_by_a_deleted_message_close(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await learn(service, llm, person, "home: I live in Berlin", add_durable("lives in Berlin", "identity"))
    moved = await learn(
        service,
        llm,
        person,
        "moved: I moved to Tokyo",
        change("contradict", "D1", "moved", proposed_claim="lives in Tokyo"),
    )
    scope: dict[str, Any] = {"agent_id": person.agent_id, "entity_id": person.entity_id}
    [pending] = (await service.stub.ListCandidates(pb.ListCandidatesRequest(**scope))).candidates
    assert pending.evidence_message_id == moved

    done = await service.stub.ForgetMessages(forget(person, moved))

    assert counts(done) == (1, 0, 0, 1)
    assert not (await service.stub.ListCandidates(pb.ListCandidatesRequest(**scope))).candidates
    closed = (await service.stub.ListCandidates(pb.ListCandidatesRequest(**scope, any_status=True))).candidates
    assert [(c.status, c.resolved_by) for c in closed] == [(pb.CANDIDATE_STATUS_REJECTED, "system:message deleted")]
    assert [f.claim for f in await facts_of(service, person)] == ["lives in Berlin"]  # the contradicted fact stays


async def test_possible_duplicate_pairs_raised_by_a_deleted_message_close(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await learn(service, llm, person, "pair: I run", add_durable("runs", "preference"))
    await learn(service, llm, person, "pair two: I jog", add_durable("jogs", "preference"))
    said = await learn(service, llm, person, "pair three: running and jogging")  # supports neither fact
    facts = by_claim(await facts_of(service, person))
    agent = uuid.UUID(person.agent_id)
    first, second = sorted([uuid.UUID(facts["runs"].id), uuid.UUID(facts["jogs"].id)])
    async with service.pool.acquire() as conn:  # a pair as the write-time rule records it, raised by `said`
        await conn.execute(
            "INSERT INTO possible_duplicates (agent_id, entity_id, fact_id, other_fact_id, similarity, "
            "evidence_message_id, created_at) VALUES ($1, $2, $3, $4, 0.9, $5, now()) ON CONFLICT (agent_id, fact_id, "
            "other_fact_id) DO UPDATE SET evidence_message_id = EXCLUDED.evidence_message_id, status = 'open'",
            agent,
            uuid.UUID(person.entity_id),
            first,
            second,
            said,
        )

    done = await service.stub.ForgetMessages(forget(person, said))

    assert counts(done) == (1, 0, 0, 0)
    async with service.pool.acquire() as conn:
        rows = await conn.fetch("SELECT status FROM possible_duplicates WHERE agent_id = $1", agent)
    assert [r["status"] for r in rows] == ["closed"]
    assert sorted(by_claim(await facts_of(service, person))) == ["jogs", "runs"]


async def test_a_fact_a_person_vouched_for_stays_on_their_word(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    said = await learn(service, llm, person, "allergy: penicillin", add_durable("allergic to penicillin", "health"))
    [fact] = await facts_of(service, person)
    scope: dict[str, Any] = {"agent_id": person.agent_id, "entity_id": person.entity_id}
    await service.stub.UpdateFact(
        pb.UpdateFactRequest(**scope, fact_id=fact.id, verification_status=pb.VERIFICATION_STATUS_CONFIRMED),
        metadata=ALICE,
    )

    done = await service.stub.ForgetMessages(forget(person, said))

    assert counts(done) == (1, 0, 1, 0)
    [kept] = await facts_of(service, person)
    assert (kept.id, kept.claim, kept.confidence) == (fact.id, fact.claim, fact.confidence)
    assert list(kept.evidence_message_ids) == [] and kept.verification_status == pb.VERIFICATION_STATUS_CONFIRMED
    entries = await history(service, person, fact.id)
    assert [e.actor for e in entries][-2:] == ["reviewer:alice@example.org", "system:message deleted"]
    assert entries[-1].reason == "source message deleted"


async def test_a_cleared_room_forgets_what_was_learned_there_from_everyone(service: Service, llm: ScriptedLLM) -> None:
    sam = Person("Sam")
    kim = Person("Kim", agent_id=sam.agent_id)
    kim.room_id = sam.room_id
    elsewhere = Person("Sam", agent_id=sam.agent_id)
    elsewhere.entity_id = sam.entity_id  # Sam in another room
    await learn(service, llm, sam, "room: Sam likes chess", add_durable("likes chess", "preference"))
    await learn(service, llm, kim, "room: Kim likes golf", add_durable("likes golf", "preference"))
    await learn(service, llm, elsewhere, "other room: Sam likes tea", add_durable("likes tea", "preference"))

    done = await service.stub.ForgetMessages(pb.ForgetMessagesRequest(agent_id=sam.agent_id, room_id=sam.room_id))

    assert counts(done) == (2, 2, 0, 0)
    assert [f.claim for f in await facts_of(service, sam)] == ["likes tea"]
    assert await facts_of(service, kim) == []
    again = await service.stub.ForgetMessages(pb.ForgetMessagesRequest(agent_id=sam.agent_id, room_id=sam.room_id))
    assert counts(again) == (0, 0, 0, 0)


@pytest.mark.parametrize(
    ("ids", "entity", "room", "expected"),
    [
        ([new_id() for _ in range(1001)], True, "", "at most 1000"),
        ([""], True, "", "message_ids[1] is empty"),
        (["a\nb"], True, "", "control character"),
        (["x" * 200], True, "", "longer than"),
        (["reviewer:alice"], True, "", "not a message"),
        ([new_id()], False, "", "entity_id is required"),
        ([new_id()], False, new_id(), "entity_id is required"),
        ([], True, "not-a-uuid", "room_id must be a UUID"),
    ],
)
async def test_bad_input_is_refused_and_changes_nothing(
    service: Service, llm: ScriptedLLM, ids: list[str], entity: bool, room: str, expected: str
) -> None:
    person = Person()
    said = await learn(service, llm, person, "bad input: I live in Rome", add_durable("lives in Rome", "identity"))
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await service.stub.ForgetMessages(forget(person, said, *ids, room=room, entity=entity))
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert expected in (error.value.details() or "")
    assert [f.claim for f in await facts_of(service, person)] == ["lives in Rome"]
    assert counts(await service.stub.ForgetMessages(forget(person, said))) == (1, 1, 0, 0)  # not forgotten before


async def test_a_call_naming_no_message_and_no_room_is_refused(service: Service) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await service.stub.ForgetMessages(forget(Person()))
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "give message_ids, room_id or both" in (error.value.details() or "")


async def test_a_message_of_another_entity_is_refused_and_nothing_is_forgotten(
    service: Service, llm: ScriptedLLM
) -> None:
    sam = Person("Sam")
    kim = Person("Kim", agent_id=sam.agent_id)
    sams = await learn(service, llm, sam, "mine: I sing", add_durable("sings", "preference"))
    kims = await learn(service, llm, kim, "hers: I paint", add_durable("paints", "preference"))
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await service.stub.ForgetMessages(forget(sam, sams, kims))
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT and kims in (error.value.details() or "")
    assert [f.claim for f in await facts_of(service, sam)] == ["sings"]
    assert [f.claim for f in await facts_of(service, kim)] == ["paints"]


async def test_a_message_deleted_between_prepare_and_complete_is_not_learned(service: Service) -> None:
    person = Person()
    request = person.evaluate("agent model: I teach maths")
    prepared = await service.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=request))
    assert prepared.ticket

    held = "SELECT body FROM evaluation_tickets WHERE agent_id = $1 AND entity_id = $2"
    assert "I teach maths" in await service.pool.fetchval(held, UUID(person.agent_id), UUID(person.entity_id))
    await service.stub.ForgetMessages(forget(person, request.message.id))
    # The open ticket lost the deleted text with the deletion; presenting it is refused by name, nothing applied.
    assert await service.pool.fetchval(held, UUID(person.agent_id), UUID(person.entity_id)) is None
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await service.stub.CompleteEvaluation(
            pb.CompleteEvaluationRequest(
                agent_id=person.agent_id,
                entity_id=person.entity_id,
                ticket=prepared.ticket,
                reply=json.dumps(facts_reply(add_durable("teaches maths", "business_role"))),
            )
        )
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "was deleted" in (refused.value.details() or "")

    assert await facts_of(service, person) == []
    again = await service.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=request))
    assert not again.ticket and [r.replayed for r in again.results] == [True]  # no call is composed for it


async def test_a_room_mates_ticket_that_showed_a_deleted_message_is_refused_and_learns_nothing(
    service: Service, llm: ScriptedLLM
) -> None:
    """Sam's open ticket shows Kim's message as room context; Kim's ForgetMessages (naming Kim, not Sam) makes Sam's
    CompleteEvaluation refused by name, with nothing learned. On the cluster Sam's ticket lives on Sam's shard,
    which the deletion does not touch: the refusal comes from the deleted ids (migration 0063)."""
    sam = Person("Sam")
    kim = Person("Kim", agent_id=sam.agent_id)
    secret = kim.evaluate("Kim here: my PIN is 9931")
    llm.on("Kim here", Reply(facts_reply()))
    await service.stub.Evaluate(secret)
    turn = sam.evaluate("Sam: I work nights at the bakery", recent_messages=[secret.message])
    shown = await service.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=turn))
    assert "9931" in json.dumps([m.content for m in shown.prompt])
    unrelated = await service.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=sam.evaluate("Sam: hi all")))

    forgotten = await service.stub.ForgetMessages(forget(kim, secret.message.id))
    assert forgotten.messages_forgotten == 1

    def reply(claim: str) -> str:
        return json.dumps(facts_reply(add_durable(claim, "business_role")))

    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await complete(service, sam, shown, reply("works nights at a bakery"))
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "was deleted" in (refused.value.details() or "")
    assert await facts_of(service, sam) == []
    held = "SELECT count(*) FROM evaluation_tickets WHERE agent_id = $1 AND body LIKE '%9931%'"
    assert await service.pool.fetchval(held, UUID(sam.agent_id)) == 0  # the refused ticket lost the text too
    # A ticket that never showed the message completes (the check refuses only what showed a deleted message).
    done = await complete(service, sam, unrelated, reply("greets the room"))
    assert [o.rejected for o in done.results[0].ops] == [False]
    # Kim's message sent back as context (a lagging client history) stays out of Sam's next prompt.
    again = await service.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=turn))
    assert again.ticket and "9931" not in json.dumps([m.content for m in again.prompt])
    assert "9931" not in await service.pool.fetchval(
        "SELECT body FROM evaluation_tickets WHERE agent_id = $1 ORDER BY created_at DESC LIMIT 1", UUID(sam.agent_id)
    )
    learned = await complete(service, sam, again, reply("works nights at a bakery"))  # it shows no deleted message
    assert [o.rejected for o in learned.results[0].ops] == [False]
    assert sorted(f.claim for f in await facts_of(service, sam)) == ["greets the room", "works nights at a bakery"]


async def test_a_deletion_is_one_audit_line_with_its_counts(
    service: Service, llm: ScriptedLLM, caplog: pytest.LogCaptureFixture
) -> None:
    person = Person()
    said = await learn(service, llm, person, "I keep bees on the roof", add_durable("keeps bees", "preference"))
    caplog.set_level("INFO", logger="factmemory.audit")

    await service.stub.ForgetMessages(forget(person, said))
    with pytest.raises(grpc.aio.AioRpcError):
        await service.stub.ForgetMessages(forget(person, "reviewer:x"))

    lines = [r for r in caplog.records if r.name == "factmemory.audit"]
    assert [(r.action, r.result) for r in lines] == [  # type: ignore[attr-defined]
        ("forget_messages", "ok"),
        ("forget_messages", "invalid_input"),
    ]
    first = lines[0]
    assert (first.agent_id, first.entity_id) == (person.agent_id, person.entity_id)  # type: ignore[attr-defined]
    assert (first.message_ids, first.messages_forgotten, first.facts_deleted) == ("1", "1", "1")  # type: ignore[attr-defined]
