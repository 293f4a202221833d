"""A worker of the Citus cluster down: the calls about people whose shards it holds and the agent-wide reads answer
UNAVAILABLE (never INTERNAL) and leave nothing half-written; the other people are served; health and metrics say a
worker is unreachable; once it is back, a retry applies once and health says so."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any

import asyncpg
import grpc
import psutil
import pytest
import pytest_asyncio
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from factmemory.adapters.metrics import PrometheusTelemetry
from factmemory.adapters.postgres.connection import locked
from factmemory.adapters.postgres.write import import_ledger
from factmemory.api.grpc.health import HealthWatch
from factmemory.app import CLUSTER_HEALTH, create_server, open_runtime, start_cluster_watch
from factmemory.domain.errors import Unavailable
from factmemory.v1 import factmemory_pb2 as pb
from factmemory_tools import citus_cluster as nodes
from tests.conftest import Service, make_settings, start_service
from tests.support.fm import Person, add_durable, facts_of, facts_reply
from tests.support.llm_stub import Reply, ScriptedLLM

# Which node holds a person's shard of `facts`.
NODE_OF = """
SELECT s.nodeport FROM citus_shards s
 WHERE s.table_name = 'facts'::regclass AND s.shardid = get_shard_id_for_distribution_column('facts', $1::uuid)
