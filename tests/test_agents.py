"""Agents by name: RegisterAgent / ListAgents over real gRPC and PostgreSQL, the CLI taking a name wherever it takes
an agent id, and the review page's start page listing agents by name."""

from __future__ import annotations

import asyncio
import logging
import re
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import grpc
import pytest
import pytest_asyncio

from factmemory.api.http.pages import PageConfig
from factmemory.api.http.server import PageListener
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service
from tests.support.fm import Person, add_durable, change, facts_reply
from tests.support.llm_stub import Reply, ScriptedLLM
from tests.test_cli_review import Result, at, cli

TOKEN = "agents-page-token"


@pytest.fixture(autouse=True)
def no_leaked_log_handler() -> Iterator[None]:
    """The command line configures logging on its first run in a process, onto this test's captured stderr; that
    handler goes with the test, or the service's later log lines would be written to a closed stream."""
    before = list(logging.getLogger().handlers)
    yield
    for handler in logging.getLogger().handlers:
        if handler not in before:
            logging.getLogger().removeHandler(handler)


def unique(name: str) -> str:
    """A name no other test's agent has (the service is shared by the session)."""
    return f"{name} {uuid.uuid4().hex[:8]}"


async def register(service: Service, agent_id: str, name: str) -> None:
    await service.stub.RegisterAgent(pb.RegisterAgentRequest(agent_id=agent_id, name=name))


async def learn(service: Service, llm: ScriptedLLM, person: Person, text: str, *ops: dict[str, object]) -> None:
    llm.on(text, Reply(facts_reply(*ops)))
    await service.stub.Evaluate(person.evaluate(text))


async def listed(service: Service, query: str, **kw: object) -> list[pb.AgentSummary]:
    return list((await service.stub.ListAgents(pb.ListAgentsRequest(query=query, **kw))).agents)  # type: ignore[arg-type]


async def test_agents_are_listed_by_name_with_their_counts(service: Service, llm: ScriptedLLM) -> None:
    name = unique("Eliza")
    sam = Person("Sam")
    kim = Person("Kim", agent_id=sam.agent_id)
    await register(service, sam.agent_id, "  placeholder\nname ")
    await register(service, sam.agent_id, name)  # a repeat renames
    await learn(service, llm, sam, "agents: I live in Berlin", add_durable("lives in Berlin", "identity"))
    await learn(service, llm, sam, "agents: moved to Rome", change("contradict", "D1", "moved", "lives in Rome"))
    await learn(service, llm, kim, "agents: I like tea", add_durable("likes tea", "preference"))

    [agent] = await listed(service, name.split()[1])  # any part of the name

    assert (agent.agent_id, agent.name) == (sam.agent_id, name)
    assert (agent.entities, agent.facts, agent.pending_candidates) == (2, 2, 1)
    assert agent.last_activity.seconds > 0
    assert [a.agent_id for a in await listed(service, sam.agent_id[:13].upper())] == [sam.agent_id]  # id prefix


async def test_an_agent_that_never_registered_is_listed_by_its_id(service: Service, llm: ScriptedLLM) -> None:
    anonymous = Person("Lee")
    await learn(service, llm, anonymous, "anonymous: I cook", add_durable("cooks", "preference"))
    [agent] = await listed(service, anonymous.agent_id)
    assert (agent.name, agent.facts, agent.entities) == ("", 1, 1)


async def test_agents_page_most_recent_first(service: Service) -> None:
    tag = uuid.uuid4().hex[:8]
    ids = [str(uuid.uuid4()) for _ in range(3)]
    for i, agent_id in enumerate(ids):
        await register(service, agent_id, f"Pager {tag} {i}")
    first = await service.stub.ListAgents(pb.ListAgentsRequest(query=f"Pager {tag}", page_size=2))
    second = await service.stub.ListAgents(
        pb.ListAgentsRequest(query=f"Pager {tag}", page_size=2, page_token=first.next_page_token)
    )
    assert [a.agent_id for a in [*first.agents, *second.agents]] == ids[::-1] and not second.next_page_token


