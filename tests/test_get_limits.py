"""GetLimits over a real gRPC channel: it reports the request limits the service enforces as configured, so a client
(the elizaOS plugin) can learn them instead of copying them; a request at a reported limit is accepted and one past
it refused."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest

from factmemory.domain.limits import MAX_SPEAKER_ROLES
from factmemory.settings import Settings
from factmemory.v1 import factmemory_pb2 as pb
from factmemory_client import connect
from tests.conftest import Service, make_settings, start_service
from tests.support.fm import Person
from tests.support.llm_stub import ScriptedLLM


async def test_the_defaults_are_reported_as_the_settings_have_them(service: Service) -> None:
    limits = await service.stub.GetLimits(pb.GetLimitsRequest())
    defaults = Settings.model_fields
    for field in (
        "max_text_chars",
        "max_name_chars",
        "max_recent_messages",
        "max_batch_messages",
        "max_room_entities",
        "max_names_per_entity",
        "max_provide_limit",
        "max_id_chars",
    ):
        assert getattr(limits, field) == defaults[field].default, field
    assert limits.max_speaker_roles == MAX_SPEAKER_ROLES


async def test_a_changed_setting_is_reported_and_is_the_limit_enforced(
    pg_url: str, llm: ScriptedLLM, tmp_path: Path
) -> None:
    settings = make_settings(
        pg_url, llm, tmp_path, max_recent_messages=3, max_batch_messages=2, max_text_chars=120, max_provide_limit=5
    )
    async for svc in start_service(settings):
        limits = await svc.stub.GetLimits(pb.GetLimitsRequest())
        assert (limits.max_recent_messages, limits.max_batch_messages) == (3, 2)
        assert (limits.max_text_chars, limits.max_provide_limit) == (120, 5)
        async with connect(f"http://127.0.0.1:{svc.port}", timeout_s=30) as client:  # the Python client's way
            assert await client.get_limits() == limits

        person = Person()
        at_limit = ["hi"] * limits.max_recent_messages
        await svc.stub.Provide(person.provide(*at_limit, total_limit=2 * limits.max_provide_limit))
        await svc.stub.Provide(person.provide("x" * limits.max_text_chars))
        refused = [
            person.provide(*at_limit, "one more"),
            person.provide("x" * (limits.max_text_chars + 1)),
            person.provide("hi", total_limit=2 * limits.max_provide_limit + 1),
        ]
        for request in refused:
            with pytest.raises(grpc.aio.AioRpcError) as error:
                await svc.stub.Provide(request)
            assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT

        batch = person.batch(*(person.message(f"m{i}") for i in range(limits.max_batch_messages + 1)))
        with pytest.raises(grpc.aio.AioRpcError) as error:
            await svc.stub.EvaluateBatch(batch)
        assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert f"at most {limits.max_batch_messages} allowed" in (error.value.details() or "")
