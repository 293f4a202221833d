"""A FactMemory export stored back (domain/backup.py): one person's rows in the person's transaction, every id kept,
each statement ON CONFLICT DO NOTHING so that a row already there (a second import, a live person) is left as it
is. The caller holds the person's lock and has checked their forget epoch and the import ledger."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from uuid import UUID

import asyncpg

from factmemory.adapters.postgres.connection import locked
from factmemory.adapters.postgres.erasure.forgetting import forget_epoch as read_forget_epoch
from factmemory.adapters.postgres.rows import MARK_IMPORT, claim_terms, mark_values, vector_array
from factmemory.adapters.postgres.write import import_ledger
from factmemory.domain.backup import PersonBackup, Restored, kept_evidence, ledger_id
from factmemory.domain.models import Fact, HistoryAction
from factmemory.domain.vectors import Vector

RESTORE_FACTS = """
INSERT INTO facts (id, agent_id, entity_id, kind, category, claim, structured_fields, confidence,
                   evidence_message_ids, verification_status, created_at, last_confirmed_at, valid_at,
                   previous_claims, archived_at, embedding, embedding_model, import_source_id, lexemes)
SELECT u.id, $1, $2, u.kind, u.category, u.claim, u.fields, u.confidence,
       ARRAY(SELECT jsonb_array_elements_text(u.evidence::jsonb)), u.verification, u.created_at, u.confirmed_at,
       u.valid_at,
       ARRAY(SELECT jsonb_array_elements_text(u.previous::jsonb)), u.archived_at, u.embedding, u.model, u.source,
       string_to_array(u.terms, ' ')
  FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[], $7::jsonb[], $8::float8[], $9::text[], $10::text[],
              $11::timestamptz[], $12::timestamptz[], $13::timestamptz[], $14::text[], $15::timestamptz[],
              $16::vector[], $17::text[], $18::text[], $19::text[])
       AS u(id, kind, category, claim, fields, confidence, evidence, verification, created_at, confirmed_at, valid_at,
            previous, archived_at, embedding, model, source, terms)
ON CONFLICT DO NOTHING
RETURNING id
"""
# The person's facts among these ids (the ones restored now and the ones already there).
PRESENT_FACTS = """
SELECT id FROM facts WHERE agent_id = $1 AND entity_id = $2 AND id = ANY ($3::uuid[])
"""
DELETED_AMONG = """
SELECT message_id FROM deleted_messages WHERE agent_id = $1 AND message_id = ANY ($2::text[])
"""
RESTORE_HISTORY = """
INSERT INTO fact_history (id, agent_id, entity_id, fact_id, at, action, actor, reason, before, after)
SELECT u.id, $1, $2, u.fact_id, u.at, u.action, u.actor, u.reason, u.before, u.after
  FROM unnest($3::uuid[], $4::uuid[], $5::timestamptz[], $6::text[], $7::text[], $8::text[], $9::jsonb[],
              $10::jsonb[]) AS u(id, fact_id, at, action, actor, reason, before, after)
ON CONFLICT DO NOTHING
"""
RESTORE_CANDIDATE = """
INSERT INTO fact_candidates (id, agent_id, entity_id, fact_id, related_fact_id, proposed_claim, reason, source,
                             evidence_message_id, status, created_at, resolved_at, resolution, resolved_by)
