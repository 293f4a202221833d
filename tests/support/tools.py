"""Runs a developer tool of tools/ (factmemory_tools) the way a user would, in a child process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_tool(module: str, *args: str, cwd: Path, timeout_s: float) -> subprocess.CompletedProcess[str]:
    """`python -m <module> <args>` from `cwd`, without the caller's FACTMEMORY_/OPENAI_ settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FACTMEMORY_", "OPENAI_"))}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "tools"), env.get("PYTHONPATH", "")]))
    return subprocess.run(
        [sys.executable, "-m", module, *args], capture_output=True, text=True, timeout=timeout_s, env=env, cwd=cwd
    )