"""


async def node_port(url: str, person: Person) -> int:
    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval(NODE_OF, uuid.UUID(person.entity_id)))
    finally:
        await conn.close()


async def code_of(call: Any) -> grpc.StatusCode:
    try:
        await call
    except grpc.aio.AioRpcError as exc:
        return exc.code()
    return grpc.StatusCode.OK


class Watched:
    """What the operator sees: the cluster's health status (gRPC health), /healthz's detail and the workers gauges,
    from a server of its own on the coordinator (metrics on) with the cluster watch every 0.2 s, wired as
    `factmemory serve` wires it."""

    def __init__(self, channel: grpc.aio.Channel, watch: HealthWatch, telemetry: PrometheusTelemetry) -> None:
        self.channel, self.watch, self.telemetry = channel, watch, telemetry

    async def cluster(self) -> int:
        request = health_pb2.HealthCheckRequest(service=CLUSTER_HEALTH)
        try:
            return int((await health_pb2_grpc.HealthStub(self.channel).Check(request)).status)
        except grpc.aio.AioRpcError:  # not set yet: NOT_FOUND
            return -1

    def workers(self) -> tuple[float | None, float | None]:
        sample = self.telemetry.registry.get_sample_value
        return sample("factmemory_citus_workers_reachable"), sample("factmemory_citus_workers")


@asynccontextmanager
async def watched(url: str, llm: ScriptedLLM, tmp: Path) -> AsyncIterator[Watched]:
    settings = make_settings(url, llm, tmp, metrics_listen="127.0.0.1:0", health_interval_s=0.2)
    async with open_runtime(settings) as runtime:
        assert runtime.metrics is not None and runtime.cluster_check is not None
        servicer = health.aio.HealthServicer()
        watch = HealthWatch(servicer, ("",), [], 60.0)
        await watch.set_all(health_pb2.HealthCheckResponse.SERVING)  # as serve does once it listens
        task = start_cluster_watch(runtime, settings, servicer, lambda why: setattr(watch, "degraded", why))
        assert task is not None
        server, port = create_server(runtime.deps, settings, servicer)
        await server.start()
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                yield Watched(channel, watch, runtime.metrics)
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            await server.stop(1)


async def eventually(check: Callable[[], Awaitable[bool]], timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not await check():
        assert time.monotonic() < deadline, "not within the time"
        await asyncio.sleep(0.1)


async def test_a_worker_down_is_unavailable_for_its_people_and_nothing_is_half_written(
    citus_cluster: Any, citus_url: str, citus_service: Service, llm: ScriptedLLM, tmp_path: Path
) -> None:
    svc, cluster = citus_service, citus_cluster
    workers = cluster.ports[1:3]
    agent = str(uuid.uuid4())
    people = [Person(f"P{i}", agent_id=agent) for i in range(12)]
    ports = {p.entity_id: await node_port(citus_url, p) for p in people}
    down_port = workers[0]
    on_down = next(p for p in people if ports[p.entity_id] == down_port)
    elsewhere = next(p for p in people if ports[p.entity_id] != down_port)
    said = {}
    for person in (on_down, elsewhere):
        llm.on(f"{person.name} lives in Rome", Reply(facts_reply(add_durable("lives in Rome", "identity"))))
        turn = person.evaluate(f"{person.name} lives in Rome")
        said[person.entity_id] = turn.message.id
        await svc.stub.Evaluate(turn)
    llm.on(f"{on_down.name} has a dog", Reply(facts_reply(add_durable("has a dog", "relationship"))))
    retried = on_down.evaluate(f"{on_down.name} has a dog")

    data = cluster.folder / f"n{cluster.ports.index(down_port)}"
    serving, not_serving = health_pb2.HealthCheckResponse.SERVING, health_pb2.HealthCheckResponse.NOT_SERVING
    async with watched(citus_url, llm, tmp_path) as seen:
        await eventually(lambda: _is(seen.cluster(), serving))
        assert seen.workers() == (2, 2) and "degraded" not in seen.watch.report()[1]
        nodes.stop_node(data)
        try:
            assert await code_of(svc.stub.Evaluate(retried)) == grpc.StatusCode.UNAVAILABLE
            assert await code_of(svc.stub.Provide(on_down.provide("where do I live?"))) == grpc.StatusCode.UNAVAILABLE
            assert await code_of(svc.stub.ListFacts(on_down.list_facts())) == grpc.StatusCode.UNAVAILABLE
            provided = await svc.stub.Provide(elsewhere.provide("where do I live?"))
            assert "lives in Rome" in provided.text
            # ForgetMessages records the deleted ids on every node (a reference table, docs/scaling.md): even for a
            # person on the other worker it answers UNAVAILABLE (retry) and deletes nothing.
            forget = pb.ForgetMessagesRequest(
                agent_id=agent, entity_id=elsewhere.entity_id, message_ids=[said[elsewhere.entity_id]]
            )
            assert await code_of(svc.stub.ForgetMessages(forget)) == grpc.StatusCode.UNAVAILABLE
            assert "lives in Rome" in (await svc.stub.Provide(elsewhere.provide("where do I live?"))).text
            # The agent-wide reads need every shard: UNAVAILABLE (retry), not INTERNAL and not a partial answer.
            for wide in (
                svc.stub.ListEntities(pb.ListEntitiesRequest(agent_id=agent, page_size=50)),
                svc.stub.ListCandidates(pb.ListCandidatesRequest(agent_id=agent)),
                svc.stub.ListAgents(pb.ListAgentsRequest()),
            ):
                assert await code_of(wide) == grpc.StatusCode.UNAVAILABLE
            # Health and metrics say so: the cluster NOT_SERVING, the server serving but degraded, one worker of two.
            await eventually(lambda: _is(seen.cluster(), not_serving))
            serves, detail = seen.watch.report()
            assert serves and f":{down_port}" in str(detail["degraded"])
            assert seen.workers() == (1, 2)
        finally:
            nodes.start_node(nodes.build(), data, down_port)
        await eventually(lambda: _is(seen.cluster(), serving))
        assert seen.workers() == (2, 2) and "degraded" not in seen.watch.report()[1]
    assert {f.claim for f in await facts_of(svc, on_down)} == {"lives in Rome"}
    first = await svc.stub.Evaluate(retried)
    assert not first.replayed and [o.rejected for o in first.ops] == [False]
    assert (await svc.stub.Evaluate(retried)).replayed
    assert {f.claim for f in await facts_of(svc, on_down)} == {"lives in Rome", "has a dog"}


async def _is(status: Awaitable[int], wanted: int) -> bool:
    return await status == wanted


# A hung worker: every process of the node stopped (SIGSTOP), its sockets still accepting connections that nothing
# answers. The service's statements then wait on the coordinator until the statement timeout
# (FACTMEMORY_DB_TIMEOUT_S) cancels them: short here, so that the test is.
HUNG_DB_TIMEOUT_S = 3.0
# How long a call about the hung worker's people may take before it answers UNAVAILABLE: the statement's timeout,
# then as long again for the coordinator to confirm the cancellation (it is cancelling the statement on the hung
# worker; asyncpg then closes the connection), and a margin for a busy machine.
HUNG_BOUND_S = 3 * HUNG_DB_TIMEOUT_S + 2.0
# The coordinator's sessions still running a statement (a cancelled one stays in Citus's cancellation of its
# statement on the hung worker until the worker answers), and the transactions left prepared on a node.
BUSY_SESSIONS = """
SELECT count(*) FROM pg_stat_activity
 WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND state = 'active'
