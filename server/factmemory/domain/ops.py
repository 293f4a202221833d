"""Validates the model's ops and the other items against what it was shown. Pure: values in, values out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from pydantic import TypeAdapter, ValidationError

from factmemory.domain import times
from factmemory.domain.extraction import (
    AddCurrent,
    AddDurable,
    Contradict,
    Decay,
    IdentityReply,
    Merge,
    ModelOp,
    RelationshipReply,
    Strengthen,
)
from factmemory.domain.limits import Limits
from factmemory.domain.models import UNCATEGORIZED, Fact, Kind, OpType, RoomEntity, Verification
from factmemory.domain.text import one_line

IDENTITY_MIN_CONFIDENCE = 0.5

_OP_ADAPTER: TypeAdapter[Any] = TypeAdapter(ModelOp)


@dataclass(frozen=True)
class PlannedAdd:
    """A new fact the model proposed (still subject to the write-time dedup check)."""

    op: OpType
    kind: Kind
    category: str
    claim: str
    structured_fields: dict[str, str]
    verification: Verification
    valid_at: datetime | None


@dataclass(frozen=True)
class PlannedChange:
    """A strengthen, decay or contradict of a fact the model was shown."""

    op: OpType
    handle: str
    fact: Fact
    reason: str
    proposed_claim: str = ""
    # An imported (uncategorized) fact's proper category, named by the model; the kind follows from it.
    reclassify_to: str | None = None


@dataclass(frozen=True)
class RejectedOp:
    """An op that will not be applied, and why."""

    op: OpType
    reason: str
    handle: str = ""


@dataclass(frozen=True)
class PlannedMerge:
    """Fold the shown fact `duplicate` into the shown fact `fact` (same kind, two different handles)."""

    op: OpType
    handle: str
    fact: Fact
    duplicate_handle: str
    duplicate: Fact
    reason: str


Planned = PlannedAdd | PlannedChange | PlannedMerge | RejectedOp


def clean_text(text: str) -> str:
    """TEMPORARY alias of text.one_line, for the modules other work was editing when the rename was made
    (usecases/evaluate/applying.py, domain/excerpts.py); goes once they say one_line."""
    return one_line(text)


def _op_type(raw: Mapping[str, Any]) -> OpType:
    try:
        return OpType(str(raw.get("op")))
    except ValueError:
        return OpType.ADD_DURABLE


def _normalize_fields(raw: Any, limits: Limits) -> Any:
    """Accepts structured_fields as the schema's [{key, value}] list or as a plain object; at most max_fields."""
    if isinstance(raw, dict):
        return [{"key": str(k), "value": str(v)} for k, v in list(raw.items())[: limits.max_fields]]
    if isinstance(raw, list):
        return raw[: limits.max_fields]
    return [] if raw is None else raw


def _parse_date(text: str | None, default: datetime) -> datetime:
    if not text:
        return default
    try:
        parsed = datetime.fromisoformat(text.strip())
        # An offset can push a date before year 1 in UTC, which the database cannot store.
        parsed = (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).astimezone(UTC)
    except (ValueError, OverflowError):
        return default
    if not times.in_range(parsed):
        return default
    # A state cannot begin after the message that reports it.
    return min(parsed, default)


def _fields(items: Sequence[Any], limits: Limits) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items[: limits.max_fields]:
        key = one_line(item.key)[: limits.max_field_chars]
        if key:
            out[key] = one_line(item.value)[: limits.max_field_chars]
    return out


