"""`factmemory bench --smoke` runs end to end and reports every figure (the timing values are not checked)."""

from __future__ import annotations

import json
import math
from pathlib import Path

from factmemory_tools.bench.stats import speed_targets
from tests.support.tools import run_tool

SIZE = "2k"
LATENCIES = (0, 50)
CONCURRENCIES = (1, 8, 32)
SUMMARY_KEYS = {"n", "p50", "p95", "p99", "mean", "max"}


def expected_figures() -> tuple[list[str], list[str]]:
    """(keys holding a latency summary, keys holding a single value) of a smoke run."""
    summaries = [
        f"provide.{SIZE}.{who}.{stage}"
        for who in ("regular", "heavy", "heavy_conversation", "heavy_named_times")
        for stage in ("embed", "db", "rank", "excl_embed", "server", "client")
    ]
    values = [f"load.{SIZE}.{k}" for k in ("rows_added", "copy_s", "copy_rows_per_s", "heavy_entity_facts")]
    values += [f"storage.{SIZE}.{k}" for k in ("facts", "bytes_per_fact", "relations_bytes")]
    for latency in LATENCIES:
        for concurrency in CONCURRENCIES:
            key = f"evaluate.{SIZE}.llm{latency}ms.c{concurrency}"
            values.append(f"{key}.throughput_per_s")
            summaries += [
                f"{key}.{stage}"
                for stage in ("embed", "retrieve", "llm", "dedup", "apply", "other", "own", "total", "client")
            ]
    values += [
        f"prompt.{k}"
        for k in (
            "tokenizer",
            "extraction_message_tokens",
            "extraction_schema_tokens",
            "extraction_input_tokens",
            "extraction_chars",
            "retrieved_durable",
            "retrieved_current",
            "recent_messages",
            "provider_text_tokens_p50",
            "provider_text_tokens_max",
        )
    ]
    values += ["memory.peak_rss_mb", "memory.postgres_pss_mb"]
    return summaries, values


def test_smoke_run_reports_every_figure(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    run = run_tool("factmemory_tools.bench", "--smoke", "--json", str(out), cwd=tmp_path, timeout_s=300)
    assert run.returncode == 0, run.stderr[-4000:]
    assert "| figure" in run.stdout
    assert "target: Provide db + rank p95 at 100k facts <= 10 ms: not measured" in run.stdout  # a 2k run
    report = json.loads(out.read_text())
    figures = report["figures"]
    summaries, values = expected_figures()
    missing = [k for k in summaries + values if k not in figures]
    assert not missing, missing
    for key in summaries:
        assert set(figures[key]) == SUMMARY_KEYS, key
        assert figures[key]["n"] > 0 and not math.isnan(figures[key]["p95"]), key
    for key in values:
        assert figures[key] is not None, key
    assert figures["prompt.retrieved_durable"] == 15 and figures["prompt.retrieved_current"] == 15
    assert figures[f"evaluate.{SIZE}.llm50ms.c1.llm"]["p50"] >= 50  # the scripted latency is really waited for
    results = [r["result"] for r in report["table"]]
    assert set(results) <= {"", "PASS", "MISS"} and len([r for r in results if r]) >= 8
    assert report["meta"]["machine"]["nproc"]
    assert set(report["plans"][SIZE]) == {
        "regular.auto",
        "regular.force_generic_plan",
        "heavy.auto",
        "heavy.force_generic_plan",
    }


def test_each_speed_target_is_printed_with_its_figure_and_verdict() -> None:
    figures = {
        "load.100k.heavy_entity_facts": 20_000,
        "provide.100k.regular.excl_embed": {"p50": 4.0, "p95": 9.96},
        "provide.100k.heavy.excl_embed": {"p50": 9.0, "p95": 10.04},
    }
    assert speed_targets(figures) == [
        "target: Provide db + rank p95 at 100k facts <= 10 ms: 9.96 ms PASS",
        "target: Provide db + rank p95 for the heavy person at 100k (20,000 facts) <= 10 ms: 10.04 ms MISS",
        "target: Provide db + rank p95 for the heavy person at 100k, an Evaluate of them before each Provide "
        "(20,000 facts) <= 10 ms: not measured (run with --sizes 100k)",
        "target: Provide db + rank p95 for the heavy person at 100k, each new message naming a month or a year "
        "(20,000 facts) <= 10 ms: not measured (run with --sizes 100k)",
    ]
