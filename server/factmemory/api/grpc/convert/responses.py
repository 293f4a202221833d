"""Domain results -> response messages, bounded to the response size."""

from __future__ import annotations

from collections.abc import Sequence

from google.protobuf.message import Message

from factmemory.api.grpc.convert.tables import (
    CANDIDATE_STATUSES,
    ENTITY_KINDS,
    HISTORY_ACTIONS,
    KINDS,
    OPS,
    RESOLUTIONS,
    VERIFICATIONS,
    canonical_id,
    to_timestamp,
)
from factmemory.domain.limits import MAX_SPEAKER_ROLES, Limits
from factmemory.domain.models import (
    AppliedOp,
    Candidate,
    EntitySummary,
    EvaluateBatchResult,
    EvaluateResult,
    Fact,
    HistoryEntry,
    ProvideResult,
    ScoredFact,
    Usage,
)
from factmemory.domain.paging import fitting
from factmemory.v1 import factmemory_pb2 as pb


def history_pb(entry: HistoryEntry) -> pb.HistoryEntry:
    out = pb.HistoryEntry(
        id=str(entry.id),
        fact_id=str(entry.fact_id),
        at=to_timestamp(entry.at),
        action=HISTORY_ACTIONS[entry.action],
        actor=entry.actor,
        reason=entry.reason,
    )
    if entry.before is not None:
        out.before.update(entry.before)
    if entry.after is not None:
        out.after.update(entry.after)
    return out


def entity_pb(summary: EntitySummary) -> pb.EntitySummary:
    return pb.EntitySummary(
        entity_id=str(summary.entity_id),
        name=summary.name,
        durable_facts=summary.durable_facts,
        current_facts=summary.current_facts,
        pending_candidates=summary.pending_candidates,
        last_activity=to_timestamp(summary.last_activity),
        kind=ENTITY_KINDS[summary.kind],
        world_id="" if summary.world_id is None else str(summary.world_id),
        world_name=summary.world_name,
    )


def fact_pb(fact: Fact, limits: Limits) -> pb.Fact:
    """A fact with its latest limits.max_evidence_ids evidence ids and their total count."""
    evidence = fact.evidence_message_ids[-limits.max_evidence_ids :] if limits.max_evidence_ids else ()
    out = pb.Fact(
        id=str(fact.id),
        agent_id=str(fact.agent_id),
        entity_id=str(fact.entity_id),
        kind=KINDS[fact.kind],
        category=fact.category,
        claim=fact.claim,
        confidence=fact.confidence,
        evidence_message_ids=list(evidence),
        evidence_count=max(fact.evidence_count, len(fact.evidence_message_ids)),
        verification_status=VERIFICATIONS[fact.verification_status],
        created_at=to_timestamp(fact.created_at),
        last_confirmed_at=to_timestamp(fact.last_confirmed_at),
        valid_at=to_timestamp(fact.valid_at),
        previous_claims=list(fact.previous_claims),
        disputed_by=fact.disputed_by,
    )
    out.structured_fields.update(fact.structured_fields)
    return out


def scored_pb(scored: ScoredFact, limits: Limits) -> pb.ScoredFact:
    return pb.ScoredFact(
        fact=fact_pb(scored.fact, limits),
        relevance=scored.relevance,
        time_weight=scored.time_weight,
        score=scored.score,
    )


def applied_op_pb(op: AppliedOp, limits: Limits) -> pb.AppliedOp:
    return pb.AppliedOp(
        op=OPS[op.op],
        fact=None if op.fact is None else fact_pb(op.fact, limits),
        deduplicated=op.deduplicated,
        deleted=op.deleted,
        candidate_id="" if op.candidate_id is None else str(op.candidate_id),
        rejected=op.rejected,
        reason=op.reason,
        handle=op.handle,
        duplicate_handle=op.duplicate_handle,
        duplicate_fact_id="" if op.duplicate_fact_id is None else str(op.duplicate_fact_id),
    )


