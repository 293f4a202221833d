"""The schema is ready to shard by agent_id (docs/scaling.md): after every migration, the catalog shows agent_id in
every primary key, unique constraint, unique index and foreign key (both sides) of every table but the two reference
tables; every SQL constant of the PostgreSQL adapter filters each entity table it reads or writes by agent_id; and
migration 0007 moves existing rows to the new keys without losing any, with foreign keys that cannot cross agents."""

from __future__ import annotations

import importlib
import pkgutil
import re
import uuid
from types import ModuleType

import asyncpg
import pytest

import factmemory.adapters.postgres
from factmemory.adapters.postgres import agents, store, tickets
from factmemory.adapters.postgres.deployment import health, replica_check
from factmemory.adapters.postgres.deployment.database import migrate
from factmemory.adapters.postgres.read import forgotten

DIMENSIONS = 384
REFERENCE_TABLES = {"factmemory_meta", "factmemory_migrations"}
# Every table that holds an agent's data: distributed by agent_id, co-located with facts.
ENTITY_TABLES = {
    "facts",
    "fact_candidates",
    "fact_history",
    "kept_pairs",
    "relationships",
    "identities",
    "evaluations",
    "entities",
    "forget_epochs",
    "possible_duplicates",
    "entity_revisions",
    "read_positions",
    "import_ledger",
    "evaluation_tickets",
    "entity_lexemes",
    "agents",
    "shared_subjects",  # a world's shared-fact subjects (migration 0070, docs/shared-facts.md)
    "deleted_messages",  # recently deleted message ids, checked against tickets (migration 0063)
}
# Deliberately over all agents: the metrics scrape counts every pending candidate (one fan-out query per scrape).
ALL_AGENTS = {(health, "COUNT_PENDING_CANDIDATES")}
# Agent-model tickets: issuing one sweeps long-expired rows and bounds their number for the whole database.
ALL_AGENTS |= {(tickets, "ISSUE_TICKET")}
# The retention sweep drops every expired ticket's content (what ISSUE_TICKET does on one PostgreSQL).
ALL_AGENTS |= {(tickets, "EXPIRE_TICKETS")}
# ... and the content of every open ticket showing a deleted message, then prunes the deleted ids of every agent.
ALL_AGENTS |= {(tickets, "VOID_ALL_SHOWING_DELETED"), (tickets, "PRUNE_DELETED_MESSAGES")}
# The agent list (ListAgents: the review page's start page, the CLI's names) reads every agent's counts.
ALL_AGENTS |= {(agents, "LIST_AGENTS")}
# The read replica's check reads no row (LIMIT 0): it only proves every table is there and readable by its role.
ALL_AGENTS |= {(replica_check, "READABLE")}
# Each process looks every ten seconds for the people forgotten by another, whichever agent (an index range of the
# recent forgets; forgotten.py).
ALL_AGENTS |= {(forgotten, "FORGOTTEN_SINCE")}

KEYS = """
SELECT c.conrelid::regclass::text AS tab, c.conname, c.contype::text AS contype,
       ARRAY(SELECT a.attname FROM unnest(c.conkey) AS k(n)
               JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n)::text[] AS cols,
       c.confrelid::regclass::text AS ref_tab,
       ARRAY(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY AS k(n, o)
               JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.o)::text[] AS ref_cols,
       ARRAY(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY AS k(n, o)
               JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o)::text[] AS ordered
  FROM pg_constraint c JOIN pg_namespace s ON s.oid = c.connamespace
 WHERE s.nspname = 'public' AND c.contype IN ('p', 'u', 'f')
"""
UNIQUE_INDEXES = """
SELECT i.indrelid::regclass::text AS tab, i.indexrelid::regclass::text AS idx,
       ARRAY(SELECT a.attname FROM unnest(i.indkey) AS k(n)
               JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n)::text[] AS cols
  FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace s ON s.oid = t.relnamespace
 WHERE s.nspname = 'public' AND i.indisunique
"""
TABLES = """
SELECT t.relname AS tab,
       EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = t.oid AND a.attname = 'agent_id' AND a.attnotnull)
           AS has_agent
  FROM pg_class t JOIN pg_namespace s ON s.oid = t.relnamespace
 WHERE s.nspname = 'public' AND t.relkind IN ('r', 'p')
"""


