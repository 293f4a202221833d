"""One Evaluate's write transaction, holding the per-entity lock: every statement the write path runs under it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import cast
from uuid import UUID, uuid4

import asyncpg

from factmemory.adapters.postgres import shared
from factmemory.adapters.postgres.connection import row_count
from factmemory.adapters.postgres.rows import (
    DELETE_FACT,
    FACT_COLUMNS,
    INSERT_FACT,
    RECORD_NAME,
    fact_values,
    history_entry,
    mark_cte,
    mark_values,
    one,
    row_to_fact,
)
from factmemory.adapters.postgres.write.context import read_write_context
from factmemory.domain.confidence import Strengthened
from factmemory.domain.dedup.planning import MergedFact
from factmemory.domain.limits import MAX_LINK_EVIDENCE
from factmemory.domain.models import EvaluateResult, Fact, HistoryAction, Identity, Kind, Relationship
from factmemory.domain.new_fact import NewFact
from factmemory.domain.shared import SharedSubject
from factmemory.domain.vectors import Vector
from factmemory.ports import WriteContext

GET_FACT = f"SELECT {FACT_COLUMNS} FROM facts WHERE agent_id = $1 AND entity_id = $2 AND id = $3"

# The values domain.confidence decided for a strengthened or decayed fact.
SET_STRENGTHENED = f"""
WITH {mark_cte(9)}
UPDATE facts
   SET confidence = $4, evidence_message_ids = $5, last_confirmed_at = $6, category = $7, verification_status = $8
  FROM mark
 WHERE agent_id = $1 AND entity_id = $2 AND id = $3
RETURNING {FACT_COLUMNS}
"""

SET_CONFIDENCE = f"""
WITH {mark_cte(5)}
UPDATE facts SET confidence = $4 FROM mark WHERE agent_id = $1 AND entity_id = $2 AND id = $3
RETURNING {FACT_COLUMNS}
"""

RECLASSIFY_FACT = f"""
WITH {mark_cte(6)}
UPDATE facts SET kind = $4, category = $5, valid_at = CASE WHEN $4 = 'current' THEN coalesce(valid_at, created_at)
                                                           ELSE NULL END
  FROM mark
 WHERE agent_id = $1 AND entity_id = $2 AND id = $3
RETURNING {FACT_COLUMNS}
"""

# Not between two facts a reviewer kept as both true. The contradicted fact's history entry ($11 action, $12 actor,
# $13 reason) is written by the same statement: one round trip.
INSERT_CANDIDATE = f"""
WITH candidate AS (
    INSERT INTO fact_candidates (id, agent_id, entity_id, fact_id, related_fact_id, proposed_claim, reason, source,
                                 evidence_message_id, status, created_at)
    SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', $10
     WHERE NOT EXISTS (SELECT 1 FROM kept_pairs k
                        WHERE k.agent_id = $2 AND k.entity_id = $3
                          AND k.fact_a = LEAST($4::uuid, $5::uuid) AND k.fact_b = GREATEST($4::uuid, $5::uuid))
    RETURNING id
), recorded AS (
    {history_entry(11, agent=2, entity=3, fact=4, joined="candidate")}
)
SELECT id FROM candidate
"""

# Relationships and identities cite the turn's messages (migration 0045): at most $8 of the newest; a row whose
# evidence outgrew that also stands on messages no longer recorded (evidence_complete false).
UPSERT_RELATIONSHIP = """
INSERT INTO relationships (agent_id, source_entity_id, target_entity_id, tags, interaction_count,
                           created_at, updated_at, evidence_message_ids, evidence_complete)
VALUES ($1, $2, $3, $4, 1, $5, $5, factmemory_newest($7::text[], $8), cardinality($7::text[]) <= $8)
ON CONFLICT (agent_id, source_entity_id, target_entity_id) DO UPDATE
   -- At most $6 tags: the ones it had first, then new ones while room is left; sorted (migration 0061).
   SET tags = factmemory_merge_tags(relationships.tags, EXCLUDED.tags, $6),
       interaction_count = relationships.interaction_count + 1,
       updated_at = GREATEST(relationships.updated_at, EXCLUDED.updated_at),
       evidence_message_ids = factmemory_newest(relationships.evidence_message_ids || $7::text[], $8),
       evidence_complete = relationships.evidence_complete
                           AND cardinality(relationships.evidence_message_ids || $7::text[]) <= $8
RETURNING source_entity_id, target_entity_id, tags, interaction_count
"""

UPSERT_IDENTITY = """
INSERT INTO identities (agent_id, entity_id, platform, handle, confidence, created_at, updated_at,
                        evidence_message_ids, evidence_complete)
