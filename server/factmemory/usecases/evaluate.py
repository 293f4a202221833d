"""The write path: one message in, facts extracted with one LLM call and applied in one transaction."""

from __future__ import annotations

import logging
from typing import Any

from pydantic import BaseModel

from factmemory.domain.dedup import DedupVerdict, decide
from factmemory.domain.errors import InvalidInput, NotConfigured
from factmemory.domain.limits import Limits
from factmemory.domain.models import (
    AppliedOp,
    Dropped,
    EvaluateInput,
    EvaluateResult,
    Fact,
    Identity,
    Item,
    Kind,
    OpType,
    Relationship,
    Success,
    Verification,
)
from factmemory.domain.ops import (
    ADD_CONFIDENCE,
    DECAY_STEP,
    DELETE_BELOW,
    STRENGTHEN_STEP,
    Planned,
    PlannedAdd,
    PlannedChange,
    RejectedOp,
    clean_text,
    dropped,
    plan_identities,
    plan_ops,
    plan_relationships,
)
from factmemory.domain.prompts import build_prompt
from factmemory.domain.review import kind_of
from factmemory.ports import NewFact, Vector
from factmemory.ports import WriteTransaction as Turn
from factmemory.usecases.deps import RETRIEVE_PER_KIND, Deps
from factmemory.usecases.stages import Stopwatch

log = logging.getLogger(__name__)

DEDUP_NEIGHBOURS = 5


class _AlreadyEvaluated(Exception):
    """Raised inside the turn to roll it back when another call evaluated the message first."""


async def evaluate(deps: Deps, request: EvaluateInput) -> EvaluateResult:
    """Evaluates one message once; a repeat of the same (agent, message id) returns the stored result."""
    if deps.extractor is None:
        raise NotConfigured("no LLM is configured: set OPENAI_API_KEY (and OPENAI_BASE_URL for other endpoints)")
    watch = Stopwatch()
    with watch.stage("retrieve"):
        # Read before anything is learned: a ForgetEntity that completes meanwhile makes the turn write nothing.
        forget_epoch = await deps.store.forget_epoch(request.agent_id, request.entity_id)
        replay = await _stored(deps, request)
    if replay is not None:
        return replay
    durable, current = [], []
    if Item.FACTS in request.items:
        with watch.stage("embed"):
            query = await deps.embedder.queries([request.message.text.strip()])  # as the provider embeds it
        with watch.stage("retrieve"):
            similar = await deps.store.nearest(
                request.agent_id, request.entity_id, query[0], RETRIEVE_PER_KIND, RETRIEVE_PER_KIND
            )
        durable = [s.fact for s in similar if s.fact.kind is Kind.DURABLE]
        current = [s.fact for s in similar if s.fact.kind is Kind.CURRENT]
    prompt = build_prompt(request.message, request.recent_messages, durable, current, request.items,
                          request.room_entities, request.agent_responses, limits=deps.tuning.limits)
    with watch.stage("llm"):
        reply, usage = await deps.extractor.extract(prompt, request.items)
    planned = _plan(deps, request, reply, prompt.handles)
    adds = [p for p in planned if isinstance(p, PlannedAdd)]
    with watch.stage("embed"):
        vectors = await deps.embedder.passages([a.claim for a in adds])
    claim_vectors: dict[int, Vector] = {id(a): vectors[i] for i, a in enumerate(adds)}
    try:
        with watch.stage("apply"):
            async with deps.store.turn(request.agent_id, request.entity_id, forget_epoch) as turn:
                if not await turn.claim_evaluation(request.message.id, request.room_id):
                    raise _AlreadyEvaluated
                if request.message.name.strip():
                    await turn.record_name(clean_text(request.message.name)[: deps.tuning.limits.max_name_chars],
                                           request.message.created_at)
                applied = [await _apply(deps, turn, request, p, claim_vectors.get(id(p)), watch) for p in planned]
                relationships, identities = await _apply_edges(turn, request, reply, deps.tuning.limits)
                result = EvaluateResult(
                    ops=tuple(applied),
                    relationships=tuple(relationships),
                    identities=tuple(identities),
                    success=_success(reply),
                    usage=usage,
                    dropped=_dropped(reply, deps.tuning.limits),
                )
                await turn.finish_evaluation(request.message.id, stored_form(result, deps.tuning.limits))
    except _AlreadyEvaluated:
        replay = await _stored(deps, request)
        if replay is None:  # pragma: no cover - the row was committed by the call that won
            raise
        return replay
    deps.stages.record("evaluate", watch)
    return result


async def _stored(deps: Deps, request: EvaluateInput) -> EvaluateResult | None:
    stored = await deps.store.get_evaluation(request.agent_id, request.message.id)
    if stored is None:
        return None
    entity_id, result = stored
    if entity_id != request.entity_id:
        raise InvalidInput("message.id was already evaluated for another entity; message ids must be unique")
    return result.model_copy(update={"replayed": True})


def _plan(deps: Deps, request: EvaluateInput, reply: BaseModel, handles: dict[str, Any]) -> list[Planned]:
    facts = getattr(reply, "facts", None)
    if facts is None:
        return []
    return plan_ops(facts.ops, handles, request.message.created_at, deps.tuning.limits)


def _dropped(reply: BaseModel, limits: Limits) -> Dropped:
    facts = getattr(reply, "facts", None)
    return Dropped(
        ops=dropped(len(facts.ops) if facts is not None else 0, limits.max_ops),
        relationships=dropped(len(getattr(reply, "relationships", None) or []), limits.max_relationships),
        identities=dropped(len(getattr(reply, "identities", None) or []), limits.max_identities),
    )


