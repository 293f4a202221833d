"""The recall benchmark's short mode runs end to end and reports every figure (the values are not checked)."""

from __future__ import annotations

import json
import math
from pathlib import Path

from tests.support.tools import run_tool

VARIANTS = ("flat", "restated 20%")
FIGURES = ("recall@12", "durable@6", "current@6", "mrr")
LATENCIES = ("client_p50", "client_p95", "server_excl_embed_p50", "server_excl_embed_p95")


def test_short_recall_run_reports_every_figure(tmp_path: Path) -> None:
    out = tmp_path / "recall.json"
    run = run_tool("factmemory_tools.recall", "--short", "--json", str(out), cwd=tmp_path, timeout_s=600)
    assert run.returncode == 0, run.stderr[-4000:]
    assert "| variant | ranking | recall@12" in run.stdout
    report = json.loads(out.read_text())
    assert report["questions"] > 0 and report["facts"] > 0
    for variant in VARIANTS:
        for ranking in ("provide", "cosine"):
            figures = report[variant][ranking]
            assert all(not math.isnan(figures[f]) for f in FIGURES), (variant, ranking, figures)
            assert figures["questions"] == report["questions"]
        assert all(report[variant]["latency_ms"][k] > 0 for k in LATENCIES)
