"""Distributing a FactMemory database on Citus (docs/scaling.md, "Citus"): the plan, run on the coordinator after the
service's migrations, on an empty database or one already holding data, by `factmemory distribute`
(distribution.py, which completes what an earlier run left), and the migrations on a distributed database.

Every per-person table is hash-distributed by the person (`entity_id`; `relationships` by `source_entity_id`),
all in one co-location group, so that every statement about one (agent, person) runs on the one shard holding
that person; the agent-wide tables without a person (`agents`, `import_ledger`) and the service's own tables are
reference tables (a copy on every node). Citus requires the distribution column in every primary key, unique
constraint and foreign key, and refuses ON DELETE SET NULL on a foreign key holding it: the keys gain `entity_id`
and the two SET NULL foreign keys become RESTRICT, their clearing done by the trigger that already closes a deleted
fact's candidates. Nothing here runs on a single PostgreSQL: that schema is unchanged.
"""

from __future__ import annotations

import logging

import asyncpg
import sqlparse

from factmemory.adapters.postgres.connection import pooled
from factmemory.adapters.postgres.deployment.setup_errors import DatabaseSetupError

log = logging.getLogger(__name__)

IS_CITUS = "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus')"
IS_DISTRIBUTED = "SELECT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = to_regclass('facts'))"
# One statement, valid without Citus too (to_regclass: NULL when pg_dist_partition is not there).
BY_PERSON = """
SELECT to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL
       AND EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus')
"""

# Per-person tables, co-located with `facts`; the column each is placed by.
DISTRIBUTED: tuple[tuple[str, str], ...] = (
    ("facts", "entity_id"),
    ("fact_candidates", "entity_id"),
    ("fact_history", "entity_id"),
    ("possible_duplicates", "entity_id"),
    ("kept_pairs", "entity_id"),
    ("identities", "entity_id"),
    ("evaluations", "entity_id"),
    ("entities", "entity_id"),
    ("entity_revisions", "entity_id"),
    ("forget_epochs", "entity_id"),
    ("entity_lexemes", "entity_id"),
    ("evaluation_tickets", "entity_id"),
    ("read_positions", "entity_id"),
    ("relationships", "source_entity_id"),
)
REFERENCE: tuple[str, ...] = (
    "factmemory_meta",
    "factmemory_migrations",
    "agents",
    "import_ledger",
    "shared_subjects",
    "deleted_messages",
)

# Settings of the database, on every node: triggers on distributed tables (they stay within one person's shards),
# and SET LOCAL carried to the workers (the history trigger's action, actor and reason).
DATABASE_SETTINGS = """
DO $$
BEGIN
    EXECUTE format('ALTER DATABASE %I SET citus.enable_unsafe_triggers = on', current_database());
    EXECUTE format('ALTER DATABASE %I SET citus.propagate_set_commands = local', current_database());
END $$
"""
SESSION_SETTINGS = ("SET citus.enable_unsafe_triggers = on", "SET citus.shard_count = 32")

# Foreign keys to facts go first: the key they point at gains entity_id.
KEYS = (
    """ALTER TABLE fact_candidates DROP CONSTRAINT fact_candidates_fact_id_fkey,
                                  DROP CONSTRAINT fact_candidates_related_fact_id_fkey""",
    "ALTER TABLE kept_pairs DROP CONSTRAINT kept_pairs_fact_a_fkey, DROP CONSTRAINT kept_pairs_fact_b_fkey",
    """ALTER TABLE possible_duplicates DROP CONSTRAINT possible_duplicates_fact_id_fkey,
                                      DROP CONSTRAINT possible_duplicates_other_fact_id_fkey""",
    "ALTER TABLE facts DROP CONSTRAINT facts_pkey, ADD CONSTRAINT facts_pkey PRIMARY KEY (agent_id, entity_id, id)",
    """ALTER TABLE fact_candidates DROP CONSTRAINT fact_candidates_pkey,
                                  ADD CONSTRAINT fact_candidates_pkey PRIMARY KEY (agent_id, entity_id, id)""",
    """ALTER TABLE fact_history DROP CONSTRAINT fact_history_pkey,
                               ADD CONSTRAINT fact_history_pkey PRIMARY KEY (agent_id, entity_id, id)""",
    """ALTER TABLE possible_duplicates DROP CONSTRAINT possible_duplicates_pkey,
           ADD CONSTRAINT possible_duplicates_pkey PRIMARY KEY (agent_id, entity_id, fact_id, other_fact_id)""",
    """ALTER TABLE evaluations DROP CONSTRAINT evaluations_pkey,
                              ADD CONSTRAINT evaluations_pkey PRIMARY KEY (agent_id, entity_id, message_id)""",
    """ALTER TABLE evaluation_tickets DROP CONSTRAINT evaluation_tickets_pkey,
           ADD CONSTRAINT evaluation_tickets_pkey PRIMARY KEY (agent_id, entity_id, token_hash)""",
)

