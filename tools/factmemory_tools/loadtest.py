"""Load driver: many concurrent clients mix Provide and Evaluate against a real server, then check integrity.

    python -m factmemory_tools.loadtest [--seconds N --clients N --llm-latency-ms N --json PATH]
                                        [--attack-clients N | --victim]

Starts an embedded PostgreSQL (unless --database-url), a scripted OpenAI-compatible LLM in this process and the
server as a subprocess (`python -m factmemory serve` on 127.0.0.1, port chosen by the OS). Clients run in closed
loops for a fixed time; every RPC has a deadline, so the run stops by itself.

The scripted model turns a message "... claims: 2 5 ..." into ops on a small pool of claims (one per category,
so claims never collide in the write-time dedup check): strengthen when the prompt shows the claim under a
handle, add otherwise (or always add, for messages marked "mode: add", to exercise the write-time check).
Few entities, many clients: concurrent Evaluates of one entity with overlapping claims are the normal case, and
some Evaluates are sent twice at once or repeated later.

Integrity, checked at the end:
- every acknowledged message is stored exactly once in evaluations, and nothing else is stored;
- per message id exactly one response applied something (replayed=False); every replay returned the same ops;
- no duplicate facts (same agent, entity, kind, category, claim) and no review candidates (claims never conflict);
- each fact's evidence is exactly the acknowledged messages that mentioned its claim; its confidence follows
  from that count (0.7, +0.1 per further message, capped at 1.0);
- the facts equal a sequential replay of the acknowledged messages, in their commit order, under a fresh agent
  id: confidence, evidence in order, created_at, last_confirmed_at, verification.
The commit order per entity is the order of the evaluations rows' xmin: a turn takes the per-entity advisory lock
before its first write (the evaluations insert), which is when PostgreSQL assigns the transaction id, and holds
the lock until it commits. Across entities the order does not matter: their facts are disjoint.
Where xmin does not keep that order (a Citus cluster whose shards moved: a moved row gets the new worker's
transaction id), the replay runs in an order read from the facts instead (`replay="evidence"`): each fact's
evidence lists the messages that named it in the order they were applied, and those lists, taken together, must
admit one order of each entity's messages (a cycle among them is a violation: no sequential run explains the
facts); the replay in that order must then give the same facts. That checks that the concurrent run equals some
sequential one, which is what the commit order proves on one PostgreSQL; it is weaker only in that the order comes
from the state it checks.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import itertools
import json
import os
import random
import re
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from graphlib import CycleError, TopologicalSorter
from pathlib import Path
from typing import Any, Literal

import asyncpg
import grpc
from google.protobuf.timestamp_pb2 import Timestamp

from factmemory.public import database_url
from factmemory.testing.llm import Reply, ScriptedLLM, current_message, facts_shown
from factmemory.v1 import factmemory_pb2 as pb
from factmemory.v1 import factmemory_pb2_grpc as pb_grpc

ReplayOrder = Literal["commit", "evidence"] | None

# One claim per category: two different claims never meet in the write-time dedup check.
CLAIMS: tuple[tuple[str, str, str], ...] = (
    ("add_durable", "identity", "lives in Berlin"),
    ("add_durable", "preference", "loves strong black coffee"),
    ("add_durable", "health", "allergic to penicillin"),
    ("add_durable", "business_role", "works as a nurse at the city hospital"),
    ("add_durable", "goal", "wants to run a marathon"),
    ("add_current", "feeling", "anxious about the exam"),
    ("add_current", "working_on", "debugging the auth flow"),
    ("add_current", "going_through", "moving to a new flat"),
)
ADD_CONFIDENCE, STEP = 0.7, 0.1
BASE_TIME = datetime(2026, 1, 1, tzinfo=UTC)
RPC_TIMEOUT_S = 30.0
RETRY_PAUSE_S = 0.2
_CLAIMS_IN_TEXT = re.compile(r"claims: ([\d ]+)")

EVALUATION_ORDER = """
SELECT message_id, entity_id, xmin::text::bigint AS xid FROM evaluations WHERE agent_id = $1 ORDER BY xid
"""
FACTS_OF_AGENT = """
SELECT entity_id, kind, category, claim, confidence, evidence_message_ids, created_at, last_confirmed_at,
       verification_status
  FROM facts WHERE agent_id = $1
