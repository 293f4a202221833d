"""Lexical evidence weighed by the person's own facts (migration 0009, store.lexical, Provide's default ranking)."""

from __future__ import annotations

import dataclasses
import uuid

from factmemory.domain.models import ChatMessage, ProvideInput
from factmemory.domain.ranking import Weights
from factmemory.ports import Hop
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
    assert stems[""] == 9 and stems["ine"] == 9  # every fact names her (english stems "Ines" to "ine")
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


async def test_a_word_every_fact_shares_weighs_nothing(service: Service, llm: ScriptedLLM) -> None:
    person = await inez(service, llm)
    vector = (await service.deps.embedder.queries(["What did Ines bake?"]))[0]
    found = await service.deps.store.lexical(
        uuid.UUID(person.agent_id), uuid.UUID(person.entity_id), vector, 2, 2, "What did Ines bake?", 8, 6
    )
    lexical = {s.fact.claim: s.lexical for s in found}
    assert lexical["Ines baked sourdough for the neighbours"] == 1  # "bake": all the weight the turn has
    assert all(v == 0 for claim, v in lexical.items() if "baked" not in claim)  # "Ines" alone: nothing


async def test_a_rare_word_brings_its_fact_into_the_pool(service: Service, llm: ScriptedLLM) -> None:
    person = await inez(service, llm)
    question = "Tell me about the loaves Ines will bake for the street party, with risotto and lasagne"
    vector = (await service.deps.embedder.queries([question]))[0]
    agent, entity = uuid.UUID(person.agent_id), uuid.UUID(person.entity_id)
    nearest = await service.deps.store.nearest(agent, entity, vector, 1, 1)
    found = await service.deps.store.lexical(agent, entity, vector, 1, 1, question, 8, 6)
    baked = "Ines baked sourdough for the neighbours"
    assert baked not in [s.fact.claim for s in nearest]
    assert baked in [s.fact.claim for s in found]


async def top(service: Service, person: Person, text: str, weights: Weights) -> list[str]:
    """Provide's two best durable facts with these weights."""
    deps = dataclasses.replace(service.deps, tuning=dataclasses.replace(service.deps.tuning, ranking=weights))
    request = ProvideInput(
        agent_id=uuid.UUID(person.agent_id),
        entity_id=uuid.UUID(person.entity_id),
        room_id=None,
        now=NOW,
        recent_messages=(ChatMessage(id="q", text=text, created_at=NOW),),
        durable_limit=2,
        current_limit=0,
    )
    return [s.fact.claim for s in (await provide(deps, request)).durable]


async def test_provide_ranks_by_the_rare_word_not_the_shared_name(service: Service, llm: ScriptedLLM) -> None:
    person = await inez(service, llm)
    question = "Pasta, pizza, tiramisu, cannoli, carbonara, arancini and panna cotta tonight. Did Ines bake?"
    baked = "Ines baked sourdough for the neighbours"
    assert baked in await top(service, person, question, Weights(lane=0, spill_below=0.0))
    assert baked not in await top(service, person, question, Weights(lexical=0.0, lane=0, spill_below=0.0))


async def test_a_second_fact_is_reached_through_the_rare_word_of_the_first(service: Service, llm: ScriptedLLM) -> None:
    person = await inez(service, llm)
    await learn(service, llm, person, "aunt", add_durable("Ines has an aunt called Radomir", "relationship"))
    await learn(service, llm, person, "race", add_durable("Radomir is training for an ironman", "relationship"))
    question = "What race is my aunt preparing for?"
    vector = (await service.deps.embedder.queries([question]))[0]
    agent, entity = uuid.UUID(person.agent_id), uuid.UUID(person.entity_id)
    found = await service.deps.store.lexical(agent, entity, vector, 1, 1, question, 8, 6, Hop(seeds=1))
    by_claim = {s.fact.claim: s for s in found}
    aunt, race = by_claim["Ines has an aunt called Radomir"], by_claim["Radomir is training for an ironman"]
    assert race.via == aunt.fact.id  # "Radomir": in 2 of the 11 facts, and not in the question
    alone = await service.deps.store.lexical(agent, entity, vector, 1, 1, question, 8, 6)
    assert all(s.via is None for s in alone)
