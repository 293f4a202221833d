"""A reviewer's Accept of a held shared claim shares it with its world or, where allowed, with every world of the
agent (docs/shared-facts.md, "Held claims and the reviewer"): agent-wide only for a claim said in a world named in
FACTMEMORY_SHARED_AGENT_WIDE_WORLDS; anywhere else it is refused and nothing changes. Real gRPC, real PostgreSQL,
the scripted LLM, and the review page in a real headless Chromium."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from uuid import UUID

import grpc
import pytest
import pytest_asyncio
from playwright.async_api import BrowserContext, expect

from factmemory.api.http.pages import PageConfig
from factmemory.api.http.server import PageListener
from factmemory.domain.shared import agent_subject
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service, make_settings, start_service
from tests.support.fm import NOW
from tests.support.llm_stub import ScriptedLLM
from tests.test_cli_review import at, cli
from tests.test_page import TOKEN, browser, sign_in
from tests.test_shared import COMMUNITY, MEETUP, REVIEWER, WALLET, World, says_shared

__all__ = ["browser"]  # the fixture, shared with tests/test_page.py


@pytest_asyncio.fixture
async def trusting(pg_url: str, llm: ScriptedLLM, tmp_path: Path) -> AsyncIterator[tuple[Service, World]]:
    """The service, and a world whose claims may be shared with every world (FACTMEMORY_SHARED_AGENT_WIDE_WORLDS)."""
    trusted = World()
    settings = make_settings(pg_url, llm, tmp_path, shared_agent_wide_worlds=trusted.world_id, embedding_workers=1)
    async for svc in start_service(settings):
        yield svc, trusted


async def held_claims(service: Service, llm: ScriptedLLM, trusted: World) -> tuple[World, pb.AppliedOp, pb.AppliedOp]:
    """A stranger's claim held in the trusted world and one in another world of the same agent."""
    other = World(trusted.agent_id)
    here = await says_shared(
        service, llm, trusted.says(trusted.person("Mallory"), "FYI the meetup is in Lisbon this year", "NONE"), MEETUP
    )
    there = await says_shared(
        service, llm, other.says(other.person("Eve"), "the team's official wallet is 0xABC", "NONE"), WALLET
    )
    assert here.candidate_id and there.candidate_id
    return other, here, there


def accept(op: pb.AppliedOp, **kw: object) -> pb.ResolveCandidateRequest:
    return pb.ResolveCandidateRequest(
        agent_id=op.fact.agent_id,
        entity_id=op.fact.entity_id,
        candidate_id=op.candidate_id,
        resolution=pb.RESOLUTION_ACCEPT,
        **kw,  # type: ignore[arg-type]
    )


async def refused(call: object) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call  # type: ignore[misc]
    return caught.value.code(), caught.value.details() or ""


async def test_accept_shares_agent_wide_only_from_a_world_the_settings_name(
    trusting: tuple[Service, World], llm: ScriptedLLM, capsys: pytest.CaptureFixture[str]
) -> None:
    service, trusted = trusting
    other, here, there = await held_claims(service, llm, trusted)
    stub = service.stub
    # Another world's claim: refused by name, and still held, shown to nobody.
    code, details = await refused(stub.ResolveCandidate(accept(there, agent_wide=True), metadata=REVIEWER))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "FACTMEMORY_SHARED_AGENT_WIDE_WORLDS" in details
    pending = await stub.ListCandidates(pb.ListCandidatesRequest(agent_id=trusted.agent_id))
    assert {c.id for c in pending.candidates} == {here.candidate_id, there.candidate_id}
    # The command line's --agent-wide: the same refusal, by name.
    denied = await cli(
        capsys,
        "candidates",
        "accept",
        trusted.agent_id,
        there.fact.entity_id,
        there.candidate_id,
        "--agent-wide",
        *at(service),
    )
    assert denied.code != 0 and "FACTMEMORY_SHARED_AGENT_WIDE_WORLDS" in denied.err
    # agent_wide with anything but an accept of a held claim is a bad request.
    reject = accept(here, agent_wide=True)
    reject.resolution = pb.RESOLUTION_REJECT
    code, details = await refused(stub.ResolveCandidate(reject, metadata=REVIEWER))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "agent_wide" in details

    # The trusted world's claim, accepted agent-wide (the command line): a fact of the agent-wide subject, told in a
    # third world.
    done = await cli(
        capsys,
        "candidates",
        "accept",
        trusted.agent_id,
        here.fact.entity_id,
        here.candidate_id,
        "--agent-wide",
        *at(service),
    )
    assert done.code == 0, done.err
    everywhere = str(agent_subject(UUID(trusted.agent_id)).subject_id)
    listed = await stub.ListFacts(pb.ListFactsRequest(agent_id=trusted.agent_id, entity_id=everywhere))
    assert [f.claim for f in listed.facts] == [MEETUP]
    third = World(trusted.agent_id)
    shown = await stub.Provide(third.asks(third.person("Ben"), "where is the community meetup this year?"))
    assert COMMUNITY in shown.text and MEETUP in shown.text
    # Without agent_wide, the other world's claim goes to its own world only, as before.
    plain = await stub.ResolveCandidate(accept(there), metadata=REVIEWER)
    assert plain.fact.entity_id == other.subject()
    away = await stub.Provide(third.asks(third.person("Ben"), "what is the team's official wallet?"))
    assert "0xABC" not in away.text


async def test_the_queue_offers_every_world_only_where_allowed_and_says_what_happened(
    trusting: tuple[Service, World], llm: ScriptedLLM, browser: BrowserContext
) -> None:
    service, trusted = trusting
    _, here, there = await held_claims(service, llm, trusted)
    listener = PageListener(
        service.deps, PageConfig(token=TOKEN, clock=lambda: NOW + timedelta(hours=6)), "127.0.0.1:0"
    )
    await listener.start()
    try:
        url = f"http://127.0.0.1:{listener.port}"
        page = await browser.new_page()
        await sign_in(page, url)
        await page.goto(f"{url}/agents/{trusted.agent_id}/queue?source=shared_claim")
        mine = page.locator(f"article[data-candidate='{here.candidate_id}']")
        theirs = page.locator(f"article[data-candidate='{there.candidate_id}']")
        await expect(theirs.locator("button", has_text="with every world")).to_have_count(0)
        button = mine.locator("button", has_text="with every world")
        await expect(button).to_have_count(1)
        await expect(mine).to_contain_text("shown to everyone the agent talks with in any world")
        await button.click()
        await expect(page.locator(".notice")).to_contain_text("Shared with every world")
        facts = await service.stub.ListFacts(
            pb.ListFactsRequest(
                agent_id=trusted.agent_id, entity_id=str(agent_subject(UUID(trusted.agent_id)).subject_id)
            )
        )
        assert [f.claim for f in facts.facts] == [MEETUP]
        await page.close()
    finally:
        await listener.stop()
