"""Protobuf <-> domain for the agent-model RPCs (PrepareEvaluation, CompleteEvaluation)."""

from __future__ import annotations

import json
from datetime import datetime

from factmemory.api.grpc.convert import (
    canonical_id,
    evaluate_batch_input,
    evaluate_input,
    evaluate_response,
    to_timestamp,
    usage_pb,
)
from factmemory.domain.errors import InvalidInput
from factmemory.domain.limits import Limits
from factmemory.domain.models import EvaluateBatchResult, EvaluateInput, Usage
from factmemory.usecases.evaluate import Prepared
from factmemory.v1 import factmemory_pb2 as pb

# The name the service gives its own structured-output call's schema (adapters/llm.py).
SCHEMA_NAME = "extraction"


def prepare_input(req: pb.PrepareEvaluationRequest, now: datetime, limits: Limits) -> tuple[EvaluateInput, list[str]]:
    """The validated request (as Evaluate or EvaluateBatch validates it) and its message ids in the caller's order."""
    which = req.WhichOneof("request")
    if which == "single":
        single = evaluate_input(req.single, now, limits)
        return single, [single.message.id]
    if which == "batch":
        return evaluate_batch_input(req.batch, now, limits), [canonical_id(m.id) for m in req.batch.messages]
    raise InvalidInput("request is required: single (as for Evaluate) or batch (as for EvaluateBatch)")


def prepare_response(prepared: Prepared, limits: Limits) -> pb.PrepareEvaluationResponse:
    if prepared.prompt is None or prepared.ticket is None:
        results = [] if prepared.results is None else prepared.results.results
        return pb.PrepareEvaluationResponse(results=[evaluate_response(r, limits) for r in results])
    return pb.PrepareEvaluationResponse(
        ticket=prepared.ticket,
        prompt=[
            pb.PromptMessage(role="system", content=prepared.prompt.system),
            pb.PromptMessage(role="user", content=prepared.prompt.user),
        ],
        json_schema=json.dumps(prepared.schema, sort_keys=True),
        schema_name=SCHEMA_NAME,
        expires_at=to_timestamp(prepared.expires_at),
    )


def usage_in(usage: pb.Usage) -> Usage:
    """The caller's model call cost, as reported (negative counts are the caller's mistake)."""
    if usage.prompt_tokens < 0 or usage.completion_tokens < 0:
        raise InvalidInput("usage: token counts cannot be negative")
    return Usage(llm_calls=1, prompt_tokens=usage.prompt_tokens, completion_tokens=usage.completion_tokens)


def complete_response(batch: EvaluateBatchResult, limits: Limits) -> pb.CompleteEvaluationResponse:
    return pb.CompleteEvaluationResponse(
        results=[evaluate_response(r, limits) for r in batch.results], usage=usage_pb(batch.usage)
    )
