"""Connections to PostgreSQL: the pool with its codecs, which errors mean the database cannot be reached right now,
and the one way to open a transaction under the per-entity lock every write of an entity takes (`locked`)."""

from __future__ import annotations

import functools
import json
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, NamedTuple, cast
from uuid import UUID

import asyncpg
from pgvector.asyncpg import register_vector

from factmemory.domain.errors import Unavailable

if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

# Serializes the write path per (agent, entity): confidences and dedup see every earlier turn. Taking the lock also
# bumps the entity's revision, so a write planned before the lock can tell whether anything changed since.
LOCK_ENTITY = """
WITH locked AS (SELECT pg_advisory_xact_lock(hashtextextended($1::text || '/' || $2::text, 0)))
INSERT INTO entity_revisions AS r (agent_id, entity_id, revision)
SELECT $1::text::uuid, $2::text::uuid, 1 FROM locked
ON CONFLICT (agent_id, entity_id) DO UPDATE SET revision = r.revision + 1
RETURNING revision
"""

# Run on every pooled connection (the benchmark runs them too, to EXPLAIN the plans the service gets).
# random_page_cost 1.1 (PostgreSQL's default 4 prices a random read as on a spinning disk; 1.1 is the usual setting for
# SSDs and data in memory): with 4, a person who holds most of a table (an agent with few people, or a Citus shard)
# had their nearest facts read by a sequential scan that detoasts every search vector instead of an index-only scan
# of facts_search_half_idx: 62-66 ms against 12 ms for a person of 20,000 facts (2026-11-27 log). It does not reach
# a Citus worker: docs/scaling.md asks for it in the workers' configuration.
# citus.override_table_visibility off (on a Citus coordinator; elsewhere an unused placeholder setting): Citus hides
# the shards from the catalog by calling a function on every row of pg_class a session reads, and asyncpg reads
# pg_class with each type it learns on a connection (its introspection of int4[], timestamptz[] and uuid[], at a
# connection's first Provide): 600-900 ms on the coordinator against 4-15 ms on one PostgreSQL, at every new pooled
# connection (the service's start, a pool renewed, an idle one replaced). Off: 4-18 ms (2026-11-29 log). The service
# never lists tables by pattern; the one read of pg_class by name that could meet a shard leaves shards out by name
# (deployment/citus.LOCAL_TABLES).
SESSION_SETTINGS: tuple[str, ...] = ("SET random_page_cost = 1.1", "SET citus.override_table_visibility = off")

# The session of the connections that read Provide's candidates (PostgresProvide.provide_pool): one generic
# plan per statement, made once per connection. PostgreSQL's default (`auto`) planned the candidate statement anew on
# every call: its generic plan's estimate prices every branch of the statement at the table's average person (the
# dated branch too, which a turn naming no time never runs), so it stayed above the custom plans' and was never chosen.
# Planning the dozen CTEs took 0.5-0.8 ms of a 1.3 ms call for a person of 50 facts: p50 1.33 ms (auto) against
# 0.67 ms (generic), the same rows, 200 calls, 2026-11-27 log. The statement is written for its generic plan (each
# branch chosen at run time by one-time filters, rows read by key in lateral lookups). Only there: the other
# statements keep `auto`, since several read optional parameters (`$2 IS NULL OR ...`) whose custom plans are the ones
# that can use an index.
GENERIC_PLANS: tuple[str, ...] = (*SESSION_SETTINGS, "SET plan_cache_mode = force_generic_plan")


def pooled(conn: PoolConnectionProxy[asyncpg.Record]) -> asyncpg.Connection:
    """A pooled connection as the Connection it stands for: the pool hands out a proxy that forwards every method of
    the connection (asyncpg's stubs do not make it a subclass)."""
    return cast(asyncpg.Connection, conn)


async def _init_connection(conn: asyncpg.Connection, session: Sequence[str]) -> None:
    await register_vector(conn)
    await conn.set_type_codec("jsonb", encoder=json.dumps, decoder=json.loads, schema="pg_catalog")
    for statement in session:
        await conn.execute(statement)


async def _keep_session(conn: asyncpg.Connection) -> None:
    """What a released connection needs beyond asyncpg's own clean-up (which rolls back a transaction left open):
    nothing. The service leaves no session state behind: its advisory locks and set_config values belong to the
    transaction, it never LISTENs, keeps no cursor past a transaction and SETs nothing but the pool's init. asyncpg's
    default reset query (advisory unlock, CLOSE ALL, UNLISTEN, RESET ALL) cost every use one more round trip (0.47 vs
    0.26 ms median for acquire + SELECT 1 + release, p95 6.5 vs 3.9 ms, loaded machine, 2026-11-26), and its RESET
    ALL undid the init's session settings after the first use."""


@asynccontextmanager
async def open_pool(
    url: str, min_size: int, max_size: int, timeout_s: float, session: Sequence[str] = SESSION_SETTINGS
) -> AsyncIterator[asyncpg.Pool]:
    """A connection pool with the pgvector and jsonb codecs and the `session` settings on every connection."""
    pool = await asyncpg.create_pool(
        url,
        min_size=min_size,
        max_size=max_size,
        init=functools.partial(_init_connection, session=session),
        reset=_keep_session,
        command_timeout=timeout_s,
        timeout=timeout_s,
    )
    try:
        yield pool
    finally:
        await pool.close()