def plan_op(raw: Any, handles: Mapping[str, Fact], message_time: datetime, limits: Limits) -> Planned:
    """One raw op from the model as an add, a change of a shown fact, or a rejection."""
    if not isinstance(raw, Mapping):
        return RejectedOp(OpType.ADD_DURABLE, "op is not an object")
    op_type = _op_type(raw)
    try:
        fields = _normalize_fields(raw.get("structured_fields"), limits)
        op = _OP_ADAPTER.validate_python({**raw, "structured_fields": fields} if "structured_fields" in raw else raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        # The model's text is echoed back and stored: keep it printable (no NUL, no lone surrogates).
        return RejectedOp(
            op_type, one_line(f"invalid op: {where}: {first['msg']}"), one_line(str(raw.get("fact", "")))[:20]
        )
    if isinstance(op, AddDurable | AddCurrent):
        return _plan_add(op, message_time, limits)
    return _plan_change(op, handles, limits)


def _plan_add(op: AddDurable | AddCurrent, message_time: datetime, limits: Limits) -> Planned:
    claim = one_line(op.claim)
    op_type = OpType(op.op)
    if not claim:
        return RejectedOp(op_type, "empty claim")
    if len(claim) > limits.max_claim_chars:
        return RejectedOp(op_type, f"claim longer than {limits.max_claim_chars} characters")
    if isinstance(op, AddDurable):
        verification = Verification(op.verification_status or Verification.SELF_REPORTED.value)
        return PlannedAdd(
            op_type, Kind.DURABLE, op.category, claim, _fields(op.structured_fields, limits), verification, None
        )
    return PlannedAdd(
        op_type,
        Kind.CURRENT,
        op.category,
        claim,
        _fields(op.structured_fields, limits),
        Verification.SELF_REPORTED,
        _parse_date(op.valid_at, message_time),
    )


def _unknown(op_type: OpType, raw_handle: str) -> RejectedOp:
    shown = one_line(raw_handle)[:20]
    return RejectedOp(op_type, f"unknown handle {shown!r}: only shown facts can be referenced", shown)


def _plan_merge(op: Merge, handles: Mapping[str, Fact], limits: Limits) -> Planned:
    handle, duplicate_handle = op.fact.strip().upper(), op.duplicate.strip().upper()
    fact, duplicate = handles.get(handle), handles.get(duplicate_handle)
    if fact is None or duplicate is None:
        return _unknown(OpType.MERGE, op.fact if fact is None else op.duplicate)
    if handle == duplicate_handle:
        return RejectedOp(OpType.MERGE, "merge needs two different facts", handle)
    if fact.kind is not duplicate.kind:
        return RejectedOp(
            OpType.MERGE,
            f"cannot merge {handle} and {duplicate_handle}: a durable and a current fact never say the same thing",
            handle,
        )
    reason = one_line(op.reason or "")[: limits.max_claim_chars]
    return PlannedMerge(OpType.MERGE, handle, fact, duplicate_handle, duplicate, reason)


def _plan_change(op: Strengthen | Decay | Contradict | Merge, handles: Mapping[str, Fact], limits: Limits) -> Planned:
    if isinstance(op, Merge):
        return _plan_merge(op, handles, limits)
    op_type = OpType(op.op)
    handle = op.fact.strip().upper()
    fact = handles.get(handle)
    if fact is None:
        return _unknown(op_type, op.fact)
    reason = one_line(op.reason or "")[: limits.max_claim_chars]
    reclassify_to = op.category if fact.category == UNCATEGORIZED and op.category else None
    if isinstance(op, Contradict):
        proposed = one_line(op.proposed_claim)
        if not proposed or len(proposed) > limits.max_claim_chars:
            return RejectedOp(op_type, "contradict needs a proposed_claim of reasonable length", handle)
        return PlannedChange(op_type, handle, fact, reason, proposed, reclassify_to)
    return PlannedChange(op_type, handle, fact, reason, reclassify_to=reclassify_to)


def message_index(raw: Any, count: int) -> int:
    """The message of a batch an op names ('M2' -> 1); the last one when it names none of M1..M<count>."""
    named = raw.get("message") if isinstance(raw, dict) else None
    if isinstance(named, str):
        digits = named.strip().upper().removeprefix("M")
        if digits.isdigit() and 1 <= int(digits) <= count:
            return int(digits) - 1
    return count - 1


def plan_ops(
    raw_ops: Sequence[Any],
    handles: Mapping[str, Fact],
    message_time: datetime,
    limits: Limits,
    op_times: Sequence[datetime] = (),
) -> list[Planned]:
    """The first limits.max_ops ops validated (the rest are dropped: see dropped()); one change per fact.
    `op_times[i]`, when given, is the time of the message raw_ops[i] comes from (a batch); else message_time."""
    planned: list[Planned] = []
    touched: set[str] = set()
    for i, raw in enumerate(raw_ops[: limits.max_ops]):
        item = plan_op(raw, handles, op_times[i] if i < len(op_times) else message_time, limits)
        if isinstance(item, PlannedChange | PlannedMerge):
            names = {item.handle, item.duplicate_handle} if isinstance(item, PlannedMerge) else {item.handle}
            again = sorted(names & touched)
            if again:
                item = RejectedOp(item.op, f"{again[0]} already changed by this message", item.handle)
            else:
                touched |= names
        planned.append(item)
    return planned


def dropped(count: int, cap: int) -> int:
    """How many of count items a cap drops."""
    return max(0, count - cap)


def plan_relationships(
    raw: Sequence[RelationshipReply], room_entities: Sequence[RoomEntity], limits: Limits
) -> list[tuple[UUID, UUID, tuple[str, ...]]]:
    """Edges between known room entities only; no self-edges; at most max_relationships edges of max_tags tags."""
    known = {_as_uuid(e.id) for e in room_entities} - {None}
    edges: dict[tuple[UUID, UUID], set[str]] = {}
    for rel in raw:
        source, target = _as_uuid(rel.source_entity_id), _as_uuid(rel.target_entity_id)
        if source is None or target is None or source == target or source not in known or target not in known:
            continue
        if (source, target) not in edges and len(edges) >= limits.max_relationships:
            continue
        tags = edges.setdefault((source, target), set())
        for tag in rel.tags[: limits.max_tags]:
            cleaned = one_line(tag).lower()[: limits.max_tag_chars]
            if cleaned and len(tags) < limits.max_tags:
                tags.add(cleaned)
    return [(s, t, tuple(sorted(tags))) for (s, t), tags in edges.items()]


def plan_identities(
    raw: Sequence[IdentityReply], room_entities: Sequence[RoomEntity], speaker: UUID, limits: Limits
) -> list[tuple[UUID, str, str, float]]:
    """Identities of the speaker or room entities, kept when confidence >= 0.5; at most max_identities."""
    known = ({_as_uuid(e.id) for e in room_entities} | {speaker}) - {None}
    out: dict[tuple[UUID, str, str], float] = {}
    for ident in raw:
        entity = _as_uuid(ident.entity_id)
        platform = one_line(ident.platform).lower()[: limits.max_tag_chars]
        handle = one_line(ident.handle)[: limits.max_field_chars]
        confidence = min(1.0, max(0.0, ident.confidence))
        if entity in known and entity is not None and platform and handle and confidence >= IDENTITY_MIN_CONFIDENCE:
            key = (entity, platform, handle)
            if key not in out and len(out) >= limits.max_identities:
                continue
            out[key] = max(out.get(key, 0.0), confidence)
    return [(e, p, h, c) for (e, p, h), c in out.items()]


def _as_uuid(text: str) -> UUID | None:
    try:
        return UUID(text.strip())
    except (ValueError, AttributeError):
        return None