"""
DUPLICATE_FACTS = """
SELECT entity_id, kind, category, claim, count(*) AS n FROM facts WHERE agent_id = $1
 GROUP BY entity_id, kind, category, claim HAVING count(*) > 1
"""
CANDIDATES_OF_AGENT = "SELECT count(*) FROM fact_candidates WHERE agent_id = $1"


@dataclass(frozen=True)
class LoadConfig:
    """What the run does; the defaults are the long run of docs/load.md."""

    seconds: float = 60.0
    clients: int = 32
    llm_latency_ms: float = 300.0
    evaluate_share: float = 0.3
    entities: int = 3
    twin_share: float = 0.1  # Evaluates sent twice at the same time
    repeat_share: float = 0.05  # Evaluates that repeat an earlier acknowledged message
    add_mode_share: float = 0.3  # messages whose model reply always adds (write-time dedup must catch it)
    seed: int = 1
    servers: int = 1  # replicas of the service on the one database; every call goes to any of them
    # Attack mode: clients that flood Provides of 1,000 x "é" with a 0.3 s deadline (each its own agent).
    # The victim, one more client, sends a short Provide whose text is new (no cached embedding) every 0.1 s;
    # it runs in attack mode, or alone (victim=True) to compare its latency without the attack.
    attack_clients: int = 0
    victim: bool = False
    # Status codes a client retries (after RETRY_PAUSE_S, until its deadline), as clients are told to on a cluster
    # with a worker down or a shard moving; the latency of a call then counts its retries. None by default.
    retry_codes: tuple[str, ...] = ()
    # The sequential replay (the last integrity check), in commit order (the evaluations' xmin), in the order the
    # facts' evidence gives (where xmin is not kept: a shard moved to another worker), or none.
    replay: ReplayOrder = "commit"


@dataclass
class Report:
    config: LoadConfig
    seconds: float = 0.0
    requests: Counter[str] = field(default_factory=Counter)
    errors: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    retried: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    attack_outcomes: Counter[str] = field(default_factory=Counter)  # the attackers' own, not errors of the run
    latencies_ms: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    # When each call of latencies_ms started (time.monotonic(), same order): for figures by phase of a run.
    started_at: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    acknowledged: int = 0
    twins: int = 0
    repeats: int = 0
    facts: int = 0
    replay_seconds: float = 0.0
    server_errors_logged: int = 0
    server_error_lines: list[str] = field(default_factory=list)  # the first few, as logged
    violations: list[str] = field(default_factory=list)

    def error_count(self) -> int:
        return sum(sum(c.values()) for c in self.errors.values())

    def summary(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {
            "config": asdict(self.config),
            "seconds": round(self.seconds, 1),
            "requests": dict(self.requests),
            "requests_per_second": round(sum(self.requests.values()) / max(self.seconds, 1e-9), 1),
            "errors": {rpc: dict(codes) for rpc, codes in self.errors.items() if codes},
            "retried": {rpc: dict(codes) for rpc, codes in self.retried.items() if codes},
            "attack_outcomes": dict(self.attack_outcomes),
            "latency_ms": {rpc: percentiles(values) for rpc, values in sorted(self.latencies_ms.items())},
            "evaluations_acknowledged": self.acknowledged,
            "twin_evaluates": self.twins,
            "repeated_evaluates": self.repeats,
            "facts": self.facts,
            "replay_seconds": round(self.replay_seconds, 1),
            "server_errors_logged": self.server_errors_logged,
            "server_error_lines": self.server_error_lines,
            "violations": self.violations,
        }

    def text(self) -> str:
        s = self.summary()
        lines = [
            f"load: {s['config']['clients']} clients on {s['config']['servers']} server(s), {s['seconds']} s, "
            "LLM latency "
            f"{s['config']['llm_latency_ms']:.0f} ms, {s['config']['entities']} entities",
            f"requests: {s['requests']} ({s['requests_per_second']}/s); errors: {s['errors'] or 'none'}"
            + (f"; retried: {s['retried']}" if s["retried"] else ""),
        ]
        for rpc, p in s["latency_ms"].items():
            lines.append(
                f"  {rpc:<9} n={p['n']:<6} p50={p['p50']:.0f} ms  p95={p['p95']:.0f} ms  "
                f"p99={p['p99']:.0f} ms  max={p['max']:.0f} ms"
            )
        if self.config.attack_clients:
            lines.append(
                f"attack: {self.config.attack_clients} clients flooding 1,000-character Provides with a "
                f"0.3 s deadline; their outcomes: {dict(self.attack_outcomes)}"
            )
        lines.append(
            f"evaluations acknowledged: {self.acknowledged} (twins sent: {self.twins}, repeats sent: "
            f"{self.repeats}); facts: {self.facts}; replay: {s['replay_seconds']} s; "
            f"server ERROR log lines: {self.server_errors_logged}"
        )
        lines.extend(f"  ! {line}" for line in self.server_error_lines)
        lines.append(f"integrity violations: {len(self.violations)}")
        lines.extend(f"  - {v}" for v in self.violations[:20])
        return "\n".join(lines)


def percentiles(values: Sequence[float]) -> dict[str, float]:
    ordered = sorted(values)
    if not ordered:
        return {"n": 0, "p50": 0.0, "p95": 0.0, "p99": 0.0, "max": 0.0}

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)

    return {"n": len(ordered), "p50": at(0.50), "p95": at(0.95), "p99": at(0.99), "max": round(ordered[-1], 1)}


# --- the scripted model --------------------------------------------------------------------------------------


def model_reply(body: dict[str, Any]) -> Reply:
    """Ops for the claims named in the message: strengthen what the prompt shows, add the rest."""
    text = current_message(body)
    found = _CLAIMS_IN_TEXT.search(text)
    indices = [int(i) for i in found.group(1).split()] if found else []
    shown = {claim: handle for handle, claim in facts_shown(body)}
    always_add = "mode: add" in text
    ops: list[dict[str, Any]] = []
    for index in indices:
        op, category, claim = CLAIMS[index]
        if claim in shown and not always_add:
            ops.append({"op": "strengthen", "fact": shown[claim], "reason": "said again"})
        else:
            ops.append({"op": op, "claim": claim, "category": category, "structured_fields": []})
    return Reply(
        {"facts": {"ops": ops}, "relationships": [], "identities": [], "success": {"completed": True, "reason": "load"}}
    )


# --- the server ------------------------------------------------------------------------------------------------


def _server_env(db_url: str, llm_url: str, workdir: Path) -> dict[str, str]:
    return {
        **os.environ,
        "FACTMEMORY_LISTEN": "127.0.0.1:0",
        "FACTMEMORY_DATABASE_URL": db_url,
        "FACTMEMORY_DATA_DIR": str(workdir / "data"),
        "OPENAI_BASE_URL": llm_url,
        "OPENAI_API_KEY": "load",
        "FACTMEMORY_AUTH_TOKEN": "",
        "FACTMEMORY_LLM_TIMEOUT_S": str(RPC_TIMEOUT_S),
    }


async def _stop(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        process.terminate()
        try:
            await asyncio.wait_for(process.wait(), timeout=30)
        except TimeoutError:
            process.kill()
            await process.wait()


@contextlib.asynccontextmanager
async def running_servers(
    count: int, db_url: str, llm_url: str, workdir: Path
) -> AsyncIterator[tuple[list[str], list[Path]]]:
    """`count` replicas of `python -m factmemory serve` on one database, started at the same moment (their
    migrations race; the migration lock must make that safe); yields their addresses and log files."""
    logs = [workdir / ("server.log" if i == 0 else f"server-{i}.log") for i in range(count)]
    processes: list[asyncio.subprocess.Process] = []
    with contextlib.ExitStack() as files:
        try:
            for log_path in logs:
                log = files.enter_context(log_path.open("wb"))
                processes.append(
                    await asyncio.create_subprocess_exec(
                        sys.executable,
                        "-m",
                        "factmemory",
                        "serve",
                        env=_server_env(db_url, llm_url, workdir),
                        stdout=asyncio.subprocess.PIPE,
                        stderr=log,
                    )
                )
            addresses = await asyncio.wait_for(asyncio.gather(*(_listening_address(p) for p in processes)), 180)
            yield list(addresses), logs
        finally:
            await asyncio.gather(*(_stop(p) for p in processes))


@contextlib.asynccontextmanager
async def running_server(db_url: str, llm_url: str, workdir: Path) -> AsyncIterator[tuple[str, Path]]:
    """`python -m factmemory serve` on a free loopback port; yields its address and its log file."""
    async with running_servers(1, db_url, llm_url, workdir) as (addresses, logs):
        yield addresses[0], logs[0]


async def _listening_address(process: asyncio.subprocess.Process) -> str:
    assert process.stdout is not None
    while line := (await process.stdout.readline()).decode():
        if line.startswith("factmemory listening on "):
            return line.rsplit(" ", 1)[-1].strip()
    raise RuntimeError(f"the server exited before listening (code {await process.wait()})")


# --- the clients -----------------------------------------------------------------------------------------------


def _timestamp(seq: int) -> Timestamp:
    ts = Timestamp()
    ts.FromDatetime(BASE_TIME + timedelta(seconds=seq))
    return ts


@dataclass
class Run:
    """Shared state of one load run."""

    config: LoadConfig
    stubs: list[pb_grpc.FactMemoryServiceStub]  # one per server; each call goes to a random one
    agent_id: str
    entities: list[str]
    report: Report
    deadline: float
    sequence: int = 0
    sent: dict[str, pb.EvaluateRequest] = field(default_factory=dict)  # message id -> request
    responses: dict[str, list[pb.EvaluateResponse]] = field(default_factory=lambda: defaultdict(list))
    acknowledged: list[str] = field(default_factory=list)

    @property
    def stub(self) -> pb_grpc.FactMemoryServiceStub:
        """The first server's stub (the sequential replay uses it)."""
        return self.stubs[0]

    def any_stub(self) -> pb_grpc.FactMemoryServiceStub:
        return self.stubs[0] if len(self.stubs) == 1 else random.choice(self.stubs)

    def new_evaluate(self, rng: random.Random) -> pb.EvaluateRequest:
        self.sequence += 1
        claims = sorted(rng.sample(range(len(CLAIMS)), rng.randint(1, 3)))
        mode = "add" if rng.random() < self.config.add_mode_share else "auto"
        entity = rng.choice(self.entities)
        message = pb.ChatMessage(
            id=str(uuid.uuid4()),
            entity_id=entity,
            name="Sam",
            created_at=_timestamp(self.sequence),
            text=f"message {self.sequence}, mode: {mode}, claims: {' '.join(map(str, claims))}",
        )
        return pb.EvaluateRequest(agent_id=self.agent_id, entity_id=entity, message=message, did_respond=True)

    async def timed(self, rpc: str, call: Callable[[], Any]) -> Any:
        self.report.started_at[rpc].append(time.monotonic())
        started = time.perf_counter()
        try:
            while True:
                try:
                    return await call()
                except grpc.aio.AioRpcError as error:
                    code = error.code().name
                    if code not in self.config.retry_codes or time.perf_counter() - started > RPC_TIMEOUT_S:
                        raise
                    self.report.retried[rpc][code] += 1
                    await asyncio.sleep(RETRY_PAUSE_S)
        except grpc.aio.AioRpcError as error:
            self.report.errors[rpc][error.code().name] += 1
            return None
        finally:
            self.report.requests[rpc] += 1
            self.report.latencies_ms[rpc].append((time.perf_counter() - started) * 1000)

    async def evaluate(self, request: pb.EvaluateRequest) -> None:
        self.sent[request.message.id] = request
        stub = self.any_stub()  # the two copies of a twin usually reach different servers
        response = await self.timed("Evaluate", lambda: stub.Evaluate(request, timeout=RPC_TIMEOUT_S))
        if response is not None:
            if not self.responses[request.message.id]:
                self.acknowledged.append(request.message.id)
            self.responses[request.message.id].append(response)

    async def provide(self, rng: random.Random) -> None:
        entity = rng.choice(self.entities)
        _, _, claim = rng.choice(CLAIMS)
        request = pb.ProvideRequest(
            agent_id=self.agent_id,
            entity_id=entity,
            subject_name="Sam",
            recent_messages=[pb.ChatMessage(id=str(uuid.uuid4()), text=f"about {claim}")],
        )
        stub = self.any_stub()
        response = await self.timed("Provide", lambda: stub.Provide(request, timeout=RPC_TIMEOUT_S))
        if response is not None:
            claims = [s.fact.claim for s in (*response.durable, *response.current)]
            if len(claims) != len(set(claims)):
                self.report.violations.append(f"Provide returned a claim twice: {sorted(claims)}")

    async def attacker(self, client: int) -> None:
        agent, entity, i = str(uuid.uuid4()), str(uuid.uuid4()), 0
        while time.monotonic() < self.deadline:
            i += 1
            text = f"{client} {i} " + "\u00e9" * 1000
            request = pb.ProvideRequest(
                agent_id=agent, entity_id=entity, recent_messages=[pb.ChatMessage(id=str(uuid.uuid4()), text=text)]
            )
            try:
                await self.stub.Provide(request, timeout=0.3)
                self.report.attack_outcomes["OK"] += 1
            except grpc.aio.AioRpcError as error:
                self.report.attack_outcomes[error.code().name] += 1

    async def victim(self) -> None:
        agent, entity = str(uuid.uuid4()), str(uuid.uuid4())
        while time.monotonic() < self.deadline:
            text = f"what does Sam like? {uuid.uuid4().hex[:8]}"
            request = pb.ProvideRequest(
                agent_id=agent, entity_id=entity, recent_messages=[pb.ChatMessage(id=str(uuid.uuid4()), text=text)]
            )
            await self.timed("Provide(victim)", functools.partial(self.stub.Provide, request, timeout=RPC_TIMEOUT_S))
            await asyncio.sleep(0.1)

    async def client(self, rng: random.Random) -> None:
        while time.monotonic() < self.deadline:
            if rng.random() >= self.config.evaluate_share:
                await self.provide(rng)
                continue
            roll = rng.random()
            if roll < self.config.repeat_share and self.acknowledged:
                self.report.repeats += 1
                await self.evaluate(self.sent[rng.choice(self.acknowledged)])
            elif roll < self.config.repeat_share + self.config.twin_share:
                self.report.twins += 1
                request = self.new_evaluate(rng)
                await asyncio.gather(self.evaluate(request), self.evaluate(request))
            else:
                await self.evaluate(self.new_evaluate(rng))


