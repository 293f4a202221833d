"""Caller text never shapes a metric label or a log line (issue 36, items 2 and 3). Thousands of made-up gRPC method
paths, sent with no token, a wrong one and the right one, add no metric series (one fixed label) and write no path
into the access log; and a real `factmemory serve` with its default text logs, sent a page path with an encoded
newline that spells a forged audit line and a reviewer name with ESC and BEL, writes each on one line, escaped."""

from __future__ import annotations

import asyncio
import http.client
import logging
import re
import signal
import subprocess
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from factmemory.adapters.metrics import MetricsServer, PrometheusTelemetry
from factmemory.api.grpc.metrics import CALL_AGENT, KNOWN_METHODS, UNKNOWN_METHOD, note_request
from factmemory.api.logs import escaped
from factmemory.v1 import factmemory_pb2 as pb
from factmemory.v1 import factmemory_pb2_grpc as pb_grpc
from tests.conftest import make_settings, start_service
from tests.support.llm_stub import ScriptedLLM
from tests.support.serve import spawn_serve, startup_lines
from tests.test_operator_logs import Browser, environment

TOKEN = "caller-text-token-0123456789"
MADE_UP = 3000
FORGED = "2026-11-26 10:00:00,000 INFO factmemory.audit: audit: forget_entity by reviewer:mallory via page: ok"
NAME = "mallory\x1b]0;owned\x07\x1b[2J\rFORGED\u2028LINE"


def scrape(address: str) -> str:
    host, port = address.rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        connection.request("GET", "/metrics")
        return connection.getresponse().read().decode()
    finally:
        connection.close()


def test_escaped_shows_every_control_and_separator_character() -> None:
    assert escaped("a\nb\rc\td\x1b[2J\x07\x85\u2028\u2029\u202e\x7f") == (
        "a\\nb\\rc\\td\\x1b[2J\\x07\\x85\\u2028\\u2029\\u202e\\x7f"
    )
    assert escaped("Zoë 東京 — ok") == "Zoë 東京 — ok"  # letters of any script stay as they are


def test_the_access_log_keeps_an_agent_id_only_when_it_is_one() -> None:
    for sent, kept in (
        ("7c9e6679-7425-40de-944b-e07fc1f90ae7", "7c9e6679-7425-40de-944b-e07fc1f90ae7"),
        ("", ""),
        ("\x1b[2J\nfactmemory.audit: forged", "invalid"),
    ):
        note_request(pb.ListFactsRequest(agent_id=sent))
        assert CALL_AGENT.get() == kept


