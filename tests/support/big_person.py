"""One person with many facts for the forget tests, loaded set-based: the facts by one INSERT ... SELECT
generate_series, then review items over them (candidates, possible duplicates, kept pairs), a name, an identity and
a relationship, each by one statement about the person; and `stored`, what every table holds about a person.

On one PostgreSQL the facts' row triggers run as for any insert (they write the history and stem counts). On the
Citus cluster they would take minutes (every row's triggers run statements through Citus on the worker: 20,000
facts took 8 min 15 s, docs/scaling.md), so `without_triggers` turns them off for the load's transaction
(`session_replication_role = replica`, carried to the worker by `citus.propagate_set_commands`, a superuser's
setting: the test clusters run as one) and writes what they would have, history and stem counts, itself."""

from __future__ import annotations

from uuid import UUID

import asyncpg

# Distinct claims (no two share a claim key, and each has its own number as a stem), one shared word so that one
# stem count is as large as the person; unit vectors of the database's dimension ($4). The columns the BEFORE
# triggers fill are given too, for a load without them.
INSERT_FACTS = """
INSERT INTO facts (id, agent_id, entity_id, kind, category, claim, confidence, created_at, last_confirmed_at,
                   embedding, embedding_model, search_half, embedding_half, lexemes, claim_key)
SELECT gen_random_uuid(), $1, $2, 'durable', 'identity', claim, 0.9, now(), now(),
       v::vector, 'test', v::vector::halfvec, v::vector::halfvec, factmemory_lexemes(claim), factmemory_claim_key(claim)
  FROM generate_series(1, $3::integer) AS i,
       LATERAL (SELECT 'collects stamps number ' || i AS claim,
                       '[' || array_to_string(array_fill(0, ARRAY[$4::integer - 1]) || 1, ',') || ']' AS v) AS c
"""
WITHOUT_TRIGGERS = "SET LOCAL session_replication_role = replica"
# What the history and stem-count triggers write for inserted facts (migrations 0004, 0009).
HISTORY_OF_FACTS = """
INSERT INTO fact_history (agent_id, entity_id, fact_id, action, after)
SELECT agent_id, entity_id, id, 'created', factmemory_snapshot(claim, category, kind, confidence,
                                                               verification_status, archived_at)
  FROM facts WHERE agent_id = $1 AND entity_id = $2
"""
COUNT_STEMS = """
INSERT INTO entity_lexemes (agent_id, entity_id, lexeme, facts)
SELECT f.agent_id, f.entity_id, w.s, count(*)
  FROM facts f CROSS JOIN LATERAL (SELECT DISTINCT s FROM unnest(f.lexemes || ''::text) AS s) AS w
 WHERE f.agent_id = $1 AND f.entity_id = $2
 GROUP BY 1, 2, 3
"""
# Review items over the facts numbered in $3 (a candidate each) and pairs of them with those in $4.
CANDIDATES = """
INSERT INTO fact_candidates (id, agent_id, entity_id, fact_id, proposed_claim, source, evidence_message_id,
                             created_at)
SELECT gen_random_uuid(), agent_id, entity_id, id, 'moved away', 'contradict', 'm1', now()
  FROM facts WHERE agent_id = $1 AND entity_id = $2 AND claim = ANY ($3::text[])
"""
PAIRS = """
SELECT a.id AS a, b.id AS b FROM facts a JOIN facts b ON b.agent_id = a.agent_id AND b.entity_id = a.entity_id
 WHERE a.agent_id = $1 AND a.entity_id = $2 AND a.claim = ANY ($3::text[]) AND b.claim = ANY ($4::text[])
"""
POSSIBLE_DUPLICATE = """
INSERT INTO possible_duplicates (agent_id, entity_id, fact_id, other_fact_id, similarity, evidence_message_id,
                                 created_at)
VALUES ($1, $2, least($3::uuid, $4::uuid), greatest($3::uuid, $4::uuid), 0.95, 'm1', now())
"""
KEPT_PAIR = """
INSERT INTO kept_pairs (agent_id, entity_id, fact_a, fact_b)
VALUES ($1, $2, least($3::uuid, $4::uuid), greatest($3::uuid, $4::uuid))
"""
NAME = (
    "INSERT INTO entities (agent_id, entity_id, name, first_seen_at, last_seen_at) VALUES ($1, $2, 'Big', now(), now())"
)
IDENTITY = """
INSERT INTO identities (agent_id, entity_id, platform, handle, confidence, created_at, updated_at)
VALUES ($1, $2, 'github', '@big', 0.9, now(), now())
"""
RELATIONSHIP = """
INSERT INTO relationships (agent_id, source_entity_id, target_entity_id, created_at, updated_at)
VALUES ($1, $2, $3, now(), now())
"""
REVIEWED = 10  # facts with a candidate, and as many paired with others

# What a forget must leave empty, per table: the person's rows (relationships: on either side).
PERSON_TABLES = (
    "facts",
    "fact_history",
    "entity_lexemes",
    "fact_candidates",
    "possible_duplicates",
    "kept_pairs",
    "identities",
    "evaluations",
    "entities",
)
COUNT_OF_PERSON = "SELECT count(*) FROM {table} WHERE agent_id = $1 AND entity_id = $2"
COUNT_RELATIONSHIPS = """
SELECT count(*) FROM relationships WHERE agent_id = $1 AND (source_entity_id = $2 OR target_entity_id = $2)
"""
STEM_TOTAL = "SELECT coalesce(sum(facts), 0) FROM entity_lexemes WHERE agent_id = $1 AND entity_id = $2"


def claims(numbers: range) -> list[str]:
    return [f"collects stamps number {i}" for i in numbers]


async def load(
    conn: asyncpg.Connection,
    agent: UUID,
    entity: UUID,
    facts: int,
    dimensions: int,
    friend: UUID,
    without_triggers: bool = False,
) -> None:
    """The person's facts and what is stored around them, in one transaction (see the module's docstring)."""
    async with conn.transaction():
        if without_triggers:
            await conn.execute(WITHOUT_TRIGGERS)
        await conn.execute(INSERT_FACTS, agent, entity, facts, dimensions)
        if without_triggers:
            await conn.execute(HISTORY_OF_FACTS, agent, entity)
            await conn.execute(COUNT_STEMS, agent, entity)
        await conn.execute(CANDIDATES, agent, entity, claims(range(1, REVIEWED + 1)))
        pairs = await conn.fetch(
            PAIRS, agent, entity, claims(range(1, REVIEWED + 1)), claims(range(REVIEWED + 1, 2 * REVIEWED + 1))
        )
        for pair in pairs[:REVIEWED]:
            await conn.execute(POSSIBLE_DUPLICATE, agent, entity, pair["a"], pair["b"])
            await conn.execute(KEPT_PAIR, agent, entity, pair["a"], pair["b"])
        await conn.execute(NAME, agent, entity)
        await conn.execute(IDENTITY, agent, entity)
        await conn.execute(RELATIONSHIP, agent, entity, friend)


async def stored(conn: asyncpg.Connection, agent: UUID, entity: UUID) -> dict[str, int]:
    """How many rows each table holds about the person, and the sum of its stem counts."""
    found = {t: int(await conn.fetchval(COUNT_OF_PERSON.format(table=t), agent, entity)) for t in PERSON_TABLES}
    found["relationships"] = int(await conn.fetchval(COUNT_RELATIONSHIPS, agent, entity))
    found["stem counts"] = int(await conn.fetchval(STEM_TOTAL, agent, entity))
    return found
