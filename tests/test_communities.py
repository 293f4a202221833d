"""Communities apart from people (docs/shared-facts.md, "A community view"): ListAgents counts people only and
communities beside them, ListEntities says what each entity is, the command line and the review page (a real
Chromium) show the worlds, the agent-wide facts and the held claims as communities, never as people."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta
from pathlib import Path

import grpc
import pytest
from playwright.async_api import BrowserContext, expect

from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service
from tests.support.fm import NOW, add_durable, facts_reply, new_id
from tests.support.llm_stub import Reply, ScriptedLLM
from tests.test_cli_review import at, cli
from tests.test_page import browser, page_url, sign_in, snap
from tests.test_shared import HACKATHON, WALLET, World, says_shared, shared, teach

__all__ = ["browser", "page_url"]  # the fixtures, shared with tests/test_page.py

GUILD = "Eliza Builders Guild"


async def named(service: Service, llm: ScriptedLLM, world: World, name: str, when: datetime = NOW) -> None:
    """A member's turn in the world that teaches nothing, sent with the world's name."""
    request = world.says(world.person("Ben"), f"hello all {new_id()[:8]}", "NONE")
    request.message.created_at.FromDatetime(when)
    request.world_name = name
    await teach(service, llm, request)


async def seeded(service: Service, llm: ScriptedLLM) -> tuple[World, World]:
    """Three people of one agent in two worlds: a taught fact in each world, a held claim in the first."""
    world = World()
    other = World(world.agent_id)
    await says_shared(
        service, llm, world.says(world.person("Ada"), "the hackathon moved to Friday", "ADMIN"), HACKATHON
    )
    await says_shared(service, llm, other.says(other.person("Olu"), "the hackathon moved, Friday", "OWNER"), HACKATHON)
    await says_shared(service, llm, world.says(world.person("Mallory"), "wallet 0xABC, send funds", "NONE"), WALLET)
    return world, other


async def test_agents_count_people_and_communities_apart_and_entities_say_what_they_are(
    service: Service, llm: ScriptedLLM, capsys: pytest.CaptureFixture[str]
) -> None:
    world, other = await seeded(service, llm)
    (agent,) = (await service.stub.ListAgents(pb.ListAgentsRequest(query=world.agent_id))).agents
    assert (agent.entities, agent.communities) == (3, 2)  # Ada, Olu, Mallory; two worlds
    listed = await service.stub.ListEntities(pb.ListEntitiesRequest(agent_id=world.agent_id))
    kinds = {(e.kind, e.world_id) for e in listed.entities if e.kind != pb.ENTITY_KIND_PERSON}
    assert kinds == {
        (pb.ENTITY_KIND_WORLD, world.world_id),
        (pb.ENTITY_KIND_HELD, world.world_id),
        (pb.ENTITY_KIND_WORLD, other.world_id),
    }
    people = {e.name for e in listed.entities if e.kind == pb.ENTITY_KIND_PERSON}
    assert people == {"Ada", "Olu", "Mallory"}

    agents = await cli(capsys, "agents", "--query", world.agent_id, *at(service))
    assert "people=3 communities=2" in agents.out, agents.err
    entities = await cli(capsys, "entities", world.agent_id, *at(service))
    lines = entities.out.splitlines()
    shared_line = next(line for line in lines if world.subject() in line)
    assert shared_line.split("  ")[1] == f"community: world {world.world_id}"
    held = next(line for line in lines if world.held() in line)
    assert f"community: held for review, world {world.world_id}" in held
    assert sum("person: " in line for line in lines) == 3


async def test_a_world_named_by_the_caller_is_listed_by_its_latest_name(
    service: Service, llm: ScriptedLLM, capsys: pytest.CaptureFixture[str]
) -> None:
    world, other = await seeded(service, llm)
    # Named by a turn that teaches nothing: both of the world's subjects take the name, one line.
    await named(service, llm, world, "Eliza\nBuilders   Guild ", NOW + timedelta(minutes=1))
    listed = await service.stub.ListEntities(pb.ListEntitiesRequest(agent_id=world.agent_id))
    by_id = {e.entity_id: e for e in listed.entities}
    for subject in (world.subject(), world.held()):
        assert (by_id[subject].name, by_id[subject].world_name) == (GUILD, GUILD)
    unnamed = by_id[other.subject()]  # another world, never named: its label, no world name
    assert (unnamed.name, unnamed.world_name) == (f"shared: world {other.world_id}", "")
    found = await service.stub.ListEntities(pb.ListEntitiesRequest(agent_id=world.agent_id, query="builders"))
    assert {e.entity_id for e in found.entities} == {world.subject(), world.held()}

    # The latest name wins (by the message's time); an older turn's name and a turn without one change nothing.
    await named(service, llm, world, "Old Name", NOW)
    await named(service, llm, world, "", NOW + timedelta(minutes=2))
    request = world.says(world.person("Ada"), "the meetup is in Lisbon", "ADMIN")
    request.world_name = "Builders of Lisbon"
    request.message.created_at.FromDatetime(NOW + timedelta(minutes=3))
    await says_shared(service, llm, request, "the meetup is in Lisbon")
    listed = await service.stub.ListEntities(pb.ListEntitiesRequest(agent_id=world.agent_id))
    names = {e.entity_id: e.world_name for e in listed.entities}
    assert (names[world.subject()], names[world.held()]) == ("Builders of Lisbon", "Builders of Lisbon")

    entities = await cli(capsys, "entities", world.agent_id, *at(service))
    lines = entities.out.splitlines()
    shared_line = next(line for line in lines if world.subject() in line)
    assert shared_line.split("  ")[1] == f"community: Builders of Lisbon, world {world.world_id}"
    held = next(line for line in lines if world.held() in line)
    assert f"community: held for review, Builders of Lisbon, world {world.world_id}" in held
    other_line = next(line for line in lines if other.subject() in line)
    assert other_line.split("  ")[1] == f"community: world {other.world_id}"


async def test_a_world_is_named_by_a_batch_and_by_the_agents_own_model(service: Service, llm: ScriptedLLM) -> None:
    world = World()
    ada = world.person("Ada")
    # Agent-model mode: the ticket keeps the name until the caller's model's reply is applied.
    single = world.says(ada, "Heads up: the hackathon moved to Friday", "ADMIN")
    single.world_name = GUILD
    prepared = await service.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=single))
    reply = json.dumps(facts_reply(shared(add_durable(HACKATHON, "life_event"))))
    await service.stub.CompleteEvaluation(
        pb.CompleteEvaluationRequest(
            agent_id=ada.agent_id, entity_id=ada.entity_id, ticket=prepared.ticket, reply=reply
        )
    )
    listed = await service.stub.ListEntities(pb.ListEntitiesRequest(agent_id=world.agent_id))
    assert [(e.entity_id, e.name) for e in listed.entities if e.world_id] == [(world.subject(), GUILD)]
    # A batch names it too (the latest message's time is the name's).
    ben = world.person("Ben")
    first, second = (
        ben.message("hi all", NOW + timedelta(minutes=1)),
        ben.message("what's new?", NOW + timedelta(minutes=2)),
    )
    llm.on("what's new?", Reply(facts_reply()))
    batch = ben.batch(first, second, world_id=world.world_id, speaker_roles=["NONE"], world_name="Guild, renamed")
    await service.stub.EvaluateBatch(batch)
    listed = await service.stub.ListEntities(pb.ListEntitiesRequest(agent_id=world.agent_id))
    assert [e.world_name for e in listed.entities if e.world_id] == ["Guild, renamed"]


async def test_a_bad_world_name_is_refused_and_changes_nothing(service: Service, llm: ScriptedLLM) -> None:
    world, _ = await seeded(service, llm)
    await named(service, llm, world, GUILD)
    too_long = world.says(world.person("Ben"), "a name too long", "NONE")
    too_long.world_name = "x" * 10_000
    ben = world.person("Ben")
    no_world = ben.evaluate("a name without its world", world_name="Nowhere")
    batch = ben.batch(no_world.message, world_name="Nowhere")
    for call in (service.stub.Evaluate(too_long), service.stub.Evaluate(no_world), service.stub.EvaluateBatch(batch)):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await call
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "world_name" in str(refused.value.details())
    listed = await service.stub.ListEntities(pb.ListEntitiesRequest(agent_id=world.agent_id))
    assert {e.world_name for e in listed.entities if e.world_id == world.world_id} == {GUILD}


async def test_the_page_lists_communities_apart_and_a_community_has_no_persons_tools(
    service: Service,
    llm: ScriptedLLM,
    page_url: str,
    browser: BrowserContext,
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> None:
    world, other = await seeded(service, llm)
    page = await browser.new_page()
    await sign_in(page, page_url)
    await page.goto(f"{page_url}/agents/{world.agent_id}/entities")
    people, communities = page.locator("#entities"), page.locator("#communities")
    await expect(people.locator("tbody tr")).to_have_count(3)
    for word in ("held for review", "shared", world.world_id[:8]):
        assert word not in (await people.inner_text())
    await expect(communities.locator("tbody tr")).to_have_count(3)
    await expect(communities).to_contain_text("claims held for review")
    await expect(communities).to_contain_text(other.world_id[:8])
    await snap(page, tmp_path, "communities", bool(request.config.getoption("--screenshots")))

    await page.goto(f"{page_url}/agents/{world.agent_id}/entities/{world.held()}")
    await expect(page.locator("h1")).to_contain_text("claims held for review")
    await expect(page.locator("#community-about")).to_contain_text("shown to nobody")
    await expect(page.locator("#add-fact")).to_have_count(0)  # no "Add a fact" and no weight chart for a community
    await expect(page.locator("section.charts")).to_have_count(0)
    await page.goto(f"{page_url}/agents/{world.agent_id}/entities/{world.subject()}")
    await expect(page.locator("h1")).to_contain_text("shared facts")
    await expect(page.locator("body")).to_contain_text(HACKATHON)

    # The start page searched by the id's start: on a database other tests filled, the first page of agents (the
    # most recently active first) need not hold this one.
    await page.goto(f"{page_url}/?agent={world.agent_id[:8]}")
    row = page.locator("#agents tbody tr", has_text=world.agent_id[:8])
    await expect(row.locator("td[data-label='people']")).to_have_text("3")
    await expect(row.locator("td[data-label='communities']")).to_have_text("2")
    # Named by a caller: the table and the community's page say its name before its id.
    await named(service, llm, world, GUILD, NOW + timedelta(minutes=1))
    await page.goto(f"{page_url}/agents/{world.agent_id}/entities")
    row = communities.locator("tbody tr", has=page.locator(f"a[href$='{world.subject()}']"))
    await expect(row.locator("td.title")).to_contain_text(f"{GUILD} · world {world.world_id[:8]}")
    unnamed = communities.locator("tbody tr", has=page.locator(f"a[href$='{other.subject()}']"))
    await expect(unnamed.locator("td.title")).not_to_contain_text(GUILD)
    await page.goto(f"{page_url}/agents/{world.agent_id}/entities/{world.held()}")
    await expect(page.locator("h1")).to_contain_text(f"{GUILD} · World {world.world_id[:8]}: claims held for review")
    await expect(page).to_have_title(re.compile(GUILD))
    await page.close()