# The foreign keys again, within one person (so within one shard group). ON DELETE SET NULL becomes RESTRICT: the
# trigger below clears the references before the fact goes. Not NO ACTION (the default), whose check first looks
# for another row of facts with the deleted key (in case one was inserted since): the planner reads it through
# facts_scope_idx, i.e. every fact of the person, for each deleted fact. Forgetting a person of 20,000 facts spent
# 60-86 s in it on the test cluster (migration 0091); RESTRICT checks only the candidates.
CANDIDATE_KEYS = (
    """ALTER TABLE fact_candidates ADD CONSTRAINT fact_candidates_fact_id_fkey
           FOREIGN KEY (agent_id, entity_id, fact_id) REFERENCES facts (agent_id, entity_id, id) ON DELETE RESTRICT""",
    """ALTER TABLE fact_candidates ADD CONSTRAINT fact_candidates_related_fact_id_fkey
           FOREIGN KEY (agent_id, entity_id, related_fact_id) REFERENCES facts (agent_id, entity_id, id)
           ON DELETE RESTRICT""",
)
FOREIGN_KEYS = (
    *CANDIDATE_KEYS,
    """ALTER TABLE kept_pairs ADD CONSTRAINT kept_pairs_fact_a_fkey
           FOREIGN KEY (agent_id, entity_id, fact_a) REFERENCES facts (agent_id, entity_id, id) ON DELETE CASCADE""",
    """ALTER TABLE kept_pairs ADD CONSTRAINT kept_pairs_fact_b_fkey
           FOREIGN KEY (agent_id, entity_id, fact_b) REFERENCES facts (agent_id, entity_id, id) ON DELETE CASCADE""",
    """ALTER TABLE possible_duplicates ADD CONSTRAINT possible_duplicates_fact_id_fkey
           FOREIGN KEY (agent_id, entity_id, fact_id) REFERENCES facts (agent_id, entity_id, id) ON DELETE CASCADE""",
    """ALTER TABLE possible_duplicates ADD CONSTRAINT possible_duplicates_other_fact_id_fkey
           FOREIGN KEY (agent_id, entity_id, other_fact_id) REFERENCES facts (agent_id, entity_id, id)
           ON DELETE CASCADE""",
)

# A deleted fact's candidates: the pending ones closed (as before) and every reference cleared (what ON DELETE SET
# NULL (fact_id) did), within the fact's person: one shard. now(), not clock_timestamp(): Citus refuses volatile
# functions in an UPDATE of a distributed table (and anything but immutable ones inside CASE).
CLOSE_CANDIDATES_TRIGGER = """
CREATE OR REPLACE FUNCTION factmemory_close_orphaned_candidates() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE fact_candidates SET status = 'rejected', resolved_at = now(), resolved_by = 'system:fact deleted'
     WHERE agent_id = OLD.agent_id AND entity_id = OLD.entity_id AND (fact_id = OLD.id OR related_fact_id = OLD.id)
       AND status = 'pending';
    UPDATE fact_candidates SET fact_id = CASE WHEN fact_id = OLD.id THEN NULL ELSE fact_id END,
                               related_fact_id = CASE WHEN related_fact_id = OLD.id THEN NULL ELSE related_fact_id END
     WHERE agent_id = OLD.agent_id AND entity_id = OLD.entity_id AND (fact_id = OLD.id OR related_fact_id = OLD.id);
    RETURN OLD;
END
$$
"""

