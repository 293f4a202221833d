"""Browsing and erasure: listing facts, candidates and entities, a fact with its history, forgetting an entity and
exporting it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from factmemory.domain.backup import PERSON_FORMAT
from factmemory.domain.errors import NotFound
from factmemory.domain.excerpts import EvidenceSource, best_sentence
from factmemory.domain.limits import MAX_RESTORED_NAME_CHARS
from factmemory.domain.models import (
    Candidate,
    CandidateSource,
    CandidateStatus,
    EntitySummary,
    Fact,
    ForgetCounts,
    HistoryEntry,
    Kind,
)
from factmemory.domain.paging import EXPORT_SECTIONS, PAGE_OVERHEAD_BYTES, ExportPosition, fitting, json_bytes
from factmemory.domain.resolutions import (
    decode_position,
    encode_position,
    evidence_ids,
    search_pattern,
)
from factmemory.domain.shared import HeldClaim
from factmemory.usecases.deps import Deps, utc_now
from factmemory.usecases.forget_messages import unlearn_teacher

# Rows read per query while filling an export page; the command line's export joins pages of this many bytes.
EXPORT_CHUNK = 200
EXPORT_ALL_BYTES = 16 * 1024 * 1024


async def list_facts(
    deps: Deps, agent_id: UUID, entity_id: UUID, kind: Kind | None, after: UUID | None, page_size: int
) -> tuple[list[Fact], UUID | None]:
    """One page ordered by id, and the id to continue after (None on the last page)."""
    facts = await deps.browse_store.list_facts(agent_id, entity_id, kind, after, page_size + 1)
    if len(facts) > page_size:
        return facts[:page_size], facts[page_size - 1].id
    return facts, None


async def get_fact(deps: Deps, agent_id: UUID, entity_id: UUID, fact_id: UUID) -> tuple[Fact, list[HistoryEntry]]:
    """A fact with its history, oldest first."""
    fact = await deps.browse_store.get_fact(agent_id, entity_id, fact_id, replica_ok=True)
    if fact is None:
        raise NotFound(f"fact {fact_id} not found for this agent and entity")
    return fact, await deps.browse_store.fact_history(agent_id, entity_id, fact_id)


async def evidence_sources(
    deps: Deps, agent_id: UUID, fact: Fact, history: Sequence[HistoryEntry]
) -> dict[str, EvidenceSource]:
    """The kept excerpt of each message behind a fact (its evidence and the messages its history names)."""
    ids = list(dict.fromkeys([*fact.evidence_message_ids, *evidence_ids(history)]))
    if not ids:
        return {}
    found = await deps.browse_store.evidence_sources(agent_id, fact.entity_id, ids)
    if not found:  # a shared fact: its messages are its teachers' (provenance, docs/shared-facts.md)
        found = await deps.browse_store.teaching_sources(agent_id, fact.entity_id, ids)
    return {s.message_id: s for s in found}


async def candidate_sources(deps: Deps, agent_id: UUID, candidates: Sequence[Candidate]) -> dict[str, EvidenceSource]:
    """The kept excerpt of the message behind each review item (one read per person in the list)."""
    wanted: dict[UUID, list[str]] = {}
    for c in candidates:
        if c.evidence_message_id:
            wanted.setdefault(c.entity_id, []).append(c.evidence_message_id)
    found: dict[str, EvidenceSource] = {}
    for entity_id, ids in wanted.items():
        found.update({s.message_id: s for s in await deps.browse_store.evidence_sources(agent_id, entity_id, ids)})
    return found


async def held_claims(deps: Deps, agent_id: UUID, candidates: Sequence[Candidate]) -> dict[UUID, HeldClaim]:
    """Each held claim's world, who said it and the sentence of theirs that carries it (docs/shared-facts.md)."""
    held = [c for c in candidates if c.source is CandidateSource.SHARED_CLAIM]
    if not held:
        return {}
    found = await deps.browse_store.claim_sources(agent_id, [c.evidence_message_id for c in held])
    sources = {s.message_id: s for s in found}
    worlds: dict[UUID, UUID | None] = {}
    for entity_id in {c.entity_id for c in held}:
        subject = await deps.browse_store.shared_subject(agent_id, entity_id)
        worlds[entity_id] = None if subject is None else subject.world_id
    out: dict[UUID, HeldClaim] = {}
    for c in held:
        source = sources.get(c.evidence_message_id)
        sentence = best_sentence(source.excerpt, [c.proposed_claim]) if source is not None else ""
        out[c.id] = HeldClaim(worlds[c.entity_id], source, sentence)
    return out


async def fact_history(deps: Deps, agent_id: UUID, entity_id: UUID, fact_id: UUID) -> list[HistoryEntry]:
    """The history of a fact, also after it was deleted (until the entity is forgotten)."""
    history = await deps.browse_store.fact_history(agent_id, entity_id, fact_id)
    if not history:
        raise NotFound(f"fact {fact_id} not found for this agent and entity")
    return history


