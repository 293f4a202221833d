"""Communities apart from people (docs/shared-facts.md, "A community view"): ListAgents counts people only and
communities beside them, ListEntities says what each entity is, the command line and the review page (a real
Chromium) show the worlds, the agent-wide facts and the held claims as communities, never as people."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import BrowserContext, expect

from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service
from tests.support.llm_stub import ScriptedLLM
from tests.test_cli_review import at, cli
from tests.test_page import browser, page_url, sign_in, snap
from tests.test_shared import HACKATHON, WALLET, World, says_shared

__all__ = ["browser", "page_url"]  # the fixtures, shared with tests/test_page.py


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

    await page.goto(f"{page_url}/")
    row = page.locator("#agents tbody tr", has_text=world.agent_id[:8])
    await expect(row.locator("td[data-label='people']")).to_have_text("3")
    await expect(row.locator("td[data-label='communities']")).to_have_text("2")
    await page.close()
