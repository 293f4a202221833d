"""Open what the service needs once (embedder, database, pools, LLM client), close it in reverse order, and
the background tasks that run on it (retention, the replica watch, the watch for people forgotten elsewhere)."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime

import asyncpg
import openai
from grpc_health.v1 import health, health_pb2

from factmemory.adapters.embedding.embedders import LocalEmbedder, OpenAIEmbedder
from factmemory.adapters.llm.demo import DemoExtractor
from factmemory.adapters.llm.extractor import Extractor
from factmemory.adapters.metrics import ObservedEmbedder, PrometheusTelemetry
from factmemory.adapters.postgres.agents import PostgresAgents
from factmemory.adapters.postgres.connection import GENERIC_PLANS, open_pool
from factmemory.adapters.postgres.deployment.cluster_check import ClusterCheck
from factmemory.adapters.postgres.deployment.database import Database, migrate, open_database
from factmemory.adapters.postgres.deployment.replica import ReadRoute, Reads
from factmemory.adapters.postgres.deployment.replica_check import ReplicaCheck
from factmemory.adapters.postgres.deployment.topology import Topology, topology_of
from factmemory.adapters.postgres.erasure.forget_messages import PerPersonMessages, PostgresMessages
from factmemory.adapters.postgres.erasure.retention import PerPersonRetention, PostgresRetention
from factmemory.adapters.postgres.read.cached_provide import CachedProvide
from factmemory.adapters.postgres.read.forgotten import ForgetWatch
from factmemory.adapters.postgres.read.provide_store import PostgresProvide
from factmemory.adapters.postgres.read.vector_cache import VectorCopies, copies_possible
from factmemory.adapters.postgres.store import (
    PerPersonEvaluate,
    PostgresBrowse,
    PostgresBulk,
    PostgresEvaluate,
    PostgresReview,
)
from factmemory.adapters.postgres.tickets import PerPersonTickets, Tickets
from factmemory.adapters.retry import RetryPolicy
from factmemory.app.config import retention_policy, ticket_policy, tuning
from factmemory.domain.vector_cache import VectorCache
from factmemory.ports import Embedder, NullTelemetry, Telemetry
from factmemory.ports import Extractor as ExtractorPort
from factmemory.settings import Settings
from factmemory.usecases.deps import AgentModel, Deps
from factmemory.usecases.retention import run_periodically

# The health status of the read replica alone: NOT_SERVING while reads go to the primary because it is not valid.
READ_REPLICA_HEALTH = "factmemory.v1.ReadReplica"
# NOT_SERVING while a worker of the Citus cluster is unreachable (the server's own health follows the coordinator).
CLUSTER_HEALTH = "factmemory.v1.Cluster"


@dataclass(frozen=True)
class Adapters:
    """The adapters whose statements differ by deployment, chosen once at start (`adapters_for`): on a database
    distributed by person (Citus, docs/scaling.md) each module's PerPerson class, whose statements name the person
    so that they run on the person's shard alone."""

    evaluate: type[PostgresEvaluate]
    messages: type[PostgresMessages]
    tickets: type[Tickets]
    retention: type[PostgresRetention]


ONE_DATABASE = Adapters(PostgresEvaluate, PostgresMessages, Tickets, PostgresRetention)
PER_PERSON = Adapters(PerPersonEvaluate, PerPersonMessages, PerPersonTickets, PerPersonRetention)


def adapters_for(by_person: bool) -> Adapters:
    """PER_PERSON for a database distributed by person (Topology.by_person), else ONE_DATABASE."""
    return PER_PERSON if by_person else ONE_DATABASE


def _openai_client(settings: Settings, timeout_s: float, max_retries: int) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(
        api_key=settings.openai_api_key or "not-needed",
        base_url=settings.openai_base_url,
        timeout=timeout_s,
        max_retries=max_retries,
    )


async def start_embedder(settings: Settings) -> Embedder:
    """The local engine's worker processes are started from the event loop's thread: they are tied to it."""
    if settings.embedder == "local":
        return await LocalEmbedder.start(
            settings.effective_embedding_model,
            settings.effective_embedding_workers,
            settings.embedding_max_tokens,
            settings.effective_embedding_threads,
            settings.embedding_runtime,
        )
    # Retries are ours (RetryPolicy), as for the LLM.
    client = _openai_client(settings, settings.embedding_timeout_s, 0)
    retry = RetryPolicy(max_retries=settings.llm_max_retries, max_retry_after_s=settings.llm_max_retry_after_s)
    return OpenAIEmbedder(client, settings.effective_embedding_model, settings.embedding_dimensions, retry)


