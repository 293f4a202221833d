"""Review and erasure: listing facts, candidates and entities, resolving candidates, forgetting and exporting.

The rules (what a resolution does) are in domain.review; this module runs them in one transaction each."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from factmemory.domain.errors import Conflict, NotFound
from factmemory.domain.excerpts import EvidenceSource
from factmemory.domain.models import (
    Candidate,
    CandidateSource,
    CandidateStatus,
    EntitySummary,
    Fact,
    ForgetCounts,
    HistoryEntry,
    Kind,
    Resolution,
    Verification,
)
from factmemory.domain.ops import ADD_CONFIDENCE
from factmemory.domain.paging import EXPORT_SECTIONS, PAGE_OVERHEAD_BYTES, ExportPosition, fitting, json_bytes
from factmemory.domain.review import (
    ResolutionPlan,
    decode_position,
    encode_position,
    evidence_ids,
    plan_resolution,
    search_pattern,
)
from factmemory.ports import FactChange, NewFact, ReviewTransaction, Vector
from factmemory.usecases.deps import Deps

# Rows read per query while filling an export page; the command line's export joins pages of this many bytes.
EXPORT_CHUNK = 200
EXPORT_ALL_BYTES = 16 * 1024 * 1024


async def list_facts(
    deps: Deps, agent_id: UUID, entity_id: UUID, kind: Kind | None, after: UUID | None, page_size: int
) -> tuple[list[Fact], UUID | None]:
    """One page ordered by id, and the id to continue after (None on the last page)."""
    facts = await deps.store.list_facts(agent_id, entity_id, kind, after, page_size + 1)
    if len(facts) > page_size:
        return facts[:page_size], facts[page_size - 1].id
    return facts, None


async def get_fact(deps: Deps, agent_id: UUID, entity_id: UUID, fact_id: UUID) -> tuple[Fact, list[HistoryEntry]]:
    """A fact with its history, oldest first."""
    fact = await deps.store.get_fact(agent_id, entity_id, fact_id, replica_ok=True)
    if fact is None:
        raise NotFound(f"fact {fact_id} not found for this agent and entity")
    return fact, await deps.store.fact_history(agent_id, entity_id, fact_id)


async def evidence_sources(
    deps: Deps, agent_id: UUID, fact: Fact, history: Sequence[HistoryEntry]
) -> dict[str, EvidenceSource]:
    """The kept excerpt of each message behind a fact (its evidence and the messages its history names)."""
    ids = list(dict.fromkeys([*fact.evidence_message_ids, *evidence_ids(history)]))
    if not ids:
        return {}
    found = await deps.store.evidence_sources(agent_id, fact.entity_id, ids)
    return {s.message_id: s for s in found}


async def fact_history(deps: Deps, agent_id: UUID, entity_id: UUID, fact_id: UUID) -> list[HistoryEntry]:
    """The history of a fact, also after it was deleted (until the entity is forgotten)."""
    history = await deps.store.fact_history(agent_id, entity_id, fact_id)
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
    found = await deps.store.list_candidates(
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
    found = await deps.store.list_entities(agent_id, search_pattern(query), decode_position(page_token), page_size + 1)
    if len(found) <= page_size:
        return found, ""
    last = found[page_size - 1]
    assert last.last_activity is not None  # every listed entity has stored something
    return found[:page_size], encode_position(last.last_activity, last.entity_id)


async def resolve_candidate(
    deps: Deps,
    agent_id: UUID,
    entity_id: UUID,
    candidate_id: UUID,
    resolution: Resolution,
    actor: str,
    now: datetime,
) -> tuple[Candidate, Fact | None]:
    """Settles a pending candidate in one transaction; returns it closed and the fact that stands for it
    afterwards (the kept or changed fact; None when nothing of it remains)."""
    first = await deps.store.get_candidate(agent_id, entity_id, candidate_id)
    if first is None:
        raise NotFound(f"candidate {candidate_id} not found for this agent and entity")
    plan = plan_resolution(first.source, resolution, first.related_fact_id is not None)
    embedding = (await deps.embedder.passages([first.proposed_claim]))[0] if plan.needs_embedding else None
    async with deps.store.review(agent_id, entity_id) as tx:
        candidate = await tx.get_candidate(candidate_id)
        if candidate is None:
            raise NotFound(f"candidate {candidate_id} not found for this agent and entity")
        if candidate.status is not CandidateStatus.PENDING:
            raise Conflict(f"candidate {candidate_id} is already {candidate.status.value}")
        old = await tx.get_fact(candidate.fact.id) if candidate.fact is not None else None
        new = await tx.get_fact(candidate.related_fact_id) if candidate.related_fact_id is not None else None
        plan = plan_resolution(candidate.source, resolution, new is not None)
        reason = f"{plan.resolution.value}: {candidate.proposed_claim}"
        fact = await _apply_plan(deps, tx, plan, candidate, old, new, embedding, actor, reason, now)
        closed = await tx.close_candidate(candidate_id, plan.status, plan.resolution, actor, now)
    return closed, fact


async def _apply_plan(
    deps: Deps,
    tx: ReviewTransaction,
    plan: ResolutionPlan,
    candidate: Candidate,
    old: Fact | None,
    new: Fact | None,
    embedding: Vector | None,
    actor: str,
    reason: str,
    now: datetime,
) -> Fact | None:
    await tx.mark(plan.action, actor, reason)
    if old is None:  # the contradicted fact is gone: closing the candidate is all that is left
        return new
    if plan.insert_proposed:
        assert embedding is not None
        added = await tx.insert_fact(
            NewFact(
                kind=old.kind,
                category=old.category,
                claim=candidate.proposed_claim,
                structured_fields={},
                confidence=ADD_CONFIDENCE,
                message_id=candidate.evidence_message_id,
                verification=Verification.CONFIRMED,
                at=now,
                valid_at=now if old.kind is Kind.CURRENT else None,
                embedding=embedding,
                embedding_model=deps.embedder.model_name,
            )
        )
        await tx.record(old.id, plan.action, actor, f"kept beside {added.id}: {candidate.proposed_claim}")
        return added
    if plan.keep_pair and new is not None:
        await tx.keep_pair(old.id, new.id)
        await tx.record(old.id, plan.action, actor, f"both true with {new.id}")
        await tx.record(new.id, plan.action, actor, f"both true with {old.id}")
        return new
    if plan.delete_old:  # the survivor's history says why the other one went
        await tx.delete_fact(old.id)
        if new is not None:
            await tx.record(new.id, plan.action, actor, f"kept instead of {old.id}")
        return new
    if plan.delete_new:
        if new is not None:
            await tx.delete_fact(new.id)
        await tx.record(old.id, plan.action, actor, reason if new is None else f"kept instead of {new.id}")
        return old
    if plan.replace_old_claim:
        return await _replace_claim(deps, tx, plan, candidate, old, new, embedding, now)
    await tx.record(old.id, plan.action, actor, reason)  # a rejected contradiction: the fact stays as it is
    return old


async def _replace_claim(
    deps: Deps,
    tx: ReviewTransaction,
    plan: ResolutionPlan,
    candidate: Candidate,
    old: Fact,
    new: Fact | None,
    embedding: Vector | None,
    now: datetime,
) -> Fact | None:
    """Old takes the proposed claim (accept), or absorbs the new fact (merge: claim, embedding, evidence)."""
    evidence: tuple[str, ...] = (candidate.evidence_message_id,)
    if plan.fold_new_into_old and new is not None:
        evidence = new.evidence_message_ids
        await tx.delete_fact(new.id)
    change = FactChange(
        claim=candidate.proposed_claim,
        verification=Verification.CONFIRMED,
        keep_previous_claim=True,
        add_evidence=evidence,
        confirmed_at=now,
        embedding=embedding,
        embedding_model=deps.embedder.model_name if embedding is not None else None,
        confidence=max(old.confidence, new.confidence) if plan.fold_new_into_old and new is not None else None,
    )
    return await tx.change_fact(old.id, change)


async def forget_entity(deps: Deps, agent_id: UUID, entity_id: UUID) -> ForgetCounts:
    return await deps.store.forget_entity(agent_id, entity_id)


async def export_page(
    deps: Deps, agent_id: UUID, entity_id: UUID, start: ExportPosition | None, budget_bytes: int
) -> tuple[dict[str, Any], ExportPosition | None]:
    """The export from start on, as much as fits in budget_bytes of JSON; and where the next page starts."""
    page: dict[str, Any] = {
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
            rows = await deps.store.export_rows(agent_id, entity_id, section, after, EXPORT_CHUNK)
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


async def export_entity(deps: Deps, agent_id: UUID, entity_id: UUID) -> dict[str, Any]:
    """Everything stored about one entity in one document (all pages joined), for the command line."""
    whole, position = await export_page(deps, agent_id, entity_id, None, EXPORT_ALL_BYTES)
    while position is not None:
        page, position = await export_page(deps, agent_id, entity_id, position, EXPORT_ALL_BYTES)
        for section in EXPORT_SECTIONS:
            whole[section].extend(page[section])
    return whole
