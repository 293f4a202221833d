"""deploy/Containerfile, checked the nearest way possible here (no container engine runs on these machines): its
build and runtime steps run in a clean virtual environment, the image's command serves, and its HEALTHCHECK passes.

What this does not run: the base image, `useradd`/`USER` (the test runs as whoever runs the suite) and `VOLUME`.
Listening is moved to 127.0.0.1 (the image listens on 0.0.0.0)."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RECIPE = ROOT / "deploy" / "Containerfile"


def instructions() -> list[tuple[int, str, str]]:
    """(stage index, instruction, argument) of every line of the recipe, continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", RECIPE.read_text(encoding="utf-8"))
    stage = -1
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        if word.upper() == "FROM":
            stage += 1
        out.append((stage, word.upper(), rest.strip()))
    return out


def env_of(recipe: list[tuple[int, str, str]]) -> dict[str, str]:
    env: dict[str, str] = {}
    for _, word, rest in recipe:
        if word == "ENV":
            for item in shlex.split(rest):
                key, _, value = item.partition("=")
                env[key] = value
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_recipe_shape() -> None:
    recipe = instructions()
    words = [w for _, w, _ in recipe]
    assert words.count("FROM") == 2, "multi-stage: a build stage and a runtime stage"
    runtime = [(w, r) for s, w, r in recipe if s == 1]
    assert ("USER", "factmemory") in runtime, "the service runs as a non-root user"
    assert any(w == "HEALTHCHECK" and "grpc_health" in r for w, r in runtime), "health through the gRPC health service"
    assert any(w == "COPY" and "--from=build" in r for w, r in runtime)


def test_recipe_steps_build_an_installable_service_that_passes_its_healthcheck(tmp_path: Path, pg_url: str) -> None:
    recipe = instructions()
    src, wheels = tmp_path / "src", tmp_path / "wheels"
    # build stage: COPY pyproject.toml README.md ./ ; COPY server ./server ; RUN pip wheel ... .
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "server", src / "server", ignore=shutil.ignore_patterns("*.egg-info", "__pycache__"))
    build_runs = [r for s, w, r in recipe if s == 0 and w == "RUN"]
    assert build_runs
    for command in build_runs:
        # The pip cache is kept here (the image build uses --no-cache-dir) so the suite stays fast.
        command = command.replace("/wheels", str(wheels)).replace("--no-cache-dir ", "")
        command = command.replace("python ", f"{shlex.quote(sys.executable)} ", 1)
        subprocess.run(command, shell=True, cwd=src, check=True, capture_output=True, timeout=600)
    # runtime stage, in a fresh venv: RUN pip install /wheels/*.whl
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    install = next(r for s, w, r in recipe if s == 1 and w == "RUN" and "pip install" in r)
    install = install.split("&&")[0].replace("/wheels", str(wheels)).replace("python ", f"{python} ", 1)
    subprocess.run(install, shell=True, check=True, capture_output=True, timeout=600)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FACTMEMORY_", "OPENAI_"))}
    env.update(env_of(recipe))
    port = free_port()
    env.update(
        {
            "FACTMEMORY_LISTEN": f"127.0.0.1:{port}",
            "FACTMEMORY_DATA_DIR": str(tmp_path / "data"),
            "FACTMEMORY_DATABASE_URL": pg_url,
            "PATH": f"{venv / 'bin'}:{env.get('PATH', '')}",
        }
    )
    cmd = next(r for s, w, r in recipe if s == 1 and w == "CMD")
    argv = [str(a) for a in json.loads(cmd)]
    server = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        healthcheck = next(r for s, w, r in recipe if s == 1 and w == "HEALTHCHECK")
        probe = healthcheck.split(" CMD ", 1)[1].replace("python ", f"{python} ", 1)
        deadline = time.monotonic() + 120
        while True:
            result = subprocess.run(probe, shell=True, env=env, capture_output=True, text=True, timeout=30)
            if result.returncode == 0:
                break
            if server.poll() is not None or time.monotonic() > deadline:
                out = server.stdout.read() if server.stdout and server.poll() is not None else ""
                pytest.fail(f"healthcheck never passed: {result.stderr[-2000:]}\nserver: {out[-2000:]}")
            time.sleep(1)
    finally:
        server.terminate()
        server.wait(timeout=60)
