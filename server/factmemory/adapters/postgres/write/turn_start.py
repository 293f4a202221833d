"""What an Evaluate reads first, in one statement: the entity's forget epoch, the stored results of the turn's
messages, and the open possible-duplicate pairs shown to the model (with both facts)."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

import asyncpg

from factmemory.adapters.postgres.rows import FACT_COLUMNS, row_to_fact
from factmemory.domain.dedup.planning import OpenPair
from factmemory.domain.models import EvaluateResult, Fact
from factmemory.ports import TurnStart

# The likeliest open pairs not expired: recorded within $5 turns (revisions) of the entity's current one, at most $4.
OPEN_PAIRS = """
SELECT d.fact_id AS first_id, d.other_fact_id AS second_id,
       row_number() OVER (ORDER BY d.likelihood DESC, d.created_at, d.fact_id, d.other_fact_id) AS rank
  FROM possible_duplicates d
  LEFT JOIN entity_revisions r ON r.agent_id = d.agent_id AND r.entity_id = d.entity_id
 WHERE d.agent_id = $1 AND d.entity_id = $2 AND d.status = 'open'
   AND (d.created_revision IS NULL OR d.created_revision > coalesce(r.revision, 0) - $5)
 ORDER BY d.likelihood DESC, d.created_at, d.fact_id, d.other_fact_id
 LIMIT $4
"""

# The stored evaluations of the messages $3: of any entity of the agent (so that a message id evaluated for another
# entity is refused), or, on a database distributed by person (Citus), of this entity only (one shard; message ids
# are then unique per person: docs/scaling.md).
OF_THE_AGENT = "e.agent_id = $1"
OF_THE_PERSON = "e.agent_id = $1 AND e.entity_id = $2"

# One row for the epoch, one per stored evaluation of the messages $3, one per message of $3 the agent deleted
# within the last hour (migration 0063: any person's, a reference table on Citus), one per fact of each open pair
# (its rank first), one per id of $6 that is a recorded shared subject (a reference table on Citus). A row claimed
# by a call still running (result '{}') is read and left out by the caller.
_turn_start_sql = """
WITH pairs AS ({pairs})
SELECT t.part, t.epoch, t.message_id, t.evaluated_entity, t.result, t.rank, t.first_id, t.second_id, {columns}
  FROM (SELECT 'epoch' AS part,
               coalesce((SELECT epoch FROM forget_epochs WHERE agent_id = $1 AND entity_id = $2), 0) AS epoch,
               NULL::text AS message_id, NULL::uuid AS evaluated_entity, NULL::jsonb AS result,
               NULL::bigint AS rank, NULL::uuid AS first_id, NULL::uuid AS second_id
        UNION ALL
        SELECT 'evaluation', NULL, e.message_id, e.entity_id, e.result, NULL, NULL, NULL
          FROM evaluations e
         WHERE {evaluations} AND e.message_id = ANY ($3::text[])
        UNION ALL
        SELECT 'deleted', NULL, d.message_id, NULL, NULL, NULL, NULL, NULL
          FROM deleted_messages d
         WHERE d.agent_id = $1 AND d.message_id = ANY ($3::text[])
        UNION ALL
        SELECT 'subject', NULL, NULL, s.subject_id, NULL, NULL, NULL, NULL
          FROM shared_subjects s
         WHERE s.agent_id = $1 AND s.subject_id = ANY ($6::uuid[])
        UNION ALL
        SELECT 'pair', NULL, NULL, NULL, NULL, p.rank, p.first_id, p.second_id FROM pairs p) t
  LEFT JOIN facts ON t.part = 'pair' AND facts.agent_id = $1 AND facts.entity_id = $2
                   AND facts.id IN (t.first_id, t.second_id)
 ORDER BY t.part, t.rank, facts.id
"""
TURN_START = _turn_start_sql.format(pairs=OPEN_PAIRS, columns=FACT_COLUMNS, evaluations=OF_THE_AGENT)
TURN_START_BY_PERSON = _turn_start_sql.format(pairs=OPEN_PAIRS, columns=FACT_COLUMNS, evaluations=OF_THE_PERSON)


async def read_turn_start(
    conn: asyncpg.Connection,
    agent_id: UUID,
    entity_id: UUID,
    message_ids: Sequence[str],
    pairs_limit: int,
    ttl_turns: int,
    subject_ids: Sequence[UUID] = (),
    statement: str = TURN_START,
) -> TurnStart:
    """`statement`: TURN_START, or TURN_START_BY_PERSON on a database distributed by person."""
    rows = await conn.fetch(
        statement,
        agent_id,
        entity_id,
        list(message_ids),
        pairs_limit,
        ttl_turns,
        list(subject_ids),
    )
    epoch = 0
    evaluations: dict[str, tuple[UUID, EvaluateResult]] = {}
    pairs: dict[tuple[UUID, UUID], list[Fact]] = {}
    deleted: set[str] = set()
    subjects: set[UUID] = set()
    for row in rows:
        if row["part"] == "epoch":
            epoch = int(row["epoch"])
        elif row["part"] == "subject":
            subjects.add(row["evaluated_entity"])
        elif row["part"] == "deleted":
            deleted.add(row["message_id"])
        elif row["part"] == "evaluation" and row["result"]:
            evaluations[row["message_id"]] = (row["evaluated_entity"], EvaluateResult.model_validate(row["result"]))
        elif row["part"] == "pair" and row["id"] is not None:  # a fact of the pair deleted meanwhile: no pair
            pairs.setdefault((row["first_id"], row["second_id"]), []).append(row_to_fact(row))
    open_pairs = [OpenPair(*found) for found in pairs.values() if len(found) == 2]
    return TurnStart(epoch, evaluations, open_pairs, frozenset(deleted), frozenset(subjects))
