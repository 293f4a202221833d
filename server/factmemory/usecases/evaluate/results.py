"""What an evaluation answers and keeps: one result per message, the call's usage, and the bounded stored form."""

from __future__ import annotations

from dataclasses import replace

from factmemory.domain.extraction import ExtractionReply
from factmemory.domain.limits import MAX_REASON_CHARS, Limits
from factmemory.domain.models import (
    Dropped,
    EvaluateBatchResult,
    EvaluateInput,
    EvaluateResult,
    Fact,
    Success,
    Usage,
)
from factmemory.domain.ops import dropped
from factmemory.domain.text import one_line


def batch(request: EvaluateInput, results: dict[str, EvaluateResult], usage: Usage) -> EvaluateBatchResult:
    """The results of the request's messages in its order."""
    ids = tuple(m.id for m in request.messages)
    return EvaluateBatchResult(message_ids=ids, results=tuple(results[i] for i in ids), usage=usage)


def plus(a: Usage, b: Usage) -> Usage:
    return Usage(
        llm_calls=a.llm_calls + b.llm_calls,
        prompt_tokens=a.prompt_tokens + b.prompt_tokens,
        completion_tokens=a.completion_tokens + b.completion_tokens,
    )


def dropped_of(reply: ExtractionReply, limits: Limits) -> Dropped:
    """What the reply held beyond the caps."""
    return Dropped(
        ops=dropped(len(reply.facts.ops) if reply.facts is not None else 0, limits.max_ops),
        relationships=dropped(len(reply.relationships or []), limits.max_relationships),
        identities=dropped(len(reply.identities or []), limits.max_identities),
    )


def success_of(reply: ExtractionReply) -> Success | None:
    verdict = reply.success
    return (
        None
        if verdict is None
        else Success(completed=verdict.completed, reason=one_line(verdict.reason)[:MAX_REASON_CHARS])
    )


def stored_form(result: EvaluateResult, limits: Limits) -> EvaluateResult:
    """What is kept for replays: each fact with the evidence its response showed (the latest ids and their count),
    so a fact strengthened n times is not stored with its whole evidence list n times over."""
    return result.model_copy(
        update={
            "ops": tuple(
                op
                if op.fact is None
                else op.model_copy(update={"fact": bounded_evidence(op.fact, limits.max_evidence_ids)})
                for op in result.ops
            )
        }
    )


def bounded_evidence(fact: Fact, keep: int) -> Fact:
    ids = fact.evidence_message_ids
    return replace(
        fact, evidence_message_ids=ids[-keep:] if keep else (), evidence_count=max(fact.evidence_count, len(ids))
    )
