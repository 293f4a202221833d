"""Where the in-process copy of a person's vectors pays (FACTMEMORY_PROVIDE_CACHE_MIN_FACTS; docs/read-path.md).

    python -m factmemory_tools.copy_threshold [--sizes 1k,2k,5k,10k,20k] [--calls 60] [--claims 2000] [--json F]

One fresh embedded PostgreSQL holds one person per size (the benchmark's facts: its claim pool embedded by the
local model, with noise; COPY, then VACUUM ANALYZE) and `--background` people of 20-80 facts around them (200). The
real service runs in this process twice on that database: with the copy off (FACTMEMORY_PROVIDE_CACHE_MB=0: the
candidate statement) and with a copy for every person (FACTMEMORY_PROVIDE_CACHE_MIN_FACTS=1). Each person gets
`--calls` timed Provides through gRPC (after five untimed ones, which build the copy), a chat window moving by one
line per call as in `factmemory-bench`. Printed per size: Provide's server time without the embedding (db + rank +
render), p50 / p95 in ms, for both, and how many of the calls the copy answered (the rest fell back to the
statement). Wall-clock on this machine, shared with whatever else runs on it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import uuid
from collections import deque
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import asyncpg
import numpy as np
from pgvector.asyncpg import register_vector

from factmemory.settings import Settings
from factmemory.testing.service import bench_settings, serve_in_process
from factmemory_tools.bench import data, drive
from factmemory_tools.bench.stats import derived
from factmemory_tools.recall.run import database

PROVIDE_STAGES = ("embed", "db", "rank", "render")
WARM_CALLS = 5


def _sizes(text: str) -> list[int]:
    return [int(float(s[:-1]) * 1000) if s.endswith("k") else int(s) for s in text.split(",") if s]


def _quantiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return ordered[len(ordered) // 2] * 1e3, ordered[int(len(ordered) * 0.95)] * 1e3


async def _load(
    url: str, sizes: list[int], claims: int, background_people: int, seed: int
) -> tuple[uuid.UUID, dict[int, uuid.UUID]]:
    """The people, through a service with the copy off (it migrates the database and embeds the claim pool)."""
    agent = uuid.uuid4()
    people = {size: uuid.uuid4() for size in sizes}
    async with AsyncExitStack() as stack:
        deps, _ = await serve_in_process(
            stack, bench_settings(Settings(), url, "http://127.0.0.1:9", provide_cache_mb=0)
        )
        pool = data.claim_pool(claims)
        parts = [await deps.embedder.passages([c.text for c in pool[i : i + 64]]) for i in range(0, len(pool), 64)]
        vectors = np.concatenate(parts).astype(np.float32)
        rng = random.Random(seed)
        background = [(uuid.uuid4(), rng.randint(20, 80)) for _ in range(background_people)]
        population = data.Population(agent_id=agent, probes=[], heavy=uuid.uuid4())
        conn = await asyncpg.connect(url)
        await register_vector(conn)
        try:
            adds = [(person, size) for size, person in people.items()] + background
            await data.load(conn, population, adds, pool, vectors, deps.embedder.model_name, seed)
        finally:
            await conn.close()
    return agent, people


async def _measure(
    url: str, agent: uuid.UUID, people: dict[int, uuid.UUID], calls: int, **settings: Any
) -> dict[int, tuple[list[float], int]]:
    """Per person: Provide's own server time of each timed call (seconds), and how many the copy answered."""
    out: dict[int, tuple[list[float], int]] = {}
    async with AsyncExitStack() as stack:
        deps, stub = await serve_in_process(stack, bench_settings(Settings(), url, "http://127.0.0.1:9", **settings))
        copies = getattr(deps.provide_store, "copies", None)  # None with the copy off
        rng = random.Random(1)
        for size, person in people.items():
            window: deque[str] = deque(maxlen=5)
            used = 0
            for i in range(WARM_CALLS + calls):
                window.append(f"{rng.choice(data.CHAT_LINES)} ({i})")
                if i == WARM_CALLS:
                    deps.stages.take("provide")
                    used = copies.counts["used"] if copies is not None else 0
                await stub.Provide(drive.provide_request(agent, person, list(window)))
            answered = copies.counts["used"] - used if copies is not None else 0
            out[size] = (derived(deps.stages.take("provide"), PROVIDE_STAGES, ("embed",))["own"], answered)
    return out


async def run(sizes: list[int], calls: int, claims: int, background: int, seed: int) -> dict[str, Any]:
    async with database() as url:
        agent, people = await _load(url, sizes, claims, background, seed)
        statement = await _measure(url, agent, people, calls, provide_cache_mb=0)
        copy = await _measure(url, agent, people, calls, provide_cache_min_facts=1)
    return {
        str(size): {
            "statement_ms": _quantiles(statement[size][0]),
            "copy_ms": _quantiles(copy[size][0]),
            "copy_answers": copy[size][1],
            "calls": calls,
        }
        for size in sizes
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1k,2k,5k,10k,20k", help="the people's live facts, comma-separated")
    parser.add_argument("--calls", type=int, default=60, help="timed Provides per person and mode")
    parser.add_argument("--claims", type=int, default=2_000, help="distinct claims embedded for the facts")
    parser.add_argument("--background", type=int, default=200, help="people of 20-80 facts around the measured ones")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    figures = asyncio.run(run(_sizes(args.sizes), args.calls, args.claims, args.background, args.seed))
    print("| live facts | statement p50 / p95 ms | copy p50 / p95 ms | answered by the copy |")
    print("|---:|---:|---:|---:|")
    for size, row in figures.items():
        (s50, s95), (c50, c95) = row["statement_ms"], row["copy_ms"]
        answered = f"{row['copy_answers']} of {row['calls']}"
        print(f"| {int(size):,} | {s50:.1f} / {s95:.1f} | {c50:.1f} / {c95:.1f} | {answered} |")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
