"""The embedding edge: hostile text never reaches the engine unbounded, a crashed engine fails only its own
request, the queue is fair and drops abandoned work, shutdown is bounded, the endpoint's errors are mapped."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import statistics
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import numpy as np
import openai
import pytest
import pytest_asyncio

from factmemory.adapters.embedding.embedders import LocalEmbedder, OpenAIEmbedder
from factmemory.adapters.embedding.jobs import MAX_JOB_TEXTS, FairQueue, Job, split_jobs
from factmemory.adapters.embedding.pool import EnginePool
from factmemory.adapters.embedding.text import fit_tokens, sanitize
from factmemory.adapters.retry import RetryPolicy
from factmemory.domain.errors import NotConfigured, Refused, Unavailable
from factmemory.v1 import factmemory_pb2_grpc as pb_grpc
from tests.conftest import Service, make_settings, start_service
from tests.support.fm import Person, add_durable, facts_reply
from tests.support.llm_stub import Fault, Reply, ScriptedLLM, toy_embedding
from tests.test_reliability import spawn_server

# Code points whose compatibility normalisation expands most (U+FDFA: 18 code points from 3 bytes).
HOSTILE = {
    "fdfa x18": "\ufdfa" * 18,
    "fdfa x3000": "\ufdfa" * 3000,
    "fdfb x2000": "\ufdfb" * 2000,
    "squared katakana x3000": "\u3316\u33af" * 1500,
    "e-acute x8000": "\u00e9" * 8000,
    "mixed": ("Sam \ufdfa says " * 400)[:7900],
}
LONG_TEXT = " ".join(f"Sam told me about his trip number {i} to the mountains with friends." for i in range(60))


def embedder_of(service: Service) -> LocalEmbedder:
    embedder = service.deps.embedder
    assert isinstance(embedder, LocalEmbedder)
    return embedder


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


async def wait_busy(pid: int, timeout_s: float = 30.0) -> None:
    """Until the worker process burns CPU (an idle worker blocks on its pipe)."""
    start = cpu_ticks(pid)
    deadline = time.monotonic() + timeout_s
    while cpu_ticks(pid) < start + 2:
        assert time.monotonic() < deadline, "the worker never started"
        await asyncio.sleep(0.005)


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
            except (OSError, IndexError):
                continue
    return found


def gone(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


# --- pure parts -------------------------------------------------------------------------------------------


def test_sanitize_normalises_so_no_code_point_expands_in_the_engine() -> None:
    assert sanitize("\ufdfa", 100) == "صلى الله عليه وسلم"
    assert sanitize("\ufdfa" * 1000, 50) == sanitize("\ufdfa" * 3, 50)[:50]
    assert sanitize("a\x00b\ud800c", 100) == "a b?c"
    assert len(sanitize("\u00e9" * 10_000, 512)) == 512


def test_fit_tokens_keeps_the_longest_prefix_within_the_budget() -> None:
    def count(text: str) -> int:  # one token per word plus two specials
        return len(text.split()) + 2

    text = " ".join(f"w{i}" for i in range(100))
    cut = fit_tokens(text, 10, count)
    assert count(cut) <= 10 and cut.startswith("w0 w1") and len(cut.split()) == 8
    assert fit_tokens("short text", 10, count) == "short text"


def test_fair_queue_serves_a_light_caller_before_a_backlog() -> None:
    loop = asyncio.new_event_loop()
    try:
        queue = FairQueue()
        flood = [Job(["x" * 500], False, "flood", None, loop.create_future(), 64) for _ in range(5)]
        other = [Job(["z" * 500], False, "other", None, loop.create_future(), 64) for _ in range(2)]
        for job in flood + other:
            queue.put(job)
        assert [queue.take(), queue.take()] == [flood[0], other[0]]
        victim = Job(["short question"], True, "victim", None, loop.create_future(), 18)
        queue.put(victim)
        assert queue.take() is victim  # not behind either backlog
        queue.put(later := Job(["another short one"], True, "victim", None, loop.create_future(), 21))
        assert queue.take() is later  # still the lightest caller
        assert queue.remove(flood[2]) and not queue.remove(flood[2])
        assert [queue.take(), queue.take(), queue.take(), queue.take(), queue.take()] == [
            flood[1],
            other[1],
            flood[3],
            flood[4],
            None,
        ]
    finally:
        loop.close()


async def test_a_job_that_cannot_finish_before_its_deadline_is_not_started() -> None:
    pool = EnginePool(1, "original", 64)
    loop = asyncio.get_running_loop()
    pool._observe(Job(["x" * 60], False, "a", None, loop.create_future(), 64), 6.4)  # 0.1 s per token
    hopeless = Job(["y" * 60], False, "b", time.monotonic() + 1.0, loop.create_future(), 64)
    roomy = Job(["z" * 60], False, "c", time.monotonic() + 60.0, loop.create_future(), 64)
    assert pool._cannot_finish(hopeless) and not pool._cannot_finish(roomy)
    drops = 0
    while pool._cannot_finish(hopeless):  # a stalled call does not condemn every later job
        drops += 1
    assert drops < 30


async def test_a_lone_text_on_an_idle_pool_uses_the_threads_and_gets_the_same_vector() -> None:
    pool = EnginePool(1, "original", 64, threads=2)
    await pool.start()
    try:
        text = "Morning! Slept badly again, the neighbours had a party until three."
        alone = await pool.embed([text], True)
        assert pool.stats.wide == 1
        # Two texts in one call: one job, one thread (several texts are spread over engines instead).
        beside = await pool.embed([text, "I want to learn Japanese before the trip to Tokyo."], True)
        assert pool.stats.wide == 1
        # Two callers at once: the first is sent while the second waits, so it keeps one thread; the second, alone
        # by the time it is sent, gets them.
        first, other = await asyncio.gather(pool.embed([text], True), pool.embed(["Another message."], True))
        assert pool.stats.wide == 2
        np.testing.assert_allclose(alone[0], beside[0], atol=1e-6)
        np.testing.assert_allclose(alone[0], first[0], atol=1e-6)
        assert other.shape == first.shape and float(other[0] @ first[0]) < 0.99
        assert pool.stats.calls == 4
    finally:
        await pool.close()


def test_split_jobs_bounds_each_engine_call() -> None:
    assert split_jobs(["a"] * (MAX_JOB_TEXTS + 1)) == [["a"] * MAX_JOB_TEXTS, ["a"]]
    assert split_jobs(["x" * 1000, "b", "c"]) == [["x" * 1000], ["b", "c"]]


def test_split_jobs_spreads_a_request_over_idle_engines() -> None:
    assert split_jobs(["a", "b"], parts=2) == [["a"], ["b"]]
    assert split_jobs(["a", "b", "c"], parts=2) == [["a", "b"], ["c"]]
    assert split_jobs(["a"], parts=2) == [["a"]]
    assert split_jobs(["a"] * 20, parts=2) == [["a"] * MAX_JOB_TEXTS, ["a"] * MAX_JOB_TEXTS, ["a"] * 4]


# --- the engine processes ---------------------------------------------------------------------------------


@pytest_asyncio.fixture
async def slow_service(pg_url: str, llm: ScriptedLLM, tmp_path: Path) -> AsyncIterator[Service]:
    """One worker, 512 tokens per text: an engine call long enough to act during it."""
    settings = make_settings(pg_url, llm, tmp_path, embedding_workers=1, embedding_max_tokens=512)
    async for svc in start_service(settings):
        yield svc


@pytest.mark.parametrize("name", list(HOSTILE))
async def test_hostile_text_everywhere_is_embedded_without_killing_anything(
    service: Service, llm: ScriptedLLM, name: str
) -> None:
    text = HOSTILE[name]
    pool = embedder_of(service).pool
    pids, deaths = pool.pids(), pool.stats.deaths
    person = Person()
    llm.on(f"claim {name}", Reply(facts_reply(add_durable(f"says {text[:400]}", "identity"))))
    evaluated = await service.stub.Evaluate(person.evaluate(f"claim {name}: {text}"[:8000]))
    assert len(evaluated.ops) == 1 and not evaluated.ops[0].rejected and evaluated.ops[0].fact.id
    provided = await service.stub.Provide(person.provide(text, "and something else"))
    assert not provided.degraded and "says" in provided.text
    assert pool.stats.deaths == deaths and pool.pids() == pids  # guarded, not merely contained


@pytest.mark.timing  # wall clock: the engine must be seen busy within 30 s
async def test_worker_killed_mid_request_fails_that_request_only(slow_service: Service, llm: ScriptedLLM) -> None:
    pool = embedder_of(slow_service).pool
    [pid] = pool.pids()
    person = Person()
    llm.on("after the crash", Reply(facts_reply(add_durable("likes tea", "preference"))))
    doomed = asyncio.ensure_future(slow_service.stub.Evaluate(person.evaluate(LONG_TEXT)))
    await wait_busy(pid)
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await doomed
    assert error.value.code() == grpc.StatusCode.UNAVAILABLE
    ok = await slow_service.stub.Evaluate(person.evaluate("after the crash I like tea"))
    assert len(ok.ops) == 1
    assert pool.stats.deaths == 1 and pool.stats.restarts == 1 and pool.pids() != [pid]
    assert embedder_of(slow_service).healthy()


@pytest.mark.timing  # wall clock: a 0.2 s deadline must expire while the engine is busy
async def test_cancelled_and_expired_requests_are_not_embedded(slow_service: Service) -> None:
    embedder = embedder_of(slow_service)
    pool = embedder.pool
    [pid] = pool.pids()
    blocker = asyncio.ensure_future(embedder.passages([LONG_TEXT]))
    await wait_busy(pid)
    sent, person = pool.stats.texts, Person()
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await slow_service.stub.Provide(person.provide("expired before its turn"), timeout=0.2)
    assert error.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    cancelled = slow_service.stub.Provide(person.provide("cancelled before its turn"))
    await asyncio.sleep(0.1)
    cancelled.cancel()
    await blocker
    await asyncio.sleep(0.2)
    assert pool.stats.texts == sent  # neither reached the engine
    assert pool.stats.dropped >= 2
    await slow_service.stub.Provide(person.provide("a later call is served"))
    assert pool.stats.texts == sent + 1


async def test_identical_texts_of_one_call_are_embedded_once(service: Service) -> None:
    embedder = embedder_of(service)
    sent = embedder.pool.stats.texts
    vectors = await embedder.passages(["likes green tea", "likes green tea", "owns a red bicycle"])
    assert vectors.shape == (3, 384) and np.allclose(vectors[0], vectors[1])
    assert embedder.pool.stats.texts == sent + 2


async def test_each_engine_call_reports_its_own_time_so_the_hop_is_known(service: Service) -> None:
    """The worker sends its seconds (fitting, engine) with the vectors; the pool keeps them and the hop beside."""
    stats = embedder_of(service).pool.stats
    calls = len(stats.engine_s)
    await embedder_of(service).queries([f"a text not embedded before {uuid.uuid4()}"])
    assert len(stats.engine_s) == len(stats.fit_s) == len(stats.hop_s) == calls + 1
    assert stats.engine_s[-1] > 0 and stats.fit_s[-1] >= 0 and stats.hop_s[-1] >= 0


async def flood_and_measure(
    stub: pb_grpc.FactMemoryServiceStub, seconds: float, clients: int = 4, in_flight: int = 2
) -> list[float]:
    """The victim's short Provide latencies while `clients` flood long texts with a 0.3 s deadline."""
    stop = 0.0

    async def flood(client: int) -> None:
        attacker, i = Person(), 0
        while time.monotonic() < stop:
            i += 1
            try:
                await stub.Provide(attacker.provide(f"{client} {i} " + "\u00e9" * 1000), timeout=0.3)
            except grpc.aio.AioRpcError:
                pass

    async def victim() -> list[float]:
        person, i, latencies = Person(), 0, []
        await asyncio.sleep(0.5)  # the flood is on
        while time.monotonic() < stop:
            i += 1
            started = time.monotonic()
            await stub.Provide(person.provide(f"what does Sam like {i}"), timeout=10)
            latencies.append(time.monotonic() - started)
        return latencies

    # Warm: the database pool opens its connections (a cold start is not what is measured).
    await asyncio.gather(*(stub.Provide(Person().provide(f"warm up {i}")) for i in range(clients * in_flight + 1)))
    stop = time.monotonic() + seconds
    floods = [asyncio.ensure_future(flood(c)) for c in range(clients) for _ in range(in_flight)]
    latencies = await victim()
    await asyncio.gather(*floods)
    return latencies


