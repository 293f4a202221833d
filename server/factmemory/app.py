"""Composition root: open the database, embedder and LLM client once, serve, close in reverse order."""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import signal
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import urlsplit

import asyncpg
import grpc
import openai
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from factmemory.adapters.embedding.embedders import LocalEmbedder, OpenAIEmbedder
from factmemory.adapters.llm.extractor import Extractor
from factmemory.adapters.metrics import DatabaseGauges, Health, MetricsServer, ObservedEmbedder, PrometheusTelemetry
from factmemory.adapters.postgres.agents import PostgresAgents
from factmemory.adapters.postgres.connection import open_pool
from factmemory.adapters.postgres.database import Database, migrate, open_database
from factmemory.adapters.postgres.health import DatabaseProbe, count_pending_candidates
from factmemory.adapters.postgres.messages import PostgresMessages
from factmemory.adapters.postgres.replica import ReadRoute
from factmemory.adapters.postgres.replica_check import ReplicaCheck
from factmemory.adapters.postgres.retention import PostgresRetention
from factmemory.adapters.postgres.store import Store
from factmemory.adapters.postgres.tickets import Tickets
from factmemory.adapters.postgres.urls import describe_url
from factmemory.adapters.retry import RetryPolicy
from factmemory.api.grpc.health import NOT_SERVING, HealthWatch, Probe
from factmemory.api.grpc.interceptors import BearerAuth, DecodeGuard
from factmemory.api.grpc.metrics import Observe
from factmemory.api.grpc.servicer import FactMemoryServicer
from factmemory.api.guessing import MIN_TOKEN_CHARS, GuessLimiter, GuessLimits
from factmemory.api.http.pages import PageConfig
from factmemory.api.http.server import PageListener, split_address
from factmemory.api.logs import announce
from factmemory.domain.limits import Limits
from factmemory.domain.retention import RetentionPolicy
from factmemory.domain.tickets import TicketPolicy
from factmemory.ports import Embedder, NullTelemetry, Telemetry
from factmemory.settings import Settings
from factmemory.usecases.deps import AgentModel, Deps, Tuning
from factmemory.usecases.retention import run_periodically
from factmemory.v1 import factmemory_pb2, factmemory_pb2_grpc

log = logging.getLogger(__name__)

OPENAI_DEFAULT_URL = "https://api.openai.com/v1"
SERVICE_NAME = factmemory_pb2.DESCRIPTOR.services_by_name["FactMemoryService"].full_name
# The health status of the read replica alone: NOT_SERVING while reads go to the primary because it is not valid.
READ_REPLICA_HEALTH = "factmemory.v1.ReadReplica"


class InsecureBind(ValueError):
    """Refusing to listen beyond loopback without a token."""


class ListenError(RuntimeError):
    """The listening address cannot be bound (in use by another server, or not an address of this host)."""


def _host_of(url: str) -> str:
    """host[:port] of an http(s) URL, never its user, password, path or query."""
    parts = urlsplit(url)
    host = parts.hostname or "(no host)"
    return f"{host}:{parts.port}" if parts.port else host


def startup_line(
    settings: Settings, address: str, metrics_address: str | None = None, page_address: str | None = None
) -> str:
    """The effective configuration in one line, every secret left out (the database URL's user and password,
    the API key, the auth token)."""
    if settings.database_url:
        database = describe_url(settings.database_url)
    else:
        database = f"embedded {(settings.data_dir / 'pgdata').absolute()}"
    if settings.database_read_url:
        database += f" reads={describe_url(settings.database_read_url)}"
    embedder = f"{settings.embedder} {settings.effective_embedding_model}"
    if settings.embedder == "openai":
        embedder += f" at {_host_of(settings.openai_base_url or OPENAI_DEFAULT_URL)}"
    llm = "none"
    if settings.llm_configured:
        llm = f"{settings.llm_model} at {_host_of(settings.openai_base_url or OPENAI_DEFAULT_URL)}"
    tls = "on" if settings.tls_cert_file and settings.tls_key_file else "off"
    auth = "on" if settings.auth_token else "off"
    metrics = metrics_address or settings.metrics_address or "off"
    page = page_address or settings.http_listen or "off"
    return (
        f"factmemory config: listen={address} database={database} embedder={embedder} llm={llm} tls={tls} "
        f"auth={auth} metrics={metrics} review_page={page} log_format={settings.log_format}"
    )


def _openai_client(settings: Settings, timeout_s: float, max_retries: int) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(
        api_key=settings.openai_api_key or "not-needed",
        base_url=settings.openai_base_url,
        timeout=timeout_s,
        max_retries=max_retries,
    )


def embedding_dimensions(settings: Settings) -> int:
    return LocalEmbedder.dimensions if settings.embedder == "local" else settings.embedding_dimensions