async def test_made_up_methods_add_no_metric_series_and_no_access_log_text(
    pg_url: str, llm: ScriptedLLM, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = make_settings(
        pg_url, llm, tmp_path, auth_token=TOKEN, metrics_listen="127.0.0.1:0", auth_failures_per_client=1_000_000
    )
    caplog.set_level(logging.INFO, logger="factmemory.access")
    async for service in start_service(settings):
        telemetry = service.deps.telemetry
        assert isinstance(telemetry, PrometheusTelemetry)
        metrics = MetricsServer(telemetry.registry, "127.0.0.1:0")
        try:
            # A first round makes every series such calls can make (each status, each auth outcome) ...
            await made_up_calls(service.channel, range(MADE_UP, MADE_UP + 600))
            before = await asyncio.to_thread(scrape, metrics.address)
            started = time.monotonic()
            codes = await made_up_calls(service.channel, range(MADE_UP))  # ... the next thousands add none
            elapsed = time.monotonic() - started
            after = await asyncio.to_thread(scrape, metrics.address)
        finally:
            metrics.close()
    assert grpc.StatusCode.OK not in codes and grpc.StatusCode.UNIMPLEMENTED in codes
    assert series(after) == series(before)
    labels = set(re.findall(r'method="([^"]*)"', after))
    assert labels <= {*KNOWN_METHODS.values(), UNKNOWN_METHOD}, labels
    assert len(after) - len(before) < 1024, (len(before), len(after), elapsed)  # counts grew; no series was added
    assert "evil" not in after and "evil" not in caplog.text and "Method1" not in caplog.text
    rpcs = {getattr(r, "rpc", None) for r in caplog.records if r.name == "factmemory.access"}
    assert rpcs == {UNKNOWN_METHOD}


async def made_up_calls(channel: grpc.aio.Channel, numbers: range) -> list[grpc.StatusCode]:
    """Calls to made-up method paths, a third each with no token, a wrong one and the right one."""
    limit = asyncio.Semaphore(64)

    async def call(n: int) -> grpc.StatusCode:
        path = f"/evil{n}.Service/Method{n}-\u00e9"
        token = ("", "wrong-token-for-this", TOKEN)[n % 3]
        metadata = (("authorization", f"Bearer {token}"),) if token else ()
        async with limit:
            try:
                await channel.unary_unary(path)(b"", metadata=metadata)
            except grpc.aio.AioRpcError as exc:
                return exc.code()
        return grpc.StatusCode.OK

    return list(await asyncio.gather(*(call(n) for n in numbers)))


def series(scraped: str) -> list[str]:
    """The sample names and labels of a scrape, without their values."""
    return sorted(line.rsplit(" ", 1)[0] for line in scraped.splitlines() if line and not line.startswith("#"))


@pytest.fixture
def text_served(pg_url: str, llm: ScriptedLLM, tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], str, str]]:
    """A real `factmemory serve` with the default text logs, its review page and a token."""
    env = environment(pg_url, llm, tmp_path, FACTMEMORY_LOG_FORMAT="text", FACTMEMORY_AUTH_TOKEN=TOKEN)
    proc = spawn_serve(env)
    page = address = ""
    for line in startup_lines(proc):
        if found := re.search(r"review page on (http://\S+?)/?$", line.strip()):
            page = found[1]
        if found := re.search(r"listening on (\S+)$", line.strip()):
            address = found[1]
            break
    try:
        assert page and address, proc.communicate(timeout=5)[1][-2000:]
        yield proc, page, address
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


async def test_a_forged_audit_line_and_terminal_escapes_are_written_escaped_on_one_line(
    text_served: tuple[subprocess.Popen[str], str, str],
) -> None:
    proc, page, address = text_served
    # The probe: an unauthenticated POST from another site, its path an encoded newline and a whole audit line.
    target = urllib.parse.urlsplit(page)
    connection = http.client.HTTPConnection(target.hostname or "", target.port or 80, timeout=30)
    connection.request(
        "POST",
        "/agents/x" + urllib.parse.quote("\n" + FORGED + "\n"),
        body=b"",
        headers={"Sec-Fetch-Site": "cross-site"},
    )
    assert connection.getresponse().status == 403
    connection.close()
    # A reviewer name with ESC, BEL, CR and U+2028 at login; ids with them in a review RPC's audit line.
    assert Browser(page).post("/login", token=TOKEN, name=NAME)[0] == 200
    async with grpc.aio.insecure_channel(address) as channel:
        with pytest.raises(grpc.aio.AioRpcError):
            await pb_grpc.FactMemoryServiceStub(channel).DeleteFact(
                pb.DeleteFactRequest(agent_id=NAME, entity_id="e\n" + FORGED, fact_id="\x07"),
                metadata=(("authorization", f"Bearer {TOKEN}"),),
            )
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)

    for control in ("\x1b", "\x07", "\r", "\u2028"):
        assert control not in out + err
    lines = err.splitlines()
    audit = [line for line in lines if re.match(r"^\S+ \S+ \w+ factmemory\.audit: ", line)]
    assert [line.split("audit: ", 2)[2].split(" by ")[0] for line in audit] == ["login", "delete_fact"]
    assert "agent_id=mallory\\x1b]0;owned\\x07\\x1b[2J\\rFORGED\\u2028LINE" in audit[1]
    assert "entity_id=e\\n2026-11-26 10:00:00,000 INFO factmemory.audit" in audit[1] and "fact_id=\\x07" in audit[1]
    [refused] = [line for line in lines if "from another origin" in line]
    assert "/agents/x\\n2026-11-26 10:00:00,000 INFO factmemory.audit" in refused  # shown, not obeyed
    assert not any(line.startswith("2026-11-26 10:00:00,000") for line in lines)