VALUES ($3, $1, $2, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
ON CONFLICT DO NOTHING
"""
RESTORE_RELATIONSHIP = """
INSERT INTO relationships (agent_id, source_entity_id, target_entity_id, tags, interaction_count, created_at,
                           updated_at, evidence_message_ids, evidence_complete)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
ON CONFLICT DO NOTHING
"""
RESTORE_IDENTITY = """
INSERT INTO identities (agent_id, entity_id, platform, handle, confidence, created_at, updated_at,
                        evidence_message_ids, evidence_complete)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
ON CONFLICT DO NOTHING
"""
RESTORE_EVALUATION = """
INSERT INTO evaluations (agent_id, entity_id, message_id, room_id, result, prompt_tokens, completion_tokens,
                         success_completed, success_reason, created_at, excerpt, forgotten_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
ON CONFLICT DO NOTHING
"""
RESTORE_NAME = """
INSERT INTO entities (agent_id, entity_id, name, first_seen_at, last_seen_at) VALUES ($1, $2, $3, $4, $4)
ON CONFLICT (agent_id, entity_id) DO NOTHING
"""
RESTORE_SUBJECT = """
INSERT INTO shared_subjects (agent_id, subject_id, scope, world_id) VALUES ($1, $2, $3, $4)
ON CONFLICT (agent_id, subject_id) DO NOTHING
"""


class Restores:
    """PostgresBulk's restore of an export (BulkStore.restore)."""

    _pool: asyncpg.Pool

    def drop_held(self, agent_id: UUID, entity_id: UUID) -> None: ...

    async def restore(
        self,
        backup: PersonBackup,
        vectors: Mapping[UUID, Vector],
        model: str,
        actor: str,
        forget_epoch: int,
        ignore_ledger: bool,
    ) -> Restored | None:
        async with locked(self._pool, backup.agent_id, backup.entity_id) as (conn, _):
            done = await restore_person(conn, backup, vectors, model, actor, forget_epoch, ignore_ledger)
        self.drop_held(backup.agent_id, backup.entity_id)  # what this process held of them is stale
        return done


async def restore_person(
    conn: asyncpg.Connection,
    backup: PersonBackup,
    vectors: Mapping[UUID, Vector],
    model: str,
    actor: str,
    forget_epoch: int,
    ignore_ledger: bool,
) -> Restored | None:
    """The whole restore of one person, in the caller's transaction holding their lock (PostgresBulk.restore)."""
    agent_id, entity_id = backup.agent_id, backup.entity_id
    if await read_forget_epoch(conn, agent_id, entity_id) != forget_epoch:
        return None
    await conn.execute(MARK_IMPORT, *mark_values(HistoryAction.IMPORTED, actor), agent_id, entity_id)
    ids = [ledger_id(f.id) for f in backup.facts if f.id in vectors]
    fresh = await import_ledger.record(conn, agent_id, ids)
    deleted = await deleted_messages(conn, agent_id, backup)
    facts = restorable(backup, set(ids) if ignore_ledger else fresh, deleted)
    stored = await restore_facts(conn, backup, facts, [vectors[f.id] for f in facts], model)
    rest = await restore_rest(conn, backup, deleted)
    return replace(rest, facts=stored)


def restorable(backup: PersonBackup, fresh: set[str], deleted: set[str]) -> list[Fact]:
    """The facts to store: not restored before (the ledger), without deleted messages in their evidence, and none
    that stood on deleted messages alone."""
    out: list[Fact] = []
    for fact in backup.facts:
        evidence = kept_evidence(fact.evidence_message_ids, deleted)
        if ledger_id(fact.id) in fresh and evidence is not None:
            out.append(_with_evidence(fact, evidence))
    return out


def _with_evidence(fact: Fact, evidence: tuple[str, ...]) -> Fact:
    return replace(fact, evidence_message_ids=evidence, evidence_count=len(evidence))


async def deleted_messages(conn: asyncpg.Connection, agent_id: UUID, backup: PersonBackup) -> set[str]:
    """The messages of the backup that the agent was told were deleted (ForgetMessages): they stay deleted."""
    ids = {m for f in backup.facts for m in f.evidence_message_ids}
    ids |= {e.message_id for e in backup.evaluations}
    ids |= {m for r in backup.relationships for m in r.evidence_message_ids}
    ids |= {m for i in backup.identities for m in i.evidence_message_ids}
    ids |= {c.evidence_message_id for c in backup.candidates}
    rows = await conn.fetch(DELETED_AMONG, agent_id, sorted(ids))
    return {r["message_id"] for r in rows}


async def restore_facts(
    conn: asyncpg.Connection, backup: PersonBackup, facts: Sequence[Fact], vectors: Sequence[Vector], model: str
) -> int:
    """Inserts the facts with their ids; returns how many were new."""
    if not facts:
        return 0
    rows = await conn.fetch(
        RESTORE_FACTS,
        backup.agent_id,
        backup.entity_id,
        [f.id for f in facts],
        [f.kind.value for f in facts],
        [f.category for f in facts],
        [f.claim for f in facts],
        [f.structured_fields for f in facts],
        [f.confidence for f in facts],
        [json.dumps(f.evidence_message_ids) for f in facts],  # text: a list in an array would be a dimension
        [f.verification_status.value for f in facts],
        [f.created_at for f in facts],
        [f.last_confirmed_at for f in facts],
        [f.valid_at for f in facts],
        [json.dumps(f.previous_claims) for f in facts],
        [f.archived_at for f in facts],
        vector_array(vectors),
        [model] * len(facts),
        [ledger_id(f.id) for f in facts],
        [" ".join(claim_terms(f.claim)) for f in facts],
    )
    return len(rows)


async def restore_rest(conn: asyncpg.Connection, backup: PersonBackup, deleted: set[str]) -> Restored:
    """History, review items, relationships, identities, evaluations, the name and the shared subject's row."""
    a, e = backup.agent_id, backup.entity_id
    present = {r["id"] for r in await conn.fetch(PRESENT_FACTS, a, e, [f.id for f in backup.facts])}
    await _history(conn, backup, present)
    candidates = 0
    for c in backup.candidates:
        if (c.fact_id is not None and c.fact_id not in present) or c.evidence_message_id in deleted:
            continue
        related = c.related_fact_id if c.related_fact_id in present else None
        status = await conn.execute(
            RESTORE_CANDIDATE, a, e, c.id, c.fact_id, related, c.proposed_claim, c.reason, c.source.value,
            c.evidence_message_id, c.status.value, c.created_at, c.resolved_at, c.resolution, c.resolved_by,
        )  # fmt: skip
        candidates += status.endswith(" 1")
    relationships = 0
    for r in backup.relationships:
        kept = kept_evidence(r.evidence_message_ids, deleted)
        if kept is None and r.evidence_complete:
            continue
        status = await conn.execute(
            RESTORE_RELATIONSHIP, a, r.source_entity_id, r.target_entity_id, list(r.tags), r.interaction_count,
            r.created_at, r.updated_at, list(kept or ()), r.evidence_complete,
        )  # fmt: skip
        relationships += status.endswith(" 1")
    identities = 0
    for i in backup.identities:
        kept = kept_evidence(i.evidence_message_ids, deleted)
        if kept is None and i.evidence_complete:
            continue
        status = await conn.execute(
            RESTORE_IDENTITY, a, e, i.platform, i.handle, i.confidence, i.created_at, i.updated_at,
            list(kept or ()), i.evidence_complete,
        )  # fmt: skip
        identities += status.endswith(" 1")
    evaluations = 0
    for v in backup.evaluations:
        gone = v.message_id in deleted
        status = await conn.execute(
            RESTORE_EVALUATION, a, e, v.message_id, v.room_id, v.result, v.prompt_tokens,
            v.completion_tokens, v.success_completed, v.success_reason, v.created_at,
            None if gone or v.forgotten_at else v.excerpt, v.forgotten_at,
        )  # fmt: skip
        evaluations += status.endswith(" 1")
    if backup.name:
        first = min((f.created_at for f in backup.facts), default=None)
        if first is not None:
            await conn.execute(RESTORE_NAME, a, e, backup.name, first)
    if backup.shared is not None:
        world = backup.shared.world_id
        await conn.execute(RESTORE_SUBJECT, a, e, backup.shared.scope.value, world)
    return Restored(0, candidates, relationships, identities, evaluations)


async def _history(conn: asyncpg.Connection, backup: PersonBackup, present: set[UUID]) -> None:
    """The history of the person's facts as exported, beside the `imported` entries the restore itself writes."""
    rows = [h for h in backup.history if h.fact_id in present]
    if not rows:
        return
    await conn.execute(
        RESTORE_HISTORY,
        backup.agent_id,
        backup.entity_id,
        [h.id for h in rows],
        [h.fact_id for h in rows],
        [h.at for h in rows],
        [h.action.value for h in rows],
        [h.actor for h in rows],
        [h.reason for h in rows],
        [h.before for h in rows],
        [h.after for h in rows],
    )