async def start_embedder(settings: Settings) -> Embedder:
    """The local engine's worker processes are started from the event loop's thread: they are tied to it."""
    if settings.embedder == "local":
        return await LocalEmbedder.start(
            settings.effective_embedding_model, settings.effective_embedding_workers, settings.embedding_max_tokens
        )
    # Retries are ours (RetryPolicy), as for the LLM.
    client = _openai_client(settings, settings.embedding_timeout_s, 0)
    retry = RetryPolicy(max_retries=settings.llm_max_retries, max_retry_after_s=settings.llm_max_retry_after_s)
    return OpenAIEmbedder(client, settings.effective_embedding_model, settings.embedding_dimensions, retry)


def limits(settings: Settings) -> Limits:
    """The bounds of requests, model replies, responses and the prompt, from their one home: settings."""
    return Limits(
        max_id_chars=settings.max_id_chars,
        max_name_chars=settings.max_name_chars,
        max_text_chars=settings.max_text_chars,
        max_recent_messages=settings.max_recent_messages,
        max_batch_messages=settings.max_batch_messages,
        max_room_entities=settings.max_room_entities,
        max_names_per_entity=settings.max_names_per_entity,
        max_provide_limit=settings.max_provide_limit,
        default_provide_limit=settings.default_provide_limit,
        max_page_size=settings.max_page_size,
        default_page_size=settings.default_page_size,
        max_claim_chars=settings.max_claim_chars,
        max_ops=settings.max_ops_per_message,
        max_relationships=settings.max_relationships_per_message,
        max_identities=settings.max_identities_per_message,
        max_tags=settings.max_tags,
        max_tag_chars=settings.max_tag_chars,
        max_fields=settings.max_fields,
        max_field_chars=settings.max_field_chars,
        max_evidence_ids=settings.max_evidence_ids,
        max_response_bytes=settings.max_response_bytes,
        prompt_max_tokens=settings.prompt_max_tokens,
        prompt_message_max_tokens=settings.prompt_message_max_tokens,
        prompt_current_message_max_tokens=settings.prompt_current_message_max_tokens,
        clock_skew_s=settings.clock_skew_s,
    )


def tuning(settings: Settings) -> Tuning:
    return Tuning(
        limits=limits(settings),
        dedup_threshold=settings.effective_dedup_threshold,
        current_decay_days=settings.current_decay_days,
    )


def _period(days: float) -> float | None:
    return days or None


def ticket_policy(settings: Settings) -> TicketPolicy:
    return TicketPolicy(
        ttl_s=settings.ticket_ttl_s,
        max_per_entity=settings.max_tickets_per_entity,
        max_total=settings.max_tickets,
        max_reply_chars=settings.max_reply_chars,
    )


def retention_policy(settings: Settings) -> RetentionPolicy:
    return RetentionPolicy(
        decay_days=settings.current_decay_days,
        floor=settings.retention_floor,
        stale_days=settings.retention_stale_days,
        delete_after_days=_period(settings.retention_delete_after_days),
        evaluation_window_days=_period(settings.evaluation_window_days),
        candidate_archive_days=_period(settings.candidate_archive_days),
        batch=settings.retention_batch,
    )


