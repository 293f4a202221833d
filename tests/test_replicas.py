"""Several replicas on one PostgreSQL: three `factmemory serve` processes started together on a fresh database
(their migrations race under the migration lock), the load test across all three, its integrity check clean."""

from __future__ import annotations

from pathlib import Path

import asyncpg
import pytest

from factmemory.adapters.postgres.deployment.database import migration_files
from factmemory_tools.loadtest import LoadConfig, run_load

REPLICAS = LoadConfig(seconds=5, clients=6, llm_latency_ms=100, servers=3)

# Wall clock: a 5 s run must acknowledge enough evaluations, on every replica.
pytestmark = pytest.mark.timing


def replicas_that_served(workdir: Path) -> int:
    """Replicas whose access log shows an applied Evaluate."""
    return sum("Evaluate OK" in log.read_text() for log in workdir.glob("server*.log"))


async def test_three_replicas_on_one_database_lose_and_double_nothing(empty_database: str, tmp_path: Path) -> None:
    report = await run_load(REPLICAS, empty_database, tmp_path)
    print(report.text())
    assert report.error_count() == 0, report.summary()["errors"]
    assert report.violations == []  # every acknowledged evaluation stored once, nothing doubled, replay equal
    assert report.server_errors_logged == 0
    assert report.acknowledged >= 10 and report.twins > 0
    assert replicas_that_served(tmp_path) == REPLICAS.servers
    conn = await asyncpg.connect(empty_database)
    try:
        versions = [r["version"] for r in await conn.fetch("SELECT version FROM factmemory_migrations")]
    finally:
        await conn.close()
    assert sorted(versions) == [v for v, _, _ in migration_files()]  # each migration applied exactly once
