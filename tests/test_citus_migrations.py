"""A migration and the distributed database: `distribute` rewrites some of the schema for Citus (keys with the
person, row triggers for the stem counts, no read positions; adapters/postgres/deployment/citus.py), so a later
migration that changes one of those things on a distributed table needs its counterpart for a cluster distributed
before it, run after its statements by version (`citus.AFTER_MIGRATION`). This check reads the migrations' text and
fails on one that does so without a counterpart and without a line below saying why it needs none. No database."""

from __future__ import annotations

import re
from importlib import resources

import sqlparse

from factmemory.adapters.postgres.deployment import citus

DISTRIBUTED = {table for table, _ in citus.DISTRIBUTED}
PLACED = DISTRIBUTED | set(citus.REFERENCE)

# Migrations that change what `distribute` rewrites and need no counterpart, each with why. A new one belongs in
# AFTER_MIGRATION unless a line here says why its statements are right on a cluster as they are.
NEEDS_NO_COUNTERPART = {
    3: "before the first distribution: `distribute` makes the keys and triggers as they are after it",
    4: "before the first distribution (as 3)",
    7: "before the first distribution (as 3); the keys it makes are the ones `distribute` extends with the person",
    9: "before the first distribution (as 3); its statement triggers are the ones `distribute` replaces",
    72: "the stem counts follow the terms, not the claim: the cluster's row trigger (factmemory_lexemes_row) runs "
    "on every update and compares the terms already",
}

STATEMENT = re.compile(r"\bCREATE\s+(?:OR\s+REPLACE\s+)?(?:CONSTRAINT\s+)?TRIGGER\b", re.I)
TRIGGER_ON = re.compile(
    r"\b(?:CREATE\s+(?:OR\s+REPLACE\s+)?(?:CONSTRAINT\s+)?|DROP\s+)TRIGGER\s+(?:IF\s+EXISTS\s+)?(\w+)[^;]*?\bON\s+(\w+)",
    re.I | re.S,
)
TRIGGER_FUNCTION = re.compile(
    r"\bCREATE\s+(?:OR\s+REPLACE\s+)?TRIGGER\s+(\w+)[^;]*?EXECUTE\s+(?:FUNCTION|PROCEDURE)\s+(\w+)", re.I | re.S
)
KEY = re.compile(
    r"\bALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:ONLY\s+)?(\w+)\b[^;]*?"
    r"\b(PRIMARY\s+KEY|UNIQUE|REFERENCES|FOREIGN\s+KEY|DROP\s+CONSTRAINT\s+\w+_(?:pkey|fkey|key))\b",
    re.I | re.S,
)
UNIQUE_INDEX = re.compile(r"\bCREATE\s+UNIQUE\s+INDEX\b[^;]*?\bON\s+(?:ONLY\s+)?(\w+)", re.I | re.S)
REPLACED_FUNCTION = re.compile(r"\bCREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+(\w+)", re.I)
CREATED_TABLE = re.compile(r"\bCREATE\s+(?:UNLOGGED\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)", re.I)


def migrations() -> dict[int, str]:
    folder = resources.files("factmemory.adapters.postgres") / "migrations"
    files = sorted((f for f in folder.iterdir() if f.name.endswith(".sql")), key=lambda f: f.name)
    return {int(f.name[:4]): sqlparse.format(f.read_text(encoding="utf-8"), strip_comments=True) for f in files}


def rewritten() -> tuple[set[str], set[str]]:
    """The triggers `distribute` drops or makes anew, and the functions it makes or that those triggers call."""
    texts = (*citus.DROP_STATEMENT_TRIGGERS, *citus.LEXEME_ROW_TRIGGERS)
    triggers = {m.group(1) for t in texts for m in TRIGGER_ON.finditer(t)}
    functions = set(REPLACED_FUNCTION.findall(citus.LEXEME_ROW_FUNCTIONS + citus.CLOSE_CANDIDATES_TRIGGER))
    for sql in migrations().values():
        functions |= {fn for trigger, fn in TRIGGER_FUNCTION.findall(sql) if trigger in triggers}
    return triggers, functions