VALUES ($1, $2, $3, $4, $5, $6, $6, factmemory_newest($7::text[], $8), cardinality($7::text[]) <= $8)
ON CONFLICT (agent_id, entity_id, platform, handle) DO UPDATE
   SET confidence = GREATEST(identities.confidence, EXCLUDED.confidence),
       updated_at = GREATEST(identities.updated_at, EXCLUDED.updated_at),
       evidence_message_ids = factmemory_newest(identities.evidence_message_ids || $7::text[], $8),
       evidence_complete = identities.evidence_complete
                           AND cardinality(identities.evidence_message_ids || $7::text[]) <= $8
RETURNING entity_id, platform, handle, confidence
"""

# Not between two facts a reviewer kept as both true.
INSERT_PAIR = """
INSERT INTO possible_duplicates (agent_id, entity_id, fact_id, other_fact_id, similarity, reason,
                                 evidence_message_id, created_at, likelihood, created_revision)
SELECT $1, $2, LEAST($3::uuid, $4::uuid), GREATEST($3::uuid, $4::uuid), $5, $6, $7, $8, $9, $10
 WHERE NOT EXISTS (SELECT 1 FROM kept_pairs k
                    WHERE k.agent_id = $1 AND k.entity_id = $2
                      AND k.fact_a = LEAST($3::uuid, $4::uuid) AND k.fact_b = GREATEST($3::uuid, $4::uuid))
ON CONFLICT DO NOTHING
"""

CLOSE_PAIR = """
UPDATE possible_duplicates SET status = 'closed', closed_at = $5
 WHERE agent_id = $1 AND entity_id = $2 AND fact_id = LEAST($3::uuid, $4::uuid)
   AND other_fact_id = GREATEST($3::uuid, $4::uuid) AND status = 'open'
"""

# Open pairs this turn ages out (recorded $3 or more turns ago): OPEN_PAIRS no longer offers them (migration 0050).
EXPIRE_PAIRS = """
UPDATE possible_duplicates SET status = 'expired', closed_at = $5
 WHERE agent_id = $1 AND entity_id = $2 AND status = 'open' AND created_revision <= $4::bigint - $3::bigint
"""

# A merge: the kept fact takes the united values, the duplicate's candidates move to it (or close when they were
# about the two facts themselves), and the duplicate is deleted (its pairs go with it).
MERGE_INTO_KEPT = f"""
WITH {mark_cte(11)}
UPDATE facts
   SET confidence = $5, evidence_message_ids = $6, previous_claims = $7,
       last_confirmed_at = $8, verification_status = $9, structured_fields = $10
  FROM mark
 WHERE agent_id = $1 AND entity_id = $2 AND id = $3
   AND EXISTS (SELECT 1 FROM facts d WHERE d.agent_id = $1 AND d.entity_id = $2 AND d.id = $4)
RETURNING {FACT_COLUMNS}
"""

# The duplicate's candidates in one statement: a pending one between the two facts is closed (resolved by the merge),
# and every one of the duplicate moves to the kept fact, resolved ones too (their history stays with it); a
# candidate about the two facts themselves keeps no related fact. ($3 kept, $4 duplicate, $5 actor, $6 at.)
MOVE_CANDIDATES = """
UPDATE fact_candidates
   SET status = CASE WHEN between_the_two THEN 'rejected' ELSE status END,
       resolution = CASE WHEN between_the_two THEN 'merge' ELSE resolution END,
       resolved_by = CASE WHEN between_the_two THEN $5 ELSE resolved_by END,
       resolved_at = CASE WHEN between_the_two THEN $6 ELSE resolved_at END,
       fact_id = CASE WHEN fact_id = $4 THEN $3 ELSE fact_id END,
       related_fact_id = CASE WHEN fact_id IN ($3, $4) AND related_fact_id IN ($3, $4) THEN NULL
                              WHEN related_fact_id = $4 THEN $3 ELSE related_fact_id END
  FROM (SELECT c.id AS candidate_id,
               c.status = 'pending' AND ((c.fact_id = $3 AND c.related_fact_id = $4)
                                         OR (c.fact_id = $4 AND c.related_fact_id = $3)) AS between_the_two
          FROM fact_candidates c
         WHERE c.agent_id = $1 AND c.entity_id = $2 AND (c.fact_id = $4 OR c.related_fact_id = $4)) moving
 WHERE fact_candidates.agent_id = $1 AND fact_candidates.entity_id = $2 AND fact_candidates.id = moving.candidate_id
