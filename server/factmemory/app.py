"""Composition root: open the database, embedder and LLM client once, serve, close in reverse order."""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import signal
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

import grpc
import openai
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from factmemory.adapters.embedding import LocalEmbedder, OpenAIEmbedder
from factmemory.adapters.llm import Extractor
from factmemory.adapters.postgres.database import database_url, migrate
from factmemory.adapters.postgres.store import Store, open_pool
from factmemory.adapters.retry import RetryPolicy
from factmemory.api.grpc.convert import RequestLimits
from factmemory.api.grpc.interceptors import BearerAuth, DecodeGuard
from factmemory.api.grpc.servicer import FactMemoryServicer
from factmemory.domain.ops import Limits
from factmemory.ports import Embedder
from factmemory.settings import Settings
from factmemory.usecases.deps import Deps, Tuning
from factmemory.v1 import factmemory_pb2, factmemory_pb2_grpc

log = logging.getLogger(__name__)

SERVICE_NAME = factmemory_pb2.DESCRIPTOR.services_by_name["FactMemoryService"].full_name


class InsecureBind(ValueError):
    """Refusing to listen beyond loopback without a token."""


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
        return await LocalEmbedder.start(settings.effective_embedding_model, settings.effective_embedding_workers,
                                         settings.embedding_max_tokens)
    # Retries are ours (RetryPolicy), as for the LLM.
    client = _openai_client(settings, settings.embedding_timeout_s, 0)
    retry = RetryPolicy(max_retries=settings.llm_max_retries, max_retry_after_s=settings.llm_max_retry_after_s)
    return OpenAIEmbedder(client, settings.effective_embedding_model, settings.embedding_dimensions, retry)


def tuning(settings: Settings) -> Tuning:
    return Tuning(
        dedup_threshold=settings.effective_dedup_threshold,
        current_decay_days=settings.current_decay_days,
        limits=Limits(max_claim_chars=settings.max_claim_chars, max_ops=settings.max_ops_per_message),
    )


def request_limits(settings: Settings) -> RequestLimits:
    return RequestLimits(max_text_chars=settings.max_text_chars, max_recent_messages=settings.max_recent_messages,
                         max_room_entities=settings.max_room_entities)


@asynccontextmanager
async def open_deps(settings: Settings) -> AsyncIterator[Deps]:
    """Everything the use-cases need, opened once; closed in reverse order on exit."""
    async with AsyncExitStack() as stack:
        embedder = await start_embedder(settings)
        stack.push_async_callback(embedder.close)
        url = await stack.enter_async_context(database_url(settings.database_url, settings.data_dir))
        await migrate(url, embedder.dimensions)
        pool = await stack.enter_async_context(
            open_pool(url, settings.pool_min_size, settings.pool_max_size, settings.db_timeout_s))
        extractor = None
        if settings.llm_configured:
            # Retries are ours (RetryPolicy), so a long Retry-After is not waited for inside a call.
            client = _openai_client(settings, settings.llm_timeout_s, 0)
            stack.push_async_callback(client.close)
            retry = RetryPolicy(max_retries=settings.llm_max_retries, max_retry_after_s=settings.llm_max_retry_after_s)
            extractor = Extractor(client, settings.llm_model, retry)
        else:
            log.warning("no LLM configured (OPENAI_API_KEY / OPENAI_BASE_URL): Evaluate answers FAILED_PRECONDITION")
        yield Deps(store=Store(pool), embedder=embedder, extractor=extractor, tuning=tuning(settings))


def _is_loopback(address: str) -> bool:
    host = address.rsplit(":", 1)[0].strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_bind(settings: Settings) -> None:
    if settings.auth_token or _is_loopback(settings.listen) or settings.allow_remote_unauthenticated:
        return
    raise InsecureBind(
        f"refusing to listen on {settings.listen} without FACTMEMORY_AUTH_TOKEN; set a token, listen on "
        "127.0.0.1, or set FACTMEMORY_ALLOW_REMOTE_UNAUTHENTICATED=1"
    )


def create_server(deps: Deps, settings: Settings, health_servicer: health.aio.HealthServicer | None = None
                  ) -> tuple[grpc.aio.Server, int]:
    """A server with the service, health and reflection bound to settings.listen; returns it and its port."""
    interceptors: list[grpc.aio.ServerInterceptor] = [BearerAuth(settings.auth_token)] if settings.auth_token else []
    interceptors.append(DecodeGuard())
    server = grpc.aio.server(
        interceptors=interceptors,
        options=[("grpc.max_receive_message_length", settings.max_request_bytes)],
    )
    factmemory_pb2_grpc.add_FactMemoryServiceServicer_to_server(
        FactMemoryServicer(deps, request_limits(settings)), server)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer or health.aio.HealthServicer(), server)
    reflection.enable_server_reflection((SERVICE_NAME, reflection.SERVICE_NAME, health.SERVICE_NAME), server)
    if settings.tls_cert_file and settings.tls_key_file:
        credentials = grpc.ssl_server_credentials(
            [(settings.tls_key_file.read_bytes(), settings.tls_cert_file.read_bytes())])
        port = server.add_secure_port(settings.listen, credentials)
    else:
        port = server.add_insecure_port(settings.listen)
    return server, port


async def serve(settings: Settings) -> None:
    """Start, print the address, wait for SIGTERM/SIGINT, drain in-flight calls, close everything."""
    check_bind(settings)
    async with open_deps(settings) as deps:
        health_servicer = health.aio.HealthServicer()
        server, port = create_server(deps, settings, health_servicer)
        await server.start()
        await health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
        await health_servicer.set(SERVICE_NAME, health_pb2.HealthCheckResponse.SERVING)
        host = settings.listen.rsplit(":", 1)[0]
        if not settings.auth_token:
            print(f"factmemory: no FACTMEMORY_AUTH_TOKEN set; serving without authentication on {host}",
                  flush=True)
        print(f"factmemory listening on {host}:{port}", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        try:
            await stop.wait()
        finally:
            log.info("shutting down: draining in-flight calls for up to %.0f s", settings.grace_s)
            await health_servicer.enter_graceful_shutdown()
            await server.stop(settings.grace_s)
