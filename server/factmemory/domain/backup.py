"""FactMemory's own export read back: the document `factmemory export` writes (one person, or a whole agent) as
what a restore stores, and which of the formats `factmemory import` reads a file looks like. Pure.

A person's export is one JSON object: `format`, `agent_id`, `entity_id`, `name`, `forget_epoch` (how many times
the agent had forgotten the person when it was written), `shared` (a shared subject's scope and world, or null),
and one list per section (EXPORT_SECTIONS). An agent's export wraps the people: `format`, `agent_id`, `name`,
`people: [...]`. A restore keeps every id, so a second import of the same file stores nothing again."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, TypeVar
from uuid import UUID

from pydantic import Field, TypeAdapter, ValidationError

from factmemory.domain.errors import InvalidInput
from factmemory.domain.limits import MAX_RESTORED_NAME_CHARS as MAX_NAME_CHARS
from factmemory.domain.limits import MAX_RESTORED_TEXT as MAX_TEXT
from factmemory.domain.models import CandidateSource, CandidateStatus, Fact, Frozen, HistoryEntry
from factmemory.domain.shared import Scope, SharedSubject, agent_subject, held_subject, world_subject

PERSON_FORMAT = "factmemory-export"
AGENT_FORMAT = "factmemory-agent-export"
# The ledger key of a restored fact (import_ledger, per agent): its id, told apart from elizaOS memory ids.
LEDGER_PREFIX = "factmemory-fact:"
# What `factmemory import` reads, named in its errors.
FORMATS = (
    "a FactMemory export (`factmemory export AGENT [PERSON]`)",
    'elizaOS fact memories (a JSON list, {"memories": [...]}, or JSON lines)',
)
T = TypeVar("T")


class CandidateRow(Frozen):
    id: UUID
    fact_id: UUID | None = None
    related_fact_id: UUID | None = None
    proposed_claim: str = Field(max_length=MAX_TEXT)
    reason: str = Field(default="", max_length=MAX_TEXT)
    source: CandidateSource
    evidence_message_id: str = Field(max_length=500)
    status: CandidateStatus
    created_at: datetime
    resolved_at: datetime | None = None
    resolution: str | None = None
    resolved_by: str | None = None


class RelationshipRow(Frozen):
    source_entity_id: UUID
    target_entity_id: UUID
    tags: tuple[str, ...] = ()
    interaction_count: int = Field(default=1, ge=0)
    created_at: datetime
    updated_at: datetime
    evidence_message_ids: tuple[str, ...] = ()
    evidence_complete: bool = False


class IdentityRow(Frozen):
    platform: str = Field(max_length=200)
    handle: str = Field(max_length=500)
    confidence: float = Field(ge=0, le=1)
    created_at: datetime
    updated_at: datetime
    evidence_message_ids: tuple[str, ...] = ()
    evidence_complete: bool = False


class EvaluationRow(Frozen):
    message_id: str = Field(max_length=500)
    room_id: UUID | None = None
    result: dict[str, Any]
    prompt_tokens: int = 0
    completion_tokens: int = 0
    success_completed: bool | None = None
    success_reason: str | None = None
    created_at: datetime
    excerpt: str | None = Field(default=None, max_length=1000)
    forgotten_at: datetime | None = None


@dataclass(frozen=True)
class PersonBackup:
    """One person's (or one shared subject's) export, validated: what a restore stores, ids kept."""

    agent_id: UUID
    entity_id: UUID
    name: str
    forget_epoch: int
    # The name the agent had registered where it was exported ("" when none): a database that has not met the agent
    # learns it with the restore.
    agent_name: str
    shared: SharedSubject | None
    facts: tuple[Fact, ...]
    history: tuple[HistoryEntry, ...]
    candidates: tuple[CandidateRow, ...]
    relationships: tuple[RelationshipRow, ...]
    identities: tuple[IdentityRow, ...]
    evaluations: tuple[EvaluationRow, ...]


@dataclass(frozen=True)
class Restored:
    """What one person's restore stored (rows already there are not counted)."""

    facts: int = 0
    candidates: int = 0
    relationships: int = 0
    identities: int = 0
    evaluations: int = 0


_FACTS = TypeAdapter(list[Fact])
_HISTORY = TypeAdapter(list[HistoryEntry])
_CANDIDATES = TypeAdapter(list[CandidateRow])
_RELATIONSHIPS = TypeAdapter(list[RelationshipRow])
_IDENTITIES = TypeAdapter(list[IdentityRow])
_EVALUATIONS = TypeAdapter(list[EvaluationRow])


def looks_like(document: Any) -> str:
    """Which format a JSON document looks like: 'person', 'agent', or 'elizaos' (anything else: the elizaOS
    reader says why its records are not memories)."""
    if isinstance(document, Mapping):
        if document.get("format") == AGENT_FORMAT or ("agent_id" in document and "people" in document):
            return "agent"
        if document.get("format") == PERSON_FORMAT or ("entity_id" in document and "facts" in document):
            return "person"
    return "elizaos"


