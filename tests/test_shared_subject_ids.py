"""A shared subject's id (a world's, the agent-wide or a held one: derived from public values, domain/shared.py) is
refused wherever a person's id is expected, through the real gRPC service and the real store; the review RPCs keep
working on subjects."""

from __future__ import annotations

from uuid import UUID

import grpc
import pytest

from factmemory.domain.models import LegacyFact
from factmemory.domain.shared import agent_subject
from factmemory.usecases.imports import import_facts
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service
from tests.support.fm import NOW, Person, add_durable, facts_reply
from tests.support.llm_stub import Reply, ScriptedLLM
from tests.test_shared import HACKATHON, WALLET, World, says_shared, shared

REVIEWER = (("x-factmemory-reviewer", "alice@example.org"),)
NOT_A_PERSON = "is the id of a shared subject"


def posing_as(world: World, subject_id: str) -> Person:
    """A 'person' whose entity id is a shared subject's."""
    impostor = world.person("Eve")
    impostor.entity_id = subject_id
    return impostor


async def refused(call: object) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as raised:
        await call  # type: ignore[misc]
    assert raised.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert NOT_A_PERSON in (raised.value.details() or "")


async def facts_of(service: Service, world: World, subject_id: str) -> list[str]:
    listed = await service.stub.ListFacts(pb.ListFactsRequest(agent_id=world.agent_id, entity_id=subject_id))
    return [f.claim for f in listed.facts]


async def test_evaluate_provide_prepare_and_add_fact_refuse_a_subjects_id(service: Service, llm: ScriptedLLM) -> None:
    world = World()
    admin, member = world.person("Ada"), world.person("Ben")
    await says_shared(service, llm, world.says(admin, "Heads up: the hackathon moved to Friday", "ADMIN"), HACKATHON)
    await says_shared(service, llm, world.says(world.person("Mallory"), "the wallet is 0xABC", "NONE"), WALLET)
    agent_wide = str(agent_subject(UUID(world.agent_id)).subject_id)
    calls = len(llm.requests)
    llm.on("our wallet", Reply(facts_reply(shared(add_durable("the donation wallet is 0xEVE", "life_event")))))
    for subject in (world.subject(), world.held(), agent_wide):
        eve = posing_as(world, subject)
        # With the world on the request, and without it (a recorded subject, or the agent-wide one).
        await refused(service.stub.Evaluate(world.says(eve, "our wallet changed", "OWNER")))
        await refused(service.stub.Evaluate(eve.evaluate("our wallet changed")))
        await refused(service.stub.EvaluateBatch(eve.batch(eve.message("our wallet changed"))))
        await refused(service.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=eve.evaluate("our wallet"))))
        await refused(service.stub.Provide(world.asks(eve, "What is the wallet?")))
        await refused(service.stub.Provide(eve.provide("What is the wallet?")))
        await refused(
            service.stub.AddFact(
                pb.AddFactRequest(
                    agent_id=world.agent_id,
                    entity_id=subject,
                    kind=pb.KIND_DURABLE,
                    category="life_event",
                    claim="the donation wallet is 0xEVE",
                ),
                metadata=REVIEWER,
            )
        )
    assert len(llm.requests) == calls  # no model call was made
    assert await facts_of(service, world, world.subject()) == [HACKATHON]
    assert await facts_of(service, world, world.held()) == [WALLET]
    assert await facts_of(service, world, agent_wide) == []
    reply = await service.stub.Provide(world.asks(member, "What is the donation wallet?"))
    assert "0xEVE" not in reply.text

    # The review RPCs keep working on subjects.
    (held,) = (await service.stub.ListFacts(pb.ListFactsRequest(agent_id=world.agent_id, entity_id=world.held()))).facts
    await service.stub.DeleteFact(
        pb.DeleteFactRequest(agent_id=world.agent_id, entity_id=world.held(), fact_id=held.id), metadata=REVIEWER
    )
    exported = await service.stub.ExportEntity(
        pb.ExportEntityRequest(agent_id=world.agent_id, entity_id=world.subject())
    )
    assert HACKATHON in exported.json


async def test_an_import_naming_a_subject_is_refused_and_stores_nothing(service: Service, llm: ScriptedLLM) -> None:
    world = World()
    await says_shared(service, llm, world.says(world.person("Ada"), "the hackathon moved", "ADMIN"), HACKATHON)
    person = world.person("Ben")
    rows = [
        LegacyFact(
            source_id=f"row-{i}", agent_id=UUID(world.agent_id), entity_id=UUID(entity), text=text, created_at=NOW
        )
        for i, (entity, text) in enumerate(
            [(person.entity_id, "Works as a nurse"), (world.subject(), "the donation wallet is 0xEVE")]
        )
    ]
    with pytest.raises(Exception, match=NOT_A_PERSON):
        await import_facts(service.deps, rows, "test")
    assert await facts_of(service, world, world.subject()) == [HACKATHON]
    assert (await service.stub.ListFacts(person.list_facts())).facts == []


async def test_facts_stored_under_a_worlds_id_before_it_had_shared_facts_never_become_its(
    service: Service, llm: ScriptedLLM
) -> None:
    """A world never seen cannot be told apart from a person by its id alone: what a caller stores under it is kept
    out of every turn of the world, and erased when the world's first shared fact records the subject."""
    world = World()
    eve = posing_as(world, world.subject())
    llm.on("our wallet", Reply(facts_reply(add_durable("the donation wallet is 0xEVE", "life_event"))))
    await service.stub.Evaluate(eve.evaluate("our wallet is 0xEVE"))  # no world named: not known as a subject
    member = world.person("Ben")
    assert "0xEVE" not in (await service.stub.Provide(world.asks(member, "What is the donation wallet?"))).text

    await says_shared(service, llm, world.says(world.person("Ada"), "the hackathon moved", "ADMIN"), HACKATHON)
    assert await facts_of(service, world, world.subject()) == [HACKATHON]
    reply = await service.stub.Provide(world.asks(member, "What is the donation wallet?"))
    assert "0xEVE" not in reply.text
    # Now recorded, the id is refused as a person's.
    await refused(service.stub.Evaluate(eve.evaluate("our wallet is 0xEVE")))