"""
PREPARED = "SELECT count(*) FROM pg_prepared_xacts"


@pytest_asyncio.fixture
async def short_timeout_service(
    citus_url: str, llm_server: ScriptedLLM, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Service]:
    """The service on the coordinator with a short statement timeout."""
    settings = make_settings(citus_url, llm_server, tmp_path_factory.mktemp("short"), db_timeout_s=HUNG_DB_TIMEOUT_S)
    async for svc in start_service(settings):
        yield svc


def node_processes(data: Path) -> list[psutil.Process]:
    """The node's postmaster and every process under it (backends, background workers)."""
    postmaster = psutil.Process(int((data / "postmaster.pid").read_text().split()[0]))
    return [postmaster, *postmaster.children(recursive=True)]


async def timed_code(call: Any) -> tuple[grpc.StatusCode, float]:
    started = time.monotonic()
    code = await code_of(call)
    return code, time.monotonic() - started


async def test_a_hung_worker_is_unavailable_for_its_people_within_the_timeout_and_nothing_is_half_written(
    citus_cluster: Any,
    citus_url: str,
    citus_service: Service,
    short_timeout_service: Service,
    llm: ScriptedLLM,
    tmp_path: Path,
) -> None:
    cluster, svc = citus_cluster, short_timeout_service
    agent = str(uuid.uuid4())
    people = [Person(f"H{i}", agent_id=agent) for i in range(12)]
    ports = {p.entity_id: await node_port(citus_url, p) for p in people}
    hung_port = cluster.ports[1]
    on_hung = next(p for p in people if ports[p.entity_id] == hung_port)
    elsewhere = next(p for p in people if ports[p.entity_id] != hung_port)
    for person in (on_hung, elsewhere):
        llm.on(f"{person.name} lives in Oslo", Reply(facts_reply(add_durable("lives in Oslo", "identity"))))
        await citus_service.stub.Evaluate(person.evaluate(f"{person.name} lives in Oslo"))
        assert "lives in Oslo" in (await svc.stub.Provide(person.provide("where do I live?"))).text
    llm.on(f"{on_hung.name} has a cat", Reply(facts_reply(add_durable("has a cat", "relationship"))))
    llm.on(f"{elsewhere.name} has a cat", Reply(facts_reply(add_durable("has a cat", "relationship"))))
    retried = on_hung.evaluate(f"{on_hung.name} has a cat")
    serving, not_serving = health_pb2.HealthCheckResponse.SERVING, health_pb2.HealthCheckResponse.NOT_SERVING
    async with watched(citus_url, llm, tmp_path) as seen:
        await eventually(lambda: _is(seen.cluster(), serving))
        stopped = node_processes(cluster.folder / f"n{cluster.ports.index(hung_port)}")
        try:
            for process in stopped:
                process.suspend()
            # One at a time (a call starts when it is made).
            calls: list[Callable[[], Any]] = [
                lambda: svc.stub.Evaluate(retried),
                lambda: svc.stub.Provide(on_hung.provide("where do I live?")),
                lambda: svc.stub.ListFacts(on_hung.list_facts()),
            ]
            for call in calls:
                code, took = await timed_code(call())
                assert (code, took < HUNG_BOUND_S) == (grpc.StatusCode.UNAVAILABLE, True), took
            # The people on the other worker are served, reads and writes.
            assert "lives in Oslo" in (await svc.stub.Provide(elsewhere.provide("where do I live?"))).text
            written = await svc.stub.Evaluate(elsewhere.evaluate(f"{elsewhere.name} has a cat"))
            assert [o.rejected for o in written.ops] == [False]
            # Health and metrics say so: the cluster NOT_SERVING, the server serving but degraded.
            await eventually(lambda: _is(seen.cluster(), not_serving))
            serves, detail = seen.watch.report()
            assert serves and f":{hung_port}" in str(detail["degraded"])
            assert seen.workers() == (1, 2)
        finally:
            for process in reversed(stopped):
                process.resume()
        await eventually(lambda: _is(seen.cluster(), serving))
        assert seen.workers() == (2, 2) and "degraded" not in seen.watch.report()[1]
    # The sessions left cancelling on the hung worker end, no transaction is left prepared on any node, nothing of
    # the cancelled Evaluate was kept, and the same Evaluate now applies once, then replays.
    await eventually(lambda: _counts(citus_url, BUSY_SESSIONS, 0))
    for node_url in [cluster.node_url(i) for i in range(len(cluster.ports))]:
        await eventually(partial(_counts, node_url, PREPARED, 0))
    assert {f.claim for f in await facts_of(svc, on_hung)} == {"lives in Oslo"}
    first = await svc.stub.Evaluate(retried)
    assert not first.replayed and [o.rejected for o in first.ops] == [False]
    assert (await svc.stub.Evaluate(retried)).replayed
    assert {f.claim for f in await facts_of(svc, on_hung)} == {"lives in Oslo", "has a cat"}
    assert {f.claim for f in await facts_of(svc, elsewhere)} == {"lives in Oslo", "has a cat"}


