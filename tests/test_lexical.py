"""Lexical evidence weighed by the person's own facts: the language layer's terms stored with each claim (migrations
0009, 0055), the person's term statistics and Provide's candidate pool (store.candidates), BM25 in the ranking."""

from __future__ import annotations

import uuid

from factmemory.domain import bm25
from factmemory.domain.language import content_terms
from factmemory.domain.models import ChatMessage, ProvideInput
from factmemory.ports import Pool
from factmemory.usecases.provide import provide
from tests.conftest import Service
from tests.support.fm import NOW, Person, add_durable
from tests.support.llm_stub import ScriptedLLM
from tests.test_forget import forget
from tests.test_service import learn

DISHES = ("risotto", "lasagne", "gnocchi", "polenta", "focaccia", "ravioli", "minestrone", "tortellini")
STEMS = "SELECT lexeme, facts FROM entity_lexemes WHERE agent_id = $1 AND entity_id = $2"


async def counts(service: Service, person: Person) -> dict[str, int]:
    rows = await service.pool.fetch(STEMS, uuid.UUID(person.agent_id), uuid.UUID(person.entity_id))
    return {r["lexeme"]: r["facts"] for r in rows}


async def inez(service: Service, llm: ScriptedLLM) -> Person:
    """Ines: every fact names her; one of them shares a rare word ("bake") with the questions below."""
    person = Person("Ines")
    for n, dish in enumerate(DISHES):
        await learn(service, llm, person, f"dish {n}", add_durable(f"Ines cooks {dish} on Sundays", "preference"))
    await learn(service, llm, person, "bread", add_durable("Ines baked sourdough for the neighbours", "life_event"))
    return person


async def test_stems_are_counted_over_the_person_s_live_facts(service: Service, llm: ScriptedLLM) -> None:
    person = await inez(service, llm)
    stems = await counts(service, person)
    assert stems[""] == 9 and stems["ine"] == 9  # every fact names her (Snowball English stems "Ines" to "ine")
    assert stems["cook"] == 8 and stems["bake"] == 1  # "cooks" and "baked" stemmed
    assert "the" not in stems and "on" not in stems  # stop words are not stems
    scope = (uuid.UUID(person.agent_id), uuid.UUID(person.entity_id))
    bump = "UPDATE facts SET confidence = 0.9 WHERE agent_id = $1 AND entity_id = $2"
    await service.pool.execute(bump, *scope)
    assert await counts(service, person) == stems  # an update that changes no claim counts nothing
    archive = "UPDATE facts SET archived_at = now() WHERE agent_id = $1 AND entity_id = $2 AND claim LIKE '%baked%'"
    await service.pool.execute(archive, *scope)
    after = await counts(service, person)
    assert after[""] == 8 and "bake" not in after and after["cook"] == 8  # archived facts do not count
    await service.stub.ForgetEntity(forget(person))
    assert await counts(service, person) == {}  # a forgotten person leaves no word counts behind


async def candidates(service: Service, person: Person, text: str, pool: int) -> Pool:
    vector = (await service.deps.embedder.queries([text]))[0]
    agent, entity = uuid.UUID(person.agent_id), uuid.UUID(person.entity_id)
    return await service.provide.provide_pool(agent, entity, vector, content_terms(text), pool, 8, 24)


async def test_the_stored_terms_are_the_language_layer_s(service: Service, llm: ScriptedLLM) -> None:
    person = await inez(service, llm)
    rows = await service.pool.fetch(
        "SELECT claim, lexemes, source_terms FROM facts WHERE agent_id = $1", uuid.UUID(person.agent_id)
    )
    # the claim's terms, then its message's that the claim lacks ("dish 3", "bread": migration 0072)
    assert rows and all(list(r["lexemes"]) == [*content_terms(r["claim"]), *r["source_terms"]] for r in rows)
    assert all(r["source_terms"] and not set(r["source_terms"]) & set(content_terms(r["claim"])) for r in rows)


async def test_a_word_every_fact_shares_weighs_nothing(service: Service, llm: ScriptedLLM) -> None:
    person = await inez(service, llm)
    question = "What did Ines bake?"
    found = await candidates(service, person, question, 20)
    assert found.stats.facts == 9 and found.stats.df == {"ine": 9, "bake": 1}
    lexical = dict(
        zip(
            [s.fact.claim for s in found.found],
            bm25.scores(content_terms(question), found.terms, found.stats),
            strict=True,
        )
    )
    assert lexical["Ines baked sourdough for the neighbours"] > 1.0  # "bake": in 1 of her 9 facts
    assert all(v < 0.2 for claim, v in lexical.items() if "baked" not in claim)  # "Ines" alone: ~nothing


async def test_a_rare_word_brings_its_fact_into_the_pool(service: Service, llm: ScriptedLLM) -> None:
    person = await inez(service, llm)
    question = "Tell me about the loaves Ines will bake for the street party, with risotto and lasagne"
    vector = (await service.deps.embedder.queries([question]))[0]
    agent, entity = uuid.UUID(person.agent_id), uuid.UUID(person.entity_id)
    nearest = await service.store.nearest(agent, entity, vector, 1, 1)
    found = await candidates(service, person, question, 1)
    baked = "Ines baked sourdough for the neighbours"
    assert baked not in [s.fact.claim for s in nearest]
    assert baked in [s.fact.claim for s in found.found]


async def test_provide_ranks_by_the_rare_word_not_the_shared_name(service: Service, llm: ScriptedLLM) -> None:
    person = await inez(service, llm)
    question = "Pasta, pizza, tiramisu, cannoli, carbonara, arancini and panna cotta tonight. Did Ines bake?"
    baked = "Ines baked sourdough for the neighbours"
    request = ProvideInput(
        agent_id=uuid.UUID(person.agent_id),
        entity_id=uuid.UUID(person.entity_id),
        room_id=None,
        now=NOW,
        recent_messages=(ChatMessage(id="q", text=question, created_at=NOW),),
        durable_limit=2,
        current_limit=0,
    )
    assert baked in [s.fact.claim for s in (await provide(service.deps, request)).durable]
    vector = (await service.deps.embedder.queries([question]))[0]
    nearest = await service.store.nearest(uuid.UUID(person.agent_id), uuid.UUID(person.entity_id), vector, 2, 0)
    assert baked not in [s.fact.claim for s in nearest]  # the vector alone ranks it below two others
