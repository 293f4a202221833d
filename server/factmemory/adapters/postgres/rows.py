"""Rows of the facts table: its columns, a row as a domain Fact (or history entry), the one statement that inserts
a fact and the one that deletes it, and how a transaction names the action the history trigger records.

History is recorded one way: the `facts_history` trigger (migration 0004) writes the entry of every change of a
fact, under the action, actor and reason that the changing statement itself names (`mark_cte`: set_config(..., true)
in the statement's own CTE, made where the person's rows are; an import's one statement is marked just before it,
MARK_IMPORT). An event that changes no field of a fact (a contradiction raised, a candidate rejected) has its entry
written by the one statement piece `history_entry`."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from uuid import UUID, uuid4

import asyncpg
from pgvector import Vector as PgVector

from factmemory.domain.language import content_terms
from factmemory.domain.limits import MAX_REASON_CHARS
from factmemory.domain.models import Fact, HistoryAction, HistoryEntry, Kind, Verification
from factmemory.domain.new_fact import NewFact
from factmemory.domain.times import from_storage, optional_from_storage
from factmemory.domain.vectors import Vector

FACT_COLUMNS = """
    id, agent_id, entity_id, kind, category, claim, structured_fields, confidence,
    evidence_message_ids, verification_status, created_at, last_confirmed_at, valid_at, previous_claims, archived_at
"""

# The proposed claim of the newest pending contradiction of a fact (the provider marks the fact disputed). Every
# statement using it is about one person, agent $1 and entity $2: naming them (not facts.entity_id) is what lets
# Citus send the whole statement to the one shard of that person (a correlated reference made it read every shard).
DISPUTED_BY = """
    (SELECT dc.proposed_claim FROM fact_candidates dc
      WHERE dc.agent_id = $1 AND dc.entity_id = $2 AND dc.fact_id = facts.id
        AND dc.status = 'pending' AND dc.source = 'contradict'
      ORDER BY dc.created_at DESC, dc.id DESC LIMIT 1) AS disputed_by
"""


def routed(agent: int = 1, entity: int = 2) -> str:
    """A read of the person's ($agent, $entity) revision, always one row (a count): settings made FROM it are made,
    on Citus, on the worker holding the person, in the transaction the person's triggers then run in (a statement
    naming no table runs on the coordinator, whose settings the worker's triggers do not see)."""
    return f"(SELECT count(*) FROM entity_revisions WHERE agent_id = ${agent} AND entity_id = ${entity}) AS routed"


def _mark(first: int, agent: int, entity: int) -> str:
    """The settings naming the action, actor and reason ($first to $first + 2) the history trigger records, made
    FROM routed (on the person's worker)."""
    return f"""SELECT set_config('factmemory.action', ${first}, true) AS mark_action,
           set_config('factmemory.actor', ${first + 1}, true) AS mark_actor,
           set_config('factmemory.reason', ${first + 2}, true) AS mark_reason
      FROM {routed(agent, entity)}"""


def mark_cte(first: int, agent: int = 1, entity: int = 2) -> str:
    """`mark`, a CTE naming the history mark ($first to $first + 2), for a statement about the person ($agent,
    $entity) that reads it (FROM mark / USING mark): the mark and the change in one round trip."""
    return f"mark AS MATERIALIZED (\n    {_mark(first, agent, entity)})"


# The mark as a statement of its own, only for an import: its one INSERT ... SELECT FROM unnest is planned through
# the coordinator on Citus, so the mark is made on the person's worker just before it ($4, $5 the person).
MARK_IMPORT = _mark(1, 4, 5)


_COLUMNS = """id, agent_id, entity_id, kind, category, claim, structured_fields, confidence,
                   evidence_message_ids, verification_status, created_at, last_confirmed_at, valid_at,
                   embedding, embedding_model, import_source_id, lexemes"""
_INSERT_COLUMNS = f"""
INSERT INTO facts ({_COLUMNS})"""

# The one statement that inserts a fact (Evaluate, a reviewer), with its content terms ($16, the language layer's:
# the claim's and its source's), its search vector and source terms ($17, $18: migration 0072; a NULL vector is the
# claim's) and its history mark ($19 to $21).
INSERT_FACT = f"""
WITH {mark_cte(19, agent=2, entity=3)}
INSERT INTO facts ({_COLUMNS}, search_half, source_terms)
SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12, $13, $14, $15, $16, $17::vector::halfvec, $18
  FROM mark
RETURNING {FACT_COLUMNS}
"""

