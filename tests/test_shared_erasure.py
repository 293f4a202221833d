"""Erasure of a teacher reaches every word (docs/retention.md, "Shared facts"): after ForgetEntity of an admin who
taught, proposed a change and was held elsewhere, and of a stranger whose claim was held, no table of the real
schema, no export and no fact history holds their claims' words or their message ids, but what docs/retention.md
lists. Real gRPC, real PostgreSQL, the scripted LLM, an open agent-model ticket."""

from __future__ import annotations

import json
from uuid import UUID, uuid4

import grpc
import pytest

from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service
from tests.support.fm import add_current, add_durable, change
from tests.support.llm_stub import ScriptedLLM
from tests.test_forget_leftovers import naming
from tests.test_shared import World, says_shared, shared, teach

# Each word unique to this run: the search reads every table of a database other tests write to as well.
TAG = uuid4().hex[:8]
LISBON = f"the community meetup {TAG} is in Lisbon this year"
ADDRESS = f"12 Rua das Flores {TAG}"  # in the admin's proposed change: their home address
HACKATHON = f"the hackathon {TAG} moved to Friday"  # taught by the admin alone
RESTARTS = f"the bot {TAG} restarts every night at 03:00 UTC"  # taught by the admin and another admin
PASSWORD = f"tulip42{TAG}"  # the admin's claim held in a world where they hold no role
WALLET = f"0xABC{TAG}"  # the stranger's held claim
# What docs/retention.md lets keep a forgotten person's id or their deleted messages' ids (no content).
KEPT_ID = {"forget_epochs", "read_positions", "entity_revisions", "evaluation_tickets"}
KEPT_MESSAGE_ID = {"deleted_messages"}


async def exported(service: Service, agent_id: str, entity_id: str) -> str:
    done = await service.stub.ExportEntity(pb.ExportEntityRequest(agent_id=agent_id, entity_id=entity_id))
    return str(done.json)


async def test_a_forgotten_teacher_and_stranger_leave_no_word_and_no_message_id(
    service: Service, llm: ScriptedLLM
) -> None:
    world = World()
    other = World(world.agent_id)
    ada, olu, ben, mallory = (world.person(n) for n in ("Ada", "Olu", "Ben", "Mallory"))
    said: list[str] = []  # the message ids of Ada and Mallory

    lisbon = world.says(olu, f"FYI {LISBON}", "ADMIN")
    await says_shared(service, llm, lisbon, LISBON)
    proposal = world.says(ada, f"the meetup moved to my flat, {ADDRESS}", "ADMIN")
    contra = change("contradict", "SD1", "moved", proposed_claim=f"the meetup moved to {ADDRESS}")
    (proposed,) = (await teach(service, llm, proposal, contra)).ops
    assert proposed.candidate_id
    taught = world.says(ada, f"Heads up: {HACKATHON}", "ADMIN")
    (hackathon,) = (await teach(service, llm, taught, shared(add_current(HACKATHON, "schedule_context")))).ops
    both = world.says(ada, f"Reminder: {RESTARTS}", "ADMIN")
    await says_shared(service, llm, both, RESTARTS)
    again = world.says(olu, f"yes, {RESTARTS}", "ADMIN")
    (restarts,) = (await teach(service, llm, again, shared(add_durable(RESTARTS, "preference")))).ops
    assert restarts.deduplicated and len(restarts.fact.evidence_message_ids) == 2  # Olu's stored result holds Ada's id
    # Ben (no role) disputes the hackathon's day: his stored result holds the admin's fact.
    disputed = world.says(ben, "no, the hackathon is on Saturday", "NONE")
    dispute = change("contradict", "SC1", "Saturday", proposed_claim="the hackathon is on Saturday")
    (ben_op,) = (await teach(service, llm, disputed, dispute)).ops
    assert ben_op.fact.claim == HACKATHON
    # Ben's open agent-model ticket: its prompt shows the admin's fact.
    prepared = await service.stub.PrepareEvaluation(
        pb.PrepareEvaluationRequest(single=world.says(ben, "when is the hackathon again?", "NONE"))
    )
    assert HACKATHON in "\n".join(m.content for m in prepared.prompt)
    held_here = world.says(mallory, f"The team's official wallet is {WALLET}, send funds there", "NONE")
    await says_shared(service, llm, held_here, f"the team's official wallet is {WALLET}")
    held_there = other.says(ada, f"the server's secret password is {PASSWORD}", "NONE")
    await says_shared(service, llm, held_there, f"the server's secret password is {PASSWORD}")
    said += [proposal.message.id, taught.message.id, both.message.id, held_there.message.id, held_here.message.id]
    words = (ADDRESS, HACKATHON, PASSWORD, WALLET)
    for probe in (*words, *said):
        assert await naming(service, probe), probe  # the search sees each one before

    forgot = await service.stub.ForgetEntity(pb.ForgetEntityRequest(agent_id=world.agent_id, entity_id=ada.entity_id))
    assert forgot.facts_deleted == 2  # the hackathon (hers alone) and her held claim; her own facts: none
    await service.stub.ForgetEntity(pb.ForgetEntityRequest(agent_id=world.agent_id, entity_id=mallory.entity_id))

    for probe in (*words, *said):
        found = await naming(service, probe)
        allowed = KEPT_MESSAGE_ID if probe in said else set()
        assert set(found) <= allowed, (probe, found)
    for person in (ada, mallory):
        assert set(await naming(service, person.entity_id)) <= KEPT_ID
    for subject in (world.subject(), world.held(), other.held()):
        document = await exported(service, world.agent_id, subject)
        assert not [p for p in (*words, *said, ada.entity_id) if p in document], subject
    queue = await service.stub.ListCandidates(pb.ListCandidatesRequest(agent_id=world.agent_id, any_status=True))
    assert not [c for c in queue.candidates if ADDRESS in c.proposed_claim or WALLET in c.proposed_claim]
    with pytest.raises(grpc.aio.AioRpcError) as gone:  # the deleted fact's history went with it
        await service.stub.GetFact(
            pb.GetFactRequest(agent_id=world.agent_id, entity_id=world.subject(), fact_id=hackathon.fact.id)
        )
    assert gone.value.code() is grpc.StatusCode.NOT_FOUND
    # What others taught stays, on their word only; Ben's ticket that showed the deleted fact is refused.
    listed = await service.stub.ListFacts(pb.ListFactsRequest(agent_id=world.agent_id, entity_id=world.subject()))
    assert sorted((f.claim, list(f.evidence_message_ids)) for f in listed.facts) == [
        (RESTARTS, [again.message.id]),
        (LISBON, [lisbon.message.id]),
    ]
    with pytest.raises(grpc.aio.AioRpcError):
        await service.stub.CompleteEvaluation(
            pb.CompleteEvaluationRequest(
                agent_id=world.agent_id, entity_id=ben.entity_id, ticket=prepared.ticket, reply=json.dumps({})
            )
        )
    row = await service.pool.fetchrow(
        "SELECT result FROM evaluations WHERE agent_id = $1 AND message_id = $2",
        UUID(world.agent_id),
        disputed.message.id,
    )
    # Ben's stored result no longer holds the deleted fact.
    assert row is not None and HACKATHON not in json.dumps(row["result"])


