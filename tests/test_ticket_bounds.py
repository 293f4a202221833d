"""The agent-model ticket bounds count open tickets only, and no single agent can take them all (issue 36, item 4):
over real gRPC on a database of its own, with the tickets' clock in the test's hands. One agent that prepares and
never completes fills its share and no more; others are served; the refusal names the bound that is full; used and
expired tickets take no room; an expired ticket holds no content once it expired (read without it, and dropped from
its row by the next issue or read)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from pathlib import Path
from uuid import UUID

import grpc
import pytest
import pytest_asyncio

from factmemory.app import create_server, open_deps
from factmemory.usecases.deps import AgentModel, Deps
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service, make_settings, new_database
from tests.support.fm import NOW, Person, facts_reply
from tests.support.llm_stub import ScriptedLLM

TOTAL, SHARE = 6, 4


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now


@pytest_asyncio.fixture
async def bounded(pg_url: str, llm: ScriptedLLM, tmp_path: Path) -> AsyncIterator[tuple[Service, Clock]]:
    """A service on a database of its own with room for 6 open tickets, 4 per agent, and a clock of the test's."""
    clock = Clock()
    async with new_database(pg_url, "tickets") as url:
        settings = make_settings(url, llm, tmp_path, max_tickets=TOTAL, max_tickets_per_agent=SHARE)
        async with open_deps(settings) as deps:
            assert deps.agent_model is not None
            clocked: Deps = dataclasses.replace(
                deps, agent_model=AgentModel(deps.agent_model.tickets, deps.agent_model.policy, clock)
            )
            server, port = create_server(clocked, settings)
            await server.start()
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                yield Service(clocked, port, channel), clock
            await server.stop(1)


async def prepare(service: Service, person: Person, text: str = "I live in Porto") -> pb.PrepareEvaluationResponse:
    prepared: pb.PrepareEvaluationResponse = await service.stub.PrepareEvaluation(
        pb.PrepareEvaluationRequest(single=person.evaluate(text))
    )
    return prepared


async def refused(service: Service, person: Person) -> str:
    try:
        await prepare(service, person)
    except grpc.aio.AioRpcError as exc:
        assert exc.code() == grpc.StatusCode.UNAVAILABLE
        return exc.details() or ""
    raise AssertionError("a ticket was issued beyond the bound")


async def complete(service: Service, person: Person, ticket: str) -> pb.CompleteEvaluationResponse:
    done: pb.CompleteEvaluationResponse = await service.stub.CompleteEvaluation(
        pb.CompleteEvaluationRequest(
            agent_id=person.agent_id, entity_id=person.entity_id, ticket=ticket, reply=json.dumps(facts_reply())
        )
    )
    return done


async def test_one_agent_takes_its_share_only_and_the_refusal_says_what_is_full(
    bounded: tuple[Service, Clock],
) -> None:
    service, clock = bounded
    agent = Person("P").agent_id
    hog = [Person(f"P{i}", agent_id=agent) for i in range(SHARE + 1)]  # one agent, a person per ticket
    for person in hog[:SHARE]:
        assert (await prepare(service, person)).ticket  # prepared, never completed
    assert "this agent holds 4 open agent-model tickets, its share (FACTMEMORY_MAX_TICKETS_PER_AGENT = 4)" in (
        await refused(service, hog[SHARE])
    )
    other, third = Person("Other"), Person("Third")
    first = await prepare(service, other)  # another agent is served
    second = await prepare(service, Person("Other 2", agent_id=other.agent_id))
    assert first.ticket and second.ticket
    assert "6 agent-model tickets are open in all, the service's bound (FACTMEMORY_MAX_TICKETS = 6)" in (
        await refused(service, third)
    )
    # A used ticket takes no room: completing one lets the third agent in at once.
    await complete(service, other, first.ticket)
    assert (await prepare(service, third)).ticket
    # An expired ticket takes no room either: once the hog's expired, it and everyone are served again at once
    # (not 15 minutes later), and used, expired and content-free rows stay only to be refused by name.
    clock.now = NOW + timedelta(seconds=121)
    for person in hog[:SHARE]:
        assert (await prepare(service, person)).ticket


async def test_completed_tickets_never_fill_the_bound(bounded: tuple[Service, Clock]) -> None:
    service, _ = bounded
    person = Person("Busy")
    for n in range(TOTAL * 3):  # three times the bound, one after the other, each completed
        prepared = await prepare(service, person, f"turn {n}: I live in Porto")
        await complete(service, person, prepared.ticket)
    rows = await service.pool.fetchval("SELECT count(*) FROM evaluation_tickets")
    assert rows == TOTAL * 3  # all kept (to be refused by name), none counted


async def test_an_expired_ticket_holds_no_content(bounded: tuple[Service, Clock]) -> None:
    service, clock = bounded
    person, other, third = Person("Pia"), Person("Ole"), Person("Tor")
    await prepare(service, person, "my passport number is X1234567")
    await prepare(service, other, "my bank PIN is 4711")
    body = "SELECT body FROM evaluation_tickets WHERE agent_id = $1"
    assert "X1234567" in await service.pool.fetchval(body, UUID(person.agent_id))
    clock.now = NOW + timedelta(seconds=120)  # both expire now
    later = await prepare(service, third, "I like tea")  # the next issue, of any agent, drops their content
    assert await service.pool.fetchval(body, UUID(person.agent_id)) is None
    assert await service.pool.fetchval(body, UUID(other.agent_id)) is None

    clock.now = NOW + timedelta(seconds=240)  # the third expires; nobody issues: a read of it purges it
    with pytest.raises(grpc.aio.AioRpcError) as expired:
        await complete(service, third, later.ticket)
    assert expired.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "expired" in (expired.value.details() or "")
    assert await service.pool.fetchval(body, UUID(third.agent_id)) is None
    assert await service.pool.fetchval("SELECT count(*) FROM evaluation_tickets WHERE body IS NOT NULL") == 0