"""

CLAIM_EVALUATION = """
INSERT INTO evaluations (agent_id, message_id, entity_id, room_id, result, excerpt)
VALUES ($1, $2, $3, $4, '{}'::jsonb, NULLIF($5, ''))
ON CONFLICT DO NOTHING
RETURNING message_id
"""

FINISH_EVALUATION = """
UPDATE evaluations
   SET result = $3, prompt_tokens = $4, completion_tokens = $5, success_completed = $6, success_reason = $7,
       linked_entities = $9
 WHERE agent_id = $1 AND message_id = $2 AND entity_id = $8
"""


class PostgresWriteTransaction:
    """One Evaluate's write transaction, holding the per-entity lock (implements ports.WriteTransaction)."""

    def __init__(
        self, conn: asyncpg.Connection, agent_id: UUID, entity_id: UUID, revision: int, forget_epoch: int = 0
    ) -> None:
        self._conn = conn
        self.agent_id = agent_id
        self.entity_id = entity_id
        self.revision = revision
        self.forget_epoch = forget_epoch
        self._actor = ""
        # The messages claimed (what its links cite), and the people whose links it wrote (kept with each message).
        self._claimed: list[str] = []
        self._linked: set[UUID] = set()

    async def elsewhere(self, subject: SharedSubject, at: datetime) -> PostgresWriteTransaction:
        """This transaction writing a shared subject's facts (domain/shared.py) under its lock, as this message."""
        revision = await shared.enter(self._conn, self.agent_id, subject, at)
        other = PostgresWriteTransaction(self._conn, self.agent_id, subject.subject_id, revision)
        other._actor = self._actor
        return other

    async def write_context(
        self, kinds: Sequence[Kind], vectors: Sequence[Vector], claims: Sequence[str], limit: int
    ) -> WriteContext:
        return await read_write_context(self._conn, self.agent_id, self.entity_id, kinds, vectors, claims, limit)

    async def claim_evaluation(self, message_id: str, room_id: UUID | None, excerpt: str = "") -> bool:
        """Reserves the message (keeping its excerpt); False when it was evaluated already (the caller replays)."""
        row = await self._conn.fetchval(CLAIM_EVALUATION, self.agent_id, message_id, self.entity_id, room_id, excerpt)
        self._actor = f"message:{message_id}"
        if row is not None:
            self._claimed.append(message_id)
        return row is not None

    def _evidence(self, person: UUID) -> tuple[list[str], int]:
        """The evidence of a link kept with `person`: the claimed messages, and the cap (the SQL keeps the newest)."""
        self._linked.add(person)
        return list(self._claimed), MAX_LINK_EVIDENCE

    def _mark(self, action: HistoryAction, reason: str = "") -> tuple[str, str, str]:
        return mark_values(action, self._actor, reason)  # the history mark, sent with its statement (mark_cte)

    async def finish_evaluation(self, message_id: str, result: EvaluateResult) -> None:
        success = result.success
        await self._conn.execute(
            FINISH_EVALUATION,
            self.agent_id,
            message_id,
            result.model_dump(mode="json"),
            result.usage.prompt_tokens,
            result.usage.completion_tokens,
            None if success is None else success.completed,
            None if success is None else success.reason,
            self.entity_id,
            sorted(self._linked),
        )

    async def get_fact(self, fact_id: UUID) -> Fact | None:
        row = await self._conn.fetchrow(GET_FACT, self.agent_id, self.entity_id, fact_id)
        return None if row is None else row_to_fact(row)

    async def insert_fact(self, new: NewFact) -> Fact:
        values = fact_values(self.agent_id, self.entity_id, new)
        row = one(await self._conn.fetchrow(INSERT_FACT, *values, *self._mark(HistoryAction.CREATED)))
        return row_to_fact(row)

    async def set_strengthened(self, fact_id: UUID, values: Strengthened) -> Fact | None:
        row = await self._conn.fetchrow(
            SET_STRENGTHENED,
            self.agent_id,
            self.entity_id,
            fact_id,
            values.confidence,
            list(values.evidence_message_ids),
            values.last_confirmed_at,
            values.category,
            values.verification.value,
            *self._mark(HistoryAction.STRENGTHENED),
        )
        return None if row is None else row_to_fact(row)

    async def set_decayed(self, fact_id: UUID, confidence: float) -> Fact | None:
        mark = self._mark(HistoryAction.DECAYED)
        row = await self._conn.fetchrow(SET_CONFIDENCE, self.agent_id, self.entity_id, fact_id, confidence, *mark)
        return None if row is None else row_to_fact(row)

    async def delete_fact(self, fact_id: UUID, reason: str) -> bool:
        mark = self._mark(HistoryAction.DELETED, reason)
        status = await self._conn.execute(DELETE_FACT, self.agent_id, self.entity_id, fact_id, *mark)
        return row_count(status) == 1

    async def insert_candidate(
        self,
        fact_id: UUID,
        proposed_claim: str,
        reason: str,
        source: str,
        message_id: str,
        at: datetime,
        related_fact_id: UUID | None = None,
    ) -> UUID | None:
        candidate_id = await self._conn.fetchval(
            INSERT_CANDIDATE,
            uuid4(),
            self.agent_id,
            self.entity_id,
            fact_id,
            related_fact_id,
            proposed_claim,
            reason,
            source,
            message_id,
            at,
            *self._mark(HistoryAction.CONTRADICTED, f"{source}: {proposed_claim}"),
        )
        return cast(UUID | None, candidate_id)

    async def insert_pair(
        self,
        fact_id: UUID,
        other_fact_id: UUID,
        similarity: float,
        reason: str,
        message_id: str,
        at: datetime,
        likelihood: float = 0.0,
    ) -> None:
        """Records two facts as possible duplicates (once per pair, whatever the order) at this turn's revision."""
        await self._conn.execute(
            INSERT_PAIR,
            self.agent_id,
            self.entity_id,
            fact_id,
            other_fact_id,
            similarity,
            reason,
            message_id,
            at,
            likelihood,
            self.revision,
        )

    async def close_pair(self, fact_id: UUID, other_fact_id: UUID, at: datetime) -> None:
        await self._conn.execute(CLOSE_PAIR, self.agent_id, self.entity_id, fact_id, other_fact_id, at)

    async def expire_pairs(self, ttl_turns: int, at: datetime) -> int:
        """Closes as expired the open pairs recorded ttl_turns or more turns before this one; how many."""
        status = await self._conn.execute(EXPIRE_PAIRS, self.agent_id, self.entity_id, ttl_turns, self.revision, at)
        return int(status.split()[-1])

    async def merge_facts(
        self, keep_id: UUID, duplicate_id: UUID, merged: MergedFact, at: datetime, reason: str = ""
    ) -> Fact | None:
        """Folds the duplicate into the kept fact and deletes it; None when either fact is gone."""
        mark = self._mark(HistoryAction.MERGED, reason)
        row = await self._conn.fetchrow(
            MERGE_INTO_KEPT,
            self.agent_id,
            self.entity_id,
            keep_id,
            duplicate_id,
            merged.confidence,
            list(merged.evidence_message_ids),
            list(merged.previous_claims),
            merged.last_confirmed_at,
            merged.verification.value,
            merged.structured_fields,
            *mark,
        )
        if row is None:
            return None
        scope = (self.agent_id, self.entity_id, keep_id, duplicate_id)
        await self._conn.execute(MOVE_CANDIDATES, *scope, self._actor, at)
        await self._conn.execute(DELETE_FACT, self.agent_id, self.entity_id, duplicate_id, *mark)
        return row_to_fact(row)

    async def reclassify(self, fact_id: UUID, kind: Kind, category: str) -> Fact | None:
        """An imported fact takes the category (and kind) the model named for it."""
        mark = self._mark(HistoryAction.RECLASSIFIED)
        row = await self._conn.fetchrow(
            RECLASSIFY_FACT, self.agent_id, self.entity_id, fact_id, kind.value, category, *mark
        )
        return None if row is None else row_to_fact(row)

    async def record_name(self, name: str, at: datetime) -> None:
        await self._conn.execute(RECORD_NAME, self.agent_id, self.entity_id, name, at)

    async def name_world(self, world_id: UUID, name: str, at: datetime) -> None:
        """The world's name on its recorded shared subjects (the latest by `at` wins)."""
        await shared.name_world(self._conn, self.agent_id, world_id, name, at)

    async def upsert_relationship(
        self, source: UUID, target: UUID, tags: Sequence[str], at: datetime, max_tags: int
    ) -> Relationship:
        row = await self._conn.fetchrow(
            UPSERT_RELATIONSHIP, self.agent_id, source, target, list(tags), at, max_tags, *self._evidence(source)
        )
        row = one(row)
        return Relationship(
            source_entity_id=str(row["source_entity_id"]),
            target_entity_id=str(row["target_entity_id"]),
            tags=tuple(row["tags"]),
            interaction_count=row["interaction_count"],
        )

    async def upsert_identity(
        self, entity_id: UUID, platform: str, handle: str, confidence: float, at: datetime
    ) -> Identity:
        row = await self._conn.fetchrow(
            UPSERT_IDENTITY, self.agent_id, entity_id, platform, handle, confidence, at, *self._evidence(entity_id)
        )
        row = one(row)
        return Identity(
            entity_id=str(row["entity_id"]),
            platform=row["platform"],
            handle=row["handle"],
            confidence=row["confidence"],
        )