# --- integrity -------------------------------------------------------------------------------------------------


def _ops_bytes(response: pb.EvaluateResponse) -> list[bytes]:
    return [op.SerializeToString(deterministic=True) for op in response.ops]


def check_responses(run: Run) -> list[str]:
    """Exactly one response per message applied something; every other one replayed the same ops."""
    problems = []
    for message_id, responses in run.responses.items():
        applied = [r for r in responses if not r.replayed]
        if len(applied) != 1:
            problems.append(f"message {message_id}: {len(applied)} of {len(responses)} responses applied ops")
        elif any(_ops_bytes(r) != _ops_bytes(applied[0]) for r in responses):
            problems.append(f"message {message_id}: a replay returned different ops than the first evaluation")
    return problems


def _claims_of(request: pb.EvaluateRequest) -> list[int]:
    found = _CLAIMS_IN_TEXT.search(request.message.text)
    return [int(i) for i in found.group(1).split()] if found else []


def expected_evidence(run: Run) -> dict[tuple[str, str], set[str]]:
    """(entity, claim) -> the acknowledged messages that mentioned the claim."""
    out: dict[tuple[str, str], set[str]] = defaultdict(set)
    for message_id in run.acknowledged:
        request = run.sent[message_id]
        for index in _claims_of(request):
            out[(request.entity_id, CLAIMS[index][2])].add(message_id)
    return out


