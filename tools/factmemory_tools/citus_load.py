"""Load with faults on a Citus cluster beside one PostgreSQL, in one run (docs/scaling.md, "Under load, with faults").

    python -m factmemory_tools.citus_load [--seconds 60] [--clients 16] [--entities 24] [--llm-latency-ms 300]
                                          [--json out.json]

The load test's clients (factmemory_tools.loadtest: Evaluate and Provide mixed, twins and repeats of Evaluate, the
scripted model at the given latency, the service as a subprocess), each call retried on UNAVAILABLE or ABORTED as
clients are told to, run twice: against a fresh embedded PostgreSQL, then against a fresh local cluster (a
coordinator and two workers, distributed by `factmemory distribute`, and a third worker added without shards),
during which the first worker is stopped and started again (from a quarter of the run) and the shards are
rebalanced onto the third (from half of it). Prints both reports, then the per-call p50 / p95 side by side with
their ratio, and what the faults took. The integrity checks of the load test run on both; the sequential replay
runs on one PostgreSQL in commit order and on the cluster in the order the facts' evidence gives (loadtest's
docstring): commit order is read from the evaluations' xmin, which rows moved to another worker do not keep.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import asyncpg

from factmemory.public import distribute, migrate
from factmemory.testing.llm import ScriptedLLM
from factmemory_tools import citus_cluster
from factmemory_tools.loadtest import (
    LoadConfig,
    Report,
    drive,
    model_reply,
    note_server_errors,
    percentiles,
    run_load,
    running_servers,
)

DIMENSIONS = 384  # the local embedder's
RETRY = ("UNAVAILABLE", "ABORTED")
SLOW_CALL_MS = 1000.0  # a call this long before any fault is listed with when it started
AFTER_FAULT_S = 1.0  # a fault's stretch ends this long after it did (calls it held up); a judgement
PLACEMENTS = """
SELECT nodeport, count(*) FROM pg_dist_shard_placement p JOIN pg_dist_shard s USING (shardid)
 WHERE s.logicalrelid = 'facts'::regclass GROUP BY nodeport ORDER BY nodeport