def key_violations(
    tables: list[asyncpg.Record], keys: list[asyncpg.Record], indexes: list[asyncpg.Record]
) -> list[str]:
    """Every way the catalog breaks the sharding rules, one line each (empty: ready to distribute on agent_id)."""
    broken = []
    for t in tables:
        if t["tab"] not in REFERENCE_TABLES and not t["has_agent"]:
            broken.append(f"table {t['tab']} has no NOT NULL agent_id column")
    for k in keys:
        if k["tab"] in REFERENCE_TABLES:
            continue
        if "agent_id" not in k["cols"]:
            broken.append(f"{k['tab']}.{k['conname']} ({k['contype']}) does not include agent_id: {k['cols']}")
        elif k["contype"] == "f":
            pairs = dict(zip(k["ordered"], k["ref_cols"], strict=True))
            if k["ref_tab"] in REFERENCE_TABLES or pairs.get("agent_id") != "agent_id":
                broken.append(
                    f"{k['tab']}.{k['conname']} may cross agents: {k['ordered']} -> {k['ref_tab']}{k['ref_cols']}"
                )
    for i in indexes:
        if i["tab"] not in REFERENCE_TABLES and "agent_id" not in i["cols"]:
            broken.append(f"unique index {i['idx']} on {i['tab']} does not include agent_id: {i['cols']}")
    return broken


async def catalog(url: str) -> tuple[list[asyncpg.Record], list[asyncpg.Record], list[asyncpg.Record]]:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetch(TABLES), await conn.fetch(KEYS), await conn.fetch(UNIQUE_INDEXES)
    finally:
        await conn.close()


async def test_every_key_and_foreign_key_includes_agent_id(empty_database: str) -> None:
    await migrate(empty_database, DIMENSIONS)
    tables, keys, indexes = await catalog(empty_database)
    names = {t["tab"] for t in tables}
    assert names == ENTITY_TABLES | REFERENCE_TABLES, (
        "a new table: add it to ENTITY_TABLES (and shard it by agent_id) or to REFERENCE_TABLES"
    )
    assert key_violations(tables, keys, indexes) == []
    foreign = {k["conname"] for k in keys if k["contype"] == "f"}
    assert {"fact_candidates_fact_id_fkey", "kept_pairs_fact_a_fkey"} <= foreign  # the rule checked real keys


async def test_the_keys_before_migration_0007_break_the_rules(empty_database: str) -> None:
    """The catalog check sees the single-column keys the schema had (a check that passes on anything is none)."""
    await migrate(empty_database, DIMENSIONS, until=6)
    broken = "\n".join(key_violations(*await catalog(empty_database)))
    assert "facts.facts_pkey (p) does not include agent_id" in broken
    assert "fact_candidates.fact_candidates_fact_id_fkey (f) does not include agent_id" in broken
    assert "fact_history.fact_history_pkey" in broken
    assert "possible_duplicates.possible_duplicates_pkey (p) does not include agent_id" in broken


def _vector(value: float) -> str:
    return "[" + ",".join([str(value)] * DIMENSIONS) + "]"


INSERT_FACT = """
INSERT INTO facts (id, agent_id, entity_id, kind, category, claim, confidence, created_at, last_confirmed_at,
                   embedding, embedding_model)
VALUES ($1, $2, $3, 'durable', 'work', $4, 0.8, now(), now(), $5::text::vector, 'test')
"""
INSERT_CANDIDATE = """
INSERT INTO fact_candidates (id, agent_id, entity_id, fact_id, related_fact_id, proposed_claim, source,
                             evidence_message_id, created_at)
VALUES ($1, $2, $3, $4, $5, 'other', 'dedup_conflict', 'm1', now())
"""


