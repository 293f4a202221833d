"""A person's requests about their own memory, made in a conversation: FindFacts, and the chat origin of
DeleteFact, UpdateFact and ForgetEntity (who the history and the audit line name)."""

from __future__ import annotations

from datetime import datetime

from google.protobuf.message import Message

from factmemory.api.grpc.convert import parse_uuid, scored_pb, to_datetime
from factmemory.domain import finding
from factmemory.domain.errors import InvalidInput
from factmemory.domain.limits import DEFAULT_FIND_LIMIT, Limits
from factmemory.domain.models import ChatMessage, ProvideInput
from factmemory.domain.ranking import top
from factmemory.usecases import provide
from factmemory.usecases.deps import Deps
from factmemory.v1 import factmemory_pb2 as pb


def chat_of(request: Message) -> pb.ChatRequest | None:
    """The request's chat origin when it has one: the person asked in a conversation."""
    for field, value in request.ListFields():
        if field.name == "chat" and isinstance(value, pb.ChatRequest):
            return value
    return None


def find_input(request: pb.FindFactsRequest, now: datetime, limits: Limits) -> ProvideInput:
    """The request as a Provide of one turn whose one message is the person's text; one budget of `limit` facts."""
    if len(request.text) > limits.max_text_chars or "\x00" in request.text:
        raise InvalidInput(f"text must be at most {limits.max_text_chars} characters, without NUL")
    most = 2 * limits.max_provide_limit
    if request.limit < 0 or request.limit > most:
        raise InvalidInput(f"limit must be between 0 and {most}")
    limit = request.limit or DEFAULT_FIND_LIMIT
    at = to_datetime(request.now, "now", now)
    return ProvideInput(
        agent_id=parse_uuid(request.agent_id, "agent_id"),
        entity_id=parse_uuid(request.entity_id, "entity_id"),
        room_id=None,
        recent_messages=(ChatMessage(id="", text=request.text, created_at=at),),
        durable_limit=limit,
        current_limit=limit,
        total_limit=limit,
        now=at,
    )


async def find_facts(deps: Deps, request: pb.FindFactsRequest, now: datetime, limits: Limits) -> pb.FindFactsResponse:
    """Provide's ranking of the person's facts for the text, split into matches and near (domain/finding.py)."""
    query = find_input(request, now, limits)
    result = await provide.provide(deps, query)
    ranked = top([*result.durable, *result.current], query.total_limit)
    matches, near = finding.split(request.text, ranked)
    return pb.FindFactsResponse(
        matches=[scored_pb(s, limits) for s in matches], near=[scored_pb(s, limits) for s in near]
    )
