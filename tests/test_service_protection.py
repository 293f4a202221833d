"""A confirmed fact, and any health fact, is never deleted by model decays alone (issue 25): review decides.

Real gRPC, real PostgreSQL + pgvector, the real local embedder, the scripted LLM.
"""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

import pytest

from factmemory.domain.models import Fact, Kind, Verification
from factmemory.domain.protection import decay_needs_review
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service
from tests.support.fm import Person, add_durable, change, facts_of
from tests.support.llm_stub import ScriptedLLM
from tests.test_service_duplicates import learn


def fact(category: str, confidence: float, verification: Verification = Verification.SELF_REPORTED) -> Fact:
    at = datetime(2026, 11, 25, tzinfo=UTC)
    return Fact(
        id=UUID(int=1),
        agent_id=UUID(int=2),
        entity_id=UUID(int=3),
        kind=Kind.DURABLE,
        category=category,
        claim="x",
        confidence=confidence,
        verification_status=verification,
        created_at=at,
        last_confirmed_at=at,
    )


def test_only_a_decay_that_crosses_the_floor_of_a_protected_fact_needs_review() -> None:
    assert decay_needs_review(fact("health", 0.25), 0.15, 0.2) == "health fact"
    assert decay_needs_review(fact("health", 0.4), 0.15, 0.2) is None  # lands on 0.25: still above the floor
    assert decay_needs_review(fact("identity", 0.25, Verification.CONFIRMED), 0.15, 0.2) == "confirmed"
    assert decay_needs_review(fact("identity", 0.25), 0.15, 0.2) is None


@pytest.mark.parametrize(
    ("op", "why"),
    [
        (add_durable("allergic to penicillin", "health"), "health fact"),
        (add_durable("lives in Lyon", "identity", "confirmed"), "confirmed"),
    ],
)
async def test_decays_stop_at_the_floor_and_ask_a_reviewer(
    service: Service, llm: ScriptedLLM, op: dict[str, object], why: str
) -> None:
    person = Person()
    await learn(service, llm, person, f"{why}: first", op)
    for i in range(3):  # 0.7 -> 0.55 -> 0.4 -> 0.25
        response = await learn(service, llm, person, f"{why}: decay {i}", change("decay", "D1", "not mentioned"))
        assert not response.ops[0].deleted and not response.ops[0].candidate_id
    fourth = await learn(service, llm, person, f"{why}: decay 3", change("decay", "D1", "not mentioned"))
    op4 = fourth.ops[0]
    assert not op4.deleted and op4.candidate_id and why in op4.reason
    [kept] = await facts_of(service, person)
    assert kept.confidence == pytest.approx(0.25)  # the decay was not applied
    [candidate] = (
        await service.stub.ListCandidates(
            pb.ListCandidatesRequest(
                agent_id=person.agent_id, entity_id=person.entity_id, source=pb.CANDIDATE_SOURCE_DECAY_FLOOR
            )
        )
    ).candidates
    assert candidate.fact.id == kept.id and candidate.status == pb.CANDIDATE_STATUS_PENDING
    scope = {"agent_id": person.agent_id, "entity_id": person.entity_id, "candidate_id": candidate.id}
    with pytest.raises(Exception, match="does not apply"):
        await service.stub.ResolveCandidate(pb.ResolveCandidateRequest(**scope, resolution=pb.RESOLUTION_MERGE))
    assert len(await facts_of(service, person)) == 1  # a bad resolution changes nothing
    await service.stub.ResolveCandidate(pb.ResolveCandidateRequest(**scope, resolution=pb.RESOLUTION_ACCEPT))
    assert await facts_of(service, person) == []