# The rows already there are copied into the shards with their triggers off: they would run on a worker before the
# worker knows the other tables (and what they would compute is already stored).
TRIGGERS_OFF = "ALTER TABLE {table} DISABLE TRIGGER USER"
TRIGGERS_ON = "ALTER TABLE {table} ENABLE TRIGGER USER"
# Statement triggers with transition tables (migrations 0009 and 0020) run, on a worker, statements over many keys
# from inside a statement on a shard, which Citus refuses ("cannot execute a distributed query from a query on a
# shard"). The stem counts become a row trigger whose statements each name one person (one shard, run locally in
# the same transaction). The read positions go: they serve only a streaming replica of one PostgreSQL, and the
# service refuses FACTMEMORY_DATABASE_READ_URL on a distributed database (docs/scaling.md).
READ_POSITION_TABLES = (
    "facts",
    "fact_candidates",
    "fact_history",
    "identities",
    "evaluations",
    "entities",
    "possible_duplicates",
    "relationships",
)
DROP_STATEMENT_TRIGGERS = (
    *(
        f"DROP TRIGGER {table}_read_position_{op} ON {table}"
        for table in READ_POSITION_TABLES
        for op in ("ins", "upd", "del")
    ),
    "DROP TRIGGER facts_lexemes_inserted ON facts",
    "DROP TRIGGER facts_lexemes_deleted ON facts",
    "DROP TRIGGER facts_lexemes_updated ON facts",
)
LEXEME_ROW_FUNCTIONS = """
CREATE FUNCTION factmemory_count_lexemes(a uuid, e uuid, words text[], d integer) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    w text;
BEGIN
    -- In stem order, so two writers of one person lock its rows in the same order; '' counts the live facts.
    FOR w IN SELECT DISTINCT s FROM unnest(words || ''::text) AS s ORDER BY 1 LOOP
        INSERT INTO entity_lexemes AS l (agent_id, entity_id, lexeme, facts) VALUES (a, e, w, d)
        ON CONFLICT (agent_id, entity_id, lexeme) DO UPDATE SET facts = l.facts + excluded.facts;
    END LOOP;
    IF d < 0 THEN
        DELETE FROM entity_lexemes WHERE agent_id = a AND entity_id = e AND lexeme = ANY (words || ''::text)
                                     AND facts <= 0;
    END IF;
END $$;
CREATE FUNCTION factmemory_lexemes_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- Only live facts count: an update counts only when the terms, the liveness or the scope changed.
    IF TG_OP <> 'INSERT' AND OLD.archived_at IS NULL
       AND (TG_OP = 'DELETE' OR OLD.lexemes IS DISTINCT FROM NEW.lexemes OR NEW.archived_at IS NOT NULL
            OR OLD.agent_id <> NEW.agent_id OR OLD.entity_id <> NEW.entity_id) THEN
        PERFORM factmemory_count_lexemes(OLD.agent_id, OLD.entity_id, OLD.lexemes, -1);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.archived_at IS NULL
       AND (TG_OP = 'INSERT' OR OLD.lexemes IS DISTINCT FROM NEW.lexemes OR OLD.archived_at IS NOT NULL
            OR OLD.agent_id <> NEW.agent_id OR OLD.entity_id <> NEW.entity_id) THEN
        PERFORM factmemory_count_lexemes(NEW.agent_id, NEW.entity_id, NEW.lexemes, 1);
    END IF;
    RETURN NULL;
END $$;
"""
# The row trigger, its delete apart: skipped for the rows of the person ForgetEntity erases (migration 0091 says
# why; it deletes the person's stem counts itself), which a WHEN condition on a trigger of several events cannot
# name. Dropped first, so that the statements also rewrite a database distributed before 0091 (AFTER_MIGRATION).
LEXEME_ROW_TRIGGERS = (
    "DROP TRIGGER IF EXISTS facts_lexemes_row ON facts",
    "DROP TRIGGER IF EXISTS facts_lexemes_row_deleted ON facts",
    """CREATE TRIGGER facts_lexemes_row AFTER INSERT OR UPDATE ON facts
           FOR EACH ROW EXECUTE FUNCTION factmemory_lexemes_row()""",
    """CREATE TRIGGER facts_lexemes_row_deleted AFTER DELETE ON facts FOR EACH ROW
           WHEN (current_setting('factmemory.erasing', true)
                 IS DISTINCT FROM OLD.agent_id::text || '/' || OLD.entity_id::text)
           EXECUTE FUNCTION factmemory_lexemes_row()""",
)
# What a migration changes of the cluster's own triggers above, run after its statements on a database distributed
# before it (`distribute` makes them as they are now), by the migration's version.
AFTER_MIGRATION: dict[int, tuple[str, ...]] = {
    91: (
        *LEXEME_ROW_TRIGGERS,
        """ALTER TABLE fact_candidates DROP CONSTRAINT fact_candidates_fact_id_fkey,
                                      DROP CONSTRAINT fact_candidates_related_fact_id_fkey""",
        *CANDIDATE_KEYS,
    )
}

