"""Metrics and logs: a real `factmemory serve` with the metrics endpoint and JSON logs, real calls, then a scrape."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from prometheus_client.parser import text_string_to_metric_families

from factmemory.v1 import factmemory_pb2_grpc as pb_grpc
from tests.support.fm import Person, add_durable, change, facts_reply
from tests.support.llm_stub import Fault, Reply, ScriptedLLM
from tests.support.serve import spawn_serve

REPO = Path(__file__).resolve().parents[1]
MESSAGE_TEXT = "my secret diary entry: I live in Berlin"
CLAIM = "lives in Berlin"


class Scraped:
    def __init__(self, text: str) -> None:
        self.samples = [s for family in text_string_to_metric_families(text) for s in family.samples]

    def value(self, name: str, **labels: str) -> float:
        return sum(
            s.value for s in self.samples if s.name == name and all(s.labels.get(k) == v for k, v in labels.items())
        )

    def names(self) -> set[str]:
        return {s.name for s in self.samples}


def scrape(address: str, path: str = "/metrics") -> str:
    with urllib.request.urlopen(f"http://{address}{path}", timeout=10) as reply:
        return str(reply.read().decode())


@pytest.fixture
def served(pg_url: str, llm: ScriptedLLM, tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], str, str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FACTMEMORY_", "OPENAI_"))}
    env.update(
        {
            "FACTMEMORY_LISTEN": "127.0.0.1:0",
            "FACTMEMORY_DATABASE_URL": pg_url,
            "FACTMEMORY_DATA_DIR": str(tmp_path),
            "OPENAI_API_KEY": "sk-test-secret",
            "OPENAI_BASE_URL": llm.base_url,
            "FACTMEMORY_METRICS_LISTEN": "0",
            "FACTMEMORY_LOG_FORMAT": "json",
            "FACTMEMORY_LLM_MAX_RETRIES": "1",
        }
    )
    proc = spawn_serve(env)
    assert proc.stdout is not None
    metrics = address = ""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not address:
        line = proc.stdout.readline()
        if not line and proc.poll() is not None:
            break
        record = json.loads(line)  # with JSON logs the start-up lines are JSON too
        if record.get("event") == "config":
            assert record["message"].startswith("factmemory config:")
            metrics = record["metrics"]
        elif record.get("event") == "listening":
            address = record["address"]
    try:
        assert address and metrics and metrics != "off", proc.communicate(timeout=5)[1][-2000:]
        yield proc, address, metrics
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


async def test_counters_move_after_real_calls_and_the_access_log_is_clean(
    served: tuple[subprocess.Popen[str], str, str], llm: ScriptedLLM
) -> None:
    proc, address, metrics = served
    person = Person()
    llm.on("first", Reply(facts_reply(add_durable(CLAIM, "identity"), change("strengthen", "D9"))))
    llm.on("again", Reply(facts_reply(add_durable(CLAIM, "identity"))))
    llm.on("flaky", Fault(503), Reply(facts_reply()))
    llm.on("garbled", Reply("this is not JSON"))
    llm.on("refused", Fault(401, body='{"error": {"message": "bad key", "type": "invalid_request_error"}}'))
    async with grpc.aio.insecure_channel(address) as channel:
        stub = pb_grpc.FactMemoryServiceStub(channel)
        await stub.Evaluate(person.evaluate(f"first: {MESSAGE_TEXT}"))
        llm.reject_json_schema = True  # the next call falls back to json_object
        await stub.Evaluate(person.evaluate(f"again: {MESSAGE_TEXT}"))
        await stub.Evaluate(person.evaluate("flaky"))
        for text, code in (
            ("garbled", grpc.StatusCode.FAILED_PRECONDITION),  # the model's reply is not JSON: not retryable
            ("refused", grpc.StatusCode.FAILED_PRECONDITION),
        ):
            with pytest.raises(grpc.aio.AioRpcError) as error:
                await stub.Evaluate(person.evaluate(text))
            assert error.value.code() == code
        call = stub.Provide(person.provide(MESSAGE_TEXT), metadata=(("x-request-id", "req-42"),))
        await call
        assert ("x-request-id", "req-42") in tuple(await call.initial_metadata())
        scraped = Scraped(await asyncio.to_thread(scrape, metrics))

    assert scraped.value("factmemory_rpc_calls_total", method="Evaluate", code="OK") == 3
    assert scraped.value("factmemory_rpc_calls_total", method="Evaluate", code="FAILED_PRECONDITION") == 2
    assert scraped.value("factmemory_rpc_calls_total", method="Provide", code="OK") == 1
    assert scraped.value("factmemory_rpc_duration_seconds_count", method="Provide", code="OK") == 1
    assert scraped.value("factmemory_llm_calls_total", outcome="ok") == 3
    assert scraped.value("factmemory_llm_calls_total", outcome="bad_reply") == 1
    assert scraped.value("factmemory_llm_calls_total", outcome="refused") == 1
    assert scraped.value("factmemory_llm_duration_seconds_count") == 5
    assert scraped.value("factmemory_llm_tokens_total", direction="prompt") > 0
    assert scraped.value("factmemory_llm_retries_total", reason="http_5xx") == 1
    assert scraped.value("factmemory_llm_format_fallbacks_total", rejected_format="json_schema") == 1
    assert scraped.value("factmemory_ops_total", op="add_durable", outcome="applied") == 1
    assert scraped.value("factmemory_ops_total", op="strengthen", outcome="applied") == 1
    assert scraped.value("factmemory_ops_total", op="strengthen", outcome="rejected", reason="unknown_handle") == 1
    assert scraped.value("factmemory_dedup_verdicts_total", verdict="distinct") == 1
    assert scraped.value("factmemory_dedup_verdicts_total", verdict="same") == 1
    assert scraped.value("factmemory_embedding_calls_total", kind="query") >= 1
    assert scraped.value("factmemory_embedding_texts_total", kind="passage") >= 1
    assert {
        "factmemory_embedding_queue_depth",
        "factmemory_db_pool_in_use",
        "factmemory_db_pool_size",
        "factmemory_pending_candidates",
    } <= scraped.names()
    assert not [n for n in scraped.names() if n.endswith("_created")]  # no duplicate series (a setting asks)
    for path in ("/healthz", "/readyz"):  # the health state gRPC health answers from, not the metrics
        assert json.loads(await asyncio.to_thread(scrape, metrics, path)) == {"status": "SERVING", "failing": []}

    proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate(timeout=60)
    records = [json.loads(line) for line in stderr.splitlines() if line.startswith("{")]
    access = [r for r in records if r["logger"] == "factmemory.access"]
    assert len(access) == 6
    assert all({"rpc", "status", "duration_ms", "request_id"} <= r.keys() for r in access)
    assert all(r["agent_id"] == person.agent_id for r in access)
    assert [r["status"] for r in access if r["rpc"] == "Provide"] == ["OK"]
    assert [r["request_id"] for r in access if r["rpc"] == "Provide"] == ["req-42"]
    assert len({r["request_id"] for r in access}) == 6  # generated when absent
    warnings = [r["message"] for r in records if r["level"] == "WARNING"]
    assert any("refused the credentials" in w for w in warnings)
    assert any("broke the contract" in w for w in warnings)
    for secret in ("secret diary", CLAIM, "sk-test-secret"):  # never message text, claims or tokens
        assert secret not in stderr


async def test_healthz_follows_the_health_state_and_says_what_fails() -> None:
    from grpc_health.v1 import health

    from factmemory.adapters.metrics import MetricsServer, PrometheusTelemetry
    from factmemory.api.grpc.health import SERVING, HealthWatch, Probe

    up = [True]

    async def database() -> bool:
        return up[0]

    watch = HealthWatch(health.aio.HealthServicer(), ("",), [Probe("database", database)], 60.0)
    server = MetricsServer(PrometheusTelemetry().registry, "127.0.0.1:0", watch.report)
    try:

        def status(path: str) -> tuple[int, dict[str, object]]:
            try:
                with urllib.request.urlopen(f"http://{server.address}{path}", timeout=10) as reply:
                    return reply.status, json.loads(reply.read())
            except urllib.error.HTTPError as error:
                return error.code, json.loads(error.read())

        assert await asyncio.to_thread(status, "/healthz") == (503, {"status": "NOT_SERVING", "failing": []})
        await watch.set_all(SERVING)  # as serve() does once the server has started
        assert await asyncio.to_thread(status, "/healthz") == (200, {"status": "SERVING", "failing": []})
        up[0] = False
        await watch.check_once()
        assert await asyncio.to_thread(status, "/readyz") == (503, {"status": "NOT_SERVING", "failing": ["database"]})
        assert "factmemory_rpc_calls" in await asyncio.to_thread(scrape, server.address)
    finally:
        server.close()
