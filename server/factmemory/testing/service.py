"""The real service in the caller's process on a loopback port, as the benchmarks and tools run it."""

from __future__ import annotations

from contextlib import AsyncExitStack
from typing import Any

import grpc

from factmemory.app import create_server, open_deps
from factmemory.settings import Settings
from factmemory.usecases.deps import Deps
from factmemory.v1 import factmemory_pb2_grpc as pb_grpc


def bench_settings(base: Settings, database_url: str, llm_url: str, **extra: Any) -> Settings:
    """`base` with a free loopback port, the given database and scripted LLM, the local embedder, no auth or TLS."""
    return base.model_copy(
        update={
            "listen": "127.0.0.1:0",
            "database_url": database_url,
            "embedder": "local",
            "embedding_model": None,
            "openai_api_key": "bench",
            "openai_base_url": llm_url,
            "auth_token": None,
            "tls_cert_file": None,
            "tls_key_file": None,
            **extra,
        }
    )


async def serve_in_process(stack: AsyncExitStack, settings: Settings) -> tuple[Deps, pb_grpc.FactMemoryServiceStub]:
    """Opens the service's dependencies, serves it and connects a stub; all closed with `stack`."""
    deps = await stack.enter_async_context(open_deps(settings))
    server, port = create_server(deps, settings)
    await server.start()
    stack.push_async_callback(server.stop, 1)
    channel = await stack.enter_async_context(grpc.aio.insecure_channel(f"127.0.0.1:{port}"))
    return deps, pb_grpc.FactMemoryServiceStub(channel)