def expected_confidence(mentions: int) -> float:
    return round(min(1.0, ADD_CONFIDENCE + STEP * (mentions - 1)), 4)


async def check_store(conn: asyncpg.Connection, run: Run) -> tuple[list[str], list[asyncpg.Record]]:
    """Stored evaluations, duplicates, candidates, evidence and confidences; returns problems and the facts."""
    agent = uuid.UUID(run.agent_id)
    problems = []
    stored = [r["message_id"] for r in await conn.fetch(EVALUATION_ORDER, agent)]
    if len(stored) != len(set(stored)) or set(stored) != set(run.acknowledged):
        problems.append(
            f"evaluations: {len(stored)} rows ({len(set(stored))} distinct) for "
            f"{len(run.acknowledged)} acknowledged messages; missing "
            f"{len(set(run.acknowledged) - set(stored))}, unacknowledged "
            f"{len(set(stored) - set(run.acknowledged))}"
        )
    problems += [
        f"duplicate fact x{r['n']}: {r['entity_id']} {r['kind']}.{r['category']} {r['claim']!r}"
        for r in await conn.fetch(DUPLICATE_FACTS, agent)
    ]
    candidates = await conn.fetchval(CANDIDATES_OF_AGENT, agent)
    if candidates:
        problems.append(f"{candidates} review candidates, expected none (the claims never conflict)")
    facts = await conn.fetch(FACTS_OF_AGENT, agent)
    expected = expected_evidence(run)
    seen = set()
    for fact in facts:
        key = (str(fact["entity_id"]), fact["claim"])
        seen.add(key)
        evidence = list(fact["evidence_message_ids"])
        if len(evidence) != len(set(evidence)) or set(evidence) != expected.get(key, set()):
            problems.append(
                f"{key}: evidence {len(evidence)} ids ({len(set(evidence))} distinct), expected "
                f"the {len(expected.get(key, ()))} messages that mentioned it"
            )
        if abs(fact["confidence"] - expected_confidence(len(expected.get(key, ())))) > 1e-9:
            problems.append(
                f"{key}: confidence {fact['confidence']}, expected {expected_confidence(len(expected.get(key, ())))}"
            )
    problems += [
        f"{key}: mentioned by {len(ids)} acknowledged messages but not stored"
        for key, ids in expected.items()
        if key not in seen
    ]
    return problems, facts


