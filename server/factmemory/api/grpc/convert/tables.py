"""The enum tables between protobuf and the domain, and the primitives every message uses: ids and times."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

from google.protobuf.timestamp_pb2 import Timestamp

from factmemory.domain import times
from factmemory.domain.errors import InvalidInput
from factmemory.domain.models import (
    CandidateSource,
    CandidateStatus,
    EntityKind,
    HistoryAction,
    Item,
    Kind,
    OpType,
    Resolution,
    Verification,
)
from factmemory.v1 import factmemory_pb2 as pb

ITEMS: dict[int, Item] = {
    pb.ITEM_FACTS: Item.FACTS,
    pb.ITEM_RELATIONSHIPS: Item.RELATIONSHIPS,
    pb.ITEM_IDENTITIES: Item.IDENTITIES,
    pb.ITEM_SUCCESS: Item.SUCCESS,
}
KINDS = {Kind.DURABLE: pb.KIND_DURABLE, Kind.CURRENT: pb.KIND_CURRENT}
KINDS_IN: dict[int, Kind] = {v: k for k, v in KINDS.items()}
OPS = {
    OpType.ADD_DURABLE: pb.OP_TYPE_ADD_DURABLE,
    OpType.ADD_CURRENT: pb.OP_TYPE_ADD_CURRENT,
    OpType.STRENGTHEN: pb.OP_TYPE_STRENGTHEN,
    OpType.DECAY: pb.OP_TYPE_DECAY,
    OpType.CONTRADICT: pb.OP_TYPE_CONTRADICT,
    OpType.MERGE: pb.OP_TYPE_MERGE,
}
VERIFICATIONS = {
    Verification.SELF_REPORTED: pb.VERIFICATION_STATUS_SELF_REPORTED,
    Verification.CONFIRMED: pb.VERIFICATION_STATUS_CONFIRMED,
    Verification.CONTRADICTED: pb.VERIFICATION_STATUS_CONTRADICTED,
}
CANDIDATE_STATUSES = {
    CandidateStatus.PENDING: pb.CANDIDATE_STATUS_PENDING,
    CandidateStatus.ACCEPTED: pb.CANDIDATE_STATUS_ACCEPTED,
    CandidateStatus.REJECTED: pb.CANDIDATE_STATUS_REJECTED,
}
CANDIDATE_STATUSES_IN: dict[int, CandidateStatus] = {v: k for k, v in CANDIDATE_STATUSES.items()}
CANDIDATE_SOURCES = {
    CandidateSource.CONTRADICT: pb.CANDIDATE_SOURCE_CONTRADICT,
    CandidateSource.DEDUP_CONFLICT: pb.CANDIDATE_SOURCE_DEDUP_CONFLICT,
    CandidateSource.DECAY_FLOOR: pb.CANDIDATE_SOURCE_DECAY_FLOOR,
    CandidateSource.SHARED_CLAIM: pb.CANDIDATE_SOURCE_SHARED_CLAIM,
}
CANDIDATE_SOURCES_IN: dict[int, CandidateSource] = {v: k for k, v in CANDIDATE_SOURCES.items()}
RESOLUTIONS = {
    Resolution.ACCEPT: pb.RESOLUTION_ACCEPT,
    Resolution.REJECT: pb.RESOLUTION_REJECT,
    Resolution.KEEP_BOTH: pb.RESOLUTION_KEEP_BOTH,
    Resolution.KEEP_NEW: pb.RESOLUTION_KEEP_NEW,
    Resolution.KEEP_OLD: pb.RESOLUTION_KEEP_OLD,
    Resolution.MERGE: pb.RESOLUTION_MERGE,
}
RESOLUTIONS_IN: dict[int, Resolution] = {v: k for k, v in RESOLUTIONS.items()}
VERIFICATIONS_IN: dict[int, Verification] = {v: k for k, v in VERIFICATIONS.items()}
HISTORY_ACTIONS: dict[HistoryAction, pb.HistoryAction] = {
    action: getattr(pb, f"HISTORY_ACTION_{action.name}") for action in HistoryAction
}


def parse_uuid(value: str, field: str) -> UUID:
    """A required UUID field."""
    if not value:
        raise InvalidInput(f"{field} is required")
    try:
        return UUID(value)
    except ValueError:
        raise InvalidInput(f"{field} must be a UUID, got {value[:40]!r}") from None


def optional_uuid(value: str, field: str) -> UUID | None:
    return parse_uuid(value, field) if value else None


def canonical_id(value: str) -> str:
    """A UUID in its one spelling (lower case, hyphenated), whatever way it was written; other ids unchanged.

    Ids are keys (idempotency, speaker matching): '{A...}', 'urn:uuid:a...' and 'a...' without hyphens are the
    same message."""
    try:
        return str(UUID(value))
    except ValueError:
        return value


def to_datetime(ts: Timestamp, field: str, default: datetime) -> datetime:
    if ts.seconds == 0 and ts.nanos == 0:
        return default
    try:
        value = ts.ToDatetime(tzinfo=UTC)
    except (ValueError, OverflowError, OSError):
        raise InvalidInput(f"{field} is not a valid timestamp") from None
    if not times.in_range(value):
        raise InvalidInput(f"{field} must be {times.RANGE_TEXT}, got {value:%Y-%m-%d}")
    return value


def to_timestamp(value: datetime | None) -> Timestamp | None:
    if value is None:
        return None
    ts = Timestamp()
    ts.FromDatetime(value)
    return ts


ENTITY_KINDS: dict[EntityKind, pb.EntityKind] = {
    EntityKind.PERSON: pb.ENTITY_KIND_PERSON,
    EntityKind.WORLD: pb.ENTITY_KIND_WORLD,
    EntityKind.AGENT: pb.ENTITY_KIND_AGENT_WIDE,
    EntityKind.HELD: pb.ENTITY_KIND_HELD,
}
