"""`./dev test`'s pytest stages (scripts/pytest_stages.sh) on a small suite of their own: a wall-clock test that
fails once and then passes turns the run green, and the last line says it was run again and which it was."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "pytest_stages.sh"

SUITE = """
import pathlib

import pytest


def test_plain() -> None:
    assert True


@pytest.mark.timing
def test_flaky(tmp_path_factory: pytest.TempPathFactory) -> None:
    mark = pathlib.Path(__file__).with_name("tried")
    first = not mark.exists()
    mark.write_text("once")
    assert not first, "a deadline missed on a busy machine"


@pytest.mark.timing
def test_steady() -> None:
    assert True
"""

BROKEN = """

@pytest.mark.timing
def test_broken() -> None:
    assert False, "slow every time"
"""


def stages(folder: Path) -> tuple[int, list[str]]:
    (folder / "pytest.ini").write_text("[pytest]\nmarkers =\n    timing: bounded by the wall clock\n")
    summary = folder / "summary.txt"
    env = {**os.environ, "PY": sys.executable, "FACTMEMORY_TEST_SUMMARY": str(summary), "TMPDIR": str(folder)}
    done = subprocess.run(
        ["bash", str(SCRIPT), "-q", "-p", "no:randomly", "test_suite.py"],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    lines = done.stdout.strip().splitlines()
    assert summary.read_text().strip() == "pytest: " + lines[-1].removeprefix("== pytest summary: ")
    return done.returncode, lines


def test_a_wall_clock_test_that_passes_when_run_again_is_counted_in_the_last_line(tmp_path: Path) -> None:
    (tmp_path / "test_suite.py").write_text(SUITE)
    code, lines = stages(tmp_path)
    assert code == 0
    assert lines[-1] == (
        "== pytest summary: 1 wall-clock test(s) failed and were run again alone: 1 passed, 0 failed again; "
        "passed on the second try: test_suite::test_flaky"
    )


def test_a_wall_clock_test_that_fails_twice_fails_the_run_and_is_named(tmp_path: Path) -> None:
    (tmp_path / "test_suite.py").write_text(SUITE + BROKEN)
    code, lines = stages(tmp_path)
    assert code == 1
    assert lines[-1] == (
        "== pytest summary: 2 wall-clock test(s) failed and were run again alone: 1 passed, 1 failed again; "
        "passed on the second try: test_suite::test_flaky; failed twice: test_suite::test_broken"
    )


def test_no_rerun_is_said_too(tmp_path: Path) -> None:
    (tmp_path / "test_suite.py").write_text(SUITE)
    (tmp_path / "tried").write_text("already")
    code, lines = stages(tmp_path)
    assert code == 0
    assert lines[-1] == "== pytest summary: no wall-clock test was run again"
