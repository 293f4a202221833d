"""Who a changing RPC acts for: the reviewer named by the request metadata, or the person themself when they asked
in a conversation (the request's `chat`); the one audit line of each change."""

from __future__ import annotations

from contextlib import AbstractContextManager
from uuid import UUID

import grpc
from google.protobuf.message import Message

from factmemory.api.audit import AuditEntry, audited
from factmemory.api.grpc.chat import chat_of
from factmemory.domain.resolutions import chat_actor, reviewer_actor

REVIEWER_METADATA = "x-factmemory-reviewer"
Context = grpc.aio.ServicerContext[Message, Message]


def reviewer(context: Context) -> str:
    """'reviewer:<identity>' from the request metadata, for the history of what the call changes."""
    given = next((v for k, v in context.invocation_metadata() or () if k == REVIEWER_METADATA), "")
    return reviewer_actor(given if isinstance(given, str) else bytes(given).decode("utf-8", "replace"))


def actor(request: Message, entity_id: UUID, context: Context) -> str:
    """Who the history names: the person when they asked in a conversation, else the reviewer."""
    return chat_actor(entity_id) if chat_of(request) is not None else reviewer(context)


def audit(action: str, request: Message, context: Context) -> AbstractContextManager[AuditEntry]:
    """One audit line for a review RPC: its ids as sent (bounded), the reviewer (or the person, via chat, with the
    message they asked in), the result."""
    ids = ("agent_id", "entity_id", "fact_id", "candidate_id")
    target = {k: getattr(request, k) for k in ids if hasattr(request, k)}
    origin = chat_of(request)
    if origin is not None:
        target["message_id"] = origin.message_id
        return audited(action, "chat", f"chat:{getattr(request, 'entity_id', '')}", **target)
    return audited(action, "grpc", reviewer(context), **target)