def describe(document: Any) -> str:
    """What a document that is none of the formats looks like, in a few words."""
    if isinstance(document, Mapping):
        keys = ", ".join(sorted(str(k) for k in document)[:8])
        return f"a JSON object with the keys {keys or '(none)'}"
    if isinstance(document, list):
        return f"a JSON list of {len(document)} item{'' if len(document) == 1 else 's'}"
    return f"a JSON {type(document).__name__}"


def read_backup(document: Mapping[str, Any]) -> list[PersonBackup]:
    """The people of a FactMemory export (one person's or an agent's); InvalidInput names the first flaw."""
    if looks_like(document) == "agent":
        people = document.get("people")
        if not isinstance(people, list):
            raise InvalidInput("an agent's export needs a list `people`")
        named = str(document.get("name") or "")
        return [_person(p, f"people[{n}]", named) for n, p in enumerate(people)]
    return [_person(document, "", str(document.get("agent_name") or ""))]


def _person(item: Any, where: str, agent_name: str) -> PersonBackup:
    at = f"{where}: " if where else ""
    if not isinstance(item, Mapping):
        raise InvalidInput(f"{at}a person's export is a JSON object")
    try:
        agent_id, entity_id = UUID(str(item.get("agent_id"))), UUID(str(item.get("entity_id")))
    except ValueError:
        raise InvalidInput(f"{at}agent_id and entity_id must be UUIDs") from None
    try:
        backup = PersonBackup(
            agent_id=agent_id,
            entity_id=entity_id,
            name=" ".join(str(item.get("name") or "").split())[:MAX_NAME_CHARS],
            forget_epoch=int(item.get("forget_epoch") or 0),
            agent_name=" ".join(agent_name.split())[:MAX_NAME_CHARS],
            shared=_shared(item.get("shared"), entity_id),
            facts=_section(item, "facts", _FACTS),
            history=_section(item, "history", _HISTORY),
            candidates=_section(item, "candidates", _CANDIDATES),
            relationships=_section(item, "relationships", _RELATIONSHIPS),
            identities=_section(item, "identities", _IDENTITIES),
            evaluations=_section(item, "evaluations", _EVALUATIONS),
        )
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"{at}{' '.join(str(exc).split())}") from None
    _check_scope(backup, at)
    return backup


def _shared(value: Any, subject_id: UUID) -> SharedSubject | None:
    if not isinstance(value, Mapping):
        return None
    world = value.get("world_id")
    return SharedSubject(subject_id, Scope(str(value.get("scope"))), UUID(str(world)) if world else None)


def _check_scope(backup: PersonBackup, at: str) -> None:
    for fact in backup.facts:
        if (fact.agent_id, fact.entity_id) != (backup.agent_id, backup.entity_id):
            raise InvalidInput(f"{at}fact {fact.id} belongs to another agent or person than the export")
        if len(fact.claim) > MAX_TEXT:
            raise InvalidInput(f"{at}fact {fact.id}: its claim is longer than {MAX_TEXT} characters")


def _section(item: Mapping[str, Any], name: str, adapter: TypeAdapter[list[T]]) -> tuple[T, ...]:
    """One list of the export, validated; the first flaw as `name.index.field: what is wrong`."""
    try:
        return tuple(adapter.validate_python(item.get(name) or []))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in (name, *first["loc"]))
        raise InvalidInput(f"{where}: {first['msg']}") from None


def moved(backup: PersonBackup, agent_id: UUID) -> PersonBackup:
    """The backup as it is restored into `agent_id`: a shared subject's id is the target agent's own (its id is
    derived from the agent); a person's facts and rows keep their ids, scoped by the new agent."""
    if agent_id == backup.agent_id:
        return backup
    shared = backup.shared
    subject = backup.entity_id
    if shared is not None:
        shared = _subject_for(agent_id, shared)
        subject = shared.subject_id
    return replace(
        backup,
        agent_id=agent_id,
        agent_name="",  # the other agent's name is not this one's
        entity_id=subject,
        forget_epoch=0,  # the count was the other agent's: any forget by this one keeps the person out
        shared=shared,
        facts=tuple(replace(f, agent_id=agent_id, entity_id=subject) for f in backup.facts),
    )


def _subject_for(agent_id: UUID, shared: SharedSubject) -> SharedSubject:
    if shared.scope is Scope.AGENT or shared.world_id is None:
        return agent_subject(agent_id)
    if shared.scope is Scope.HELD:
        return held_subject(agent_id, shared.world_id)
    return world_subject(agent_id, shared.world_id)


def forgotten_since(target_epoch: int, backup: PersonBackup) -> bool:
    """The agent forgot the person after the export was written (its forget count is higher now): a restore would
    bring back what they asked to erase, so it stores nothing unless the operator says so (--restore-forgotten)."""
    return target_epoch > backup.forget_epoch


def kept_evidence(evidence: Sequence[str], deleted: set[str]) -> tuple[str, ...] | None:
    """A row's evidence without deleted messages; None when it stood on deleted messages alone (not restored)."""
    kept = tuple(e for e in evidence if e not in deleted)
    return None if evidence and not kept else kept


def ledger_id(fact_id: UUID) -> str:
    return f"{LEDGER_PREFIX}{fact_id}"
