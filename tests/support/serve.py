"""A real `factmemory serve` process for tests: started with an environment, its start-up lines read as they come."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def spawn_serve(env: dict[str, str]) -> subprocess.Popen[str]:
    """`python -m factmemory serve` in the repository, stdout and stderr piped."""
    return subprocess.Popen(
        [sys.executable, "-m", "factmemory", "serve"],
        env=env,
        text=True,
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def startup_lines(proc: subprocess.Popen[str], timeout_s: float = 120.0) -> Iterator[str]:
    """The lines the process writes on stdout, until it exits or the time is up (the caller stops reading)."""
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line and proc.poll() is not None:
            return
        yield line
