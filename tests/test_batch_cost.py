"""The batching benchmark's short mode (factmemory_tools.recall.batching) runs end to end: every figure is reported,
a batch of N makes one LLM call per N messages, and the write path stores the same facts either way."""

from __future__ import annotations

import json
import math
from pathlib import Path

from tests.support.tools import run_tool

FIGURES = ("llm_calls_per_message", "prompt_tokens_per_message", "completion_tokens_per_message")


def test_short_batching_run_reports_cost_and_recall_per_batch_size(tmp_path: Path) -> None:
    out = tmp_path / "batching.json"
    run = run_tool(
        "factmemory_tools.recall.batching", "--short", "--sizes", "1,4", "--json", str(out), cwd=tmp_path, timeout_s=600
    )
    assert run.returncode == 0, run.stderr[-4000:]
    assert "| per turn (Evaluate) |" in run.stdout and "| batches of 4 (EvaluateBatch) |" in run.stdout
    per_turn, batched = json.loads(out.read_text())["runs"]
    for figures in (per_turn, batched):
        assert all(figures[f] > 0 for f in FIGURES), figures
        assert not math.isnan(figures["provide"]["recall@12"]) and figures["provide"]["questions"] > 0
    messages = per_turn["messages"]
    assert per_turn["llm_calls"] == messages == batched["messages"]
    # Each person's messages in fours: one call per four, plus one for a person's remainder.
    assert batched["llm_calls"] <= messages // 4 + 3
    assert batched["prompt_tokens_per_message"] < per_turn["prompt_tokens_per_message"]
    assert batched["facts_stored"] == per_turn["facts_stored"]
