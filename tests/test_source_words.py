"""A fact is searched by what it says and by what the person said (migration 0072): the message's words the claim
lacks are in its terms, its search vector is the mean of the claim's and the message's; deleting the message and
changing the claim take both away (real gRPC, real PostgreSQL, the scripted LLM, the local embedder)."""

from __future__ import annotations

import uuid

from factmemory.domain.language import content_terms
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service
from tests.support.fm import Person, add_durable, facts_of
from tests.support.llm_stub import ScriptedLLM
from tests.test_forget_messages import forget, learn

CAMPING = "We spent the weekend by the lake and the kids loved roasting marshmallows by the fire"
CLAIM = "Sam went camping with the family"
OTHERS = (
    ("I work at the library downtown", "Sam works at a library"),
    ("I've been learning the cello since spring", "Sam is learning the cello"),
    ("My sister Ana lives in Porto", "Sam has a sister, Ana, who lives in Porto"),
    ("I run every morning before work", "Sam runs every morning"),
    ("I can't stand cilantro", "Sam dislikes cilantro"),
)
ROW = """
SELECT claim, lexemes, source_terms, search_half::text = embedding_half::text AS by_claim
  FROM facts WHERE agent_id = $1 AND entity_id = $2 AND claim = $3
"""
COUNT = "SELECT facts FROM entity_lexemes WHERE agent_id = $1 AND entity_id = $2 AND lexeme = $3"


def scope(person: Person) -> tuple[uuid.UUID, uuid.UUID]:
    return uuid.UUID(person.agent_id), uuid.UUID(person.entity_id)


async def sam(service: Service, llm: ScriptedLLM) -> tuple[Person, str]:
    person = Person("Sam")
    for text, claim in OTHERS:
        await learn(service, llm, person, text, add_durable(claim, "life_event"))
    camping = await learn(service, llm, person, CAMPING, add_durable(CLAIM, "life_event"))
    return person, camping


async def test_the_message_s_words_find_the_fact_its_claim_does_not_say(service: Service, llm: ScriptedLLM) -> None:
    person, _ = await sam(service, llm)
    row = await service.pool.fetchrow(ROW, *scope(person), CLAIM)
    assert row is not None and not row["by_claim"]  # searched by the mean of the claim's and the message's vectors
    assert {"marshmallow", "lake", "kid"} <= set(row["source_terms"])
    assert not set(row["source_terms"]) & set(content_terms(CLAIM))
    assert list(row["lexemes"]) == [*content_terms(CLAIM), *row["source_terms"]]
    assert await service.pool.fetchval(COUNT, *scope(person), "marshmallow") == 1

    provided = await service.stub.Provide(person.provide("do your kids like marshmallows?", total_limit=1))
    assert [s.fact.claim for s in provided.durable] == [CLAIM]  # no word of the question is in the claim


async def test_deleting_the_message_takes_its_words_from_a_fact_that_stays(service: Service, llm: ScriptedLLM) -> None:
    person, camping = await sam(service, llm)
    await learn(service, llm, person, "yes we went camping with the family again", add_durable(CLAIM, "life_event"))
    [fact] = [f for f in await facts_of(service, person) if f.claim == CLAIM]
    assert len(fact.evidence_message_ids) == 2  # said again: the fact stays when the first message goes

    done = await service.stub.ForgetMessages(forget(person, camping))

    assert done.facts_updated == 1 and done.facts_deleted == 0
    row = await service.pool.fetchrow(ROW, *scope(person), CLAIM)
    assert row is not None and row["by_claim"] and list(row["source_terms"]) == []
    assert list(row["lexemes"]) == list(content_terms(CLAIM))
    assert await service.pool.fetchval(COUNT, *scope(person), "marshmallow") is None  # nor in the person's counts
    provided = await service.stub.Provide(person.provide("do your kids like marshmallows?", total_limit=12))
    assert CLAIM in [s.fact.claim for s in provided.durable]  # still known, by its claim


async def test_a_changed_claim_is_searched_by_itself(service: Service, llm: ScriptedLLM) -> None:
    person, _ = await sam(service, llm)
    [fact] = [f for f in await facts_of(service, person) if f.claim == CLAIM]
    request = pb.UpdateFactRequest(
        agent_id=person.agent_id, entity_id=person.entity_id, fact_id=fact.id, claim="Sam went hiking with friends"
    )
    await service.stub.UpdateFact(request)
    row = await service.pool.fetchrow(ROW, *scope(person), "Sam went hiking with friends")
    assert row is not None and row["by_claim"] and list(row["source_terms"]) == []
    assert list(row["lexemes"]) == list(content_terms("Sam went hiking with friends"))
    assert await service.pool.fetchval(COUNT, *scope(person), "marshmallow") is None