def unavailable(exc: BaseException) -> Unavailable:
    """A transient database error as the domain's Unavailable."""
    return Unavailable(f"database unavailable: {type(exc).__name__}: {exc}")


# Errors that mean "the database is not reachable right now", as opposed to a bug in a query.
TRANSIENT_DB_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError,
    asyncpg.exceptions.TooManyConnectionsError,
    asyncpg.exceptions.InterfaceError,
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.SerializationError,
    asyncpg.exceptions.DeadlockDetectedError,
    # Out of disk, memory or connections (SQLSTATE class 53): the operator frees them, then a retry succeeds.
    asyncpg.exceptions.InsufficientResourcesError,
    # A primary demoted to a read-only standby (failover): writes succeed again once the pool reaches the new one.
    asyncpg.exceptions.ReadOnlySQLTransactionError,
)


# A Citus coordinator reports a worker's connection lost during a statement or a transaction as an internal error
# (SQLSTATE XX000, no code of its own): libpq's words for the statement, Citus's at the commit. The coordinated
# transaction is rolled back; a retry succeeds once the worker is back (tests/test_citus_outage.py).
LOST_WORKER = ("server closed the connection unexpectedly", "failure on connection marked as essential")


# What may be transient: TRANSIENT_DB_ERRORS, and an internal error that is a lost worker (`transient` tells).
MAYBE_TRANSIENT: tuple[type[BaseException], ...] = (*TRANSIENT_DB_ERRORS, asyncpg.exceptions.InternalServerError)


def transient(exc: BaseException) -> bool:
    """Whether `exc` means the database (or a Citus worker under it) is not reachable right now."""
    if isinstance(exc, TRANSIENT_DB_ERRORS):
        return True
    return isinstance(exc, asyncpg.exceptions.InternalServerError) and any(w in str(exc) for w in LOST_WORKER)


# A transient error that says a server went away under its sessions (restarted, crashed, failed over): the pool's
# other connections may hold sessions just as dead. On a Citus coordinator they do, invisibly: each coordinator
# session caches its connections to the workers, and a write that ships rows to a restarted worker (INSERT ... SELECT,
# COPY) fails on the dead cached one at every call until the cache ages out (10 minutes by default), where the
# planner's own statements reconnect. Waits and conflicts (deadlock, serialization, a timeout, no free slot) say
# nothing of the sessions.
NOT_A_LOST_SESSION: tuple[type[BaseException], ...] = (
    TimeoutError,
    asyncpg.exceptions.SerializationError,
    asyncpg.exceptions.DeadlockDetectedError,
    asyncpg.exceptions.InsufficientResourcesError,
    asyncpg.exceptions.TooManyConnectionsError,
)


def lost_session(exc: BaseException) -> bool:
    """Whether a transient `exc` means the server's sessions were lost, so the pool's connections are renewed."""
    return transient(exc) and not isinstance(exc, NOT_A_LOST_SESSION)


@asynccontextmanager
async def transient_as_unavailable(*pools: asyncpg.Pool) -> AsyncIterator[None]:
    """A transient database error (`transient`) inside becomes Unavailable; any other passes as it is. When it says
    the server's sessions were lost (`lost_session`), every connection of `pools` is replaced at its next use (in
    use: when released), so the first call after a restart is the only one to fail, not one per pooled connection
    (tests/test_citus_outage.py)."""
    try:
        yield
    except MAYBE_TRANSIENT as exc:
        if not transient(exc):
            raise
        if lost_session(exc):
            for pool in pools:
                await pool.expire_connections()
        raise unavailable(exc) from exc


@asynccontextmanager
async def connection(pool: asyncpg.Pool) -> AsyncIterator[asyncpg.Connection]:
    """A pooled connection; a transient error while it is held becomes Unavailable (and a lost session renews the
    pool)."""
    async with transient_as_unavailable(pool), pool.acquire() as conn:
        yield pooled(conn)


async def lock_entity(conn: asyncpg.Connection, agent_id: UUID, entity_id: UUID) -> int:
    """Takes the (agent, entity) lock in the caller's transaction; the entity's revision, bumped by taking it."""
    return int(await conn.fetchval(LOCK_ENTITY, str(agent_id), str(entity_id)))


class Locked(NamedTuple):
    """A transaction under the locks of some entities: its connection, and each entity's revision (in lock order)."""

    conn: asyncpg.Connection
    revisions: tuple[int, ...]


@asynccontextmanager
async def locked(pool: asyncpg.Pool, agent_id: UUID, *entity_ids: UUID) -> AsyncIterator[Locked]:
    """The one way a write opens its transaction: on the pool's connection (the primary), each entity's lock taken
    in the order given; commits on success, rolls back on any error. Every caller keeps one order (people in id
    order, then shared subjects: person, held, world, agent), so no two transactions wait on each other in a cycle."""
    async with connection(pool) as conn, conn.transaction():
        revisions = [await lock_entity(conn, agent_id, e) for e in entity_ids]
        yield Locked(conn, tuple(revisions))


def row_count(status: str) -> int:
    """The row count from an asyncpg command status such as 'DELETE 3'."""
    return int(status.rsplit(" ", 1)[-1])