@pytest.mark.timing  # wall clock: the victim's p95 within 1 s
async def test_a_flood_of_long_texts_does_not_starve_a_short_provide(
    pg_url: str, llm: ScriptedLLM, tmp_path: Path
) -> None:
    proc, port = await asyncio.to_thread(spawn_server, pg_url, llm, tmp_path)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            latencies = await flood_and_measure(pb_grpc.FactMemoryServiceStub(channel), 4.0)
    finally:
        proc.kill()
        proc.wait()
    p95 = statistics.quantiles(latencies, n=20)[-1] if len(latencies) > 1 else latencies[0]
    assert p95 <= 1.0, f"victim p95 {p95:.2f} s over {len(latencies)} calls: {[round(x, 2) for x in latencies]}"


@pytest.mark.timing  # wall clock: exit within 1 s of grace + 3 s
async def test_sigterm_with_engine_work_running_exits_within_grace(
    pg_url: str, llm: ScriptedLLM, tmp_path: Path
) -> None:
    proc, port = await asyncio.to_thread(
        spawn_server,
        pg_url,
        llm,
        tmp_path,
        FACTMEMORY_GRACE_S="1",
        FACTMEMORY_EMBEDDING_WORKERS="1",
        FACTMEMORY_EMBEDDING_MAX_TOKENS="512",
    )
    try:
        [worker] = children_of(proc.pid)
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = pb_grpc.FactMemoryServiceStub(channel)
            person = Person()
            calls = [asyncio.ensure_future(stub.Provide(person.provide(f"{i} {LONG_TEXT}"))) for i in range(20)]
            await wait_busy(worker)
            started = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            assert await asyncio.to_thread(proc.wait, 30) == 0
            elapsed = time.monotonic() - started
            await asyncio.gather(*calls, return_exceptions=True)
        assert elapsed <= 1 + 3, f"shutdown took {elapsed:.1f} s with a 1 s grace period"
        assert gone(worker)
    finally:
        if proc.poll() is None:
            proc.kill()