async def commit_order(conn: asyncpg.Connection, agent_id: str) -> dict[str, list[str]]:
    """Entity -> its acknowledged message ids in commit order (see the module docstring)."""
    order: dict[str, list[str]] = defaultdict(list)
    for row in await conn.fetch(EVALUATION_ORDER, uuid.UUID(agent_id)):
        order[str(row["entity_id"])].append(row["message_id"])
    return order


def evidence_order(
    facts: Sequence[tuple[str, Sequence[str]]], entity_of: dict[str, str]
) -> tuple[dict[str, list[str]], list[str]]:
    """Entity -> its messages in an order every fact's evidence agrees with (`facts`: each fact's entity and
    evidence, in the order its messages were applied; messages in no evidence, which named no claim, fall
    anywhere). And the problems: entities whose evidence lists contradict each other (a cycle), which no sequential
    run can produce. `entity_of`: each acknowledged message's entity (evidence naming any other message is
    check_store's to report)."""
    graphs: dict[str, TopologicalSorter[str]] = defaultdict(TopologicalSorter)
    for message_id, entity in sorted(entity_of.items()):
        graphs[entity].add(message_id)
    for entity, fact_evidence in facts:
        evidence = [m for m in fact_evidence if m in entity_of]
        graph = graphs[entity]
        for earlier, later in itertools.pairwise(evidence):
            graph.add(later, earlier)
    order: dict[str, list[str]] = {}
    problems: list[str] = []
    for entity, graph in graphs.items():
        try:
            order[entity] = list(graph.static_order())
        except CycleError as error:
            problems.append(f"{entity}: the facts' evidence orders contradict each other: {error.args[1]}")
    return order, problems


