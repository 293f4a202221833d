"""Requests -> domain inputs: every field checked and bounded (a wrong one is InvalidInput), and the export
page token both ways."""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

from factmemory.api.grpc.convert.tables import (
    CANDIDATE_SOURCES_IN,
    CANDIDATE_STATUSES_IN,
    ITEMS,
    KINDS_IN,
    RESOLUTIONS_IN,
    VERIFICATIONS_IN,
    canonical_id,
    optional_uuid,
    parse_uuid,
    to_datetime,
)
from factmemory.domain import times
from factmemory.domain.errors import InvalidInput
from factmemory.domain.limits import MAX_SPEAKER_ROLES, Limits
from factmemory.domain.models import (
    ALL_ITEMS,
    CandidateSource,
    CandidateStatus,
    ChatMessage,
    EvaluateInput,
    FactEdit,
    Item,
    Kind,
    ProvideInput,
    Resolution,
    RoomEntity,
)
from factmemory.domain.paging import ExportPosition, check_position
from factmemory.domain.shared import SHARED_LIMIT
from factmemory.domain.text import one_line
from factmemory.v1 import factmemory_pb2 as pb


def _text(value: str, field: str, max_chars: int) -> str:
    if len(value) > max_chars:
        raise InvalidInput(f"{field} is longer than {max_chars} characters ({len(value)})")
    if "\x00" in value:
        raise InvalidInput(f"{field} contains a NUL character")
    return value


def to_message(msg: pb.ChatMessage, field: str, now: datetime, limits: Limits, require_id: bool = False) -> ChatMessage:
    if require_id:
        parse_uuid(msg.id, f"{field}.id")
    return ChatMessage(
        id=canonical_id(_text(msg.id, f"{field}.id", limits.max_id_chars)),
        entity_id=canonical_id(_text(msg.entity_id, f"{field}.entity_id", limits.max_id_chars)),
        name=_text(msg.name, f"{field}.name", limits.max_name_chars),
        text=_text(msg.text, f"{field}.text", limits.max_text_chars),
        created_at=to_datetime(msg.created_at, f"{field}.created_at", now),
    )


def _messages(msgs: Sequence[pb.ChatMessage], field: str, now: datetime, limits: Limits) -> tuple[ChatMessage, ...]:
    if len(msgs) > limits.max_recent_messages:
        raise InvalidInput(f"{field} has {len(msgs)} messages; at most {limits.max_recent_messages} allowed")
    return tuple(to_message(m, f"{field}[{i}]", now, limits) for i, m in enumerate(msgs))


def _items(values: Sequence[int]) -> frozenset[Item]:
    if not values:
        return ALL_ITEMS
    unknown = [v for v in values if v not in ITEMS]
    if unknown:
        raise InvalidInput(f"items contains unknown value {unknown[0]}")
    return frozenset(ITEMS[v] for v in values)


def evaluate_input(req: pb.EvaluateRequest, now: datetime, limits: Limits) -> EvaluateInput:
    """A validated EvaluateRequest."""
    entity_id = parse_uuid(req.entity_id, "entity_id")
    if not req.HasField("message"):
        raise InvalidInput("message is required")
    message = _evaluated(req.message, "message", entity_id, now, limits)
    return _evaluation(req, entity_id, (message,), now, limits)


def evaluate_batch_input(req: pb.EvaluateBatchRequest, now: datetime, limits: Limits) -> EvaluateInput:
    """A validated EvaluateBatchRequest: its messages oldest first (a stable sort by created_at)."""
    entity_id = parse_uuid(req.entity_id, "entity_id")
    if not req.messages:
        raise InvalidInput("messages is empty: a batch needs at least one message")
    if len(req.messages) > limits.max_batch_messages:
        raise InvalidInput(f"messages has {len(req.messages)} messages; at most {limits.max_batch_messages} allowed")
    messages = [_evaluated(m, f"messages[{i}]", entity_id, now, limits) for i, m in enumerate(req.messages)]
    seen: set[str] = set()
    for i, message in enumerate(messages):
        if message.id in seen:
            raise InvalidInput(f"messages[{i}].id repeats an earlier message's id; ids must be unique")
        seen.add(message.id)
    return _evaluation(req, entity_id, sorted(messages, key=lambda m: m.created_at), now, limits)