# Functions the application's statements call, so that they run on the workers (where the statements go).
FUNCTIONS = (
    "factmemory_snapshot(text, text, text, double precision, text, timestamptz)",
    "factmemory_merge_tags(text[], text[], integer)",
    "factmemory_without(text[], text[])",
    "factmemory_tombstone(integer, integer)",
    "factmemory_newest(text[], integer)",
    "factmemory_claim_key(text)",
    "factmemory_lexemes(text)",
)
DISTRIBUTE_FUNCTION = "SELECT create_distributed_function($1::regprocedure)"

DISTRIBUTE_TABLE = "SELECT create_distributed_table($1::regclass, $2, colocate_with => $3)"
REFERENCE_TABLE = "SELECT create_reference_table($1::regclass)"
# A database distributed by an earlier release lacks the tables of later migrations: they are placed when the
# migration that creates them runs (apply_on_cluster).
FUNCTION_TO_DISTRIBUTE = """
SELECT to_regprocedure($1) IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM pg_dist_object WHERE classid = 'pg_proc'::regclass AND objid = to_regprocedure($1))
"""

# Migrations on a distributed database: one transaction, statement by statement (Citus propagates some DDL to the
# workers by its query string, which must then be one statement), every multi-shard command over one connection
# per worker (a function's creation after a parallel ALTER TABLE of a distributed table is refused otherwise).
SEQUENTIAL = "SET LOCAL citus.multi_shard_modify_mode TO 'sequential'"
# The schema's tables Citus does not place (not the shards of reference tables kept on the coordinator, named
# <table>_<shard id>).
LOCAL_TABLES = """
SELECT c.relname::text AS name FROM pg_class c
 WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
   AND NOT EXISTS (SELECT 1 FROM pg_dist_partition p WHERE p.logicalrelid = c.oid)
   AND NOT EXISTS (SELECT 1 FROM pg_dist_shard s JOIN pg_class t ON t.oid = s.logicalrelid
                    WHERE c.relname = t.relname || '_' || s.shardid)
"""


async def distributed_database(conn: asyncpg.Connection) -> bool:
    """Whether the database is on Citus with `facts` distributed."""
    return bool(await conn.fetchval(BY_PERSON)) and bool(await conn.fetchval(IS_DISTRIBUTED))


async def distributed_by_person(pool: asyncpg.Pool) -> bool:
    """Whether the database is on Citus with `facts` distributed (read once at start-up)."""
    async with pool.acquire() as conn:
        return await distributed_database(pooled(conn))


async def apply_on_cluster(conn: asyncpg.Connection, sql: str, version: int = 0) -> list[str]:
    """Applies one migration's `sql` (number `version`) to a distributed database, inside the caller's transaction:
    statement by statement, then its rewrites of the cluster's own triggers (AFTER_MIGRATION), the tables it created
    placed and the listed functions it created distributed, as `distribute` does on a database distributed after
    it; returns what it placed, one line each."""
    await conn.execute(SEQUENTIAL)
    before = {r["name"] for r in await conn.fetch(LOCAL_TABLES)}
    for statement in (*sqlparse.split(sql), *AFTER_MIGRATION.get(version, ())):
        await conn.execute(statement)
    created = sorted({r["name"] for r in await conn.fetch(LOCAL_TABLES)} - before)
    placed = [await place(conn, table) for table in created]
    return [*placed, *await distribute_functions(conn)]


async def place(conn: asyncpg.Connection, table: str) -> str:
    """Places a table the lists name: a reference table, or distributed in the person's co-location group."""
    if table in REFERENCE:
        await conn.execute(REFERENCE_TABLE, table)
        return f"{table}: reference table"
    column = dict(DISTRIBUTED).get(table)
    if column is None:
        raise DatabaseSetupError(
            f"table {table} is not placed on the cluster: name it in DISTRIBUTED or REFERENCE "
            "(adapters/postgres/deployment/citus.py)"
        )
    await conn.execute(TRIGGERS_OFF.format(table=table))
    await conn.execute(DISTRIBUTE_TABLE, table, column, "default" if table == "facts" else "facts")
    await conn.execute(TRIGGERS_ON.format(table=table))
    return f"{table}: distributed by {column}"


async def distribute_functions(conn: asyncpg.Connection) -> list[str]:
    done = []
    for function in FUNCTIONS:
        if await conn.fetchval(FUNCTION_TO_DISTRIBUTE, function):
            await conn.execute(DISTRIBUTE_FUNCTION, function)
            done.append(f"{function}: on every node")
    return done