async def replay(run: Run, order: dict[str, list[str]], replay_agent: str) -> list[str]:
    """The acknowledged messages again, one at a time per entity in `order` (commit_order or evidence_order), under
    a fresh agent id."""
    problems: list[str] = []

    async def entity_stream(message_ids: list[str]) -> None:
        for message_id in message_ids:
            request = pb.EvaluateRequest()
            request.CopyFrom(run.sent[message_id])
            request.agent_id = replay_agent
            try:
                await run.stub.Evaluate(request, timeout=RPC_TIMEOUT_S)
            except grpc.aio.AioRpcError as error:
                problems.append(f"replay of {message_id} failed: {error.code().name} {error.details()}")

    await asyncio.gather(*(entity_stream(ids) for ids in order.values()))
    return problems


def _comparable(facts: Sequence[asyncpg.Record]) -> dict[tuple[str, str, str, str], tuple[Any, ...]]:
    return {
        (str(f["entity_id"]), f["kind"], f["category"], f["claim"]): (
            f["confidence"],
            tuple(f["evidence_message_ids"]),
            f["created_at"],
            f["last_confirmed_at"],
            f["verification_status"],
        )
        for f in facts
    }


def compare_with_replay(live: Sequence[asyncpg.Record], replayed: Sequence[asyncpg.Record]) -> list[str]:
    a, b = _comparable(live), _comparable(replayed)
    problems = [f"{key}: only in the {'live run' if key in a else 'replay'}" for key in sorted(a.keys() ^ b.keys())]
    problems += [
        f"{key}: live {a[key][:2]!r:.200} != replay {b[key][:2]!r:.200}"
        for key in sorted(a.keys() & b.keys())
        if a[key] != b[key]
    ]
    return problems