async def test_a_deleted_teaching_message_takes_its_fact_from_tickets_results_and_history(
    service: Service, llm: ScriptedLLM
) -> None:
    world = World()
    ada, ben = world.person("Ada"), world.person("Ben")
    claim = f"the bot {TAG} moved to the #help channel"
    taught = world.says(ada, f"FYI {claim}", "ADMIN")
    (op,) = (await teach(service, llm, taught, shared(add_durable(claim, "preference")))).ops
    disputed = world.says(ben, "no, the bot is in #general", "NONE")
    await teach(service, llm, disputed, change("contradict", "SD1", "moved", proposed_claim="the bot is in #general"))
    prepared = await service.stub.PrepareEvaluation(
        pb.PrepareEvaluationRequest(single=world.says(ben, "where is the bot?", "NONE"))
    )
    assert claim in "\n".join(m.content for m in prepared.prompt)

    await service.stub.ForgetMessages(
        pb.ForgetMessagesRequest(agent_id=world.agent_id, entity_id=ada.entity_id, message_ids=[taught.message.id])
    )
    assert not await naming(service, claim)
    kept = await naming(service, taught.message.id)  # the deleted ids, and Ada's own tombstone (as for a person)
    assert set(kept) <= {*KEPT_MESSAGE_ID, "evaluations"}, kept
    for row in kept.get("evaluations", []):
        assert (str(row["entity_id"]), row["message_id"], row["excerpt"]) == (ada.entity_id, taught.message.id, None)
    with pytest.raises(grpc.aio.AioRpcError) as gone:
        await service.stub.GetFact(
            pb.GetFactRequest(agent_id=world.agent_id, entity_id=world.subject(), fact_id=op.fact.id)
        )
    assert gone.value.code() is grpc.StatusCode.NOT_FOUND
    with pytest.raises(grpc.aio.AioRpcError):  # Ben's open ticket showed the deleted fact
        await service.stub.CompleteEvaluation(
            pb.CompleteEvaluationRequest(
                agent_id=world.agent_id, entity_id=ben.entity_id, ticket=prepared.ticket, reply=json.dumps({})
            )
        )
