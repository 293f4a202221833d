"""Builders for requests and scripted model replies, so tests read like the scenarios they check."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from google.protobuf.timestamp_pb2 import Timestamp

from factmemory.app import limits
from factmemory.domain.limits import Limits
from factmemory.settings import Settings
from factmemory.v1 import factmemory_pb2 as pb
from factmemory.v1 import factmemory_pb2_grpc as pb_grpc

NOW = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
# The defaults of every limit, from their one home (Settings), without reading the environment.
LIMITS: Limits = limits(Settings.model_construct())


def new_id() -> str:
    return str(uuid.uuid4())


def ts(when: datetime) -> Timestamp:
    out = Timestamp()
    out.FromDatetime(when)
    return out


class Person:
    """An (agent, entity) scope with helpers to build its requests."""

    def __init__(self, name: str = "Sam", agent_id: str | None = None) -> None:
        self.agent_id = agent_id or new_id()
        self.entity_id = new_id()
        self.room_id = new_id()
        self.name = name

    def message(self, text: str, when: datetime = NOW, message_id: str | None = None) -> pb.ChatMessage:
        return pb.ChatMessage(
            id=message_id or new_id(), entity_id=self.entity_id, name=self.name, text=text, created_at=ts(when)
        )

    def evaluate(self, text: str, when: datetime = NOW, message_id: str | None = None, **kw: Any) -> pb.EvaluateRequest:
        return pb.EvaluateRequest(
            agent_id=self.agent_id,
            entity_id=self.entity_id,
            room_id=self.room_id,
            message=self.message(text, when, message_id),
            did_respond=True,
            **kw,
        )

    def batch(self, *messages: pb.ChatMessage, **kw: Any) -> pb.EvaluateBatchRequest:
        return pb.EvaluateBatchRequest(
            agent_id=self.agent_id,
            entity_id=self.entity_id,
            room_id=self.room_id,
            messages=list(messages),
            did_respond=True,
            **kw,
        )

    def provide(self, *texts: str, now: datetime = NOW, **kw: Any) -> pb.ProvideRequest:
        return pb.ProvideRequest(
            agent_id=self.agent_id,
            entity_id=self.entity_id,
            room_id=self.room_id,
            recent_messages=[self.message(t, now) for t in texts],
            now=ts(now),
            **kw,
        )

    def list_facts(self, kind: pb.Kind = pb.KIND_UNSPECIFIED) -> pb.ListFactsRequest:
        return pb.ListFactsRequest(agent_id=self.agent_id, entity_id=self.entity_id, kind=kind)


def days_ago(days: float) -> datetime:
    return NOW - timedelta(days=days)


def add_durable(claim: str, category: str, verification: str | None = None, **fields: str) -> dict[str, Any]:
    return {
        "op": "add_durable",
        "claim": claim,
        "category": category,
        "structured_fields": [{"key": k, "value": v} for k, v in fields.items()],
        "verification_status": verification,
    }


def add_current(claim: str, category: str, valid_at: str | None = None, **fields: str) -> dict[str, Any]:
    return {
        "op": "add_current",
        "claim": claim,
        "category": category,
        "structured_fields": [{"key": k, "value": v} for k, v in fields.items()],
        "valid_at": valid_at,
    }


def change(op: str, handle: str, reason: str = "", proposed_claim: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"op": op, "fact": handle, "reason": reason}
    if proposed_claim is not None:
        out["proposed_claim"] = proposed_claim
    return out


def facts_reply(*ops: dict[str, Any], success: bool = True) -> dict[str, Any]:
    """A full reply for all four items."""
    return {
        "facts": {"ops": list(ops)},
        "relationships": [],
        "identities": [],
        "success": {"completed": success, "reason": "scripted"},
    }


class HasStub(Protocol):
    stub: pb_grpc.FactMemoryServiceStub


async def facts_of(service: HasStub, person: Person, kind: pb.Kind = pb.KIND_UNSPECIFIED) -> list[pb.Fact]:
    """One page of the person's facts (as many as the tests store), over gRPC."""
    return list((await service.stub.ListFacts(person.list_facts(kind))).facts)