# Imports (marked once per transaction): a source id already imported for this (agent, entity) is skipped.
# All of one import in ONE statement: the per-statement triggers (stem counts, read positions) then run once. One
# statement per fact would update the same entity_lexemes rows once per fact in one transaction, and each update
# walks the versions the earlier ones left (quadratic: 1,200 facts took ~10 s).
IMPORT_FACTS = f"""{_INSERT_COLUMNS}
SELECT u.id, $1, $2, u.kind, u.category, u.claim, u.fields, u.confidence, ARRAY[u.message_id], u.verification,
       u.at, u.at, u.valid_at, u.embedding, u.model, u.source, string_to_array(u.terms, ' ')
  FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[], $7::jsonb[], $8::float8[], $9::text[], $10::text[],
              $11::timestamptz[], $12::timestamptz[], $13::vector[], $14::text[], $15::text[], $16::text[])
       AS u(id, kind, category, claim, fields, confidence, message_id, verification, at, valid_at, embedding, model,
            source, terms)
ON CONFLICT (agent_id, entity_id, import_source_id) WHERE import_source_id IS NOT NULL DO NOTHING
"""

IMPORTED_IDS = """
SELECT import_source_id FROM facts WHERE agent_id = $1 AND entity_id = $2 AND import_source_id = ANY ($3::text[])
"""

# The one statement that deletes a fact, with its history mark ($4 to $6).
DELETE_FACT = f"""
WITH {mark_cte(4)}
DELETE FROM facts USING mark WHERE agent_id = $1 AND entity_id = $2 AND id = $3
"""

# A fact's history snapshot from its columns (migration 0060): a statement on a Citus shard sees the shard's row type.
SNAPSHOT = "factmemory_snapshot(f.claim, f.category, f.kind, f.confidence, f.verification_status, f.archived_at)"


def history_entry(first: int, agent: int = 1, entity: int = 2, fact: int = 3, joined: str = "") -> str:
    """The one statement piece writing a history entry itself, for an event that changes no field of the fact
    ($agent, $entity, $fact): the action, actor and reason at $first to $first + 2 (mark_values), the fact as it is
    as both before and after; none when the fact is gone (or `joined`, a CTE read beside it, has no row)."""
    also = f", {joined}" if joined else ""
    return f"""INSERT INTO fact_history (agent_id, entity_id, fact_id, action, actor, reason, before, after)
    SELECT f.agent_id, f.entity_id, f.id, ${first}, ${first + 1}, ${first + 2},
           {SNAPSHOT} AS before, {SNAPSHOT} AS after
      FROM facts f{also}
     WHERE f.agent_id = ${agent} AND f.entity_id = ${entity} AND f.id = ${fact}"""


RECORD = history_entry(4)

RECORD_NAME = """
INSERT INTO entities (agent_id, entity_id, name, first_seen_at, last_seen_at) VALUES ($1, $2, $3, $4, $4)
ON CONFLICT (agent_id, entity_id) DO UPDATE
   SET name = CASE WHEN EXCLUDED.last_seen_at >= entities.last_seen_at THEN EXCLUDED.name ELSE entities.name END,
       last_seen_at = GREATEST(entities.last_seen_at, EXCLUDED.last_seen_at)
"""


def one(row: asyncpg.Record | None) -> asyncpg.Record:
    """The row of a statement that always returns one (INSERT ... RETURNING, an upsert, a row read under the lock)."""
    if row is None:
        raise RuntimeError("a statement that returns one row returned none")
    return row


# The columns' values as the domain's enums: a dict lookup is ~10x cheaper than calling the enum (Provide builds ~60
# facts a call); the CHECK constraints hold that every stored value is one of them.
_KINDS = {kind.value: kind for kind in Kind}
_VERIFICATIONS = {status.value: status for status in Verification}


