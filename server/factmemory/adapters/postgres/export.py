"""An entity's export, a page at a time: each list in a fixed order after the key of the last item sent, as
JSON-ready items."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

import asyncpg
from pydantic import TypeAdapter

from factmemory.adapters.postgres.rows import FACT_COLUMNS, row_to_fact, row_to_history
from factmemory.domain.models import Fact
from factmemory.domain.times import from_storage

# Export pages: each list in a fixed order, after the key ($3, $4) of the last item sent ($3 NULL: from the start).
EXPORT_FACTS = f"""
SELECT {FACT_COLUMNS}, embedding_model FROM facts
 WHERE agent_id = $1 AND entity_id = $2
   AND ($3::timestamptz IS NULL OR (created_at, id) > ($3::timestamptz, $4::uuid))
 ORDER BY created_at, id
 LIMIT $5
"""
EXPORT_CANDIDATES = """
SELECT c.id, c.agent_id, c.entity_id, c.fact_id, c.related_fact_id, c.proposed_claim, c.reason, c.source,
       c.evidence_message_id, c.status, c.created_at, c.resolved_at, c.resolution, c.resolved_by
  FROM fact_candidates c
 WHERE c.agent_id = $1 AND c.entity_id = $2
   AND ($3::timestamptz IS NULL OR (c.created_at, c.id) > ($3::timestamptz, $4::uuid))
 ORDER BY c.created_at, c.id
 LIMIT $5
"""
EXPORT_RELATIONSHIPS = """
SELECT source_entity_id, target_entity_id, tags, interaction_count, created_at, updated_at, evidence_message_ids,
       evidence_complete
  FROM relationships
 WHERE agent_id = $1 AND (source_entity_id = $2 OR target_entity_id = $2)
   AND ($3::uuid IS NULL OR (source_entity_id, target_entity_id) > ($3::uuid, $4::uuid))
 ORDER BY source_entity_id, target_entity_id
 LIMIT $5
"""
EXPORT_IDENTITIES = """
SELECT platform, handle, confidence, created_at, updated_at, evidence_message_ids, evidence_complete FROM identities
 WHERE agent_id = $1 AND entity_id = $2
   AND ($3::text IS NULL OR (platform, handle) > ($3::text, $4::text))
 ORDER BY platform, handle
 LIMIT $5
"""
EXPORT_EVALUATIONS = """
SELECT message_id, room_id, result, prompt_tokens, completion_tokens, success_completed, success_reason, created_at,
       excerpt, forgotten_at
  FROM evaluations
 WHERE agent_id = $1 AND entity_id = $2
   AND ($3::timestamptz IS NULL OR (created_at, message_id) > ($3::timestamptz, $4::text))
 ORDER BY created_at, message_id
 LIMIT $5
"""
EXPORT_HISTORY = """
SELECT id, fact_id, at, action, actor, reason, before, after FROM fact_history
 WHERE agent_id = $1 AND entity_id = $2
   AND ($3::timestamptz IS NULL OR (at, id) > ($3::timestamptz, $4::uuid))
 ORDER BY at, id
 LIMIT $5
"""
EXPORT_PAIRS = """
SELECT fact_id, other_fact_id, similarity, reason, evidence_message_id, status, created_at, closed_at
  FROM possible_duplicates
 WHERE agent_id = $1 AND entity_id = $2
   AND ($3::uuid IS NULL OR (fact_id, other_fact_id) > ($3::uuid, $4::uuid))
 ORDER BY fact_id, other_fact_id
 LIMIT $5
"""
EXPORT_BY_SECTION = {
    "facts": EXPORT_FACTS,
    "candidates": EXPORT_CANDIDATES,
    "relationships": EXPORT_RELATIONSHIPS,
    "identities": EXPORT_IDENTITIES,
    "evaluations": EXPORT_EVALUATIONS,
    "history": EXPORT_HISTORY,
    "possible_duplicates": EXPORT_PAIRS,
}


async def export_rows(
    conn: asyncpg.Connection, agent_id: UUID, entity_id: UUID, section: str, after: tuple[str, str] | None, limit: int
) -> list[tuple[dict[str, object], tuple[str, str]]]:
    """Up to limit items of one export list after the key `after`, JSON-ready, each with its key."""
    first, second = after if after is not None else (None, None)
    rows = await conn.fetch(
        EXPORT_BY_SECTION[section], agent_id, entity_id, _typed(section, first), _typed_second(section, second), limit
    )
    return [(_export_item(section, r), _export_key(section, r)) for r in rows]


def _typed(section: str, value: str | None) -> object:
    if value is None:
        return None
    if section in ("facts", "candidates", "evaluations", "history"):
        return datetime.fromisoformat(value)
    return UUID(value) if section in ("relationships", "possible_duplicates") else value


def _typed_second(section: str, value: str | None) -> object:
    if value is None:
        return None
    return (
        UUID(value) if section in ("facts", "candidates", "relationships", "history", "possible_duplicates") else value
    )


FACT_JSON = TypeAdapter(Fact)  # a fact as JSON, as a model's fields are dumped


def _export_item(section: str, row: asyncpg.Record) -> dict[str, object]:
    if section == "facts":
        fact: dict[str, object] = FACT_JSON.dump_python(row_to_fact(row), mode="json")
        return fact | {"embedding_model": row["embedding_model"]}
    if section == "history":
        return row_to_history(row).model_dump(mode="json")
    return _jsonable(dict(row))


def _export_key(section: str, row: asyncpg.Record) -> tuple[str, str]:
    if section == "facts" or section == "candidates":
        return from_storage(row["created_at"]).isoformat(), str(row["id"])
    if section == "relationships":
        return str(row["source_entity_id"]), str(row["target_entity_id"])
    if section == "identities":
        return str(row["platform"]), str(row["handle"])
    if section == "history":
        return from_storage(row["at"]).isoformat(), str(row["id"])
    if section == "possible_duplicates":
        return str(row["fact_id"]), str(row["other_fact_id"])
    return from_storage(row["created_at"]).isoformat(), str(row["message_id"])


def _jsonable(row: dict[str, object]) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in row.items():
        if isinstance(value, UUID):
            out[key] = str(value)
        elif isinstance(value, datetime):
            out[key] = value.isoformat()
        elif isinstance(value, list | tuple):
            out[key] = [str(v) for v in value]
        else:
            out[key] = value
    return out