def _evaluated(msg: pb.ChatMessage, field: str, entity_id: UUID, now: datetime, limits: Limits) -> ChatMessage:
    """A message to learn from: keyed, not empty, from the entity, and not dated after the server's clock."""
    message = to_message(msg, field, now, limits, require_id=True)
    if not message.text.strip():
        raise InvalidInput(f"{field}.text is empty")
    if message.entity_id and message.entity_id != str(entity_id):
        raise InvalidInput(f"{field}.entity_id differs from entity_id: facts are extracted about the sender")
    # Facts take their times from the message: one dated in the future would stay new for ever.
    return message.model_copy(
        update={
            "created_at": times.not_after(message.created_at, now, limits.clock_skew_s),
            "entity_id": str(entity_id),
        }
    )


def _evaluation(
    req: pb.EvaluateRequest | pb.EvaluateBatchRequest,
    entity_id: UUID,
    messages: Sequence[ChatMessage],
    now: datetime,
    limits: Limits,
) -> EvaluateInput:
    """The parts an Evaluate and an EvaluateBatch share, validated; `messages` oldest first."""
    agent_id = parse_uuid(req.agent_id, "agent_id")
    if len(req.room_entities) > limits.max_room_entities:
        raise InvalidInput(f"room_entities has more than {limits.max_room_entities} entries")
    entities = tuple(
        RoomEntity(
            id=canonical_id(_text(e.id, f"room_entities[{i}].id", limits.max_id_chars)),
            names=tuple(
                _text(n, f"room_entities[{i}].names", limits.max_name_chars)
                for n in e.names[: limits.max_names_per_entity]
            ),
        )
        for i, e in enumerate(req.room_entities)
    )
    world_id = optional_uuid(req.world_id, "world_id")
    world_name = one_line(_text(req.world_name, "world_name", limits.max_name_chars))
    if world_name and world_id is None:
        raise InvalidInput("world_name needs world_id: it names the world the messages were said in")
    return EvaluateInput(
        agent_id=agent_id,
        entity_id=entity_id,
        room_id=optional_uuid(req.room_id, "room_id"),
        message=messages[-1],
        earlier=tuple(messages[:-1]),
        recent_messages=_messages(req.recent_messages, "recent_messages", now, limits),
        items=_items(req.items),
        room_entities=entities,
        agent_responses=_messages(req.agent_responses, "agent_responses", now, limits),
        did_respond=req.did_respond,
        world_id=world_id,
        speaker_roles=_roles(req.speaker_roles, limits),
        world_name=world_name,
    )


def _roles(roles: Sequence[str], limits: Limits) -> tuple[str, ...]:
    if len(roles) > MAX_SPEAKER_ROLES:
        raise InvalidInput(f"speaker_roles has more than {MAX_SPEAKER_ROLES} entries")
    return tuple(_text(r, "speaker_roles", limits.max_name_chars).strip() for r in roles)


def _limit(value: int, field: str, limits: Limits, default: int | None = None) -> int:
    if value < 0 or value > limits.max_provide_limit:
        raise InvalidInput(f"{field} must be between 0 and {limits.max_provide_limit}")
    return value or (limits.default_provide_limit if default is None else default)


def _section_limits(req: pb.ProvideRequest, limits: Limits) -> dict[str, int]:
    """Fixed sections (total_limit 0: each limit or the default), or one shared budget whose sections are capped by
    the limits the caller gave (a limit left at 0 caps nothing: the budget does)."""
    total = req.total_limit
    if total < 0 or total > 2 * limits.max_provide_limit:
        raise InvalidInput(f"total_limit must be between 0 and {2 * limits.max_provide_limit}")
    if total == 0:
        return {
            "durable_limit": _limit(req.durable_limit, "durable_limit", limits),
            "current_limit": _limit(req.current_limit, "current_limit", limits),
        }
    durable = _limit(req.durable_limit, "durable_limit", limits) if req.durable_limit else total
    current = _limit(req.current_limit, "current_limit", limits) if req.current_limit else total
    return {"durable_limit": durable, "current_limit": current, "total_limit": total}