@pytest.mark.timing  # wall clock: the workers gone within 5 s
async def test_kill_9_of_the_service_leaves_no_engine_process(pg_url: str, llm: ScriptedLLM, tmp_path: Path) -> None:
    proc, _ = await asyncio.to_thread(spawn_server, pg_url, llm, tmp_path, FACTMEMORY_EMBEDDING_WORKERS="2")
    workers = children_of(proc.pid)
    assert len(workers) == 2
    proc.kill()
    proc.wait()
    for _ in range(100):
        if all(gone(pid) for pid in workers):
            break
        await asyncio.sleep(0.05)
    assert all(gone(pid) for pid in workers)


async def test_health_hook_follows_the_engine_pool() -> None:
    embedder = await LocalEmbedder.start("multilingual-e5-small", 1)
    assert embedder.healthy()
    await embedder.close()
    assert not embedder.healthy()
    with pytest.raises(Unavailable):
        await embedder.queries(["anyone there?"])


# --- the embeddings endpoint ------------------------------------------------------------------------------


def endpoint_embedder(llm: ScriptedLLM) -> OpenAIEmbedder:
    client = openai.AsyncOpenAI(api_key="test", base_url=llm.base_url, max_retries=0, timeout=5)
    return OpenAIEmbedder(client, "text-embedding-3-small", 8, RetryPolicy(max_retries=2, base_delay_s=0.01))


