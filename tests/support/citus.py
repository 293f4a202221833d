"""The Citus cluster for tests/test_citus*.py: a coordinator and two workers on loopback (the same module as
`./dev citus`), and on it a database that held one person's facts before it was distributed by person."""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg
import pytest
import pytest_asyncio

from factmemory.adapters.postgres.deployment.distribution import distribute
from tests.conftest import Service, make_settings, start_service, with_database
from tests.support.fm import Person, add_durable, facts_reply
from tests.support.llm_stub import Reply, ScriptedLLM

# Learned before the database was distributed.
BEFORE = Person("Before")

REPO = Path(__file__).resolve().parents[2]
# Where the tests find the Citus source when FACTMEMORY_CITUS_SOURCE is unset: the checkout's sibling folder of this
# workplace, else the workplace's own (CI's clean checkout need not sit beside it). The tool itself knows neither.
WORKPLACE_SOURCES = (REPO.parent / "shared" / "vendor" / "citus", Path("/work/shared/vendor/citus"))


def use_workplace_source() -> None:
    """Points FACTMEMORY_CITUS_SOURCE at the workplace's Citus source when it is unset and one is there."""
    from factmemory_tools import citus_cluster

    if os.environ.get(citus_cluster.SOURCE_VARIABLE):
        return
    for folder in WORKPLACE_SOURCES:
        if folder.is_dir():
            os.environ[citus_cluster.SOURCE_VARIABLE] = str(folder)
            return


@pytest.fixture(scope="session")
def citus_cluster() -> Iterator[Any]:
    """A real Citus cluster, built once into a cache (./dev citus); skipped, saying why, only when the Citus source
    tarball is absent."""
    from factmemory_tools import citus_cluster

    use_workplace_source()
    try:
        citus_cluster.source()
    except citus_cluster.CitusUnavailable as exc:
        pytest.skip(str(exc))
    # Not under pytest's temporary folder: a pytest session starting beside this one makes that private (0700),
    # and the nodes run as another user.
    folder = Path(tempfile.mkdtemp(prefix="factmemory-citus-")) / "cluster"
    try:
        yield citus_cluster.start(folder)
    finally:
        citus_cluster.stop(folder)
        shutil.rmtree(folder.parent, ignore_errors=True)


@pytest_asyncio.fixture(scope="session")
async def citus_url(citus_cluster: Any, llm_server: ScriptedLLM, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The coordinator's database: the service migrated it and learned BEFORE's facts, then it was distributed."""
    url: str = citus_cluster.url
    llm_server.on("I live in Lisbon", Reply(facts_reply(add_durable("lives in Lisbon", "identity"))))
    settings = make_settings(url, llm_server, tmp_path_factory.mktemp("before"))
    async for svc in start_service(settings):
        await svc.stub.Evaluate(BEFORE.evaluate("I live in Lisbon"))
    await distribute(url)
    return url


@pytest_asyncio.fixture(scope="session")
async def citus_service(
    citus_url: str, llm_server: ScriptedLLM, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Service]:
    """The real service connected to the coordinator of the distributed database."""
    settings = make_settings(citus_url, llm_server, tmp_path_factory.mktemp("citus-svc"))
    async for svc in start_service(settings):
        yield svc


@asynccontextmanager
async def cluster_database(cluster: Any, prefix: str) -> AsyncIterator[str]:
    """A database of its own on every node of the cluster (citus and vector in it, the workers added on the
    coordinator), empty; dropped afterwards. Its coordinator's URL."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    nodes = [cluster.node_url(i) for i in range(len(cluster.ports))]
    try:
        for node in nodes:
            await _run(node, f"CREATE DATABASE {name}")
            await _run(with_database(node, name), "CREATE EXTENSION citus", "CREATE EXTENSION vector")
        workers = [f"SELECT citus_add_node('127.0.0.1', {port})" for port in cluster.ports[1:]]
        coordinator = f"SELECT citus_set_coordinator_host('127.0.0.1', {cluster.ports[0]})"
        await _run(with_database(nodes[0], name), coordinator, *workers)
        yield with_database(nodes[0], name)
    finally:
        for node in nodes:
            await _run(node, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


async def _run(url: str, *statements: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()
