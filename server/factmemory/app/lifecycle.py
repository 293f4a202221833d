"""Serving: build the gRPC server, the review page and the metrics listener, watch the dependencies, wait for a
signal, drain and stop."""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
from contextlib import AsyncExitStack

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from factmemory.adapters.metrics import DatabaseGauges, Health, MetricsServer
from factmemory.adapters.postgres.deployment.health import DatabaseProbe, count_pending_candidates
from factmemory.api.grpc.health import NOT_SERVING, HealthWatch, Probe
from factmemory.api.grpc.interceptors import BearerAuth, DecodeGuard
from factmemory.api.grpc.metrics import Observe
from factmemory.api.grpc.servicer import FactMemoryServicer
from factmemory.api.guessing import GuessLimiter
from factmemory.api.http.server import PageListener
from factmemory.api.logs import announce
from factmemory.app.config import (
    check_bind,
    check_token,
    deprecations,
    guess_limits,
    next_steps,
    page_config,
    startup_line,
)
from factmemory.app.runtime import Runtime, open_runtime, start_cluster_watch, start_replica_watch, start_retention
from factmemory.settings import Settings
from factmemory.usecases.deps import Deps
from factmemory.v1 import factmemory_pb2, factmemory_pb2_grpc

log = logging.getLogger(__name__)
SERVICE_NAME = factmemory_pb2.DESCRIPTOR.services_by_name["FactMemoryService"].full_name


class ListenError(RuntimeError):
    """The listening address cannot be bound (in use by another server, or not an address of this host)."""


class DependencyLost(RuntimeError):
    """A dependency died and could not be brought back (the embedded database did not restart)."""


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


def check_free(listen: str) -> None:
    """ListenError before anything starts when no address `listen` names can be bound (taken by another process,
    or not an address of this host): the project's one line, rather than gRPC's native `add_port` line first."""
    host, _, port = listen.rpartition(":")
    if not port.isdigit() or int(port) == 0:
        return
    try:
        found = socket.getaddrinfo(
            host.strip("[]") or None, int(port), type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except socket.gaierror:
        return  # gRPC says what it cannot resolve
    for family, kind, proto, _, address in found:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gRPC binds: TIME_WAIT is no conflict
            try:
                probe.bind(address)
            except OSError:
                continue
            return
    raise ListenError(
        f"cannot listen on {listen}: the address is in use by another process or is not an address of this host"
    )


async def start_page(deps: Deps, settings: Settings) -> PageListener | None:
    """The review page's HTTP listener when FACTMEMORY_HTTP_LISTEN is set."""
    if not settings.http_listen:
        return None
    page = PageListener(deps, page_config(settings), settings.http_listen)
    await page.start()
    url = f"http://{settings.http_listen.rsplit(':', 1)[0]}:{page.port}/"
    announce(f"factmemory review page on {url}", event="review_page", url=url)
    return page


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
    check_free(settings.listen)
    for line in deprecations(settings):
        log.warning(line)
    if not settings.llm_configured:  # said by the server only: import, export and prune need no LLM
        log.warning(
            "no LLM configured (OPENAI_API_KEY / OPENAI_BASE_URL): Evaluate answers FAILED_PRECONDITION; "
            "the agent-model mode (PrepareEvaluation / CompleteEvaluation) works; `factmemory serve --demo` "
            "tries Evaluate without a key"
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
        for line in next_steps(settings, f"{host}:{port}", page_address):
            announce(f"  {line}", event="next")
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        watching = asyncio.create_task(watch.run())
        watching.add_done_callback(lambda _: stop.set())
        retention = start_retention(runtime, settings)
        replica_watch = start_replica_watch(runtime, settings, health_servicer)
        cluster_watch = start_cluster_watch(
            runtime, settings, health_servicer, lambda why: setattr(watch, "degraded", why)
        )
        try:
            await stop.wait()
        finally:
            log.info("shutting down: draining in-flight calls for up to %.0f s", settings.grace_s)
            watching.cancel()
            for task in (replica_watch, cluster_watch):
                if task is not None:
                    task.cancel()
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