async def list_candidates(
    deps: Deps,
    agent_id: UUID,
    entity_id: UUID | None,
    status: CandidateStatus | None,
    source: CandidateSource | None,
    page_token: str,
    page_size: int,
) -> tuple[list[Candidate], str]:
    """The review queue of an agent (or one entity), oldest first; the token of the next page ("" = last)."""
    found = await deps.browse_store.list_candidates(
        agent_id, entity_id, status, source, decode_position(page_token), page_size + 1
    )
    if len(found) <= page_size:
        return found, ""
    last = found[page_size - 1]
    return found[:page_size], encode_position(last.created_at, last.id)


async def list_entities(
    deps: Deps, agent_id: UUID, query: str, page_token: str, page_size: int
) -> tuple[list[EntitySummary], str]:
    """An agent's entities, most recent activity first; query matches an entity id prefix or a name."""
    found = await deps.browse_store.list_entities(
        agent_id, search_pattern(query), decode_position(page_token), page_size + 1
    )
    if len(found) <= page_size:
        return found, ""
    last = found[page_size - 1]
    assert last.last_activity is not None  # every listed entity has stored something
    return found[:page_size], encode_position(last.last_activity, last.entity_id)


async def forget_entity(deps: Deps, agent_id: UUID, entity_id: UUID) -> ForgetCounts:
    """Erases the entity; first, as a teacher, their messages leave the shared facts (unlearn_teacher)."""
    taught = await unlearn_teacher(deps, agent_id, entity_id, utc_now())
    counts = await deps.bulk_store.forget_entity(agent_id, entity_id)
    return counts.model_copy(
        update={
            "facts": counts.facts + taught.facts_deleted,
            "candidates": counts.candidates + taught.candidates_closed,
        }
    )


async def export_page(
    deps: Deps, agent_id: UUID, entity_id: UUID, start: ExportPosition | None, budget_bytes: int
) -> tuple[dict[str, Any], ExportPosition | None]:
    """The export from start on, as much as fits in budget_bytes of JSON; and where the next page starts."""
    page: dict[str, Any] = {
        **(await _export_header(deps, agent_id, entity_id) if start is None else {}),
        "agent_id": str(agent_id),
        "entity_id": str(entity_id),
        **{section: [] for section in EXPORT_SECTIONS},
    }
    start = start or ExportPosition(next(iter(EXPORT_SECTIONS)))
    sections = list(EXPORT_SECTIONS)
    budget = budget_bytes - PAGE_OVERHEAD_BYTES
    for section in sections[sections.index(start.section) :]:
        after = start.after if section == start.section else None
        while True:
            rows = await deps.bulk_store.export_rows(agent_id, entity_id, section, after, EXPORT_CHUNK)
            sizes = [json_bytes(item) for item, _ in rows]
            empty = not any(page[s] for s in sections)
            taken = fitting(sizes, budget) if empty else fitting([0, *sizes], budget) - 1
            page[section].extend(item for item, _ in rows[:taken])
            budget -= sum(sizes[:taken])
            if taken:
                after = rows[taken - 1][1]
            if taken < len(rows):
                return page, ExportPosition(section, after)
            if len(rows) < EXPORT_CHUNK:
                break
    return page, None


async def _export_header(deps: Deps, agent_id: UUID, entity_id: UUID) -> dict[str, Any]:
    """What a restore needs besides the rows (domain/backup.py): the format, the person's name, how many times the
    agent had forgotten them, and which shared subject they are (None for a person)."""
    named = await deps.browse_store.list_entities(agent_id, search_pattern(str(entity_id)), None, 1)
    subject = await deps.review_store.shared_subject(agent_id, entity_id)
    return {
        "format": PERSON_FORMAT,
        "exported_at": utc_now().isoformat(),
        "agent_name": await deps.agents.agent_name(agent_id) if deps.agents is not None else "",
        "name": named[0].name[:MAX_RESTORED_NAME_CHARS] if named and named[0].entity_id == entity_id else "",
        "forget_epoch": await deps.bulk_store.forget_epoch(agent_id, entity_id),
        "shared": None if subject is None else {"scope": subject.scope.value, "world_id": _text(subject.world_id)},
    }


def _text(value: UUID | None) -> str | None:
    return None if value is None else str(value)


async def export_entity(deps: Deps, agent_id: UUID, entity_id: UUID) -> dict[str, Any]:
    """Everything stored about one entity in one document (all pages joined), for the command line."""
    whole, position = await export_page(deps, agent_id, entity_id, None, EXPORT_ALL_BYTES)
    while position is not None:
        page, position = await export_page(deps, agent_id, entity_id, position, EXPORT_ALL_BYTES)
        for section in EXPORT_SECTIONS:
            whole[section].extend(page[section])
    return whole
