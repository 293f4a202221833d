"""Reads the facts elizaOS stored before FactMemory: plugin-sql `memories` rows of type 'facts'.

plugin-sql keeps one row per memory: id, type, content (JSON with `text`), entityId, agentId, roomId and
createdAt; older schemas name the speaker userId and newer ones use snake_case columns. Both a JSON export (a
list of memories, {"memories": [...]}, or JSON lines) and a live database are read through one parser."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple
from uuid import UUID

import asyncpg

from factmemory.domain import times
from factmemory.domain.models import LegacyFact
from factmemory.domain.text import one_line

FACTS_TYPE = "facts"
MAX_TEXT_CHARS = 500

# to_jsonb keeps each row's own column names, whichever plugin-sql version created the table.
SELECT_FACT_MEMORIES = """
SELECT to_jsonb(m) AS memory FROM memories m WHERE m.type = 'facts'
"""


def _field(record: Mapping[str, Any], *names: str) -> Any:
    for name in names:
        if record.get(name) not in (None, ""):
            return record[name]
    return None


def _uuid(value: Any) -> UUID | None:
    try:
        return UUID(str(value))
    except ValueError:
        return None


def _time(value: Any) -> datetime | None:
    """A time the imported fact may take (see domain/times.py): None when unreadable or out of range; a time
    from the future is taken as now."""
    parsed = _raw_time(value)
    if parsed is None or not times.in_range(parsed):
        return None
    return times.not_after(parsed, datetime.now(UTC), 0)


def _raw_time(value: Any) -> datetime | None:
    """elizaOS writes epoch milliseconds in JSON and timestamps in the database."""
    try:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return datetime.fromtimestamp(value / 1000 if value > 1e11 else value, tz=UTC)
        if isinstance(value, str):
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
            return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    except (ValueError, OverflowError, OSError):
        return None
    return None


def parse_memory(record: Mapping[str, Any]) -> LegacyFact | None:
    """One memory as a fact to import; None when it is not a usable fact (wrong type, no text, no ids)."""
    read = read_memory(record)
    return read if isinstance(read, LegacyFact) else None


def read_memory(record: Any) -> LegacyFact | str:
    """One memory as a fact to import, or why it is not one (a short reason naming the missing field)."""
    if not isinstance(record, Mapping):
        return f"not a memory object but {type(record).__name__}"
    kind = record.get("type")
    if kind is not None and kind != FACTS_TYPE:
        return f"type is {str(kind)[:40]!r}, not 'facts'"
    content = record.get("content")
    if isinstance(content, str):
        try:
            content = json.loads(content)
        except ValueError:
            content = {"text": content}
    text = one_line(str(content.get("text", ""))) if isinstance(content, Mapping) else ""
    source_id = _field(record, "id")
    agent_id = _uuid(_field(record, "agentId", "agent_id"))
    entity_id = _uuid(_field(record, "entityId", "entity_id", "userId", "user_id"))
    if not text or source_id is None or agent_id is None or entity_id is None:
        fields = (("content.text", text), ("id", source_id), ("agentId", agent_id), ("entityId", entity_id))
        return "no usable " + ", ".join(name for name, value in fields if not value) + " (ids are UUIDs)"
    if len(text) > MAX_TEXT_CHARS:
        return f"content.text is longer than {MAX_TEXT_CHARS} characters"
    room = _field(record, "roomId", "room_id")
    return LegacyFact(
        source_id=str(source_id),
        agent_id=agent_id,
        entity_id=entity_id,
        room_id=None if room is None else _uuid(room),
        text=text,
        created_at=_time(_field(record, "createdAt", "created_at")) or datetime.now(UTC),
    )


def records_of(document: Any) -> Iterable[Any]:
    """The records of a parsed JSON export: a list, {"memories": [...]}, or one memory."""
    if isinstance(document, Mapping):
        return document.get("memories") or document.get("facts") or [document]
    return document if isinstance(document, list) else []


def looks_like_memories(records: Iterable[Any]) -> bool:
    """Whether the records look like elizaOS memories of some type (objects with `content` and an id)."""
    return any(isinstance(r, Mapping) and "content" in r and ("id" in r or "type" in r) for r in records)


def read_json(path: Path) -> Iterator[Mapping[str, Any] | Any]:
    """The memories of a JSON export: a list, {"memories": [...]}, or one memory per line."""
    text = path.read_text(encoding="utf-8")
    try:
        yield from records_of(json.loads(text))
    except json.JSONDecodeError:
        for line in text.splitlines():
            if line.strip():
                yield json.loads(line)


async def read_postgres(url: str) -> list[Mapping[str, Any]]:
    """Every `facts` memory of an elizaOS PostgreSQL database (read-only)."""
    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction(readonly=True):
            rows = await conn.fetch(SELECT_FACT_MEMORIES)
    finally:
        await conn.close()
    return [json.loads(r["memory"]) if isinstance(r["memory"], str) else r["memory"] for r in rows]


class Parsed(NamedTuple):
    """The usable facts of an export, how many records were skipped, and why the first skipped one was."""

    facts: list[LegacyFact]
    skipped: int
    first_skip: str


def parse_all(records: Iterable[Any]) -> Parsed:
    """The usable facts, how many records were skipped, and the first skip's record number and reason."""
    facts: list[LegacyFact] = []
    skipped, first_skip = 0, ""
    for number, record in enumerate(records, 1):
        read = read_memory(record)
        if isinstance(read, LegacyFact):
            facts.append(read)
            continue
        skipped += 1
        first_skip = first_skip or f"record {number}: {read}"
    return Parsed(facts, skipped, first_skip)
