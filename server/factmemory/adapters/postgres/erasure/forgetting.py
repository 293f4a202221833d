"""ForgetEntity's statements: everything stored about one entity deleted in one transaction (the caller holds the
per-entity lock), and the forget epoch that makes an Evaluate begun before it commit nothing."""

from __future__ import annotations

from uuid import UUID

import asyncpg

from factmemory.adapters.postgres.connection import row_count
from factmemory.adapters.postgres.rows import routed
from factmemory.domain.models import ForgetCounts

# ForgetEntity is final (migration 0005): every forget bumps the (agent, entity) epoch; a turn started before it
# sees another epoch under the lock and commits nothing.
GET_FORGET_EPOCH = "SELECT epoch FROM forget_epochs WHERE agent_id = $1 AND entity_id = $2"
BUMP_FORGET_EPOCH = """
INSERT INTO forget_epochs (agent_id, entity_id) VALUES ($1, $2)
ON CONFLICT (agent_id, entity_id) DO UPDATE SET epoch = forget_epochs.epoch + 1, forgotten_at = excluded.forgotten_at
"""
# The person's facts deleted with their per-row upkeep skipped (migration 0091): the first CTE names the person in
# `factmemory.erasing` for the transaction, made FROM rows.routed so that on Citus it is made on the worker holding
# the person, where the triggers run (as rows.mark_cte does for the history mark). What the skipped triggers
# maintain is deleted by the statements below, each one set-based statement.
FORGET_FACTS = f"""
WITH erasing AS MATERIALIZED (
    SELECT set_config('factmemory.erasing', $1::text || '/' || $2::text, true) AS person
      FROM {routed()})
DELETE FROM facts USING erasing WHERE agent_id = $1 AND entity_id = $2
"""
# Before the facts: the candidates' references to them (a foreign key without ON DELETE on Citus) go with them, and
# the pairs' ON DELETE CASCADE then finds nothing to delete.
FORGET_CANDIDATES = "DELETE FROM fact_candidates WHERE agent_id = $1 AND entity_id = $2"
FORGET_DUPLICATES = "DELETE FROM possible_duplicates WHERE agent_id = $1 AND entity_id = $2"
FORGET_KEPT_PAIRS = "DELETE FROM kept_pairs WHERE agent_id = $1 AND entity_id = $2"
FORGET_RELATIONSHIPS = """
DELETE FROM relationships WHERE agent_id = $1 AND (source_entity_id = $2 OR target_entity_id = $2)
"""
FORGET_IDENTITIES = "DELETE FROM identities WHERE agent_id = $1 AND entity_id = $2"
FORGET_EVALUATIONS = "DELETE FROM evaluations WHERE agent_id = $1 AND entity_id = $2"
# After the facts: erasure leaves no history and no stem counts.
FORGET_HISTORY = "DELETE FROM fact_history WHERE agent_id = $1 AND entity_id = $2"
FORGET_LEXEMES = "DELETE FROM entity_lexemes WHERE agent_id = $1 AND entity_id = $2"
FORGET_NAME = "DELETE FROM entities WHERE agent_id = $1 AND entity_id = $2"


async def forget_epoch(conn: asyncpg.Connection, agent_id: UUID, entity_id: UUID) -> int:
    """How many times this (agent, entity) was forgotten."""
    return int(await conn.fetchval(GET_FORGET_EPOCH, agent_id, entity_id) or 0)


async def forget_entity(conn: asyncpg.Connection, agent_id: UUID, entity_id: UUID) -> ForgetCounts:
    """Deletes everything stored about the entity and bumps its forget epoch; the caller holds the lock."""
    candidates = await conn.execute(FORGET_CANDIDATES, agent_id, entity_id)
    await conn.execute(FORGET_DUPLICATES, agent_id, entity_id)
    await conn.execute(FORGET_KEPT_PAIRS, agent_id, entity_id)
    facts = await conn.execute(FORGET_FACTS, agent_id, entity_id)
    await conn.execute(FORGET_HISTORY, agent_id, entity_id)
    await conn.execute(FORGET_LEXEMES, agent_id, entity_id)
    relationships = await conn.execute(FORGET_RELATIONSHIPS, agent_id, entity_id)
    identities = await conn.execute(FORGET_IDENTITIES, agent_id, entity_id)
    evaluations = await conn.execute(FORGET_EVALUATIONS, agent_id, entity_id)
    await conn.execute(FORGET_NAME, agent_id, entity_id)
    await conn.execute(BUMP_FORGET_EPOCH, agent_id, entity_id)
    return ForgetCounts(
        facts=row_count(facts),
        candidates=row_count(candidates),
        relationships=row_count(relationships),
        identities=row_count(identities),
        evaluations=row_count(evaluations),
    )