async def test_migration_0007_keeps_every_row_and_no_foreign_key_crosses_agents(empty_database: str) -> None:
    await migrate(empty_database, DIMENSIONS, until=6)
    agent, other_agent, entity = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    old, new, candidate = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    conn = await asyncpg.connect(empty_database)
    try:
        await conn.execute(INSERT_FACT, old, agent, entity, "works at Acme", _vector(0.1))
        await conn.execute(INSERT_FACT, new, agent, entity, "works at Initech", _vector(0.2))
        await conn.execute(INSERT_CANDIDATE, candidate, agent, entity, old, new)
        await conn.execute(
            "INSERT INTO kept_pairs VALUES ($1, $2, LEAST($3::uuid, $4::uuid), GREATEST($3::uuid, $4::uuid))",
            agent,
            entity,
            old,
            new,
        )
        await conn.execute(
            "INSERT INTO possible_duplicates (agent_id, entity_id, fact_id, other_fact_id, similarity, "
            "evidence_message_id, created_at) VALUES ($1, $2, LEAST($3::uuid, $4::uuid), "
            "GREATEST($3::uuid, $4::uuid), 0.9, 'm1', now())",
            agent,
            entity,
            old,
            new,
        )
        history_before = await conn.fetchval("SELECT count(*) FROM fact_history")

        await migrate(empty_database, DIMENSIONS)

        assert await conn.fetchval("SELECT count(*) FROM facts") == 2
        assert await conn.fetchval("SELECT count(*) FROM possible_duplicates") == 1
        assert await conn.fetchval("SELECT count(*) FROM fact_history") == history_before
        row = await conn.fetchrow("SELECT fact_id, related_fact_id FROM fact_candidates WHERE id = $1", candidate)
        assert row is not None
        assert (row["fact_id"], row["related_fact_id"]) == (old, new)
        # Another agent's row cannot point at this agent's fact, even knowing its id.
        with pytest.raises(asyncpg.ForeignKeyViolationError):
            await conn.execute(INSERT_CANDIDATE, uuid.uuid4(), other_agent, entity, old, None)
        # The same fact id may exist under two agents (the key is (agent_id, id)).
        await conn.execute(INSERT_FACT, old, other_agent, entity, "likes tea", _vector(0.3))
        # Deleting a fact clears only the candidate's fact column (agent_id stays) and removes the kept pair.
        await conn.execute("DELETE FROM facts WHERE agent_id = $1 AND id = $2", agent, old)
        row = await conn.fetchrow(
            "SELECT agent_id, fact_id, related_fact_id, status FROM fact_candidates WHERE agent_id = $1 AND id = $2",
            agent,
            candidate,
        )
        assert row is not None
        assert (row["agent_id"], row["fact_id"], row["related_fact_id"]) == (agent, None, new)
        assert row["status"] == "rejected"  # the orphaned-candidate trigger, now scoped to the agent
        assert await conn.fetchval("SELECT count(*) FROM kept_pairs WHERE agent_id = $1", agent) == 0
        assert await conn.fetchval("SELECT count(*) FROM possible_duplicates WHERE agent_id = $1", agent) == 0
        assert await conn.fetchval("SELECT count(*) FROM facts WHERE agent_id = $1 AND id = $2", other_agent, old) == 1
    finally:
        await conn.close()


# --- every query names its agent -------------------------------------------------------------------------------

REFERENCE = re.compile(r"\b(FROM|JOIN|UPDATE|INTO)\s+(\w+)(?:\s+(?:AS\s+)?(\w+))?", re.IGNORECASE)
NOT_ALIAS = {
    "where",
    "set",
    "on",
    "left",
    "right",
    "inner",
    "join",
    "group",
    "order",
    "limit",
    "values",
    "select",
    "using",
    "with",
    "union",
    "returning",
    "for",
    "of",
    "as",
    "and",
    "or",
    "default",
}
UNQUALIFIED = re.compile(r"(?<![.\w])agent_id\s*=\s*(\$\d+|\w+\.agent_id)")