def row_to_fact(row: asyncpg.Record, prefix: str = "") -> Fact:
    """A facts row (or the prefixed columns of a join) as a domain Fact (a plain dataclass: the columns' types and
    CHECK constraints already hold what its fields demand)."""
    fields = row[prefix + "structured_fields"]
    evidence = tuple(row[prefix + "evidence_message_ids"])
    return Fact(
        id=row[prefix + "id"],
        agent_id=row[prefix + "agent_id"],
        entity_id=row[prefix + "entity_id"],
        kind=_KINDS[row[prefix + "kind"]],
        category=row[prefix + "category"],
        claim=row[prefix + "claim"],
        structured_fields=_fields(fields),
        confidence=row[prefix + "confidence"],
        evidence_message_ids=evidence,
        evidence_count=len(evidence),
        verification_status=_VERIFICATIONS[row[prefix + "verification_status"]],
        created_at=from_storage(row[prefix + "created_at"]),
        last_confirmed_at=from_storage(row[prefix + "last_confirmed_at"]),
        valid_at=optional_from_storage(row[prefix + "valid_at"]),
        previous_claims=tuple(row[prefix + "previous_claims"]),
        disputed_by="" if prefix else (row.get("disputed_by") or ""),
        archived_at=None if prefix else optional_from_storage(row["archived_at"]),
    )


def _fields(value: str | Mapping[str, object]) -> dict[str, object]:
    """structured_fields as asyncpg returns jsonb (text: no codec is set), most often empty."""
    if value == "{}":
        return {}
    return json.loads(value) if isinstance(value, str) else dict(value)


def row_to_history(row: asyncpg.Record) -> HistoryEntry:
    return HistoryEntry(
        id=row["id"],
        fact_id=row["fact_id"],
        at=row["at"],
        action=HistoryAction(row["action"]),
        actor=row["actor"],
        reason=row["reason"],
        before=_json(row["before"]),
        after=_json(row["after"]),
    )


def _json(value: str | Mapping[str, object] | None) -> dict[str, object] | None:
    """A jsonb value as asyncpg returns it: text (no codec set), or already a mapping."""
    if value is None:
        return None
    return dict(json.loads(value) if isinstance(value, str) else value)


def fact_values(agent_id: UUID, entity_id: UUID, new: NewFact) -> tuple[object, ...]:
    """The parameters of INSERT_FACT for one new fact ($1 to $18)."""
    return (
        uuid4(),
        agent_id,
        entity_id,
        new.kind.value,
        new.category,
        new.claim,
        new.structured_fields,
        new.confidence,
        [new.message_id],
        new.verification.value,
        new.at,
        new.valid_at,
        new.embedding,
        new.embedding_model,
        new.import_source_id,
        [*claim_terms(new.claim), *new.source_terms],
        new.search_embedding,
        list(new.source_terms),
    )


def claim_terms(claim: str) -> list[str]:
    """A claim's distinct content terms (the language layer), kept in `facts.lexemes` for the lexical evidence."""
    return list(content_terms(claim))


def vector_array(vectors: Iterable[Vector]) -> list[PgVector]:
    """Vectors as one array parameter (`$n::vector[]`): each wrapped as a pgvector value, since asyncpg would take
    a bare numpy vector for one more dimension of the array."""
    return [PgVector(v) for v in vectors]


def import_values(agent_id: UUID, entity_id: UUID, facts: Sequence[NewFact]) -> tuple[object, ...]:
    """The parameters of IMPORT_FACTS: the scope, then one array per column (in fact_values' order)."""
    return (
        agent_id,
        entity_id,
        [uuid4() for _ in facts],
        [f.kind.value for f in facts],
        [f.category for f in facts],
        [f.claim for f in facts],
        [f.structured_fields for f in facts],
        [f.confidence for f in facts],
        [f.message_id for f in facts],
        [f.verification.value for f in facts],
        [f.at for f in facts],
        [f.valid_at for f in facts],
        vector_array(f.embedding for f in facts),
        [f.embedding_model for f in facts],
        [f.import_source_id for f in facts],
        [" ".join(claim_terms(f.claim)) for f in facts],  # terms are \w+ words: a space never occurs in one
    )


def mark_values(action: HistoryAction, actor: str, reason: str = "") -> tuple[str, str, str]:
    """The parameters of mark_cte, MARK_IMPORT and history_entry: the action, actor and bounded reason."""
    return action.value, actor, reason[:MAX_REASON_CHARS]