@dataclass(frozen=True)
class Runtime:
    """What serve needs besides the use-case bundle: the database (for health and restarts) and the metrics."""

    deps: Deps
    database: Database
    pool: asyncpg.Pool
    metrics: PrometheusTelemetry | None
    replica_check: ReplicaCheck | None = None
    cluster_check: ClusterCheck | None = None  # a database distributed by person on Citus
    adapters: Adapters = ONE_DATABASE  # by deployment (the retention sweep's)


@asynccontextmanager
async def open_runtime(settings: Settings) -> AsyncIterator[Runtime]:
    """Everything the service needs, opened once; closed in reverse order on exit."""
    async with AsyncExitStack() as stack:
        metrics = PrometheusTelemetry(settings.metrics_created_series) if settings.metrics_address else None
        telemetry: Telemetry = metrics or NullTelemetry()
        embedder = await start_embedder(settings)
        stack.push_async_callback(embedder.close)
        if metrics is not None:
            embedder = ObservedEmbedder(embedder, metrics)
        database = await stack.enter_async_context(open_database(settings.database_url, settings.data_dir))
        await migrate(database.url, embedder.dimensions)
        pool = await stack.enter_async_context(
            open_pool(database.url, settings.pool_min_size, settings.pool_max_size, settings.db_timeout_s)
        )
        topology = await topology_of(pool, settings.database_read_url)
        route, replica_check = None, None
        if topology is Topology.REPLICA:
            route, replica_check = await open_replica(stack, settings, pool, telemetry)
        extractor: ExtractorPort | None = None
        if settings.demo_model:
            extractor = DemoExtractor()
        elif settings.llm_configured:
            # Retries are ours (RetryPolicy), so a long Retry-After is not waited for inside a call.
            client = _openai_client(settings, settings.llm_timeout_s, 0)
            stack.push_async_callback(client.close)
            retry = RetryPolicy(max_retries=settings.llm_max_retries, max_retry_after_s=settings.llm_max_retry_after_s)
            extractor = Extractor(client, settings.llm_model, retry, telemetry)
        provide = await open_provide(stack, settings, database.url, Reads(pool, route), topology)
        adapters = adapters_for(topology.by_person)
        # Another process's ForgetEntity drops the person from this one's memory too (forgotten.py).
        await stack.enter_async_context(ForgetWatch(pool, provide.drop_held).running())
        deps = Deps(
            evaluate_store=adapters.evaluate(pool, route),
            provide_store=provide,
            review_store=PostgresReview(pool, route),
            browse_store=PostgresBrowse(pool, route),
            bulk_store=PostgresBulk(pool, route, forgotten=provide.drop_held),
            embedder=embedder,
            extractor=extractor,
            tuning=tuning(settings),
            telemetry=telemetry,
            messages=adapters.messages(pool),
            agents=PostgresAgents(pool),
            agent_model=AgentModel(adapters.tickets(pool), ticket_policy(settings)),
        )
        timeout_s = min(settings.db_timeout_s, settings.health_interval_s * 2)
        cluster_check = ClusterCheck(pool, telemetry, timeout_s) if topology.by_person else None
        stack.enter_context(settled_heap())
        yield Runtime(deps, database, pool, metrics, replica_check, cluster_check, adapters)


# Python's cyclic garbage collector, set for a long-running service once everything is loaded. The objects made at
# start-up (the modules, the embedding model's, gRPC's and pydantic's, ~140,000) are frozen out of its collections:
# otherwise each full collection walked all of them, one 74-77 ms pause in 300 Provides, inside whichever call it
# fell in. And the youngest generation is collected when 10,000 more containers are alive than at the last
# collection, not 700: a large person's Provide leaves that many more (cycles of futures, the duplicate check's
# memo filling up), so with 700 nearly every call paid a collection of up to 0.5 ms (273 in 300 calls). The total
# work is the same (each object is looked at once while young); the pauses are rarer and longer. In-process harness,
# 300 Provides of a person of 20,000 facts (2026-11-27 log): 5,000 gave 2 collections, the longer 1.6 ms; 20,000
# gave none in 300 calls and 2.3-3.2 ms each in longer runs. 10,000 is a judgement between them, not tuned.
YOUNG_COLLECTION_OBJECTS = 10_000


