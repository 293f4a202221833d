"""Where the database comes from (a URL, or the embedded PostgreSQL + pgvector) and its migrations."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import asyncpg

from factmemory.adapters.postgres.deployment.citus import apply_on_cluster, distributed_database
from factmemory.adapters.postgres.deployment.embedded import EmbeddedPostgres
from factmemory.adapters.postgres.deployment.setup_errors import DatabaseSetupError, SchemaMismatch
from factmemory.adapters.postgres.deployment.urls import UNPARSABLE, describe_url, target

log = logging.getLogger(__name__)

DIMENSIONS_PLACEHOLDER = "{{EMBEDDING_DIMENSIONS}}"
CONNECT_TIMEOUT_S = 10.0

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


async def _connect(url: str) -> asyncpg.Connection:
    try:
        return await asyncpg.connect(url, timeout=CONNECT_TIMEOUT_S)
    except ValueError as exc:  # the URL did not parse: its text may quote the password
        raise DatabaseSetupError(f"cannot connect to the database: {UNPARSABLE}") from exc
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise DatabaseSetupError(f"cannot connect to the database at {describe_url(url)}: {reason}") from exc


async def _apply(conn: asyncpg.Connection, url: str, version: int, name: str, sql: str, distributed: bool) -> None:
    try:
        if distributed:
            for placed in await apply_on_cluster(conn, sql, version):
                log.info("migration %s: %s", name, placed)
        else:
            await conn.execute(sql)
    except asyncpg.InsufficientPrivilegeError as exc:
        raise DatabaseSetupError(
            f"migration {name} on {describe_url(url)} needs a privilege the database user lacks "
            f"({str(exc).splitlines()[0]}); "
            "create the extension once as a superuser (CREATE EXTENSION vector) or grant the privilege"
        ) from exc


def migration_files() -> list[tuple[int, str, str]]:
    """(version, name, sql) of every bundled migration, in order."""
    folder = resources.files("factmemory.adapters.postgres") / "migrations"
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            found.append((int(entry.name.split("_", 1)[0]), entry.name, entry.read_text(encoding="utf-8")))
    return sorted(found)


async def migrate(url: str, dimensions: int, until: int | None = None) -> list[str]:
    """Applies every pending migration (up to version `until`, for tests of a migration's data moves), each in its
    own transaction; returns the names applied. On a database already distributed on Citus, statement by statement
    with the tables a migration creates placed as `factmemory distribute` places them (citus.apply_on_cluster)."""
    conn = await _connect(url)
    applied: list[str] = []
    try:
        distributed = await distributed_database(conn)
        for version, name, sql in migration_files():
            if until is not None and version > until:
                continue
            async with conn.transaction():
                await conn.execute(LOCK_MIGRATIONS)
                await conn.execute(CREATE_MIGRATIONS_TABLE)
                done = {r["version"] for r in await conn.fetch(APPLIED_VERSIONS)}
                if version in done:
                    continue
                await _apply(
                    conn, url, version, name, sql.replace(DIMENSIONS_PLACEHOLDER, str(int(dimensions))), distributed
                )
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


@dataclass(frozen=True)
class Database:
    """Where the service's database is: its URL, and the embedded server when there is one (for restarts)."""

    url: str
    embedded: EmbeddedPostgres | None = None


@asynccontextmanager
async def open_database(configured: str | None, data_dir: Path) -> AsyncIterator[Database]:
    """The configured URL, or an embedded server started (off the event loop) for the lifetime."""
    if configured:
        if target(configured) is None:
            raise DatabaseSetupError(f"FACTMEMORY_DATABASE_URL: {UNPARSABLE}")
        yield Database(configured)
        return
    embedded = EmbeddedPostgres(data_dir)
    url = await asyncio.to_thread(embedded.start)
    log.info("embedded PostgreSQL running in %s", embedded.pgdata)
    try:
        yield Database(url, embedded)
    finally:
        await asyncio.to_thread(embedded.stop)


@asynccontextmanager
async def database_url(configured: str | None, data_dir: Path) -> AsyncIterator[str]:
    """The configured URL, or the URL of an embedded server started for the lifetime."""
    async with open_database(configured, data_dir) as database:
        yield database.url