def provide_input(req: pb.ProvideRequest, now: datetime, limits: Limits) -> ProvideInput:
    """A validated ProvideRequest."""
    return ProvideInput(
        agent_id=parse_uuid(req.agent_id, "agent_id"),
        entity_id=parse_uuid(req.entity_id, "entity_id"),
        room_id=optional_uuid(req.room_id, "room_id"),
        recent_messages=_messages(req.recent_messages, "recent_messages", now, limits),
        **_section_limits(req, limits),
        subject_name=_text(req.subject_name, "subject_name", limits.max_name_chars).strip(),
        now=to_datetime(req.now, "now", now),
        world_id=optional_uuid(req.world_id, "world_id"),
        shared_limit=_limit(req.shared_limit, "shared_limit", limits, SHARED_LIMIT),
    )


def kind_filter(value: int) -> Kind | None:
    if value == pb.KIND_UNSPECIFIED:
        return None
    if value not in KINDS_IN:
        raise InvalidInput(f"kind has unknown value {value}")
    return KINDS_IN[value]


def page_size(value: int, limits: Limits) -> int:
    if value < 0 or value > limits.max_page_size:
        raise InvalidInput(f"page_size must be between 0 and {limits.max_page_size}")
    return value or limits.default_page_size


def resolution(value: int, decision: int) -> Resolution:
    """The resolution field, or the first contract's decision when it is unset."""
    if value != pb.RESOLUTION_UNSPECIFIED:
        if value not in RESOLUTIONS_IN:
            raise InvalidInput(f"resolution has unknown value {value}")
        return RESOLUTIONS_IN[value]
    if decision == pb.DECISION_ACCEPT:
        return Resolution.ACCEPT
    if decision == pb.DECISION_REJECT:
        return Resolution.REJECT
    raise InvalidInput("resolution (or decision: DECISION_ACCEPT or DECISION_REJECT) is required")


def status_filter(value: int, any_status: bool) -> CandidateStatus | None:
    """UNSPECIFIED means pending (as the first contract listed); any_status lists all."""
    if any_status:
        return None
    if value == pb.CANDIDATE_STATUS_UNSPECIFIED:
        return CandidateStatus.PENDING
    if value not in CANDIDATE_STATUSES_IN:
        raise InvalidInput(f"status has unknown value {value}")
    return CANDIDATE_STATUSES_IN[value]


def source_filter(value: int) -> CandidateSource | None:
    if value == pb.CANDIDATE_SOURCE_UNSPECIFIED:
        return None
    if value not in CANDIDATE_SOURCES_IN:
        raise InvalidInput(f"source has unknown value {value}")
    return CANDIDATE_SOURCES_IN[value]


def required_kind(value: int) -> Kind:
    kind = kind_filter(value)
    if kind is None:
        raise InvalidInput("kind is required (KIND_DURABLE or KIND_CURRENT)")
    return kind


def query(value: str, limits: Limits) -> str:
    return _text(value, "query", limits.max_name_chars)


def fact_edit(req: pb.UpdateFactRequest, max_claim_chars: int, max_category_chars: int) -> FactEdit:
    """The fields the request sets; at least one."""
    verification = None
    if req.verification_status != pb.VERIFICATION_STATUS_UNSPECIFIED:
        if req.verification_status not in VERIFICATIONS_IN:
            raise InvalidInput(f"verification_status has unknown value {req.verification_status}")
        verification = VERIFICATIONS_IN[req.verification_status]
    edit = FactEdit(
        claim=_text(req.claim, "claim", max_claim_chars) if req.HasField("claim") else None,
        category=_text(req.category, "category", max_category_chars) if req.HasField("category") else None,
        kind=kind_filter(req.kind),
        confidence=req.confidence if req.HasField("confidence") else None,
        verification=verification,
    )
    if edit == FactEdit():
        raise InvalidInput("nothing to change: set claim, category, kind, confidence or verification_status")
    return edit


def export_token(position: ExportPosition | None) -> str:
    """An opaque page token for an export position ("" for none)."""
    if position is None:
        return ""
    raw = json.dumps([position.section, None if position.after is None else list(position.after)])
    return base64.urlsafe_b64encode(raw.encode()).decode()


def export_position(token: str) -> ExportPosition | None:
    """The position a page token stands for; INVALID_ARGUMENT for anything this service did not issue."""
    if not token:
        return None
    try:
        section, after = json.loads(base64.urlsafe_b64decode(token.encode("ascii")))
    except (ValueError, TypeError, UnicodeError, RecursionError):
        raise InvalidInput("page_token is not a token this service issued") from None
    if not isinstance(section, str) or not (after is None or isinstance(after, list)):
        raise InvalidInput("page_token is not a token this service issued")
    return check_position(section, after)
