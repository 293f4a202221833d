"""`factmemory distribute` (docs/scaling.md, "Citus"): the cluster's actual state against the plan of citus.py, and
the steps that complete it. Every run reads what the cluster holds (each table placed as the plan says, the keys
with entity_id, every trigger enabled, the foreign keys within one person, the functions on every node, the
database's settings) and does what is missing, whatever step an earlier run stopped at (a lock it waited for, a
kill); a run that cannot complete says why in one line. The service refuses to start on a database distributed in
part (`partial_distribution`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import asyncpg

from factmemory.adapters.postgres.connection import pooled
from factmemory.adapters.postgres.deployment.citus import (
    CLOSE_CANDIDATES_TRIGGER,
    DATABASE_SETTINGS,
    DISTRIBUTE_TABLE,
    DISTRIBUTED,
    DROP_STATEMENT_TRIGGERS,
    FOREIGN_KEYS,
    FUNCTIONS,
    IS_CITUS,
    KEYS,
    LEXEME_ROW_FUNCTIONS,
    LEXEME_ROW_TRIGGERS,
    REFERENCE,
    SESSION_SETTINGS,
    TRIGGERS_OFF,
    TRIGGERS_ON,
    distribute_functions,
    place,
)
from factmemory.adapters.postgres.deployment.setup_errors import DatabaseSetupError

# The tables of the plan as Citus holds them (the plan's tables only: not the shards kept on the coordinator).
PLACED = """
SELECT table_name::text AS name, citus_table_type::text AS kind, distribution_column::text AS column_name,
       colocation_id
  FROM citus_tables
 WHERE table_name::text = ANY ($1::text[])
"""
EXISTING = "SELECT relname::text FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relname = ANY ($1)"
# The first statement of the keys' transaction (with the stem counts' row triggers and no read positions).
FACTS_KEY = """
SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = to_regclass('facts') AND conname = 'facts_pkey'
"""
KEYED = "PRIMARY KEY (agent_id, entity_id, id)"
DISABLED_TRIGGERS = """
SELECT c.relname::text AS table_name, t.tgname::text AS trigger FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
 WHERE NOT t.tgisinternal AND t.tgenabled = 'D' AND c.relnamespace = 'public'::regnamespace
   AND c.relname = ANY ($1::text[])
 ORDER BY 1, 2
"""
# The foreign keys within one person: named as the plan names them, and holding entity_id.
PERSON_KEYS = """
SELECT conname::text FROM pg_constraint
 WHERE contype = 'f' AND conname = ANY ($1::text[]) AND pg_get_constraintdef(oid) LIKE '%entity_id%'
"""
NOT_DISTRIBUTED_FUNCTION = """
SELECT f FROM unnest($1::text[]) AS f
 WHERE to_regprocedure(f) IS NULL
    OR NOT EXISTS (SELECT 1 FROM pg_dist_object WHERE classid = 'pg_proc'::regclass AND objid = to_regprocedure(f))
"""
SETTINGS_OF_DATABASE = """
SELECT coalesce(array_agg(s ORDER BY s), '{}') FROM pg_db_role_setting r, unnest(r.setconfig) AS s
 WHERE r.setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database()) AND r.setrole = 0
"""
NEEDED_SETTINGS = ("citus.enable_unsafe_triggers=on", "citus.propagate_set_commands=local")
PLAN_TABLES = [*REFERENCE, *(table for table, _ in DISTRIBUTED)]
FOREIGN_KEY_NAMES = {re.search(r"ADD CONSTRAINT (\w+)", s).group(1): s for s in FOREIGN_KEYS}  # type: ignore[union-attr]


@dataclass(frozen=True)
class Placement:
    kind: str  # 'distributed' | 'reference' | 'local' (a Citus local table)
    column: str | None
    colocation: int


@dataclass(frozen=True)
class ClusterState:
    """What the cluster holds of the plan."""

    keyed: bool
    existing: frozenset[str]
    placed: dict[str, Placement]
    disabled: tuple[tuple[str, str], ...]
    foreign_keys: frozenset[str]
    functions_missing: tuple[str, ...]
    settings: tuple[str, ...]

    def started(self) -> bool:
        """Whether a distribute ran here (in part or in whole)."""
        return self.keyed or bool(self.placed)

    def against_plan(self) -> list[str]:
        """Tables placed otherwise than the plan says (which distribute does not undo)."""
        wrong = []
        facts = self.placed.get("facts")
        for table, column in DISTRIBUTED:
            found = self.placed.get(table)
            if found is None:
                continue
            if found.kind != "distributed" or found.column != column:
                wrong.append(f"{table} is {found.kind} by {found.column or 'nothing'}, not distributed by {column}")
            elif facts is not None and found.colocation != facts.colocation:
                wrong.append(f"{table} is not co-located with facts")
        for table in REFERENCE:
            found = self.placed.get(table)
            if found is not None and found.kind != "reference":
                wrong.append(f"{table} is {found.kind}, not a reference table")
        return wrong

    def missing(self) -> list[str]:
        """What is still to do, one line each (empty: distributed as planned)."""
        left = [] if self.keyed else ["keys with entity_id"]
        local = [t for t in PLAN_TABLES if t in self.existing and t not in self.placed]
        if local:
            left.append(f"{len(local)} table(s) not placed: {', '.join(local)}")
        if self.disabled:
            tables = sorted({table for table, _ in self.disabled})
            left.append(f"{len(self.disabled)} trigger(s) disabled on {', '.join(tables)}")
        keys = sorted(set(FOREIGN_KEY_NAMES) - self.foreign_keys)
        if keys:
            left.append(f"{len(keys)} foreign key(s) within one person missing: {', '.join(keys)}")
        if self.functions_missing:
            left.append(f"{len(self.functions_missing)} function(s) not on every node")
        if not set(NEEDED_SETTINGS) <= set(self.settings):
            left.append("the database's settings for triggers on the shards")
        return left


async def cluster_state(conn: asyncpg.Connection) -> ClusterState:
    """The cluster's state of the plan (on a Citus coordinator)."""
    placed = {
        r["name"]: Placement(r["kind"], r["column_name"] if r["column_name"] != "<none>" else None, r["colocation_id"])
        for r in await conn.fetch(PLACED, PLAN_TABLES)
    }
    return ClusterState(
        keyed=await conn.fetchval(FACTS_KEY) == KEYED,
        existing=frozenset(r[0] for r in await conn.fetch(EXISTING, PLAN_TABLES)),
        placed=placed,
        disabled=tuple((r["table_name"], r["trigger"]) for r in await conn.fetch(DISABLED_TRIGGERS, PLAN_TABLES)),
        foreign_keys=frozenset(r[0] for r in await conn.fetch(PERSON_KEYS, list(FOREIGN_KEY_NAMES))),
        functions_missing=tuple(r[0] for r in await conn.fetch(NOT_DISTRIBUTED_FUNCTION, list(FUNCTIONS))),
        settings=tuple(await conn.fetchval(SETTINGS_OF_DATABASE)),
    )