@pytest.mark.parametrize(
    ("agent_id", "name", "expected"),
    [
        ("not-a-uuid", "Eliza", "agent_id must be a UUID"),
        (str(uuid.uuid4()), " \n\t", "name is required"),
        (str(uuid.uuid4()), "x" * 201, "longer than 200"),
    ],
)
async def test_bad_registrations_are_refused(service: Service, agent_id: str, name: str, expected: str) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await register(service, agent_id, name)
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT and expected in (error.value.details() or "")
    if agent_id != "not-a-uuid":
        assert await listed(service, agent_id) == []


async def test_the_cli_takes_an_agent_name_wherever_it_takes_an_id(
    service: Service, llm: ScriptedLLM, capsys: pytest.CaptureFixture[str]
) -> None:
    name = unique("Ada")
    person = Person("Sam Rivers")
    await register(service, person.agent_id, name)
    await register(service, str(uuid.uuid4()), f"{name} Lovelace")  # a longer name: the exact one still wins
    await learn(service, llm, person, "cli names: I live in Oslo", add_durable("lives in Oslo", "identity"))

    listing = await cli(capsys, "facts", "list", name.lower(), person.entity_id, *at(service))
    entities = await cli(capsys, "entities", name, *at(service))
    queue = await cli(capsys, "candidates", "list", name, *at(service))
    agents = await cli(capsys, "agents", "--query", name, *at(service))

    assert listing.code == 0 and "lives in Oslo" in listing.out
    assert entities.code == 0 and "Sam Rivers" in entities.out
    assert queue.code == 0
    assert agents.code == 0 and person.agent_id in agents.out and f"{name} Lovelace" in agents.out