def stored_form(result: EvaluateResult, limits: Limits) -> EvaluateResult:
    """What is kept for replays: each fact with the evidence its response showed (the latest ids and their count),
    so a fact strengthened n times is not stored with its whole evidence list n times over."""
    return result.model_copy(update={"ops": tuple(
        op if op.fact is None else op.model_copy(update={"fact": bounded_evidence(op.fact, limits.max_evidence_ids)})
        for op in result.ops)})


def bounded_evidence(fact: Fact, keep: int) -> Fact:
    ids = fact.evidence_message_ids
    return fact.model_copy(update={"evidence_message_ids": ids[-keep:] if keep else (),
                                   "evidence_count": max(fact.evidence_count, len(ids))})


def _success(reply: BaseModel) -> Success | None:
    verdict = getattr(reply, "success", None)
    return None if verdict is None else Success(completed=verdict.completed, reason=clean_text(verdict.reason)[:500])


async def _apply(deps: Deps, turn: Turn, request: EvaluateInput, planned: Planned, vector: Vector | None,
                 watch: Stopwatch) -> AppliedOp:
    if isinstance(planned, RejectedOp):
        return AppliedOp(op=planned.op, rejected=True, reason=planned.reason, handle=planned.handle)
    if isinstance(planned, PlannedAdd):
        assert vector is not None
        return await _apply_add(deps, turn, request, planned, vector, watch)
    return await _apply_change(turn, request, planned)


async def _apply_add(deps: Deps, turn: Turn, request: EvaluateInput, add: PlannedAdd, vector: Vector,
                     watch: Stopwatch) -> AppliedOp:
    """Insert, unless the write-time check finds the same claim (strengthen) or a conflicting one (review)."""
    message = request.message
    threshold = deps.tuning.dedup_threshold
    with watch.stage("dedup"):
        neighbours = await turn.similar_in_category(add.kind, add.category, vector, DEDUP_NEIGHBOURS)
    conflict = None
    for near in neighbours:
        decision = decide(add.claim, near.fact.claim, near.similarity, threshold)
        if decision.verdict is DedupVerdict.SAME:
            fact = await turn.strengthen(near.fact.id, STRENGTHEN_STEP, message.created_at, message.id,
                                         add.category, add.verification.value)
            return AppliedOp(op=OpType.STRENGTHEN, fact=fact, deduplicated=True,
                             reason=f"same claim as an existing fact: {decision.reason}")
        if decision.verdict is DedupVerdict.CONFLICT and conflict is None:
            conflict = (near.fact, decision.reason)
    fact = await turn.insert_fact(NewFact(
        kind=add.kind, category=add.category, claim=add.claim, structured_fields=add.structured_fields,
        confidence=ADD_CONFIDENCE, message_id=message.id, verification=add.verification, at=message.created_at,
        valid_at=add.valid_at if add.kind is Kind.CURRENT else None, embedding=vector,
        embedding_model=deps.embedder.model_name,
    ))
    if conflict is None:
        return AppliedOp(op=add.op, fact=fact)
    existing, why = conflict
    candidate = await turn.insert_candidate(existing.id, add.claim, f"conflicts with {existing.claim!r}: {why}",
                                            "dedup_conflict", message.id, message.created_at, fact.id)
    if candidate is None:  # a reviewer said these two are both true
        return AppliedOp(op=add.op, fact=fact)
    return AppliedOp(op=add.op, fact=fact, candidate_id=candidate,
                     reason=f"kept beside a conflicting fact; review candidate created: {why}")


async def _apply_change(turn: Turn, request: EvaluateInput, change: PlannedChange) -> AppliedOp:
    message = request.message
    gone = AppliedOp(op=change.op, rejected=True, handle=change.handle,
                     reason=f"{change.handle} no longer exists")
    if change.reclassify_to is not None:
        kind = kind_of(change.reclassify_to)
        if kind is not None and await turn.reclassify(change.fact.id, kind, change.reclassify_to) is None:
            return gone
    if change.op is OpType.STRENGTHEN:
        verification = Verification.SELF_REPORTED.value
        fact = await turn.strengthen(change.fact.id, STRENGTHEN_STEP, message.created_at, message.id,
                                     change.reclassify_to or change.fact.category, verification)
        return gone if fact is None else AppliedOp(op=change.op, fact=fact, handle=change.handle,
                                                   reason=change.reason)
    if change.op is OpType.DECAY:
        fact, deleted = await turn.decay(change.fact.id, DECAY_STEP, DELETE_BELOW)
        return gone if fact is None else AppliedOp(op=change.op, fact=fact, deleted=deleted,
                                                   handle=change.handle, reason=change.reason)
    current = await turn.get_fact(change.fact.id)
    if current is None:
        return gone
    candidate = await turn.insert_candidate(current.id, change.proposed_claim, change.reason, "contradict",
                                            message.id, message.created_at)
    return AppliedOp(op=change.op, fact=current, candidate_id=candidate, handle=change.handle,
                     reason=change.reason)


async def _apply_edges(
    turn: Turn, request: EvaluateInput, reply: BaseModel, limits: Limits
) -> tuple[list[Relationship], list[Identity]]:
    at = request.message.created_at
    relationships = [
        await turn.upsert_relationship(source, target, tags, at, limits.max_tags)
        for source, target, tags in plan_relationships(
            (getattr(reply, "relationships", None) or [])[: limits.max_relationships], request.room_entities, limits)
    ]
    identities = [
        await turn.upsert_identity(entity, platform, handle, confidence, at)
        for entity, platform, handle, confidence in plan_identities(
            (getattr(reply, "identities", None) or [])[: limits.max_identities], request.room_entities,
            request.entity_id, limits)
    ]
    return relationships, identities
