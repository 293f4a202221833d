"""Shared facts on a real Citus cluster (`./dev citus`), distributed by person: a subject's id is refused as a
person's (turn_start reads the reference table shared_subjects on the person's shard), and a forgotten teacher's
words leave the shared subjects, other people's stored results and open tickets (statements across shards)."""

from __future__ import annotations

from uuid import uuid4

import grpc
import pytest

from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service
from tests.support.fm import change
from tests.support.llm_stub import ScriptedLLM
from tests.test_shared import World, says_shared, teach

TAG = uuid4().hex[:8]  # the words of this run only: the cluster's database outlives a test


async def test_shared_subjects_refusal_and_a_teachers_erasure_on_the_cluster(
    citus_service: Service, llm: ScriptedLLM
) -> None:
    service, world = citus_service, World()
    ada, ben = world.person("Ada"), world.person("Ben")
    claim = f"the hackathon {TAG} moved to Friday"
    taught = world.says(ada, f"Heads up: {claim}", "ADMIN")
    await says_shared(service, llm, taught, claim)
    eve = world.person("Eve")
    eve.entity_id = world.subject()
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await service.stub.Evaluate(eve.evaluate("our wallet changed"))
    assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    disputed = world.says(ben, "no, it is on Saturday", "NONE")
    await teach(service, llm, disputed, change("contradict", "SD1", "Saturday", proposed_claim="on Saturday"))
    prepared = await service.stub.PrepareEvaluation(
        pb.PrepareEvaluationRequest(single=world.says(ben, "when is the hackathon?", "NONE"))
    )
    assert claim in "\n".join(m.content for m in prepared.prompt)

    forgot = await service.stub.ForgetEntity(pb.ForgetEntityRequest(agent_id=world.agent_id, entity_id=ada.entity_id))
    assert forgot.facts_deleted == 1
    found = await service.pool.fetch(
        "SELECT 'evaluations' AS t FROM evaluations WHERE strpos(result::text, $1) > 0"
        " UNION ALL SELECT 'tickets' FROM evaluation_tickets WHERE strpos(body, $1) > 0"
        " UNION ALL SELECT 'history' FROM fact_history h WHERE strpos(h::text, $1) > 0",
        claim,
    )
    assert not found, found