@contextmanager
def settled_heap() -> Iterator[None]:
    """While the service runs: the objects that exist now are left out of garbage collections (gc.freeze), and the
    youngest generation is collected less often (YOUNG_COLLECTION_OBJECTS). Both undone on exit (tests open many
    services in one process)."""
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION_OBJECTS, *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


async def open_replica(
    stack: AsyncExitStack, settings: Settings, pool: asyncpg.Pool, telemetry: Telemetry
) -> tuple[ReadRoute, ReplicaCheck]:
    """The route of reads to the replica (FACTMEMORY_DATABASE_READ_URL) and its check, run once at start-up: a read
    target that is not valid is never read from."""
    # min_size 0: the service starts while the replica is down (reads fall back to the primary).
    read_pool = await stack.enter_async_context(
        open_pool(settings.database_read_url or "", 0, settings.pool_max_size, settings.db_timeout_s)
    )
    route = ReadRoute(pool, read_pool, telemetry, settings.read_retry_s)
    replica_check = ReplicaCheck(route, settings.read_replay_stall_s)
    await replica_check.check()
    return route, replica_check


async def open_provide(
    stack: AsyncExitStack, settings: Settings, url: str, reads: Reads, topology: Topology
) -> PostgresProvide:
    """Provide's store for the deployment. On one PostgreSQL (Topology.caches_provide): its candidate statement on
    connections that plan it once (connection.GENERIC_PLANS), and the copies of large people's vectors when on."""
    if not topology.caches_provide:
        return PostgresProvide(reads)
    copies = await vector_copies(settings, reads.pool)
    candidates = await stack.enter_async_context(
        open_pool(url, 1, settings.pool_max_size, settings.db_timeout_s, GENERIC_PLANS)
    )
    return PostgresProvide(reads, candidates) if copies is None else CachedProvide(reads, copies, candidates)


async def vector_copies(settings: Settings, pool: asyncpg.Pool) -> VectorCopies | None:
    """The copies of large people's vectors (FACTMEMORY_PROVIDE_CACHE_*), when on and the database stamps its
    writes of facts (migration 0092)."""
    if not settings.provide_cache_mb or not await copies_possible(pool):
        return None
    return VectorCopies(VectorCache(settings.provide_cache_mb * 2**20), settings.provide_cache_min_facts)


@asynccontextmanager
async def open_deps(settings: Settings) -> AsyncIterator[Deps]:
    """Everything the use-cases need, opened once; closed in reverse order on exit."""
    async with open_runtime(settings) as runtime:
        yield runtime.deps


def start_retention(runtime: Runtime, settings: Settings) -> asyncio.Task[None] | None:
    """The background sweep (FACTMEMORY_RETENTION_INTERVAL_S; 0 = off)."""
    if not settings.retention_interval_s:
        return None
    return asyncio.create_task(
        run_periodically(
            runtime.adapters.retention(runtime.pool),
            retention_policy(settings),
            settings.retention_interval_s,
            lambda: datetime.now(UTC),
            runtime.deps.telemetry,
        )
    )


def start_replica_watch(
    runtime: Runtime, settings: Settings, health_servicer: health.aio.HealthServicer
) -> asyncio.Task[None] | None:
    """Checks the read target every health interval; its verdict sets the read-replica health status."""
    if runtime.replica_check is None:
        return None

    async def report(reason: str) -> None:
        status = health_pb2.HealthCheckResponse.NOT_SERVING if reason else health_pb2.HealthCheckResponse.SERVING
        await health_servicer.set(READ_REPLICA_HEALTH, status)

    return asyncio.create_task(runtime.replica_check.run(settings.health_interval_s, report))


def start_cluster_watch(
    runtime: Runtime,
    settings: Settings,
    health_servicer: health.aio.HealthServicer,
    degraded: Callable[[str], None] | None = None,
) -> asyncio.Task[None] | None:
    """Checks the Citus workers every health interval (a database distributed by person only): their verdict sets
    the cluster's health status and, through `degraded`, the detail /healthz shows."""
    if runtime.cluster_check is None:
        return None

    async def report(reason: str) -> None:
        status = health_pb2.HealthCheckResponse.NOT_SERVING if reason else health_pb2.HealthCheckResponse.SERVING
        await health_servicer.set(CLUSTER_HEALTH, status)
        if degraded is not None:
            degraded(reason)

    return asyncio.create_task(runtime.cluster_check.run(settings.health_interval_s, report))