@pytest.mark.parametrize(
    ("faults", "expected"),
    [
        ([Fault(400)], Refused),
        ([Fault(401)], NotConfigured),
        ([Fault(403)], NotConfigured),
        ([Fault(200, truncate=True)] * 3, Unavailable),
        ([Fault(404)], NotConfigured),
        ([Fault(503)] * 3, Unavailable),
        ([Fault(429, headers={"Retry-After": "60"})], Unavailable),
    ],
)
async def test_endpoint_failures_map_like_the_llm_edge(
    llm: ScriptedLLM, faults: list[Fault], expected: type[Exception]
) -> None:
    llm.embedding_faults.extend(faults)
    embedder = endpoint_embedder(llm)
    with pytest.raises(expected):
        await embedder.passages(["likes tea"])
    await embedder.close()


@pytest.mark.parametrize("fault", [Fault(400), Fault(401), Fault(404), Fault(422), Fault(429), Fault(503), Fault(418)])
async def test_a_failed_embeddings_call_raises_what_the_openai_client_raises(llm: ScriptedLLM, fault: Fault) -> None:
    """The call goes over plain HTTP, not through the client's machinery; its failures must still be the client's
    errors (class, status, message, body), which the retries and the domain errors are written against."""
    client = openai.AsyncOpenAI(api_key="test", base_url=llm.base_url, max_retries=0, timeout=5)
    llm.embedding_faults.extend([fault, fault])
    with pytest.raises(openai.APIStatusError) as by_client:
        await client.embeddings.create(model="m", input=["likes tea"])
    embedder = OpenAIEmbedder(client, "m", 8, RetryPolicy(max_retries=0))
    with pytest.raises(openai.APIStatusError) as direct:
        await embedder._post(["likes tea"])
    assert type(direct.value) is type(by_client.value)
    assert (direct.value.status_code, direct.value.message, direct.value.body) == (
        by_client.value.status_code,
        by_client.value.message,
        by_client.value.body,
    )
    await embedder.close()