# --- the run ---------------------------------------------------------------------------------------------------


# Called after the clients stop and before the checks; the tests use it to corrupt the store on purpose.
BeforeChecks = Callable[[asyncpg.Connection, "Run"], Awaitable[None]]


async def drive(
    config: LoadConfig,
    addresses: str | Sequence[str],
    llm: ScriptedLLM,
    db_url: str,
    before_checks: BeforeChecks | None = None,
) -> Report:
    """Runs the clients against one or more listening servers (each call to any of them), then the checks."""
    report = Report(config)
    rng = random.Random(config.seed)
    targets = [addresses] if isinstance(addresses, str) else list(addresses)
    async with contextlib.AsyncExitStack() as channels:
        stubs = [
            pb_grpc.FactMemoryServiceStub(await channels.enter_async_context(grpc.aio.insecure_channel(a)))
            for a in targets
        ]
        run = Run(
            config=config,
            stubs=stubs,
            agent_id=str(uuid.uuid4()),
            entities=[str(uuid.uuid4()) for _ in range(config.entities)],
            report=report,
            deadline=0.0,
        )
        llm.latency_s = config.llm_latency_ms / 1000
        started = time.monotonic()
        run.deadline = started + config.seconds
        attack = [run.attacker(i) for i in range(config.attack_clients)]
        attack += [run.victim()] if config.victim or config.attack_clients else []
        await asyncio.gather(*(run.client(random.Random(rng.random())) for _ in range(config.clients)), *attack)
        report.seconds = time.monotonic() - started
        report.acknowledged = len(run.acknowledged)
        report.violations += check_responses(run)
        conn = await asyncpg.connect(db_url)
        try:
            if before_checks is not None:
                await before_checks(conn, run)
            problems, live = await check_store(conn, run)
            report.violations += problems
            report.facts = len(live)
            llm.latency_s = 0.0
            if config.replay:
                replay_agent = str(uuid.uuid4())
                started = time.monotonic()
                if config.replay == "commit":
                    order = await commit_order(conn, run.agent_id)
                else:
                    order, contradictions = evidence_order(
                        [(str(f["entity_id"]), f["evidence_message_ids"]) for f in live],
                        {m: run.sent[m].entity_id for m in run.acknowledged},
                    )
                    report.violations += contradictions
                report.violations += await replay(run, order, replay_agent)
                report.replay_seconds = time.monotonic() - started
                replayed = await conn.fetch(FACTS_OF_AGENT, uuid.UUID(replay_agent))
                report.violations += compare_with_replay(live, replayed)
        finally:
            await conn.close()
    return report


