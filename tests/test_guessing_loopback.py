"""The guess limiter stops guessers without stopping the right callers (issue 36, item 5), against real parallel
guessers from ten loopback addresses (127.0.0.2-11; every 127/8 address routes to lo on Linux) over real gRPC and
HTTP: an agent holding the token is served every call while they guess, so is a right caller from a fresh address,
and a logged-in reviewer; a call without a token is a configuration error (its own status and log line), never a
guess; an IPv6 caller is counted by its /64 (a real call over ::1)."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest
import pytest_asyncio

from factmemory.api.guessing import MISSING_TOKEN, GuessLimits
from factmemory.api.http.pages import PageConfig
from factmemory.api.http.server import PageListener
from factmemory.app import create_server
from factmemory.v1 import factmemory_pb2 as pb
from factmemory.v1 import factmemory_pb2_grpc as pb_grpc
from tests.conftest import Service, make_settings, start_service
from tests.support.llm_stub import ScriptedLLM
from tests.test_guessing import guarded_settings
from tests.test_operator_logs import Browser

TOKEN = "loopback-guessing-token-0123456789"
GUESSERS = [f"127.0.0.{n}" for n in range(2, 12)]
PER_CLIENT, OVERALL = 10, 30
ATTACK_S = 6.0
AGENT = "00000000-0000-4000-8000-000000000001"


class Relay:
    """A TCP relay on 127.0.0.1 whose connections to the target come from `source`: the server sees that peer."""

    def __init__(self, source: str, target_port: int) -> None:
        self.source, self.target_port = source, target_port
        self.port = 0
        self._server: asyncio.Server | None = None

    async def __aenter__(self) -> Relay:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._server.wait_closed(), 2)

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port, local_addr=(self.source, 0))

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            with contextlib.suppress(Exception):
                dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))


@pytest_asyncio.fixture
async def guarded(pg_url: str, llm: ScriptedLLM, tmp_path: Path) -> AsyncIterator[Service]:
    async for service in start_service(guarded_settings(pg_url, llm, tmp_path, TOKEN, PER_CLIENT, OVERALL)):
        yield service


async def call(stub: pb_grpc.FactMemoryServiceStub, token: str | None) -> grpc.StatusCode:
    metadata = () if token is None else (("authorization", f"Bearer {token}"),)
    try:
        await stub.ListEntities(pb.ListEntitiesRequest(agent_id=AGENT), metadata=metadata, timeout=20)
    except grpc.aio.AioRpcError as exc:
        return exc.code()
    return grpc.StatusCode.OK


async def test_right_callers_are_served_every_call_while_ten_addresses_guess(
    guarded: Service, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    tried: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    stop = asyncio.Event()

    async def guess(source: str) -> None:
        async with Relay(source, guarded.port) as relay, grpc.aio.insecure_channel(f"127.0.0.1:{relay.port}") as ch:
            stub = pb_grpc.FactMemoryServiceStub(ch)
            n = 0
            while not stop.is_set():  # without pause
                n += 1
                code = await call(stub, f"guess-{source}-{n}")
                (tried if code == grpc.StatusCode.UNAUTHENTICATED else refused)[source] += 1

    async def right_caller() -> list[grpc.StatusCode]:
        codes = []
        deadline = time.monotonic() + ATTACK_S
        while time.monotonic() < deadline:
            codes.append(await call(guarded.stub, TOKEN))
            await asyncio.sleep(0.1)
        return codes

    guessers = [asyncio.create_task(guess(source)) for source in GUESSERS]
    await asyncio.sleep(1.0)  # the guessing is under way: the overall limit is reached
    codes = await right_caller()
    # A right caller from a fresh address, on a new connection, in the middle of it.
    async with Relay("127.0.0.12", guarded.port) as relay, grpc.aio.insecure_channel(f"127.0.0.1:{relay.port}") as ch:
        fresh = [await call(pb_grpc.FactMemoryServiceStub(ch), TOKEN) for _ in range(5)]
    stop.set()
    await asyncio.gather(*guessers)

    assert codes and set(codes) == {grpc.StatusCode.OK}, Counter(codes)  # every call, while they guessed
    assert fresh == [grpc.StatusCode.OK] * 5
    assert set(tried) == set(GUESSERS)  # each address was really heard ...
    assert all(count <= PER_CLIENT for count in tried.values()), tried  # ... and tried no more than its share
    assert sum(tried.values()) <= OVERALL + len(GUESSERS)  # beyond the overall limit: one try per address
    assert sum(refused.values()) > 10 * sum(tried.values())  # the rest was refused untried
    assert "wrong token from 127.0.0.2 " in caplog.text and "guess-127" not in caplog.text


async def test_a_missing_token_is_a_configuration_error_not_a_guess(
    guarded: Service, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    async with Relay("127.0.0.20", guarded.port) as relay:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{relay.port}") as ch:  # an agent started without its token
            stub = pb_grpc.FactMemoryServiceStub(ch)
            statuses = []
            for _ in range(3 * PER_CLIENT):
                try:
                    await stub.ListEntities(pb.ListEntitiesRequest(agent_id=AGENT), timeout=20)
                except grpc.aio.AioRpcError as exc:
                    statuses.append((exc.code(), exc.details()))
        async with grpc.aio.insecure_channel(f"127.0.0.1:{relay.port}") as ch:  # restarted with the right token
            served = await call(pb_grpc.FactMemoryServiceStub(ch), TOKEN)
    assert statuses == [(grpc.StatusCode.UNAUTHENTICATED, MISSING_TOKEN)] * (3 * PER_CLIENT)
    assert "FACT_MEMORY_TOKEN" in MISSING_TOKEN and "FACTMEMORY_AUTH_TOKEN" in MISSING_TOKEN
    assert served == grpc.StatusCode.OK  # at once, not a minute later
    told = [r.getMessage() for r in caplog.records if "carried no token" in r.getMessage()]
    assert len(told) == 1 and "127.0.0.20" in told[0] and "not counted as a guess" in told[0]


async def test_an_ipv6_caller_is_counted_by_its_64(
    guarded: Service, pg_url: str, llm: ScriptedLLM, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    settings = make_settings(pg_url, llm, tmp_path, auth_token=TOKEN, listen="[::1]:0")
    server, port = create_server(guarded.deps, settings)
    await server.start()
    try:
        async with grpc.aio.insecure_channel(f"ipv6:[::1]:{port}") as ch:
            assert await call(pb_grpc.FactMemoryServiceStub(ch), "wrong-v6-guess") == grpc.StatusCode.UNAUTHENTICATED
    finally:
        await server.stop(1)
    assert "wrong token from ::/64 " in caplog.text


def http_status(source: str, port: int, method: str, path: str, headers: dict[str, str]) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        connection.request(method, path, headers=headers)
        return connection.getresponse().status
    finally:
        connection.close()


async def test_a_logged_in_reviewer_and_a_right_bearer_are_served_while_ten_addresses_guess(
    guarded: Service,
) -> None:
    config = PageConfig(token=TOKEN, guess_limits=GuessLimits(PER_CLIENT, OVERALL, 60.0))
    listener = PageListener(guarded.deps, config, "127.0.0.1:0")
    await listener.start()
    try:
        base = f"http://127.0.0.1:{listener.port}"
        reviewer = await asyncio.to_thread(Browser, base)  # the page is served by this event loop
        assert (await asyncio.to_thread(reviewer.post, "/login", token=TOKEN, name="Dana"))[0] == 200

        def guesses(source: str) -> list[int]:
            wrong = {"authorization": f"Bearer wrong-{source}"}
            return [http_status(source, listener.port, "GET", "/", wrong) for _ in range(3 * PER_CLIENT)]

        attack = [asyncio.to_thread(guesses, source) for source in GUESSERS]
        reviews = [asyncio.to_thread(reviewer.get, "/") for _ in range(10)]
        fresh = asyncio.to_thread(
            http_status, "127.0.0.30", listener.port, "GET", "/", {"authorization": f"Bearer {TOKEN}"}
        )
        attacked, reviews_seen, fresh_seen = await asyncio.gather(
            asyncio.gather(*attack), asyncio.gather(*reviews), fresh
        )
    finally:
        await listener.stop()
    guessed = [status for statuses in attacked for status in statuses]
    assert [status for status, _ in reviews_seen] == [200] * 10  # the reviewer's session, every time
    assert fresh_seen == 200  # a right bearer from a fresh address
    assert 429 in guessed and guessed.count(303) <= OVERALL + len(GUESSERS)  # 303: to the login form