def touches(sql: str, triggers: set[str], functions: set[str]) -> list[str]:
    """What in one migration's `sql` changes a part of a distributed table that `distribute` rewrites."""
    found = []
    for statement in sqlparse.split(sql):
        for m in TRIGGER_ON.finditer(statement):
            name, table = m.group(1), m.group(2).lower()
            per_row = re.search(r"\bFOR\s+EACH\s+ROW\b", statement, re.I) and STATEMENT.search(statement)
            if table in DISTRIBUTED and (name in triggers or not per_row or "REFERENCING" in statement.upper()):
                found.append(f"trigger {name} on {table}")
        found += [f"key of {t} ({k.split()[0].lower()})" for t, k in KEY.findall(statement) if t.lower() in DISTRIBUTED]
        found += [f"unique index on {t}" for t in UNIQUE_INDEX.findall(statement) if t.lower() in DISTRIBUTED]
        found += [f"function {f}" for f in REPLACED_FUNCTION.findall(statement) if f in functions]
    return found


def test_every_migration_that_changes_what_distribute_rewrites_has_a_counterpart_or_a_reason() -> None:
    triggers, functions = rewritten()
    touching = {v: found for v, sql in migrations().items() if (found := touches(sql, triggers, functions))}
    silent = {
        v: found for v, found in touching.items() if v not in citus.AFTER_MIGRATION and v not in NEEDS_NO_COUNTERPART
    }
    assert silent == {}, (
        "these migrations change what `distribute` rewrites for Citus: add their counterpart to "
        "citus.AFTER_MIGRATION, or a line to NEEDS_NO_COUNTERPART here saying why none is needed"
    )
    assert set(NEEDS_NO_COUNTERPART) <= set(touching)  # a reason for a migration the check does not flag is stale


def test_every_table_a_migration_creates_is_placed_on_the_cluster() -> None:
    """apply_on_cluster refuses a new table that neither list names, but only on a cluster: this says so first."""
    created = {t.lower() for sql in migrations().values() for t in CREATED_TABLE.findall(sql)}
    assert created - PLACED == set()


def test_the_check_finds_each_kind_of_change() -> None:
    """Probes, one per rule, and their harmless neighbours (a CHECK constraint, a row trigger of its own, another
    table)."""
    triggers, functions = rewritten()
    assert "facts_lexemes_row" in triggers and "factmemory_lexemes_row" in functions
    assert "factmemory_lexemes_updated" in functions  # called by a trigger `distribute` drops
    probes = {
        "ALTER TABLE facts ADD CONSTRAINT facts_claim_key UNIQUE (agent_id, claim)": ["key of facts (unique)"],
        "ALTER TABLE kept_pairs DROP CONSTRAINT kept_pairs_fact_a_fkey": ["key of kept_pairs (drop)"],
        "CREATE UNIQUE INDEX facts_x ON facts (claim)": ["unique index on facts"],
        "CREATE TRIGGER t AFTER INSERT ON facts REFERENCING NEW TABLE AS n FOR EACH STATEMENT EXECUTE FUNCTION f()": [
            "trigger t on facts"
        ],
        "DROP TRIGGER facts_lexemes_row ON facts": ["trigger facts_lexemes_row on facts"],
        "CREATE OR REPLACE FUNCTION factmemory_lexemes_row() RETURNS trigger LANGUAGE sql AS 'SELECT 1'": [
            "function factmemory_lexemes_row"
        ],
        "ALTER TABLE facts ADD CONSTRAINT facts_kind_check CHECK (kind <> '')": [],
        "CREATE TRIGGER mine BEFORE INSERT ON facts FOR EACH ROW EXECUTE FUNCTION f()": [],
        "ALTER TABLE agents ADD CONSTRAINT agents_name_key UNIQUE (agent_id, name)": [],
    }
    assert {sql: touches(sql, triggers, functions) for sql in probes} == probes