async def test_export_direct_takes_an_agent_name(
    service: Service,
    llm: ScriptedLLM,
    pg_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    name = unique("Direct")
    person = Person("Sam")
    await register(service, person.agent_id, name)
    await learn(service, llm, person, "direct: I live in Kyiv", add_durable("lives in Kyiv", "identity"))
    monkeypatch.setenv("FACTMEMORY_DATABASE_URL", pg_url)
    monkeypatch.setenv("FACTMEMORY_DATA_DIR", str(tmp_path))

    direct = await cli(capsys, "export", name, person.entity_id, "--direct")  # reads the database, no service

    assert direct.code == 0, direct.err
    assert direct.json()["agent_id"] == person.agent_id
    assert [f["claim"] for f in direct.json()["facts"]] == ["lives in Kyiv"]


async def test_the_cli_refuses_an_ambiguous_or_unknown_name_in_one_line(
    service: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    twin = unique("Twin")
    first, second = str(uuid.uuid4()), str(uuid.uuid4())
    await register(service, first, f"{twin} A")
    await register(service, second, f"{twin} B")

    ambiguous: Result = await cli(capsys, "entities", twin, *at(service))
    unknown: Result = await cli(capsys, "entities", unique("Nobody"), *at(service))

    assert ambiguous.code == 2 and ambiguous.out == ""
    # The service runs in this process and may log to the same stderr: the command's own output is one line.
    assert [line for line in ambiguous.err.splitlines() if line.startswith("factmemory:")] == [
        ambiguous.err.strip().splitlines()[-1]
    ]
    assert "matches 2 agents" in ambiguous.err and first in ambiguous.err and second in ambiguous.err
    assert unknown.code == 2 and "no agent is named" in unknown.err


@pytest_asyncio.fixture
async def page_url(service: Service) -> AsyncIterator[str]:
    listener = PageListener(service.deps, PageConfig(token=TOKEN), "127.0.0.1:0")
    await listener.start()
    yield f"http://127.0.0.1:{listener.port}"
    await listener.stop()


def get(url: str) -> tuple[int, str, str]:
    """Status, final URL and body of a GET with the page's bearer token (redirects followed)."""
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {TOKEN}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.url, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, url, error.read().decode()


async def test_the_start_page_lists_agents_by_name_and_links_to_each(
    service: Service, llm: ScriptedLLM, page_url: str
) -> None:
    name = unique("Page <b>Agent</b>")
    person = Person("Sam")
    await register(service, person.agent_id, name)
    await learn(service, llm, person, "page: I live in Lima", add_durable("lives in Lima", "identity"))
    await learn(service, llm, person, "page: moved to Quito", change("contradict", "D1", "moved", "lives in Quito"))
    anonymous = Person("Kim")
    await learn(service, llm, anonymous, "page: I swim", add_durable("swims", "preference"))

    status, _, body = await asyncio.to_thread(get, f"{page_url}/")
    _, _, searched = await asyncio.to_thread(get, f"{page_url}/?agent={urllib.parse.quote(name.split()[-1])}")
    _, opened, _ = await asyncio.to_thread(get, f"{page_url}/?agent={person.agent_id}")
    # By the start of its id: the first page of a database other tests filled may not reach it.
    _, _, by_id = await asyncio.to_thread(get, f"{page_url}/?agent={anonymous.agent_id[:13]}")

    assert status == 200 and 'id="agents"' in body
    escaped = name.replace("<", "&lt;").replace(">", "&gt;")
    assert escaped in body and "<b>Agent</b>" not in body  # a name is text, never markup
    assert f'href="/agents/{person.agent_id}/entities">{escaped}</a>' in body
    assert f'href="/agents/{anonymous.agent_id}/entities">{anonymous.agent_id}</a>' in by_id  # never registered
    counts = (  # people, facts, and the pending review items linking to the queue
        r'<td class="num" data-label="people">1</td>\s*<td class="num" data-label="communities">0</td>\s*'
        r'<td class="num" data-label="facts">1</td>\s*'
        rf'<td class="num" data-label="pending"><a class="badge warn" href="/agents/{person.agent_id}/queue">1</a></td>'
    )
    assert re.search(counts, searched)
    assert anonymous.agent_id not in searched
    assert opened == f"{page_url}/agents/{person.agent_id}/entities"


async def test_the_pages_addresses_take_names_where_they_take_ids(
    service: Service, llm: ScriptedLLM, page_url: str
) -> None:
    name = unique("Eliza")
    sam = Person("Sam Okafor")
    await register(service, sam.agent_id, name)
    await learn(service, llm, sam, "names: I live in Accra", add_durable("lives in Accra", "identity"))
    fact_id = (await service.stub.ListFacts(sam.list_facts())).facts[0].id
    agent = urllib.parse.quote(name)
    base = f"{page_url}/agents/{sam.agent_id}"

    cases = {
        f"/agents/{agent}/entities": f"{base}/entities",
        f"/agents/{agent}": f"{base}/entities",
        f"/agents/{agent}/queue": f"{base}/queue",
        f"/agents/{agent}/entities?q=sam": f"{base}/entities?q=sam",
        f"/agents/{agent}/entities/Sam%20Okafor": f"{base}/entities/{sam.entity_id}",
        f"/agents/{agent}/entities/sam/facts/{fact_id}": f"{base}/entities/{sam.entity_id}/facts/{fact_id}",
        f"/agents/{sam.agent_id}/entities/Sam%20Okafor": f"{base}/entities/{sam.entity_id}",
    }
    for path, expected in cases.items():
        status, landed, _ = await asyncio.to_thread(get, page_url + path)
        assert (status, landed) == (200, expected), (path, status, landed)
    _, _, person_page = await asyncio.to_thread(get, f"{page_url}/agents/{agent}/entities/Sam%20Okafor")
    assert "lives in Accra" in person_page

    # A name that means no one leads to the search that lists what matches it (nothing): never a bare Not found.
    _, landed, searched = await asyncio.to_thread(get, f"{page_url}/agents/Nobody%20{uuid.uuid4().hex[:6]}/entities")
    assert landed.startswith(f"{page_url}/?agent=Nobody") and "No agent matches" in searched
    _, landed, _ = await asyncio.to_thread(get, f"{page_url}/agents/{agent}/entities/Bea")
    assert landed == f"{base}/entities?q=Bea"
    status, _, _ = await asyncio.to_thread(get, f"{base}/nothing-here")
    assert status == 404  # ids already, no such page: no redirect loop
