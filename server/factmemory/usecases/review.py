"""Review: resolving a candidate (accept, reject, keep both, merge, edit).

The rules (what a resolution does) are in domain.resolutions; this module runs them in one transaction each."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from factmemory.domain.confidence import ADD_CONFIDENCE, decayed
from factmemory.domain.errors import Conflict, InvalidInput, NotFound
from factmemory.domain.models import (
    Candidate,
    CandidateSource,
    CandidateStatus,
    Fact,
    Resolution,
    Verification,
)
from factmemory.domain.new_fact import new_fact
from factmemory.domain.resolutions import (
    ResolutionPlan,
    plan_resolution,
)
from factmemory.domain.shared import HELD_DECAY, Scope, agent_subject, world_subject
from factmemory.domain.vectors import Vector
from factmemory.ports import FactChange, ReviewTransaction
from factmemory.usecases.deps import Deps

# What a person may settle from the chat: the correction their own message raised.
CHAT_SOURCES = frozenset({CandidateSource.CONTRADICT, CandidateSource.DEDUP_CONFLICT})
CORRECTED_IN_CHAT = "corrected in the chat"


async def resolve_candidate(
    deps: Deps,
    agent_id: UUID,
    entity_id: UUID,
    candidate_id: UUID,
    resolution: Resolution,
    actor: str,
    now: datetime,
    asked_in: str | None = None,
    agent_wide: bool = False,
) -> tuple[Candidate, Fact | None]:
    """Settles a pending candidate in one transaction; returns it closed and the fact that stands for it
    afterwards (the kept or changed fact; None when nothing of it remains). `asked_in`: the person settles, in a
    conversation, a correction their own message (this id) raised; nothing else. `agent_wide`: an accepted held
    shared claim goes to every world (only from a world FACTMEMORY_SHARED_AGENT_WIDE_WORLDS names)."""
    first = await deps.review_store.get_candidate(agent_id, entity_id, candidate_id)
    if first is None:
        raise NotFound(f"candidate {candidate_id} not found for this agent and entity")
    if asked_in is not None and (first.source not in CHAT_SOURCES or first.evidence_message_id != asked_in):
        raise Conflict(f"candidate {candidate_id} was not raised by the person's message {asked_in[:64]}")
    plan = plan_resolution(first.source, resolution, first.related_fact_id is not None)
    if agent_wide and not plan.share:
        raise InvalidInput(AGENT_WIDE_ONLY_SHARE)
    if agent_wide:
        await _may_share_agent_wide(deps, agent_id, entity_id)
    embedding = (await deps.embedder.passages([first.proposed_claim]))[0] if plan.needs_embedding else None
    async with deps.review_store.review(agent_id, entity_id) as tx:
        candidate = await tx.get_candidate(candidate_id)
        if candidate is None:
            raise NotFound(f"candidate {candidate_id} not found for this agent and entity")
        if candidate.status is not CandidateStatus.PENDING:
            raise Conflict(f"candidate {candidate_id} is already {candidate.status.value}")
        old = await tx.get_fact(candidate.fact.id) if candidate.fact is not None else None
        new = await tx.get_fact(candidate.related_fact_id) if candidate.related_fact_id is not None else None
        plan = plan_resolution(candidate.source, resolution, new is not None)
        why = CORRECTED_IN_CHAT if asked_in is not None else plan.resolution.value
        reason = f"{why}: {candidate.proposed_claim}"
        fact = await _apply_plan(deps, tx, plan, candidate, old, new, embedding, actor, reason, now, agent_wide)
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
    agent_wide: bool = False,
) -> Fact | None:
    tx.mark(plan.action, actor, reason)
    if old is None:  # the contradicted fact is gone: closing the candidate is all that is left
        return new
    if plan.share:
        assert embedding is not None
        return await _share(deps, tx, candidate, old, embedding, now, agent_wide)
    if plan.insert_proposed:
        assert embedding is not None
        added = await tx.insert_fact(
            new_fact(
                old.kind,
                old.category,
                candidate.proposed_claim,
                confidence=ADD_CONFIDENCE,
                evidence=candidate.evidence_message_id,
                verification=Verification.CONFIRMED,
                at=now,
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
    if plan.delete_old and _held_decay(candidate):  # a stranger's decay a reviewer accepts: one step, as the model's
        step = decayed(old)
        if not step.delete:
            return await tx.change_fact(old.id, FactChange(confidence=step.confidence))
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


def _held_decay(candidate: Candidate) -> bool:
    """A decay of a shared fact asked by a speaker not trusted to teach (domain/shared.py HELD_DECAY)."""
    return candidate.source is CandidateSource.DECAY_FLOOR and candidate.reason.startswith(HELD_DECAY)


AGENT_WIDE_ONLY_SHARE = "agent_wide is only for accepting a held shared claim (source shared_claim)"
AGENT_WIDE_NOT_ALLOWED = (
    "not shared: world {world} is not named in FACTMEMORY_SHARED_AGENT_WIDE_WORLDS, so a claim said there is shared "
    "with its own world only"
)


async def _may_share_agent_wide(deps: Deps, agent_id: UUID, entity_id: UUID) -> None:
    """Conflict unless the held subject's world is one whose claims may speak for every world."""
    held = await deps.review_store.shared_subject(agent_id, entity_id)
    world = None if held is None else held.world_id
    if held is None or held.scope is not Scope.HELD or world not in deps.tuning.shared.agent_wide_worlds:
        raise Conflict(AGENT_WIDE_NOT_ALLOWED.format(world=world))


async def _share(
    deps: Deps,
    tx: ReviewTransaction,
    candidate: Candidate,
    held: Fact,
    embedding: Vector,
    now: datetime,
    agent_wide: bool = False,
) -> Fact:
    """A held shared claim accepted: a shared fact of its world (or, `agent_wide`, of every world) with the held
    claim's evidence (its teaching message first), confirmed by the reviewer; the held claim is deleted."""
    world = await deps.review_store.shared_subject(tx.agent_id, tx.entity_id)
    if world is None or world.world_id is None:
        raise NotFound(f"no world is recorded for the subject of candidate {candidate.id}")
    target = agent_subject(tx.agent_id) if agent_wide else world_subject(tx.agent_id, world.world_id)
    shared = await tx.elsewhere(target)
    first = candidate.evidence_message_id
    fact = await shared.insert_fact(
        new_fact(
            held.kind,
            held.category,
            held.claim,
            confidence=max(held.confidence, ADD_CONFIDENCE),
            evidence=first,
            verification=Verification.CONFIRMED,
            at=now,
            embedding=embedding,
            embedding_model=deps.embedder.model_name,
            structured_fields=dict(held.structured_fields),
            valid_at=held.valid_at,
        )
    )
    rest = tuple(m for m in held.evidence_message_ids if m != first)
    if rest:
        fact = await shared.change_fact(fact.id, FactChange(add_evidence=rest)) or fact
    await tx.delete_fact(held.id)
    return fact


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