def evaluate_batch_response(
    req: pb.EvaluateBatchRequest, batch: EvaluateBatchResult, limits: Limits
) -> pb.EvaluateBatchResponse:
    """The results in the request's order (the use-case takes the messages oldest first)."""
    return pb.EvaluateBatchResponse(
        results=[evaluate_response(batch.result_of(canonical_id(m.id)), limits) for m in req.messages],
        usage=usage_pb(batch.usage),
    )


def usage_pb(usage: Usage) -> pb.Usage:
    return pb.Usage(
        llm_calls=usage.llm_calls, prompt_tokens=usage.prompt_tokens, completion_tokens=usage.completion_tokens
    )


def evaluate_response(result: EvaluateResult, limits: Limits) -> pb.EvaluateResponse:
    return pb.EvaluateResponse(
        ops=[applied_op_pb(o, limits) for o in result.ops],
        relationships=[
            pb.Relationship(
                source_entity_id=r.source_entity_id,
                target_entity_id=r.target_entity_id,
                tags=list(r.tags),
                interaction_count=r.interaction_count,
            )
            for r in result.relationships
        ],
        identities=[
            pb.Identity(entity_id=i.entity_id, platform=i.platform, handle=i.handle, confidence=i.confidence)
            for i in result.identities
        ],
        success=None
        if result.success is None
        else pb.SuccessVerdict(completed=result.success.completed, reason=result.success.reason),
        usage=usage_pb(result.usage),
        replayed=result.replayed,
        original_usage=usage_pb(result.original_usage),
        dropped=pb.DroppedCounts(
            ops=result.dropped.ops, relationships=result.dropped.relationships, identities=result.dropped.identities
        ),
    )


def provide_response(result: ProvideResult, limits: Limits) -> pb.ProvideResponse:
    return pb.ProvideResponse(
        text=result.text,
        durable=[scored_pb(s, limits) for s in result.durable],
        current=[scored_pb(s, limits) for s in result.current],
        degraded=result.degraded,
        degraded_reason=result.degraded_reason,
        shared=[scored_pb(s, limits) for s in result.shared],
    )


def candidate_pb(candidate: Candidate, limits: Limits) -> pb.Candidate:
    return pb.Candidate(
        id=str(candidate.id),
        agent_id=str(candidate.agent_id),
        entity_id=str(candidate.entity_id),
        fact=None if candidate.fact is None else fact_pb(candidate.fact, limits),
        proposed_claim=candidate.proposed_claim,
        reason=candidate.reason,
        source=candidate.source.value,
        evidence_message_id=candidate.evidence_message_id,
        status=CANDIDATE_STATUSES[candidate.status],
        created_at=to_timestamp(candidate.created_at),
        resolved_at=to_timestamp(candidate.resolved_at),
        related_fact_id="" if candidate.related_fact_id is None else str(candidate.related_fact_id),
        resolution=pb.RESOLUTION_UNSPECIFIED if candidate.resolution is None else RESOLUTIONS[candidate.resolution],
        resolved_by=candidate.resolved_by,
    )


def within_bytes(messages: Sequence[Message], budget: int) -> int:
    """How many of the encoded messages fit in one response of budget bytes (at least one)."""
    return fitting([m.ByteSize() + 8 for m in messages], budget)


def limits_pb(limits: Limits) -> pb.GetLimitsResponse:
    """The request limits a client cuts what it sends to, as this service is configured."""
    return pb.GetLimitsResponse(
        max_text_chars=limits.max_text_chars,
        max_name_chars=limits.max_name_chars,
        max_recent_messages=limits.max_recent_messages,
        max_batch_messages=limits.max_batch_messages,
        max_room_entities=limits.max_room_entities,
        max_names_per_entity=limits.max_names_per_entity,
        max_provide_limit=limits.max_provide_limit,
        max_speaker_roles=MAX_SPEAKER_ROLES,
        max_id_chars=limits.max_id_chars,
    )
