"""Provide's ranking through the real service: vector + BM25 candidates, the relevance lane, no duplicate lines,
the full-text fallback, and the design's time-weighting scenarios under the new formula."""

from __future__ import annotations

import dataclasses
import uuid
from datetime import UTC, datetime

import grpc
import pytest

from tests.conftest import Service
from tests.support.fm import Person, add_current, add_durable, days_ago
from tests.support.llm_stub import ScriptedLLM
from tests.test_reliability import BrokenEmbedder, serve_with
from tests.test_service import learn

FOODS = (
    "pasta with tomatoes",
    "basil pesto",
    "risotto",
    "lasagne",
    "gnocchi",
    "pizza margherita",
    "minestrone",
    "polenta",
    "focaccia",
    "ravioli",
    "tiramisu",
    "bruschetta",
    "carbonara",
    "arancini",
    "panna cotta",
    "ossobuco",
    "caponata",
    "saltimbocca",
    "cannoli",
    "frittata",
    "gelato",
    "parmigiana",
    "pappardelle",
    "tortellini",
    "calzone",
    "burrata",
    "orecchiette",
    "cacio e pepe",
)


async def test_a_rare_name_is_found_even_when_the_embedder_ranks_it_low(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await learn(service, llm, person, "foods", *(add_durable(f"loves cooking {f}", "preference") for f in FOODS))
    await learn(service, llm, person, "neighbour", add_durable("has a neighbour named Bertha", "relationship"))
    question = "I'm cooking pasta with tomatoes and basil tonight for Bertha"
    response = await service.stub.Provide(person.provide(question))
    assert "has a neighbour named Bertha" in [s.fact.claim for s in response.durable]
    vector = (await service.deps.embedder.queries([question]))[0]
    agent, entity = uuid.UUID(person.agent_id), uuid.UUID(person.entity_id)
    nearest = await service.store.nearest(agent, entity, vector, 6, 6)
    assert "has a neighbour named Bertha" not in [s.fact.claim for s in nearest]  # the vector alone misses it


async def test_an_old_but_asked_about_state_surfaces(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await learn(
        service,
        llm,
        person,
        "spring",
        add_current("training for the Lisbon half marathon", "working_on"),
        when=days_ago(120),
    )
    for n, claim in enumerate(
        (
            "feeling calm about work",
            "cooking dinner for friends",
            "tired after the gym",
            "planning a weekend in Porto",
            "reading a novel about sailors",
            "excited about the new flat",
            "painting the kitchen",
        )
    ):
        await learn(service, llm, person, f"now {n}", add_current(claim, "feeling"), when=days_ago(1))
    response = await service.stub.Provide(person.provide("What was I training for back in the spring?"))
    assert "training for the Lisbon half marathon" in [s.fact.claim for s in response.current]


async def test_a_30_day_old_current_fact_outranks_fresh_unrelated_ones(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await learn(
        service, llm, person, "old", add_current("anxious about the driving test", "feeling"), when=days_ago(30)
    )
    for n, claim in enumerate(
        (
            "cooking dinner for friends",
            "planning a weekend in Porto",
            "painting the kitchen",
            "reading a novel about sailors",
            "repairing a bicycle",
            "sorting old photos",
        )
    ):
        await learn(service, llm, person, f"fresh {n}", add_current(claim, "working_on"), when=days_ago(0.5))
    response = await service.stub.Provide(person.provide("I'm so nervous about my driving test", current_limit=3))
    claims = [s.fact.claim for s in response.current]
    assert claims[0] == "anxious about the driving test"


async def test_facts_the_rule_calls_the_same_take_one_line(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    # Write-time dedup compares within a category, so the same claim under two categories is stored twice.
    await learn(service, llm, person, "m1", add_durable("loves strong coffee", "preference"))
    await learn(
        service,
        llm,
        person,
        "m2",
        add_durable("loves strong coffee", "identity"),
        add_durable("hates strong coffee after noon", "preference"),
    )
    response = await service.stub.Provide(person.provide("coffee?"))
    assert response.text.count("loves strong coffee") == 1
    assert "hates strong coffee after noon" in response.text


async def test_embedder_down_ranks_by_the_turns_words(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await learn(
        service,
        llm,
        person,
        "many",
        *(add_durable(f"loves cooking {f}", "preference") for f in FOODS[:10]),
        add_durable("has a neighbour named Bertha", "relationship"),
    )
    broken = BrokenEmbedder(service.deps.embedder)
    broken.broken = True
    deps = dataclasses.replace(service.deps, embedder=broken)
    from factmemory.settings import Settings

    async for svc in serve_with(deps, Settings(listen="127.0.0.1:0")):
        response = await svc.stub.Provide(person.provide("Bertha is coming over", durable_limit=3))
        assert response.degraded
        assert response.durable[0].fact.claim == "has a neighbour named Bertha"


async def test_a_shared_budget_goes_to_the_most_relevant_facts(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await learn(service, llm, person, "foods", *(add_durable(f"loves cooking {f}", "preference") for f in FOODS[:9]))
    await learn(service, llm, person, "now", add_current("tired after the gym", "physical_state"), when=days_ago(1))
    question = "What should I cook tonight, risotto or lasagne or gnocchi?"
    fixed = await service.stub.Provide(person.provide(question, durable_limit=3, current_limit=3))
    shared = await service.stub.Provide(person.provide(question, total_limit=6))
    assert len(fixed.durable) == 3  # fixed sections: the unrelated current fact keeps its slot
    assert len(shared.durable) == 6 and not shared.current  # one budget: all six to cooking
    capped = await service.stub.Provide(person.provide(question, total_limit=6, durable_limit=4))
    assert len(capped.durable) == 4  # the caller's limit stays the section's maximum


async def test_a_fact_of_the_month_the_turn_names_surfaces(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    for n, food in enumerate(FOODS[:12]):
        await learn(service, llm, person, f"f{n}", add_durable(f"cooked {food} for friends", "life_event"))
    july = datetime(2026, 7, 12, 18, 0, tzinfo=UTC)
    await learn(service, llm, person, "july", add_durable("went to a concert by the lake", "life_event"), when=july)
    question = "What did I do back in July?"
    response = await service.stub.Provide(person.provide(question, total_limit=3))
    assert "went to a concert by the lake" in [s.fact.claim for s in response.durable]  # July's fact
    vector = (await service.deps.embedder.queries([question]))[0]
    nearest = await service.store.nearest(uuid.UUID(person.agent_id), uuid.UUID(person.entity_id), vector, 3, 0)
    assert "went to a concert by the lake" not in [s.fact.claim for s in nearest]  # the vector alone: no


async def test_a_negative_or_huge_total_limit_is_refused(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    for bad in (-1, 10_000):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await service.stub.Provide(person.provide("coffee?", total_limit=bad))
        assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        assert "total_limit" in (refused.value.details() or "")
