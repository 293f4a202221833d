"""Server reflection is behind the token like every RPC but health (docs/operating.md, "Security"): real server,
real channel, the reflection client grpcio ships."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from tests.conftest import make_settings, start_service
from tests.support.llm_stub import ScriptedLLM

TOKEN = "reflection-token-0123456789"


async def services(channel: grpc.aio.Channel, metadata: tuple[tuple[str, str], ...] | None) -> list[str]:
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    call = stub.ServerReflectionInfo(
        iter([reflection_pb2.ServerReflectionRequest(list_services="")]), metadata=metadata
    )
    async for reply in call:
        return [s.name for s in reply.list_services_response.service]
    return []


async def test_reflection_needs_the_token_and_health_does_not(pg_url: str, llm: ScriptedLLM, tmp_path: Path) -> None:
    settings = make_settings(pg_url, llm, tmp_path, auth_token=TOKEN, embedding_workers=1)
    async for svc in start_service(settings):
        for metadata in (None, (("authorization", "Bearer wrong-token-000000000"),)):
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await services(svc.channel, metadata)
            assert refused.value.code() is grpc.StatusCode.UNAUTHENTICATED
        listed = await services(svc.channel, (("authorization", f"Bearer {TOKEN}"),))
        assert "factmemory.v1.FactMemoryService" in listed
        health = await health_pb2_grpc.HealthStub(svc.channel).Check(health_pb2.HealthCheckRequest())
        assert health.status in (health_pb2.HealthCheckResponse.SERVING, health_pb2.HealthCheckResponse.UNKNOWN)