async def _counts(url: str, sql: str, wanted: int) -> bool:
    conn = await asyncpg.connect(url)
    try:
        return bool(await conn.fetchval(sql) == wanted)
    finally:
        await conn.close()


# The workers' sessions inside a transaction: the coordinator's connection of the one open below.
OPEN_TRANSACTIONS = """
SELECT pid FROM pg_stat_activity
 WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'idle in transaction'
"""


@pytest_asyncio.fixture
async def renews_the_shared_service(citus_service: Service) -> AsyncIterator[None]:
    """For a test that crashes a worker: the sessions that the shared service's coordinator sessions keep to it die
    too. The service renews its pool at its first call that meets one (the test below shows it); renewed here after
    the test, so that first call is not some later test's."""
    yield
    await citus_service.pool.expire_connections()


@pytest.mark.usefixtures("renews_the_shared_service")
async def test_a_worker_lost_inside_a_write_transaction_is_unavailable_not_internal(
    citus_cluster: Any, citus_url: str
) -> None:
    """The worker's session of an open write transaction dies without a word (killed: its node then restarts its
    sessions, as after a crash): Citus fails the transaction at its commit ("failure on connection marked as
    essential", SQLSTATE XX000); nothing is committed, and the service says UNAVAILABLE (a client retries), not
    INTERNAL."""
    agent, person = uuid.uuid4(), uuid.uuid4()
    pool = await asyncpg.create_pool(citus_url, min_size=1, max_size=1)
    try:
        with pytest.raises(Unavailable):
            async with locked(pool, agent, person):
                killed = 0
                for worker in (1, 2):
                    node = await asyncpg.connect(citus_cluster.node_url(worker))
                    try:
                        for pid in await node.fetch(OPEN_TRANSACTIONS):
                            psutil.Process(int(pid[0])).kill()
                            killed += 1
                    finally:
                        await node.close()
                assert killed == 1  # the person's shard's session of this transaction
        for worker in (1, 2):  # the nodes serve again
            await eventually(partial(_accepts, citus_cluster.node_url(worker)))
        async with pool.acquire() as conn:
            revision = await conn.fetchval(
                "SELECT revision FROM entity_revisions WHERE agent_id = $1 AND entity_id = $2", agent, person
            )
        assert revision is None  # nothing of the transaction was committed
    finally:
        await pool.close()


# The sessions of the coordinator's on a node (its Citus daemons apart).
CLIENT_SESSIONS = """
SELECT pid FROM pg_stat_activity
 WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
"""


@pytest.mark.usefixtures("renews_the_shared_service")
async def test_after_a_worker_crash_one_call_fails_and_then_the_pool_serves_again(
    citus_cluster: Any, citus_url: str
) -> None:
    """A worker's crash ends every session on it, among them those each coordinator session keeps open to it. A
    write that ships rows to the workers (the import ledger's INSERT ... SELECT into a table on every node) meets
    such a dead connection and fails (UNAVAILABLE), and would at every call on that pooled connection until Citus's
    cache ages out. The first failure renews the pool: the calls in flight with it may fail too, every call after
    them succeeds."""
    agent, size = uuid.uuid4(), 4
    pool = await asyncpg.create_pool(citus_url, min_size=size, max_size=size)

    async def record() -> bool:  # whether the call succeeded; each holds its connection so all `size` are used
        try:
            async with locked(pool, agent, uuid.uuid4()) as (conn, _):
                await import_ledger.record(conn, agent, [str(uuid.uuid4())])
                await asyncio.sleep(0.3)
        except Unavailable:
            return False
        return True

    async def wave() -> list[bool]:
        return await asyncio.gather(*(record() for _ in range(size)))

    try:
        assert all(await wave())  # every pooled session has its connections to both workers
        for worker in (1, 2):  # each worker crashes: one of its sessions killed, the node restarts them all
            node = await asyncpg.connect(citus_cluster.node_url(worker))
            try:
                psutil.Process(int(await node.fetchval(CLIENT_SESSIONS))).kill()
            finally:
                await node.close()
        for worker in (1, 2):
            await eventually(partial(_accepts, citus_cluster.node_url(worker)))
        assert not all(await wave())  # the dead sessions were met
        assert all(await wave()) and all(await wave())
    finally:
        await pool.close()


async def _accepts(url: str) -> bool:
    try:
        conn = await asyncpg.connect(url)
    except (OSError, asyncpg.PostgresError):
        return False
    await conn.close()
    return True