async def run_load(
    config: LoadConfig,
    db_url: str | None = None,
    workdir: Path | None = None,
    before_checks: BeforeChecks | None = None,
) -> Report:
    """The whole run: database (embedded unless given), scripted LLM, server subprocesses (config.servers
    replicas on the one database), clients, checks."""
    with tempfile.TemporaryDirectory(prefix="factmemory-load-") as scratch:
        work = workdir or Path(scratch)
        async with database_url(db_url, work / "db") as url:
            llm = ScriptedLLM()
            llm.default = model_reply
            with llm:
                async with running_servers(config.servers, url, llm.base_url, work) as (addresses, logs):
                    report = await drive(config, addresses, llm, url, before_checks)
                note_server_errors(report, logs)
    return report


SHOWN_ERROR_LINES = 5
SHOWN_ERROR_CHARS = 400


def note_server_errors(report: Report, logs: Sequence[Path]) -> None:
    """How many ERROR lines the servers logged, and the first few of them (each cut), for the report."""
    errors = [line for log_path in logs for line in log_path.read_text().splitlines() if " ERROR " in line]
    report.server_errors_logged = len(errors)
    report.server_error_lines = [line[:SHOWN_ERROR_CHARS] for line in errors[:SHOWN_ERROR_LINES]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m factmemory_tools.loadtest",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    defaults = LoadConfig()
    parser.add_argument("--seconds", type=float, default=defaults.seconds)
    parser.add_argument("--clients", type=int, default=defaults.clients)
    parser.add_argument("--llm-latency-ms", type=float, default=defaults.llm_latency_ms)
    parser.add_argument("--evaluate-share", type=float, default=defaults.evaluate_share)
    parser.add_argument("--entities", type=int, default=defaults.entities)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument(
        "--servers",
        type=int,
        default=defaults.servers,
        help="replicas of the service on the one database, started together",
    )
    parser.add_argument(
        "--attack-clients",
        type=int,
        default=defaults.attack_clients,
        help="also flood long Provides from this many clients and report a victim's latency",
    )
    parser.add_argument("--victim", action="store_true", help="report the victim's latency without an attack")
    parser.add_argument("--database-url", help="an existing database (default: a temporary embedded one)")
    parser.add_argument("--json", type=Path, help="also write the report here as JSON")
    args = parser.parse_args(argv)
    config = LoadConfig(
        seconds=args.seconds,
        clients=args.clients,
        llm_latency_ms=args.llm_latency_ms,
        evaluate_share=args.evaluate_share,
        entities=args.entities,
        seed=args.seed,
        servers=args.servers,
        attack_clients=args.attack_clients,
        victim=args.victim,
    )
    report = asyncio.run(run_load(config, args.database_url))
    print(report.text())
    if args.json:
        args.json.write_text(json.dumps(report.summary(), indent=2) + "\n")
    return 0 if not report.error_count() and not report.violations else 1


if __name__ == "__main__":
    raise SystemExit(main())