def start_retention(runtime: Runtime, settings: Settings) -> asyncio.Task[None] | None:
    """The background sweep (FACTMEMORY_RETENTION_INTERVAL_S; 0 = off)."""
    if not settings.retention_interval_s:
        return None
    return asyncio.create_task(
        run_periodically(
            PostgresRetention(runtime.pool),
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


@dataclass(frozen=True)
class Runtime:
    """What serve needs besides the use-case bundle: the database (for health and restarts) and the metrics."""

    deps: Deps
    database: Database
    pool: asyncpg.Pool
    metrics: PrometheusTelemetry | None
    replica_check: ReplicaCheck | None = None


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
        reads, replica_check = None, None
        if settings.database_read_url:
            # min_size 0: the service starts while the replica is down (reads fall back to the primary).
            read_pool = await stack.enter_async_context(
                open_pool(settings.database_read_url, 0, settings.pool_max_size, settings.db_timeout_s)
            )
            reads = ReadRoute(pool, read_pool, telemetry, settings.read_retry_s)
            replica_check = ReplicaCheck(reads, settings.read_replay_stall_s)
            await replica_check.check()  # at start-up: a read target that is not valid is never read from
        extractor = None
        if settings.llm_configured:
            # Retries are ours (RetryPolicy), so a long Retry-After is not waited for inside a call.
            client = _openai_client(settings, settings.llm_timeout_s, 0)
            stack.push_async_callback(client.close)
            retry = RetryPolicy(max_retries=settings.llm_max_retries, max_retry_after_s=settings.llm_max_retry_after_s)
            extractor = Extractor(client, settings.llm_model, retry, telemetry)
        deps = Deps(
            store=Store(pool, reads),
            embedder=embedder,
            extractor=extractor,
            tuning=tuning(settings),
            telemetry=telemetry,
            messages=PostgresMessages(pool),
            agents=PostgresAgents(pool),
            agent_model=AgentModel(Tickets(pool), ticket_policy(settings)),
        )
        yield Runtime(deps, database, pool, metrics, replica_check)


@asynccontextmanager
async def open_deps(settings: Settings) -> AsyncIterator[Deps]:
    """Everything the use-cases need, opened once; closed in reverse order on exit."""
    async with open_runtime(settings) as runtime:
        yield runtime.deps


def _is_loopback(address: str) -> bool:
    host = address.rsplit(":", 1)[0].strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_bind(settings: Settings) -> None:
    for address in (settings.listen, settings.http_listen):
        if address is None or settings.auth_token or _is_loopback(address) or settings.allow_remote_unauthenticated:
            continue
        raise InsecureBind(
            f"refusing to listen on {address} without FACTMEMORY_AUTH_TOKEN; set a token, listen on "
            "127.0.0.1, or set FACTMEMORY_ALLOW_REMOTE_UNAUTHENTICATED=1"
        )


class WeakToken(InsecureBind):
    """The access token is too short to stand guessing."""


def check_token(settings: Settings) -> None:
    """A token shorter than MIN_TOKEN_CHARS is refused at start-up, in one line that does not show it."""
    if settings.auth_token and len(settings.auth_token) < MIN_TOKEN_CHARS:  # "" means no token, as elsewhere
        raise WeakToken(
            f"FACTMEMORY_AUTH_TOKEN is {len(settings.auth_token)} characters; at least {MIN_TOKEN_CHARS} are needed "
            "(make one with: openssl rand -hex 32)"
        )


def guess_limits(settings: Settings) -> GuessLimits:
    return GuessLimits(
        settings.auth_failures_per_client, settings.auth_failures_overall, settings.auth_failure_window_s
    )


def page_config(settings: Settings) -> PageConfig:
    """The review page answers to loopback names and the host it was told to listen on."""
    host = split_address(settings.http_listen or "127.0.0.1:0")[0]
    named = f"[{host}]" if ":" in host else host  # a Host header writes an IPv6 address in brackets
    hosts = ("*",) if host in ("0.0.0.0", "::", "") else ("127.0.0.1", "localhost", "[::1]", named)
    return PageConfig(token=settings.auth_token, allowed_hosts=hosts, guess_limits=guess_limits(settings))


async def start_page(deps: Deps, settings: Settings) -> PageListener | None:
    """The review page's HTTP listener when FACTMEMORY_HTTP_LISTEN is set."""
    if not settings.http_listen:
        return None
    page = PageListener(deps, page_config(settings), settings.http_listen)
    await page.start()
    url = f"http://{settings.http_listen.rsplit(':', 1)[0]}:{page.port}/"
    announce(f"factmemory review page on {url}", event="review_page", url=url)
    return page


def create_server(
    deps: Deps, settings: Settings, health_servicer: health.aio.HealthServicer | None = None
) -> tuple[grpc.aio.Server, int]:
    """A server with the service, health and reflection bound to settings.listen; returns it and its port."""
    # Observe is outermost so that refused and undecodable calls are counted and logged too.
    interceptors: list[grpc.aio.ServerInterceptor] = [Observe(deps.telemetry)]
    if settings.auth_token:
        interceptors.append(
            BearerAuth(settings.auth_token, GuessLimiter("grpc", deps.telemetry, guess_limits(settings)))
        )
    interceptors.append(DecodeGuard())
    server = grpc.aio.server(
        interceptors=interceptors,
        # so_reuseport 0: a second server on a taken port must fail, not silently share it.
        options=[("grpc.max_receive_message_length", settings.max_request_bytes), ("grpc.so_reuseport", 0)],
    )
    factmemory_pb2_grpc.add_FactMemoryServiceServicer_to_server(FactMemoryServicer(deps), server)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer or health.aio.HealthServicer(), server)
    reflection.enable_server_reflection((SERVICE_NAME, reflection.SERVICE_NAME, health.SERVICE_NAME), server)
    try:
        if settings.tls_cert_file and settings.tls_key_file:
            credentials = grpc.ssl_server_credentials(
                [(settings.tls_key_file.read_bytes(), settings.tls_cert_file.read_bytes())]
            )
            port = server.add_secure_port(settings.listen, credentials)
        else:
            port = server.add_insecure_port(settings.listen)
    except RuntimeError as exc:  # grpc's "Failed to bind to address ..."
        raise ListenError(
            f"cannot listen on {settings.listen}: the address is in use by another process or "
            "is not an address of this host"
        ) from exc
    return server, port


class DependencyLost(RuntimeError):
    """A dependency died and could not be brought back (the embedded database did not restart)."""


def health_probes(runtime: Runtime, settings: Settings, probe: DatabaseProbe) -> list[Probe]:
    """The database (restarted when it is the embedded one and its process died) and the embedder."""
    embedded = runtime.database.embedded

    async def restart_embedded() -> None:
        if embedded is None or await asyncio.to_thread(embedded.alive):
            return
        try:
            url = await asyncio.to_thread(embedded.restart, settings.embedded_restart_attempts)
        except RuntimeError as exc:
            raise DependencyLost(str(exc)) from exc
        if url != runtime.database.url:
            raise DependencyLost(f"the embedded PostgreSQL came back at another address ({url})")

    probes = [Probe("database", probe.ok, restart_embedded if embedded is not None else None)]
    embedder = runtime.deps.embedder

    async def embedder_alive() -> bool:
        return embedder.healthy()

    probes.append(Probe("embedder", embedder_alive))
    return probes


def start_metrics(runtime: Runtime, settings: Settings, health: Health | None = None) -> MetricsServer | None:
    if runtime.metrics is None or settings.metrics_address is None:
        return None
    pool = runtime.pool
    runtime.metrics.registry.register(
        DatabaseGauges(
            asyncio.get_running_loop(),
            lambda: count_pending_candidates(pool, settings.db_timeout_s),
            lambda: (pool.get_size(), pool.get_idle_size()),
        )
    )
    try:
        return MetricsServer(runtime.metrics.registry, settings.metrics_address, health)
    except OSError as exc:
        raise ListenError(f"cannot serve metrics on {settings.metrics_address}: {exc.strerror or exc}") from exc


async def serve(settings: Settings) -> int:
    """Start, print the configuration and the address, watch the dependencies, wait for SIGTERM/SIGINT, drain
    in-flight calls, close everything. Returns the exit code: non-zero when a dependency was lost for good."""
    check_bind(settings)
    check_token(settings)
    if not settings.llm_configured:  # said by the server only: import, export and prune need no LLM
        log.warning(
            "no LLM configured (OPENAI_API_KEY / OPENAI_BASE_URL): Evaluate answers FAILED_PRECONDITION; "
            "the agent-model mode (PrepareEvaluation / CompleteEvaluation) works"
        )
    async with open_runtime(settings) as runtime, AsyncExitStack() as stack:
        health_servicer = health.aio.HealthServicer()
        server, port = create_server(runtime.deps, settings, health_servicer)
        probe = DatabaseProbe(runtime.database.url, min(settings.db_timeout_s, settings.health_interval_s * 2))
        stack.push_async_callback(probe.close)
        watch = HealthWatch(
            health_servicer, ("", SERVICE_NAME), health_probes(runtime, settings, probe), settings.health_interval_s
        )
        metrics_server = start_metrics(runtime, settings, watch.report)
        if metrics_server is not None:
            stack.callback(metrics_server.close)
        await server.start()
        await watch.set_all(health_pb2.HealthCheckResponse.SERVING)
        host = settings.listen.rsplit(":", 1)[0]
        metrics_address = metrics_server.address if metrics_server is not None else None
        page = await start_page(runtime.deps, settings)
        page_address = None if page is None else f"{(settings.http_listen or '').rsplit(':', 1)[0]}:{page.port}"
        announce(
            startup_line(settings, f"{host}:{port}", metrics_address, page_address),
            event="config",
            metrics=metrics_address or "off",
            review_page=page_address or "off",
        )
        if not settings.auth_token:
            announce(f"factmemory: no FACTMEMORY_AUTH_TOKEN set; serving without authentication on {host}")
        announce(f"factmemory listening on {host}:{port}", event="listening", address=f"{host}:{port}")
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        watching = asyncio.create_task(watch.run())
        watching.add_done_callback(lambda _: stop.set())
        retention = start_retention(runtime, settings)
        replica_watch = start_replica_watch(runtime, settings, health_servicer)
        try:
            await stop.wait()
        finally:
            log.info("shutting down: draining in-flight calls for up to %.0f s", settings.grace_s)
            watching.cancel()
            if replica_watch is not None:
                replica_watch.cancel()
            if retention is not None:
                retention.cancel()
                await asyncio.gather(retention, return_exceptions=True)  # done before the pool closes
            watch.status = NOT_SERVING  # /healthz says it too
            await health_servicer.enter_graceful_shutdown()
            if page is not None:
                await page.stop()
            await server.stop(settings.grace_s)
        lost = None if watching.cancelled() else watching.exception()
        if lost is not None:
            raise DependencyLost(f"stopping: {lost}") from lost
    return 0
