"""`python -m factmemory_tools.copy_threshold` runs end to end: both modes time every call, and with the copy on the
copy answered every timed Provide (so the figures compare the copy with the statement, not the statement twice)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.tools import run_tool

SIZES = (300, 700)
CALLS = 4


def test_the_tool_times_both_modes_and_the_copy_answers(tmp_path: Path) -> None:
    out = tmp_path / "threshold.json"
    sizes = ",".join(str(s) for s in SIZES)
    done = run_tool(
        "factmemory_tools.copy_threshold", "--sizes", sizes, "--calls", str(CALLS),
        "--claims", "200", "--background", "10", "--json", str(out),
        cwd=tmp_path, timeout_s=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert sorted(figures) == sorted(str(s) for s in SIZES)
    for row in figures.values():
        assert row["copy_answers"] == CALLS == row["calls"]
        assert all(0 < ms < 5_000 for ms in (*row["statement_ms"], *row["copy_ms"]))
    assert "| 700 |" in done.stdout and f"{CALLS} of {CALLS}" in done.stdout