async def test_an_unreachable_endpoint_is_unavailable(unused_tcp_port: int) -> None:
    client = openai.AsyncOpenAI(api_key="test", base_url=f"http://127.0.0.1:{unused_tcp_port}/v1", max_retries=0)
    embedder = OpenAIEmbedder(client, "m", 8, RetryPolicy(max_retries=1, base_delay_s=0.01))
    with pytest.raises(Unavailable, match="unreachable: APIConnectionError"):
        await embedder.passages(["likes tea"])
    await embedder.close()


async def test_transient_endpoint_failures_are_retried(llm: ScriptedLLM) -> None:
    llm.embedding_faults.extend([Fault(503), Fault(429, headers={"Retry-After": "0"})])
    embedder = endpoint_embedder(llm)
    vectors = await embedder.passages(["likes tea"])
    assert vectors.shape == (1, 8) and len(llm.embedding_requests) == 3
    await embedder.close()


async def test_endpoint_vectors_are_read_as_base64_and_as_lists_alike(llm: ScriptedLLM) -> None:
    """The request asks for base64 (as the OpenAI client does); an endpoint that sends lists of numbers anyway is
    read the same, in input order, normalised."""
    embedder = endpoint_embedder(llm)
    as_base64 = await embedder.passages(["lives in Berlin", "likes tea"])
    assert llm.embedding_requests[-1]["encoding_format"] == "base64"
    texts = ["lives in Berlin", "likes tea"]
    listed = json.dumps(
        {
            "object": "list",
            "data": [
                {"object": "embedding", "index": i, "embedding": v}
                for i, v in reversed(list(enumerate(toy_embedding(t, 8) for t in texts)))
            ],
        }
    )
    llm.embedding_faults.append(Fault(200, body=listed))
    as_lists = await embedder.queries(texts)
    assert as_base64.shape == as_lists.shape == (2, 8)
    assert np.allclose(as_base64, as_lists, atol=1e-6)
    assert np.allclose(np.linalg.norm(as_lists, axis=1), 1.0, atol=1e-5)
    await embedder.close()


@pytest.mark.parametrize(
    "body",
    [
        "not json",
        '{"data": [{"index": 0, "embedding": "%%%not base64"}]}',
        '{"data": [{"index": 0, "embedding": "AAAA"}]}',  # one number, not 8
        '{"data": [{"index": 0}]}',
        '{"object": "list"}',
    ],
)
async def test_an_unreadable_endpoint_reply_is_unavailable(llm: ScriptedLLM, body: str) -> None:
    llm.embedding_faults.append(Fault(200, body=body))
    embedder = endpoint_embedder(llm)
    with pytest.raises(Unavailable):
        await embedder.passages(["likes tea"])
    await embedder.close()


async def test_a_claim_embedded_before_is_not_sent_again(llm: ScriptedLLM) -> None:
    embedder = endpoint_embedder(llm)
    first = await embedder.passages(["lives in Berlin", "likes tea"])
    again = await embedder.passages(["likes tea", "lives in Berlin", "plays chess"])
    assert [r["input"] for r in llm.embedding_requests] == [["lives in Berlin", "likes tea"], ["plays chess"]]
    assert np.array_equal(again[0], first[1]) and np.array_equal(again[1], first[0])
    await embedder.queries(["likes tea"])  # a query is embedded as a query, not served from the claims
    assert len(llm.embedding_requests) == 3
    await embedder.close()
