"""Evaluate, phase 2b: each op of a validated reply written inside the turn's transaction, in the model's order,
with its message as evidence (an add strengthens the same claim or inserts; merge, strengthen, decay, contradict)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from uuid import UUID

from factmemory.domain.confidence import ADD_CONFIDENCE, DECAY_STEP, DELETE_BELOW, STRENGTHEN_STEP
from factmemory.domain.dedup.planning import AddPlan, Existing, Target, merge_refusal, merged_values
from factmemory.domain.limits import MAX_REASON_CHARS
from factmemory.domain.models import AppliedOp, CandidateSource, ChatMessage, Fact, OpType, Verification
from factmemory.domain.new_fact import Searched, new_fact
from factmemory.domain.ops import (
    Planned,
    PlannedAdd,
    PlannedChange,
    PlannedMerge,
)
from factmemory.domain.protection import decay_needs_review
from factmemory.domain.resolutions import kind_of
from factmemory.domain.shared import HELD_DECAY, UNVOUCHED_STRENGTHEN
from factmemory.domain.vectors import Vector
from factmemory.ports import WriteTransaction
from factmemory.usecases import fact_writes
from factmemory.usecases.deps import Deps


async def apply_all(
    deps: Deps,
    tx: WriteTransaction,
    planned: Sequence[Planned],
    sources: Sequence[ChatMessage],
    add_plans: Iterable[tuple[AddPlan, Vector, Searched]],
    *,
    held: str = "",
) -> list[AppliedOp]:
    """Every op in the model's order, with its message as evidence; the adds take their plans and vectors by
    position, earlier adds by index. `held` (why): shared ops of a speaker the subject does not trust
    (domain/shared.py): each new fact (in the world's held subject) and each decay becomes a review candidate, and
    a strengthen is not applied (a stranger's word never keeps a shared fact standing)."""
    applied: list[AppliedOp] = []
    added: list[Fact | None] = []
    plans = iter(add_plans)
    for item, message in zip(planned, sources, strict=True):
        if isinstance(item, PlannedAdd):
            op = await _apply_add(deps, tx, message, *next(plans), added)
            if held and op.fact is not None and not op.deduplicated:
                op = await _hold(tx, message, op, held)
            added.append(op.fact)
        elif isinstance(item, PlannedMerge):
            op = await _apply_merge(tx, message, item)
        elif isinstance(item, PlannedChange):
            op = await _apply_change(tx, message, item, bool(held))
        else:
            op = AppliedOp(op=item.op, rejected=True, reason=item.reason, handle=item.handle)
        applied.append(op)
    return applied


def _target_id(target: Target, added: Sequence[Fact | None]) -> UUID | None:
    """The stored fact's id, or the fact an earlier add of this reply became."""
    if isinstance(target, Existing):
        return target.fact.id
    earlier = added[target.index]
    return None if earlier is None else earlier.id


async def _apply_add(
    deps: Deps,
    tx: WriteTransaction,
    message: ChatMessage,
    plan: AddPlan,
    vector: Vector,
    search: Searched,
    added: Sequence[Fact | None],
) -> AppliedOp:
    """Strengthen the same claim, or insert (with a review candidate for a conflict and the possible duplicates)."""
    add = plan.add
    if plan.same_as is not None:
        target = _target_id(plan.same_as, added)
        fact = (
            None
            if target is None
            else await fact_writes.strengthen(
                tx, target, STRENGTHEN_STEP, message.created_at, message.id, add.category, add.verification
            )
        )
        if fact is not None:
            return AppliedOp(op=OpType.STRENGTHEN, fact=fact, deduplicated=True, reason=plan.reason)
    fact = await tx.insert_fact(
        new_fact(
            add.kind,
            add.category,
            add.claim,
            confidence=ADD_CONFIDENCE,
            evidence=message.id,
            verification=add.verification,
            at=message.created_at,
            embedding=vector,
            embedding_model=deps.embedder.model_name,
            structured_fields=dict(add.structured_fields),
            valid_at=add.valid_at,
            search_embedding=search.vector,
            source_terms=search.terms,
        )
    )
    for pair in plan.pairs:
        other = _target_id(pair.other, added)
        if other is not None and other != fact.id:
            await tx.insert_pair(
                other, fact.id, pair.similarity, pair.reason, message.id, message.created_at, pair.likelihood
            )
    if plan.conflict is None:
        return AppliedOp(op=add.op, fact=fact)
    existing, why = plan.conflict
    candidate = await tx.insert_candidate(
        existing.id,
        add.claim,
        f"conflicts with {existing.claim!r}: {why}",
        CandidateSource.DEDUP_CONFLICT,
        message.id,
        message.created_at,
        fact.id,
    )
    if candidate is None:  # a reviewer said these two are both true
        return AppliedOp(op=add.op, fact=fact)
    return AppliedOp(
        op=add.op,
        fact=fact,
        candidate_id=candidate,
        reason=f"kept beside a conflicting fact; review candidate created: {why}",
    )


async def _apply_merge(tx: WriteTransaction, message: ChatMessage, merge: PlannedMerge) -> AppliedOp:
    keep, duplicate = await tx.get_fact(merge.fact.id), await tx.get_fact(merge.duplicate.id)
    fact = None
    refusal = None if keep is None or duplicate is None else merge_refusal(keep, duplicate)
    if refusal is not None:
        return AppliedOp(
            op=merge.op, rejected=True, handle=merge.handle, duplicate_handle=merge.duplicate_handle, reason=refusal
        )
    if keep is not None and duplicate is not None:
        fact = await tx.merge_facts(
            keep.id,
            duplicate.id,
            merged_values(keep, duplicate, STRENGTHEN_STEP),
            message.created_at,
            merge.reason,
        )
    if fact is None:
        gone = merge.handle if keep is None else merge.duplicate_handle
        return AppliedOp(
            op=merge.op,
            rejected=True,
            handle=merge.handle,
            duplicate_handle=merge.duplicate_handle,
            reason=f"{gone} no longer exists",
        )
    return AppliedOp(
        op=merge.op,
        fact=fact,
        handle=merge.handle,
        duplicate_handle=merge.duplicate_handle,
        duplicate_fact_id=merge.duplicate.id,
        reason=merge.reason,
    )


async def _apply_change(
    tx: WriteTransaction, message: ChatMessage, change: PlannedChange, held: bool = False
) -> AppliedOp:
    gone = AppliedOp(op=change.op, rejected=True, handle=change.handle, reason=f"{change.handle} no longer exists")
    if change.reclassify_to is not None:
        kind = kind_of(change.reclassify_to)
        if kind is not None and await tx.reclassify(change.fact.id, kind, change.reclassify_to) is None:
            return gone
    if change.op is OpType.STRENGTHEN and held:
        return AppliedOp(op=change.op, rejected=True, handle=change.handle, reason=UNVOUCHED_STRENGTHEN)
    if change.op is OpType.STRENGTHEN:
        verification = Verification.SELF_REPORTED
        fact = await fact_writes.strengthen(
            tx,
            change.fact.id,
            STRENGTHEN_STEP,
            message.created_at,
            message.id,
            change.reclassify_to or change.fact.category,
            verification,
        )
        return gone if fact is None else AppliedOp(op=change.op, fact=fact, handle=change.handle, reason=change.reason)
    if change.op is OpType.DECAY:
        guarded = await (_hold_decay(tx, message, change) if held else _guard_decay(tx, message, change))
        if guarded is not None:
            return guarded
        fact, deleted = await fact_writes.decay(tx, change.fact.id, DECAY_STEP, DELETE_BELOW)
        return (
            gone
            if fact is None
            else AppliedOp(op=change.op, fact=fact, deleted=deleted, handle=change.handle, reason=change.reason)
        )
    current = await tx.get_fact(change.fact.id)
    if current is None:
        return gone
    candidate = await tx.insert_candidate(
        current.id, change.proposed_claim, change.reason, CandidateSource.CONTRADICT, message.id, message.created_at
    )
    return AppliedOp(op=change.op, fact=current, candidate_id=candidate, handle=change.handle, reason=change.reason)


async def _hold(tx: WriteTransaction, message: ChatMessage, op: AppliedOp, why: str) -> AppliedOp:
    """A new shared claim of a speaker not trusted to teach: kept in the world's held subject (read by no prompt
    and no Provide) with a review candidate; a reviewer's accept makes it a shared fact of the world."""
    assert op.fact is not None
    candidate = await tx.insert_candidate(
        op.fact.id, op.fact.claim, why, CandidateSource.SHARED_CLAIM, message.id, message.created_at
    )
    return op.model_copy(update={"candidate_id": candidate, "reason": why})


async def _hold_decay(tx: WriteTransaction, message: ChatMessage, change: PlannedChange) -> AppliedOp | None:
    """A decay of a shared fact by a speaker not trusted to teach: the fact stays, a reviewer decides (accept
    deletes it, as for a decay below the floor)."""
    current = await tx.get_fact(change.fact.id)
    if current is None:
        return None
    return await _decay_review(tx, message, change, current, HELD_DECAY, f"{HELD_DECAY}; review candidate created")


async def _guard_decay(tx: WriteTransaction, message: ChatMessage, change: PlannedChange) -> AppliedOp | None:
    """A decay that would delete a confirmed or health fact: the fact stays, a review candidate is created."""
    current = await tx.get_fact(change.fact.id)
    why = None if current is None else decay_needs_review(current, DECAY_STEP, DELETE_BELOW)
    if current is None or why is None:
        return None
    applied = f"not decayed below the deletion floor ({why}); review candidate created"
    return await _decay_review(tx, message, change, current, f"a decay would delete this {why}", applied)


async def _decay_review(
    tx: WriteTransaction, message: ChatMessage, change: PlannedChange, current: Fact, why: str, applied: str
) -> AppliedOp:
    """The fact kept as it is, with a decay_floor review candidate saying why (accept deletes it)."""
    candidate = await tx.insert_candidate(
        current.id,
        current.claim,
        f"{why}: {change.reason}"[:MAX_REASON_CHARS],
        CandidateSource.DECAY_FLOOR,
        message.id,
        message.created_at,
    )
    return AppliedOp(op=change.op, fact=current, candidate_id=candidate, handle=change.handle, reason=applied)
