"""Review, correction and audit (issue 13), end to end: real gRPC, real PostgreSQL + pgvector, scripted LLM."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

import grpc
import pytest
from google.protobuf.json_format import MessageToDict

from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service
from tests.support.fm import NOW, Person, add_durable, change, days_ago, facts_reply, new_id
from tests.support.llm_stub import Reply, ScriptedLLM

ALICE = (("x-factmemory-reviewer", "alice@example.org"),)


async def learn(
    service: Service,
    llm: ScriptedLLM,
    person: Person,
    text: str,
    *ops: dict[str, object],
    message_id: str | None = None,
    when: datetime = NOW,
) -> pb.EvaluateResponse:
    llm.on(text, Reply(facts_reply(*ops)))
    response: pb.EvaluateResponse = await service.stub.Evaluate(person.evaluate(text, when, message_id))
    return response


async def claims(service: Service, person: Person) -> set[str]:
    return {f.claim for f in (await service.stub.ListFacts(person.list_facts())).facts}


async def get_fact(service: Service, person: Person, fact_id: str) -> pb.GetFactResponse:
    response: pb.GetFactResponse = await service.stub.GetFact(
        pb.GetFactRequest(agent_id=person.agent_id, entity_id=person.entity_id, fact_id=fact_id)
    )
    return response


def actions(response: pb.GetFactResponse) -> list[str]:
    return [pb.HistoryAction.Name(h.action).removeprefix("HISTORY_ACTION_").lower() for h in response.history]


async def resolve(
    service: Service, person: Person, candidate_id: str, resolution: pb.Resolution
) -> pb.ResolveCandidateResponse:
    response: pb.ResolveCandidateResponse = await service.stub.ResolveCandidate(
        pb.ResolveCandidateRequest(
            agent_id=person.agent_id, entity_id=person.entity_id, candidate_id=candidate_id, resolution=resolution
        ),
        metadata=ALICE,
    )
    return response


async def code_of(call: Any) -> grpc.StatusCode:
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await call
    code: grpc.StatusCode = error.value.code()
    return code


async def berlin_then_tokyo(
    service: Service, llm: ScriptedLLM, person: Person, message_id: str | None = None, when: datetime = NOW
) -> tuple[str, str]:
    """A stored 'lives in Berlin' and a pending contradiction; returns (fact id, candidate id)."""
    first = await learn(
        service,
        llm,
        person,
        "I live in Berlin",
        add_durable("lives in Berlin", "identity"),
        message_id=message_id,
        when=when,
    )
    second = await learn(
        service,
        llm,
        person,
        "actually I moved to Tokyo",
        change("contradict", "D1", "moved", "lives in Tokyo"),
        when=when,
    )
    return first.ops[0].fact.id, second.ops[0].candidate_id


# --- 2. history -----------------------------------------------------------------------------------------------


async def test_history_records_every_change_with_actor_and_values(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    message_id = new_id()
    fact_id, candidate_id = await berlin_then_tokyo(service, llm, person, message_id)
    await resolve(service, person, candidate_id, pb.RESOLUTION_ACCEPT)
    response = await get_fact(service, person, fact_id)
    assert actions(response) == ["created", "contradicted", "candidate_accepted"]
    created, contradicted, accepted = response.history
    assert created.actor == f"message:{message_id}"
    assert not created.HasField("before") and MessageToDict(created.after)["claim"] == "lives in Berlin"
    assert "lives in Tokyo" in contradicted.reason and contradicted.actor.startswith("message:")
    assert accepted.actor == "reviewer:alice@example.org"
    assert MessageToDict(accepted.before)["claim"] == "lives in Berlin"
    assert MessageToDict(accepted.after)["claim"] == "lives in Tokyo"
    assert response.fact.claim == "lives in Tokyo"


async def test_strengthen_and_decay_are_recorded(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    added = await learn(service, llm, person, "I love jazz", add_durable("loves jazz", "preference"))
    await learn(service, llm, person, "jazz again", change("strengthen", "D1"))
    await learn(service, llm, person, "jazz meh", change("decay", "D1"))
    response = await get_fact(service, person, added.ops[0].fact.id)
    assert actions(response) == ["created", "strengthened", "decayed"]
    after = [MessageToDict(h.after)["confidence"] for h in response.history]
    assert after[1] > after[0] > after[2]


async def test_export_includes_history_and_forget_erases_it(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await berlin_then_tokyo(service, llm, person)
    scope: dict[str, Any] = {"agent_id": person.agent_id, "entity_id": person.entity_id}
    exported = (await service.stub.ExportEntity(pb.ExportEntityRequest(**scope))).json
    assert '"action": "contradicted"' in exported and '"action": "created"' in exported
    await service.stub.ForgetEntity(pb.ForgetEntityRequest(**scope))
    async with service.pool.acquire() as conn:
        left = await conn.fetchval(
            "SELECT count(*) FROM fact_history WHERE agent_id = $1 AND entity_id = $2",
            UUID(person.agent_id),
            UUID(person.entity_id),
        )
        names = await conn.fetchval(
            "SELECT count(*) FROM entities WHERE agent_id = $1 AND entity_id = $2",
            UUID(person.agent_id),
            UUID(person.entity_id),
        )
    assert left == 0 and names == 0


# --- 1. edits -------------------------------------------------------------------------------------------------


async def test_add_update_delete_by_hand(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    scope: dict[str, Any] = {"agent_id": person.agent_id, "entity_id": person.entity_id}
    added = (
        await service.stub.AddFact(
            pb.AddFactRequest(**scope, kind=pb.KIND_DURABLE, category="health", claim="allergic to penicillin"),
            metadata=ALICE,
        )
    ).fact
    assert added.verification_status == pb.VERIFICATION_STATUS_CONFIRMED
    provided = await service.stub.Provide(person.provide("which medicine can I take?"))
    assert "allergic to penicillin" in provided.text
    updated = (
        await service.stub.UpdateFact(
            pb.UpdateFactRequest(**scope, fact_id=added.id, claim="allergic to amoxicillin", confidence=0.95),
            metadata=ALICE,
        )
    ).fact
    assert updated.claim == "allergic to amoxicillin" and list(updated.previous_claims) == ["allergic to penicillin"]
    async with service.pool.acquire() as conn:
        distance = await conn.fetchval(
            "SELECT embedding <=> $2 FROM facts WHERE id = $1",
            UUID(added.id),
            (await service.deps.embedder.passages(["allergic to amoxicillin"]))[0],
        )
    assert distance < 1e-3  # re-embedded with the new claim
    await service.stub.DeleteFact(pb.DeleteFactRequest(**scope, fact_id=added.id), metadata=ALICE)
    assert await claims(service, person) == set()
    history = await get_fact(service, person, added.id)
    assert not history.HasField("fact")
    assert actions(history) == ["created", "edited", "deleted"]
    assert {h.actor for h in history.history} == {"reviewer:alice@example.org"}


async def test_edits_validate_their_input(service: Service) -> None:
    person = Person()
    scope: dict[str, Any] = {"agent_id": person.agent_id, "entity_id": person.entity_id}
    bad = [
        service.stub.AddFact(pb.AddFactRequest(**scope, kind=pb.KIND_DURABLE, category="feeling", claim="x")),
        service.stub.AddFact(pb.AddFactRequest(**scope, kind=pb.KIND_UNSPECIFIED, category="health", claim="x")),
        service.stub.AddFact(pb.AddFactRequest(**scope, kind=pb.KIND_DURABLE, category="health", claim="  ")),
        service.stub.AddFact(
            pb.AddFactRequest(**scope, kind=pb.KIND_DURABLE, category="health", claim="x", confidence=1.5)
        ),
        service.stub.UpdateFact(pb.UpdateFactRequest(**scope, fact_id=person.entity_id)),
        service.stub.GetFact(pb.GetFactRequest(**scope, fact_id="not-a-uuid")),
    ]
    for call in bad:
        assert await code_of(call) == grpc.StatusCode.INVALID_ARGUMENT


async def test_ids_of_another_scope_are_not_found(service: Service, llm: ScriptedLLM) -> None:
    alice = Person("Alice")
    fact_id, candidate_id = await berlin_then_tokyo(service, llm, alice)
    same_agent = Person("Mallory", agent_id=alice.agent_id)
    other_agent = Person("Eve")
    other_agent.entity_id = alice.entity_id
    for intruder in (same_agent, other_agent):
        scope: dict[str, Any] = {"agent_id": intruder.agent_id, "entity_id": intruder.entity_id}
        calls = [
            service.stub.GetFact(pb.GetFactRequest(**scope, fact_id=fact_id)),
            service.stub.UpdateFact(pb.UpdateFactRequest(**scope, fact_id=fact_id, claim="lives in Paris")),
            service.stub.DeleteFact(pb.DeleteFactRequest(**scope, fact_id=fact_id)),
            service.stub.ResolveCandidate(
                pb.ResolveCandidateRequest(**scope, candidate_id=candidate_id, resolution=pb.RESOLUTION_KEEP_BOTH)
            ),
        ]
        for call in calls:
            assert await code_of(call) == grpc.StatusCode.NOT_FOUND
        queue = await service.stub.ListCandidates(
            pb.ListCandidatesRequest(agent_id=intruder.agent_id, entity_id=intruder.entity_id)
        )
        assert list(queue.candidates) == []
    other_queue = await service.stub.ListCandidates(pb.ListCandidatesRequest(agent_id=other_agent.agent_id))
    assert list(other_queue.candidates) == []
    assert await claims(service, alice) == {"lives in Berlin"}
    assert actions(await get_fact(service, alice, fact_id)) == ["created", "contradicted"]


# --- 3. the review queue and the entity list ------------------------------------------------------------------


async def test_agent_wide_queue_is_oldest_first_filtered_and_paged(service: Service, llm: ScriptedLLM) -> None:
    agent = Person().agent_id
    people = [Person(name, agent_id=agent) for name in ("Ann", "Bob", "Cy")]
    expected: list[Any] = []
    for days, person in zip((9, 3, 6), people, strict=True):  # not in id order, nor in call order
        expected.append((days, (await berlin_then_tokyo(service, llm, person, when=days_ago(days)))[1]))
    expected = [candidate for _, candidate in sorted(expected, reverse=True)]
    await learn(service, llm, people[0], "I love coffee", add_durable("loves coffee", "preference"))
    conflict = await learn(service, llm, people[0], "coffee is awful", add_durable("hates coffee", "preference"))
    expected.append(conflict.ops[0].candidate_id)
    seen: list[str] = []
    token = ""
    while True:
        page = await service.stub.ListCandidates(
            pb.ListCandidatesRequest(agent_id=agent, page_size=2, page_token=token)
        )
        assert len(page.candidates) <= 2
        seen.extend(c.id for c in page.candidates)
        token = page.next_page_token
        if not token:
            break
    assert seen == expected
    only_dedup = await service.stub.ListCandidates(
        pb.ListCandidatesRequest(agent_id=agent, source=pb.CANDIDATE_SOURCE_DEDUP_CONFLICT)
    )
    assert [c.id for c in only_dedup.candidates] == [conflict.ops[0].candidate_id]
    await resolve(service, people[2], expected[1], pb.RESOLUTION_REJECT)
    rejected = await service.stub.ListCandidates(
        pb.ListCandidatesRequest(agent_id=agent, status=pb.CANDIDATE_STATUS_REJECTED)
    )
    assert [(c.id, c.resolution, c.resolved_by) for c in rejected.candidates] == [
        (expected[1], pb.RESOLUTION_REJECT, "reviewer:alice@example.org")
    ]
    pending = await service.stub.ListCandidates(pb.ListCandidatesRequest(agent_id=agent))
    assert expected[1] not in [c.id for c in pending.candidates] and len(pending.candidates) == 3
    everything = await service.stub.ListCandidates(pb.ListCandidatesRequest(agent_id=agent, any_status=True))
    assert len(everything.candidates) == 4
    assert (
        await code_of(service.stub.ListCandidates(pb.ListCandidatesRequest(agent_id=agent, page_token="garbage")))
        == grpc.StatusCode.INVALID_ARGUMENT
    )


async def test_entities_list_names_counts_and_pages(service: Service, llm: ScriptedLLM) -> None:
    agent = Person().agent_id
    ann, bob = Person("Ann Lee", agent_id=agent), Person("Bob", agent_id=agent)
    await berlin_then_tokyo(service, llm, ann)
    await learn(service, llm, bob, "I'm tired", {"op": "add_current", "claim": "tired", "category": "feeling"})
    listed = await service.stub.ListEntities(pb.ListEntitiesRequest(agent_id=agent))
    by_id = {e.entity_id: e for e in listed.entities}
    assert set(by_id) == {ann.entity_id, bob.entity_id}
    assert (by_id[ann.entity_id].name, by_id[ann.entity_id].durable_facts, by_id[ann.entity_id].pending_candidates) == (
        "Ann Lee",
        1,
        1,
    )
    assert (by_id[bob.entity_id].current_facts, by_id[bob.entity_id].pending_candidates) == (1, 0)
    first = await service.stub.ListEntities(pb.ListEntitiesRequest(agent_id=agent, page_size=1))
    second = await service.stub.ListEntities(
        pb.ListEntitiesRequest(agent_id=agent, page_size=1, page_token=first.next_page_token)
    )
    assert first.next_page_token and not second.next_page_token
    assert [first.entities[0].entity_id, second.entities[0].entity_id] == [e.entity_id for e in listed.entities]
    by_name = await service.stub.ListEntities(pb.ListEntitiesRequest(agent_id=agent, query="ann"))
    assert [e.entity_id for e in by_name.entities] == [ann.entity_id]
    by_prefix = await service.stub.ListEntities(pb.ListEntitiesRequest(agent_id=agent, query=bob.entity_id[:8]))
    assert [e.entity_id for e in by_prefix.entities] == [bob.entity_id]
    wildcard = await service.stub.ListEntities(pb.ListEntitiesRequest(agent_id=agent, query="%"))
    assert list(wildcard.entities) == []
    elsewhere = await service.stub.ListEntities(pb.ListEntitiesRequest(agent_id=Person().agent_id))
    assert list(elsewhere.entities) == []


# --- 4. resolutions -------------------------------------------------------------------------------------------


async def test_contradiction_kept_as_both(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    fact_id, candidate_id = await berlin_then_tokyo(service, llm, person)
    resolved = await resolve(service, person, candidate_id, pb.RESOLUTION_KEEP_BOTH)
    assert resolved.candidate.status == pb.CANDIDATE_STATUS_ACCEPTED
    assert resolved.fact.claim == "lives in Tokyo" and resolved.fact.id != fact_id
    assert await claims(service, person) == {"lives in Berlin", "lives in Tokyo"}
    assert actions(await get_fact(service, person, fact_id)) == ["created", "contradicted", "kept_both"]


async def test_contradiction_rejected_is_one_history_entry(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    fact_id, candidate_id = await berlin_then_tokyo(service, llm, person)
    resolved = await resolve(service, person, candidate_id, pb.RESOLUTION_REJECT)
    assert resolved.fact.claim == "lives in Berlin" and resolved.candidate.status == pb.CANDIDATE_STATUS_REJECTED
    assert actions(await get_fact(service, person, fact_id)) == ["created", "contradicted", "candidate_rejected"]
    assert (
        await code_of(
            service.stub.ResolveCandidate(
                pb.ResolveCandidateRequest(
                    agent_id=person.agent_id,
                    entity_id=person.entity_id,
                    candidate_id=candidate_id,
                    resolution=pb.RESOLUTION_ACCEPT,
                )
            )
        )
        == grpc.StatusCode.FAILED_PRECONDITION
    )


async def coffee_conflict(service: Service, llm: ScriptedLLM, person: Person) -> tuple[str, str, str]:
    """(old fact id, new fact id, candidate id) of 'loves coffee' vs 'hates coffee'."""
    old = await learn(service, llm, person, "I love coffee", add_durable("loves coffee", "preference"))
    new = await learn(service, llm, person, "coffee is awful", add_durable("hates coffee", "preference"))
    return old.ops[0].fact.id, new.ops[0].fact.id, new.ops[0].candidate_id


@pytest.mark.parametrize(
    ("resolution", "left", "old_action"),
    [
        (pb.RESOLUTION_KEEP_NEW, {"hates coffee"}, "candidate_accepted"),
        (pb.RESOLUTION_KEEP_OLD, {"loves coffee"}, "candidate_rejected"),
        (pb.RESOLUTION_MERGE, {"hates coffee"}, "merged"),
        (pb.RESOLUTION_KEEP_BOTH, {"loves coffee", "hates coffee"}, "kept_both"),
    ],
    ids=["keep_new", "keep_old", "merge", "keep_both"],
)
async def test_dedup_conflict_resolutions(
    service: Service, llm: ScriptedLLM, resolution: pb.Resolution, left: set[str], old_action: str
) -> None:
    person = Person()
    old_id, new_id, candidate_id = await coffee_conflict(service, llm, person)
    await resolve(service, person, candidate_id, resolution)
    assert await claims(service, person) == left
    old_history = actions(await get_fact(service, person, old_id))
    assert old_history[0] == "created" and old_history[1] == "contradicted"
    assert old_history[2:] == [old_action]
    new_history = actions(await get_fact(service, person, new_id))
    assert len(new_history) == 2  # created, then exactly one entry for the resolution


async def test_kept_both_are_never_flagged_against_each_other_again(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    old_id, new_id, candidate_id = await coffee_conflict(service, llm, person)
    await resolve(service, person, candidate_id, pb.RESOLUTION_KEEP_BOTH)
    async with service.store.writing(UUID(person.agent_id), UUID(person.entity_id)) as turn:
        again = await turn.insert_candidate(
            UUID(old_id), "hates coffee", "again", "dedup_conflict", "m", NOW, UUID(new_id)
        )
        other = await turn.insert_candidate(UUID(old_id), "adores tea", "other", "dedup_conflict", "m", NOW, None)
    assert again is None and other is not None


async def test_legacy_decision_reject_of_a_dedup_conflict_drops_the_new_fact(
    service: Service, llm: ScriptedLLM
) -> None:
    person = Person()
    _, _, candidate_id = await coffee_conflict(service, llm, person)
    await service.stub.ResolveCandidate(
        pb.ResolveCandidateRequest(
            agent_id=person.agent_id, entity_id=person.entity_id, candidate_id=candidate_id, decision=pb.DECISION_REJECT
        )
    )
    assert await claims(service, person) == {"loves coffee"}


async def test_resolution_that_does_not_apply_is_invalid(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    _, candidate_id = await berlin_then_tokyo(service, llm, person)
    assert (
        await code_of(resolve(service, person, candidate_id, pb.RESOLUTION_MERGE)) == grpc.StatusCode.INVALID_ARGUMENT
    )
    assert await claims(service, person) == {"lives in Berlin"}


# --- 5. disputed facts in the provider ------------------------------------------------------------------------


async def test_provider_marks_a_disputed_fact_until_resolved(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    _, candidate_id = await berlin_then_tokyo(service, llm, person)
    provided = await service.stub.Provide(person.provide("where do I live?"))
    assert (
        '- [durable.identity] lives in Berlin (may have changed: "lives in Tokyo", unconfirmed)'
        in provided.text.splitlines()
    )
    assert provided.durable[0].fact.disputed_by == "lives in Tokyo"
    await resolve(service, person, candidate_id, pb.RESOLUTION_REJECT)
    after = await service.stub.Provide(person.provide("where do I live?"))
    assert "may have changed" not in after.text and after.durable[0].fact.disputed_by == ""


# --- 7. imported facts are reclassified on first use ------------------------------------------------------------


async def test_a_contradicted_import_takes_the_category_and_kind_the_model_names(
    service: Service, llm: ScriptedLLM
) -> None:
    from factmemory.domain.models import LegacyFact
    from factmemory.usecases.imports import import_facts

    person = Person()
    legacy = LegacyFact(
        source_id="eliza-1",
        agent_id=UUID(person.agent_id),
        entity_id=UUID(person.entity_id),
        text="stressed about the move",
        created_at=NOW,
    )
    report = await import_facts(service.deps, [legacy], "test")
    assert report.imported == 1
    response = await learn(
        service,
        llm,
        person,
        "the move went fine, I'm relaxed now",
        {
            "op": "contradict",
            "fact": "D1",
            "proposed_claim": "relaxed after the move",
            "reason": "move done",
            "category": "feeling",
        },
    )
    op = response.ops[0]
    assert op.candidate_id and op.fact.kind == pb.KIND_CURRENT and op.fact.category == "feeling"
    assert actions(await get_fact(service, person, op.fact.id)) == ["imported", "reclassified", "contradicted"]
    # A category on a fact that is not uncategorized is ignored.
    again = await learn(service, llm, person, "still relaxed", change("strengthen", "C1") | {"category": "goal"})
    assert again.ops[0].fact.category == "feeling"
