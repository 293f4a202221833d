"""Guessing the access token is limited per client and overall, on the page (login form and bearer header) and on
gRPC, against real parallel guessers: each failure and each refusal is counted and logged without what was sent, a
throttled client is refused untried even with the right token, until the window has passed (injected clock). A
token shorter than the minimum is refused at start-up in one line."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest
import pytest_asyncio
from playwright.async_api import APIRequestContext, async_playwright

from factmemory.adapters.metrics import PrometheusTelemetry
from factmemory.api.guessing import MIN_TOKEN_CHARS, GuessLimiter, GuessLimits, client_group, client_of_peer
from factmemory.api.http.pages import PageConfig
from factmemory.api.http.server import PageListener
from factmemory.settings import Settings
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service, make_settings, start_service
from tests.support.llm_stub import ScriptedLLM
from tests.test_operations import assert_one_line_failure, run_cli

TOKEN = "a-long-enough-token-for-the-guessing-tests"
GUESSERS = 60


def failures(telemetry: PrometheusTelemetry, surface: str, outcome: str) -> float:
    labels = {"surface": surface, "outcome": outcome}
    return telemetry.registry.get_sample_value("factmemory_auth_failures_total", labels) or 0.0


# --- the limiter alone ---------------------------------------------------------------------------------------------


def test_a_client_is_refused_after_its_failures_until_the_window_passes() -> None:
    now = [0.0]
    telemetry = PrometheusTelemetry()
    limiter = GuessLimiter("grpc", telemetry, GuessLimits(per_client=3, overall=5, window_s=60), lambda: now[0])
    for _ in range(3):
        assert not limiter.refused("10.0.0.1")
        limiter.failed("10.0.0.1")
    assert limiter.refused("10.0.0.1") and not limiter.refused("10.0.0.2")
    for _ in range(2):
        limiter.failed("10.0.0.2")
    # The overall limit (5 failures from anyone) refuses untried only the clients that failed themselves: a client
    # without failures of its own is never refused because of others'.
    assert limiter.refused("10.0.0.2") and not limiter.refused("10.0.0.3")
    limiter.failed("10.0.0.3")  # its one tested guess while the overall limit holds
    assert limiter.refused("10.0.0.3")
    # A connection that proved the token is never refused untried, even from a throttled client.
    limiter.proved("ipv4:10.0.0.1:5000")
    assert not limiter.refused("10.0.0.1", "ipv4:10.0.0.1:5000") and limiter.refused("10.0.0.1", "ipv4:10.0.0.1:6")
    now[0] = 61.0
    assert not limiter.refused("10.0.0.1") and not limiter.refused("10.0.0.3")
    assert failures(telemetry, "grpc", "wrong_token") == 6
    assert failures(telemetry, "grpc", "throttled_client") == 2
    assert failures(telemetry, "grpc", "throttled_overall") == 2


def test_a_missing_token_is_no_guess() -> None:
    telemetry = PrometheusTelemetry()
    limiter = GuessLimiter("grpc", telemetry, GuessLimits(per_client=1, overall=1, window_s=60), lambda: 0.0)
    for _ in range(50):
        limiter.missing("10.0.0.9")
    assert not limiter.refused("10.0.0.9") and not limiter.refused("10.0.0.10")
    assert failures(telemetry, "grpc", "missing_token") == 50 and failures(telemetry, "grpc", "wrong_token") == 0


@pytest.mark.parametrize(
    ("address", "client"),
    [
        ("127.0.0.2", "127.0.0.2"),
        ("203.0.113.9", "203.0.113.9"),
        ("::ffff:203.0.113.9", "203.0.113.9"),  # IPv4-mapped: the IPv4 client
        ("2001:db8:1:2::5", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),  # the same /64: the same client
        ("2001:db8:1:3::5", "2001:db8:1:3::/64"),  # the next /64: another client
        ("::1", "::/64"),
        ("fe80::1%eth0", "fe80::/64"),
        ("unix:/run/fm.sock", "unix:/run/fm.sock"),
    ],
)
def test_addresses_are_grouped_into_clients(address: str, client: str) -> None:
    assert client_group(address) == client


def test_grpc_peers_name_their_client() -> None:
    assert client_of_peer("ipv4:127.0.0.1:5000") == "127.0.0.1"
    assert client_of_peer("ipv6:[2001:db8::7]:5000") == "2001:db8::/64"
    assert client_of_peer("ipv6:%5B2001:db8::7%5D:5000") == "2001:db8::/64"  # as gRPC writes it


# --- gRPC: parallel guessers ---------------------------------------------------------------------------------------


def guarded_settings(
    pg_url: str, llm: ScriptedLLM, tmp_path: Path, token: str, per_client: int, overall: int
) -> Settings:
    """A service with this token and these guess limits, and metrics on."""
    return make_settings(
        pg_url,
        llm,
        tmp_path,
        auth_token=token,
        auth_failures_per_client=per_client,
        auth_failures_overall=overall,
        metrics_listen="127.0.0.1:0",
    )


@pytest_asyncio.fixture(params=[(10, 1000), (1000, 20)], ids=["per-client limit", "overall limit"])
async def guarded(
    request: pytest.FixtureRequest, pg_url: str, llm: ScriptedLLM, tmp_path: Path
) -> AsyncIterator[tuple[Service, int, str]]:
    per_client, overall = request.param
    async for service in start_service(guarded_settings(pg_url, llm, tmp_path, TOKEN, per_client, overall)):
        yield service, min(per_client, overall), "client" if per_client < overall else "overall"


async def test_parallel_bearer_guessers_get_only_the_allowed_tries(
    guarded: tuple[Service, int, str], caplog: pytest.LogCaptureFixture
) -> None:
    service, allowed, scope = guarded
    caplog.set_level(logging.WARNING)
    request = pb.ListEntitiesRequest(agent_id="00000000-0000-4000-8000-000000000001")

    async def guess(n: int) -> grpc.StatusCode:
        try:
            await service.stub.ListEntities(request, metadata=(("authorization", f"Bearer guess-{n:04d}"),))
        except grpc.aio.AioRpcError as exc:
            return exc.code()
        return grpc.StatusCode.OK

    codes = await asyncio.gather(*(guess(n) for n in range(GUESSERS)))
    assert codes.count(grpc.StatusCode.UNAUTHENTICATED) == allowed
    assert codes.count(grpc.StatusCode.RESOURCE_EXHAUSTED) == GUESSERS - allowed
    # Throttled: even the right token is refused untried (a guess that happens to be right gains nothing).
    assert await guess_with(service, TOKEN) == grpc.StatusCode.RESOURCE_EXHAUSTED
    telemetry = service.deps.telemetry
    assert isinstance(telemetry, PrometheusTelemetry)
    assert failures(telemetry, "grpc", "wrong_token") == allowed
    assert failures(telemetry, "grpc", f"throttled_{scope}") == GUESSERS - allowed + 1
    assert "wrong token from 127.0.0.1" in caplog.text
    assert ("this client's limit" if scope == "client" else "the overall limit") in caplog.text
    assert not re.search(r"guess-\d{4}", caplog.text) and TOKEN not in caplog.text


async def guess_with(service: Service, token: str) -> grpc.StatusCode:
    try:
        await service.stub.ListEntities(
            pb.ListEntitiesRequest(agent_id="00000000-0000-4000-8000-000000000001"),
            metadata=(("authorization", f"Bearer {token}"),),
        )
    except grpc.aio.AioRpcError as exc:
        return exc.code()
    return grpc.StatusCode.OK


async def test_the_right_token_works_when_nobody_guessed(pg_url: str, llm: ScriptedLLM, tmp_path: Path) -> None:
    settings = make_settings(pg_url, llm, tmp_path, auth_token=TOKEN)
    async for service in start_service(settings):
        assert await guess_with(service, TOKEN) == grpc.StatusCode.OK
        assert await guess_with(service, "wrong") == grpc.StatusCode.UNAUTHENTICATED


# --- the page: parallel login guessers -----------------------------------------------------------------------------


@pytest_asyncio.fixture
async def client() -> AsyncIterator[APIRequestContext]:
    async with async_playwright() as p:
        context = await p.request.new_context()
        yield context
        await context.dispose()


async def test_parallel_login_guessers_get_only_the_allowed_tries(
    service: Service, client: APIRequestContext, caplog: pytest.LogCaptureFixture
) -> None:
    now = [0.0]
    config = PageConfig(token=TOKEN, guess_limits=GuessLimits(10, 1000, 60.0), monotonic=lambda: now[0])
    listener = PageListener(service.deps, config, "127.0.0.1:0")
    await listener.start()
    caplog.set_level(logging.WARNING)
    try:
        url = f"http://127.0.0.1:{listener.port}"
        form = await (await client.get(f"{url}/login")).text()
        found = re.search(r'name="csrf_token" value="([^"]+)"', form)
        assert found is not None
        csrf = found[1]

        async def log_in(token: str) -> int:
            answer = await client.post(
                f"{url}/login", form={"token": token, "csrf_token": csrf, "next": "/"}, max_redirects=0
            )
            return answer.status

        statuses = await asyncio.gather(*(log_in(f"guess-{n:04d}") for n in range(GUESSERS)))
        assert statuses.count(401) == 10 and statuses.count(429) == GUESSERS - 10
        assert await log_in(TOKEN) == 429  # throttled: the right token is not even tried
        bearer = await client.get(f"{url}/", headers={"authorization": f"Bearer {TOKEN}"}, max_redirects=0)
        assert bearer.status == 429
        now[0] = 61.0  # the window has passed
        assert await log_in(TOKEN) == 303
        assert not re.search(r"guess-\d{4}", caplog.text) and TOKEN not in caplog.text
        assert "auth (page): wrong token from 127.0.0.1" in caplog.text
    finally:
        await listener.stop()


# --- the minimum token length --------------------------------------------------------------------------------------


def test_a_short_token_is_refused_at_start_up_in_one_line() -> None:
    short = "x" * (MIN_TOKEN_CHARS - 1)
    result = run_cli("serve", FACTMEMORY_AUTH_TOKEN=short, FACTMEMORY_LISTEN="127.0.0.1:0")
    assert_one_line_failure(result, f"at least {MIN_TOKEN_CHARS}", "openssl rand")
    assert short not in result.stderr + result.stdout


async def test_a_throttled_client_is_told_how_long_and_that_the_right_token_waits_too(
    pg_url: str, llm: ScriptedLLM, tmp_path: Path
) -> None:
    """The real `factmemory` command, after 10 wrong tokens from its address, with the right token: one line naming
    the wait in seconds and that the right token waits too; the limiter's wait is the window's rest."""
    settings = guarded_settings(pg_url, llm, tmp_path, TOKEN, per_client=10, overall=1000)
    async for service in start_service(settings):
        for n in range(10):
            assert await guess_with(service, f"guess-{n:04d}") == grpc.StatusCode.UNAUTHENTICATED
        env = {k: v for k, v in os.environ.items() if not k.startswith("FACTMEMORY_")}
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "factmemory", "agents", "--address", f"127.0.0.1:{service.port}", "--token", TOKEN,
            env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 1 and out == b""
    (line,) = err.decode().splitlines()
    found = re.fullmatch(
        r"factmemory: RESOURCE_EXHAUSTED: too many failed attempts; retry in (\d+) s \(every attempt from this "
        r"address is refused until then, the right token too\)",
        line,
    )
    assert found is not None, line
    assert 1 <= int(found.group(1)) <= 60


def test_the_wait_is_until_the_failures_leave_the_window() -> None:
    now = [0.0]
    limiter = GuessLimiter(
        "grpc", PrometheusTelemetry(), GuessLimits(per_client=3, overall=4, window_s=60), lambda: now[0]
    )
    for at in (0.0, 10.0, 20.0):
        now[0] = at
        limiter.failed("10.0.0.1")
    now[0] = 30.0
    assert limiter.refused("10.0.0.1") and limiter.wait_s("10.0.0.1") == 30.0  # the first failure leaves at 60
    limiter.failed("10.0.0.2")  # the overall limit (4) reached: 10.0.0.2 waits until its own failure leaves
    assert limiter.refused("10.0.0.2") and limiter.wait_s("10.0.0.2") == 30.0
    assert limiter.wait_s("10.0.0.3") == 0.0