"""


# A stretch of the run on the cluster (time.monotonic()): what happened, from, to.
Phase = tuple[str, float, float]


async def faults(cluster: citus_cluster.Cluster, seconds: float, said: list[str], phases: list[Phase]) -> None:
    """A worker restarted from a quarter of the run; the shards rebalanced onto the third worker from half (the
    cluster's last node, added before the run: an initdb started beside the running load crashed on this machine).
    Each fault's stretch goes into `phases`, to its end and a second after (the calls it held up)."""
    started = time.monotonic()
    await asyncio.sleep(seconds / 4)
    worker = cluster.folder / "n1"
    stopped = time.monotonic()
    await asyncio.to_thread(citus_cluster.stop_node, worker)
    await asyncio.sleep(2.0)
    install = await asyncio.to_thread(citus_cluster.build)
    await asyncio.to_thread(citus_cluster.start_node, install, worker, cluster.ports[1])
    said.append(f"worker 127.0.0.1:{cluster.ports[1]} stopped and started again: {time.monotonic() - stopped:.1f} s")
    phases.append(("restart", stopped, time.monotonic() + AFTER_FAULT_S))
    await asyncio.sleep(max(0.0, started + seconds / 2 - time.monotonic()))
    moving = time.monotonic()
    conn = await asyncpg.connect(cluster.url)
    try:
        await conn.execute("SELECT citus_rebalance_start()")
        await conn.execute("SELECT citus_rebalance_wait()")
        placed = {int(r[0]): int(r[1]) for r in await conn.fetch(PLACEMENTS)}
    finally:
        await conn.close()
    phases.append(("rebalance", moving, time.monotonic() + AFTER_FAULT_S))
    said.append(
        f"shards rebalanced onto worker 127.0.0.1:{cluster.ports[-1]} in {time.monotonic() - moving:.1f} s: "
        f"facts' shards per worker port {placed}"
    )


async def on_cluster(config: LoadConfig, said: list[str], phases: list[Phase]) -> Report:
    """The load on a fresh local cluster, with the faults during it."""
    folder = Path(tempfile.mkdtemp(prefix="factmemory-citus-")) / "cluster"
    try:
        cluster = await asyncio.to_thread(citus_cluster.start, folder)
        await migrate(cluster.url, DIMENSIONS)
        await distribute(cluster.url)
        cluster = await asyncio.to_thread(citus_cluster.add_worker, cluster)  # empty until the rebalance
        with tempfile.TemporaryDirectory(prefix="factmemory-load-") as work:
            llm = ScriptedLLM()
            llm.default = model_reply
            with llm:
                async with running_servers(config.servers, cluster.url, llm.base_url, Path(work)) as (addresses, logs):
                    report, _ = await asyncio.gather(
                        drive(config, addresses, llm, cluster.url), faults(cluster, config.seconds, said, phases)
                    )
                note_server_errors(report, logs)
        return report
    finally:
        await asyncio.to_thread(citus_cluster.stop, folder)
        shutil.rmtree(folder.parent, ignore_errors=True)


def side_by_side(single: Report, cluster: Report) -> list[str]:
    """Per call: p50 / p95 on one PostgreSQL and on the cluster, and the cluster's p95 over one PostgreSQL's."""
    lines = ["per call     one PostgreSQL p50 / p95    cluster p50 / p95    p95 ratio"]
    a, b = single.summary()["latency_ms"], cluster.summary()["latency_ms"]
    for rpc in sorted(set(a) & set(b)):
        ratio = b[rpc]["p95"] / a[rpc]["p95"] if a[rpc]["p95"] else float("inf")
        lines.append(
            f"  {rpc:<9}  {a[rpc]['p50']:>8.0f} / {a[rpc]['p95']:<8.0f} ms   "
            f"{b[rpc]['p50']:>8.0f} / {b[rpc]['p95']:<8.0f} ms   {ratio:.2f}"
        )
    return lines


def phase_of(start: float, ms: float, phases: list[Phase]) -> str:
    """The fault a call overlaps (it started before the fault's stretch ended and ended after it began), else
    "before faults" or "no fault" (between and after them)."""
    end = start + ms / 1000
    overlapped = next((name for name, begin, until in phases if start <= until and end >= begin), None)
    if overlapped is not None:
        return overlapped
    return "before faults" if phases and end < min(begin for _, begin, _ in phases) else "no fault"


def by_phase(single: Report, cluster: Report, phases: list[Phase]) -> list[str]:
    """Per call and phase of the cluster's run (before the faults, overlapping the restart or the rebalance, none
    after them): its p50 / p95 and the p95's ratio to one PostgreSQL's whole run: which fault costs what."""
    lines = ["per call, phase on the cluster     n      p50 / p95          p95 ratio to one PostgreSQL"]
    whole = single.summary()["latency_ms"]
    for rpc in sorted(set(whole) & set(cluster.latencies_ms)):
        grouped: dict[str, list[float]] = {}
        for at, ms in zip(cluster.started_at[rpc], cluster.latencies_ms[rpc], strict=True):
            grouped.setdefault(phase_of(at, ms, phases), []).append(ms)
        for name in ("before faults", *(p[0] for p in phases), "no fault"):
            p = percentiles(grouped.get(name, []))
            ratio = p["p95"] / whole[rpc]["p95"] if whole[rpc]["p95"] else float("inf")
            lines.append(
                f"  {rpc:<9} {name:<14}         {p['n']:<6} {p['p50']:>6.0f} / {p['p95']:<6.0f} ms   {ratio:.2f}"
            )
    first = min((min(at) for at in cluster.started_at.values() if at), default=0.0)
    slow = sorted(
        (at - first, rpc, ms)
        for rpc, starts in cluster.started_at.items()
        for at, ms in zip(starts, cluster.latencies_ms[rpc], strict=True)
        if ms > SLOW_CALL_MS and phase_of(at, ms, phases) == "before faults"
    )
    lines.append(f"calls over {SLOW_CALL_MS} ms before the faults (s from the first call, call, ms): {slow[:12]}")
    return lines


async def run(config: LoadConfig) -> dict[str, Any]:
    single = await run_load(config)
    print("== one PostgreSQL (embedded)\n" + single.text(), flush=True)
    said: list[str] = []
    phases: list[Phase] = []
    cluster = await on_cluster(replace(config, replay="evidence"), said, phases)
    print("== Citus (coordinator + 2 workers, a worker restarted, a third added and rebalanced)\n" + cluster.text())
    split = by_phase(single, cluster, phases)
    print("\n".join(["== faults", *said, "== side by side", *side_by_side(single, cluster), "== by phase", *split]))
    return {"one_postgresql": single.summary(), "citus": cluster.summary(), "faults": said, "by_phase": split}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="citus_load", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--entities", type=int, default=24)
    parser.add_argument("--llm-latency-ms", type=float, default=300.0)
    parser.add_argument("--evaluate-share", type=float, default=0.3)
    parser.add_argument("--json", type=Path, help="also write both reports here as JSON")
    args = parser.parse_args(argv)
    config = LoadConfig(
        seconds=args.seconds,
        clients=args.clients,
        llm_latency_ms=args.llm_latency_ms,
        evaluate_share=args.evaluate_share,
        entities=args.entities,
        retry_codes=RETRY,
    )
    result = asyncio.run(run(config))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    failed = [r for r in (result["one_postgresql"], result["citus"]) if r["errors"] or r["violations"]]
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