def unscoped_references(sql: str, tables: set[str]) -> list[str]:
    """Each entity-table reference of the statement without an agent_id filter: `alias.agent_id = ...` for an
    aliased reference, `table.agent_id = ...` or one unqualified `agent_id = $n` per unaliased reference; an INSERT
    must write agent_id, and its conflict target (a unique key) must include it."""
    unqualified_filters = len(UNQUALIFIED.findall(sql))
    missing = [
        f"ON CONFLICT ({target}) without agent_id"
        for target in re.findall(r"ON CONFLICT\s*\(([^)]*)\)", sql, re.IGNORECASE)
        if "agent_id" not in target
    ]
    for match in REFERENCE.finditer(sql):
        verb, table, alias = match.group(1).upper(), match.group(2).lower(), (match.group(3) or "").lower()
        if table not in tables:
            continue
        if verb == "INTO":
            columns = re.match(r"\s*(?:AS\s+\w+\s*)?\(([^)]*)\)", sql[match.end(2) :], re.IGNORECASE)
            if columns is None or "agent_id" not in columns.group(1):
                missing.append(f"INSERT INTO {table} without agent_id")
            continue
        aliased = bool(alias) and alias not in NOT_ALIAS
        name = alias if aliased else table
        if re.search(rf"\b{name}\.agent_id\s*=\s*(\$\d+|\w+\.agent_id)", sql):
            continue
        if not aliased and unqualified_filters > 0:
            unqualified_filters -= 1
            continue
        missing.append(f"{verb} {table} {alias if aliased else ''}".strip())
    return missing


def sql_constants(module: ModuleType) -> dict[str, str]:
    return {
        name: value
        for name, value in vars(module).items()
        if name.isupper() and isinstance(value, str) and REFERENCE.search(value)
    }


# Modules whose statements are not about one agent: the schema's own tables (and its distribution on Citus: the plan
# and `factmemory distribute`), and retention's sweeps of every agent.
NOT_PER_AGENT = {"citus", "distribution", "database", "embedded", "retention"}


def postgres_modules() -> list[ModuleType]:
    """Every module of the PostgreSQL adapter but those above, so a statement in a new module is checked too."""
    package = factmemory.adapters.postgres
    modules = pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}.")
    names = [m.name for m in modules if not m.ispkg and m.name.rsplit(".", 1)[1] not in NOT_PER_AGENT]
    return [importlib.import_module(name) for name in names]


def test_every_sql_constant_filters_each_entity_table_by_agent() -> None:
    tables = ENTITY_TABLES
    constants: dict[tuple[ModuleType, str], str] = {}
    for module in postgres_modules():
        for name, sql in sql_constants(module).items():
            if sql not in constants.values():  # imported by another module: checked where it is first seen
                constants[(module, name)] = sql
    whole = [sql for sql in constants.values()]
    checked = 0
    broken = {}
    for (module, name), sql in constants.items():
        if (module, name) in ALL_AGENTS:
            continue
        if any(sql != other and sql in other for other in whole):
            continue  # a fragment (columns, a subquery): checked inside the statements that use it
        checked += 1
        if missing := unscoped_references(sql, tables):
            broken[f"{module.__name__}.{name}"] = missing
    assert broken == {}
    assert checked > 40


def test_the_query_check_finds_a_subquery_without_its_agent() -> None:
    tables = ENTITY_TABLES
    # The contradiction lookup before this rule: correlated by fact id alone (a scan of every shard on Citus).
    before = (
        "SELECT id, (SELECT dc.proposed_claim FROM fact_candidates dc WHERE dc.fact_id = facts.id) "
        "FROM facts WHERE agent_id = $1 AND entity_id = $2"
    )
    assert unscoped_references(before, tables) == ["FROM fact_candidates dc"]
    assert unscoped_references("UPDATE facts SET claim = $2 WHERE id = $1", tables) == ["UPDATE facts"]
    assert unscoped_references("INSERT INTO facts (id, claim) VALUES ($1, $2)", tables) == [
        "INSERT INTO facts without agent_id"
    ]
    assert unscoped_references(
        "INSERT INTO possible_duplicates (agent_id, fact_id) VALUES ($1, $2) "
        "ON CONFLICT (fact_id, other_fact_id) DO NOTHING",
        tables,
    ) == ["ON CONFLICT (fact_id, other_fact_id) without agent_id"]
    # The open-pairs query before this rule joined facts by id alone.
    assert unscoped_references(
        "SELECT * FROM (SELECT fact_id FROM possible_duplicates WHERE agent_id = $1) p "
        "JOIN facts ON facts.id = p.fact_id",
        tables,
    ) == ["JOIN facts"]
    assert unscoped_references(store.LIST_FACTS, tables) == []