async def partial_distribution(pool: asyncpg.Pool) -> str | None:
    """Why the service must not start on this database (distributed in part or against the plan), in one line;
    None on one PostgreSQL, on a Citus database not distributed, and on one distributed as planned."""
    async with pool.acquire() as conn:
        return await _partial(pooled(conn))


async def _partial(conn: asyncpg.Connection) -> str | None:
    if not await conn.fetchval(IS_CITUS):
        return None
    state = await cluster_state(conn)
    if not state.started():
        return None
    problems = state.against_plan() or state.missing()
    if not problems:
        return None
    return (
        "the database is distributed on Citus only in part ("
        + "; ".join(problems)
        + "): run `factmemory distribute` again to complete it (docs/scaling.md)"
    )


async def distribute(url: str) -> list[str]:
    """Distributes the (migrated) database at `url`, a Citus coordinator, or completes what an earlier run left;
    returns what it did, one line each (nothing when it was complete). Raises DatabaseSetupError, in one line,
    when it cannot complete (saying what it did before)."""
    conn = await asyncpg.connect(url)
    done: list[str] = []
    try:
        if not await conn.fetchval(IS_CITUS):
            raise DatabaseSetupError(
                "the database has no citus extension: `factmemory distribute` runs on a Citus coordinator "
                "(CREATE EXTENSION citus, then citus_add_node for each worker; docs/scaling.md)"
            )
        state = await cluster_state(conn)
        wrong = state.against_plan()
        if wrong:
            raise DatabaseSetupError(
                "the cluster holds tables placed otherwise than `factmemory distribute` places them, which it does "
                f"not undo: {'; '.join(wrong)}"
            )
        if not state.missing():
            return []
        for statement in SESSION_SETTINGS:
            await conn.execute(statement)
        await _complete(conn, state, done)
        left = (await cluster_state(conn)).missing()
        if left:
            raise DatabaseSetupError(f"distribute did not complete: still {'; '.join(left)}")
        return done
    except asyncpg.PostgresError as exc:
        so_far = f" (done before it: {'; '.join(done)})" if done else " (nothing done in this run)"
        raise DatabaseSetupError(
            f"distribute stopped: {type(exc).__name__}: {' '.join(str(exc).split())}{so_far}; "
            "run `factmemory distribute` again to complete it"
        ) from exc
    finally:
        await conn.close()


async def _complete(conn: asyncpg.Connection, state: ClusterState, done: list[str]) -> None:
    """Each step the state lacks, in the plan's order; `done` says what each did as it goes."""
    if not state.keyed:
        async with conn.transaction():
            for statement in (
                *KEYS,
                CLOSE_CANDIDATES_TRIGGER,
                *DROP_STATEMENT_TRIGGERS,
                LEXEME_ROW_FUNCTIONS,
                *LEXEME_ROW_TRIGGERS,
            ):
                await conn.execute(statement)
        done.append("keys with entity_id; row triggers for the stem counts; no read positions")
    for table in REFERENCE:
        if table in state.existing and table not in state.placed:
            done.append(await place(conn, table))
    # The rows already there are copied into the shards with their triggers off; they are turned on once every
    # table is placed (below).
    for table, column in DISTRIBUTED:
        if table not in state.placed:
            await conn.execute(TRIGGERS_OFF.format(table=table))
            await conn.execute(DISTRIBUTE_TABLE, table, column, "default" if table == "facts" else "facts")
            done.append(f"{table}: distributed by {column}")
    for table in _tables(await conn.fetch(DISABLED_TRIGGERS, PLAN_TABLES)):
        await conn.execute(TRIGGERS_ON.format(table=table))
        done.append(f"{table}: triggers enabled")
    added = []
    for name, statement in FOREIGN_KEY_NAMES.items():
        if name not in state.foreign_keys:
            await conn.execute(statement)
            added.append(name)
    if added:
        done.append(f"foreign keys within one person: {', '.join(added)}")
    functions = await distribute_functions(conn)
    if functions:
        done.append(f"{len(functions)} function(s) on every node")
    if not set(NEEDED_SETTINGS) <= set(state.settings):
        await conn.execute(DATABASE_SETTINGS)
        done.append("database settings: triggers on the shards, SET LOCAL carried to the workers")


def _tables(disabled: Sequence[asyncpg.Record]) -> list[str]:
    return sorted({r["table_name"] for r in disabled})
