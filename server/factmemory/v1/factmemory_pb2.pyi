import datetime

from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Item(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ITEM_UNSPECIFIED: _ClassVar[Item]
    ITEM_FACTS: _ClassVar[Item]
    ITEM_RELATIONSHIPS: _ClassVar[Item]
    ITEM_IDENTITIES: _ClassVar[Item]
    ITEM_SUCCESS: _ClassVar[Item]

class Kind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KIND_UNSPECIFIED: _ClassVar[Kind]
    KIND_DURABLE: _ClassVar[Kind]
    KIND_CURRENT: _ClassVar[Kind]

class OpType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OP_TYPE_UNSPECIFIED: _ClassVar[OpType]
    OP_TYPE_ADD_DURABLE: _ClassVar[OpType]
    OP_TYPE_ADD_CURRENT: _ClassVar[OpType]
    OP_TYPE_STRENGTHEN: _ClassVar[OpType]
    OP_TYPE_DECAY: _ClassVar[OpType]
    OP_TYPE_CONTRADICT: _ClassVar[OpType]
    OP_TYPE_MERGE: _ClassVar[OpType]

class VerificationStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VERIFICATION_STATUS_UNSPECIFIED: _ClassVar[VerificationStatus]
    VERIFICATION_STATUS_SELF_REPORTED: _ClassVar[VerificationStatus]
    VERIFICATION_STATUS_CONFIRMED: _ClassVar[VerificationStatus]
    VERIFICATION_STATUS_CONTRADICTED: _ClassVar[VerificationStatus]

class CandidateStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CANDIDATE_STATUS_UNSPECIFIED: _ClassVar[CandidateStatus]
    CANDIDATE_STATUS_PENDING: _ClassVar[CandidateStatus]
    CANDIDATE_STATUS_ACCEPTED: _ClassVar[CandidateStatus]
    CANDIDATE_STATUS_REJECTED: _ClassVar[CandidateStatus]

class Decision(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DECISION_UNSPECIFIED: _ClassVar[Decision]
    DECISION_ACCEPT: _ClassVar[Decision]
    DECISION_REJECT: _ClassVar[Decision]

class Resolution(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RESOLUTION_UNSPECIFIED: _ClassVar[Resolution]
    RESOLUTION_ACCEPT: _ClassVar[Resolution]
    RESOLUTION_REJECT: _ClassVar[Resolution]
    RESOLUTION_KEEP_BOTH: _ClassVar[Resolution]
    RESOLUTION_KEEP_NEW: _ClassVar[Resolution]
    RESOLUTION_KEEP_OLD: _ClassVar[Resolution]
    RESOLUTION_MERGE: _ClassVar[Resolution]

class CandidateSource(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CANDIDATE_SOURCE_UNSPECIFIED: _ClassVar[CandidateSource]
    CANDIDATE_SOURCE_CONTRADICT: _ClassVar[CandidateSource]
    CANDIDATE_SOURCE_DEDUP_CONFLICT: _ClassVar[CandidateSource]
    CANDIDATE_SOURCE_DECAY_FLOOR: _ClassVar[CandidateSource]
    CANDIDATE_SOURCE_SHARED_CLAIM: _ClassVar[CandidateSource]

class HistoryAction(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HISTORY_ACTION_UNSPECIFIED: _ClassVar[HistoryAction]
    HISTORY_ACTION_CREATED: _ClassVar[HistoryAction]
    HISTORY_ACTION_STRENGTHENED: _ClassVar[HistoryAction]
    HISTORY_ACTION_DECAYED: _ClassVar[HistoryAction]
    HISTORY_ACTION_CONTRADICTED: _ClassVar[HistoryAction]
    HISTORY_ACTION_MERGED: _ClassVar[HistoryAction]
    HISTORY_ACTION_CANDIDATE_ACCEPTED: _ClassVar[HistoryAction]
    HISTORY_ACTION_CANDIDATE_REJECTED: _ClassVar[HistoryAction]
    HISTORY_ACTION_KEPT_BOTH: _ClassVar[HistoryAction]
    HISTORY_ACTION_EDITED: _ClassVar[HistoryAction]
    HISTORY_ACTION_DELETED: _ClassVar[HistoryAction]
    HISTORY_ACTION_RECLASSIFIED: _ClassVar[HistoryAction]
    HISTORY_ACTION_IMPORTED: _ClassVar[HistoryAction]
    HISTORY_ACTION_ARCHIVED: _ClassVar[HistoryAction]

class EntityKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ENTITY_KIND_UNSPECIFIED: _ClassVar[EntityKind]
    ENTITY_KIND_PERSON: _ClassVar[EntityKind]
    ENTITY_KIND_WORLD: _ClassVar[EntityKind]
    ENTITY_KIND_AGENT_WIDE: _ClassVar[EntityKind]
    ENTITY_KIND_HELD: _ClassVar[EntityKind]
ITEM_UNSPECIFIED: Item
ITEM_FACTS: Item
ITEM_RELATIONSHIPS: Item
ITEM_IDENTITIES: Item
ITEM_SUCCESS: Item
KIND_UNSPECIFIED: Kind
KIND_DURABLE: Kind
KIND_CURRENT: Kind
OP_TYPE_UNSPECIFIED: OpType
OP_TYPE_ADD_DURABLE: OpType
OP_TYPE_ADD_CURRENT: OpType
OP_TYPE_STRENGTHEN: OpType
OP_TYPE_DECAY: OpType
OP_TYPE_CONTRADICT: OpType
OP_TYPE_MERGE: OpType
VERIFICATION_STATUS_UNSPECIFIED: VerificationStatus
VERIFICATION_STATUS_SELF_REPORTED: VerificationStatus
VERIFICATION_STATUS_CONFIRMED: VerificationStatus
VERIFICATION_STATUS_CONTRADICTED: VerificationStatus
CANDIDATE_STATUS_UNSPECIFIED: CandidateStatus
CANDIDATE_STATUS_PENDING: CandidateStatus
CANDIDATE_STATUS_ACCEPTED: CandidateStatus
CANDIDATE_STATUS_REJECTED: CandidateStatus
DECISION_UNSPECIFIED: Decision
DECISION_ACCEPT: Decision
DECISION_REJECT: Decision
RESOLUTION_UNSPECIFIED: Resolution
RESOLUTION_ACCEPT: Resolution
RESOLUTION_REJECT: Resolution
RESOLUTION_KEEP_BOTH: Resolution
RESOLUTION_KEEP_NEW: Resolution
RESOLUTION_KEEP_OLD: Resolution
RESOLUTION_MERGE: Resolution
CANDIDATE_SOURCE_UNSPECIFIED: CandidateSource
CANDIDATE_SOURCE_CONTRADICT: CandidateSource
CANDIDATE_SOURCE_DEDUP_CONFLICT: CandidateSource
CANDIDATE_SOURCE_DECAY_FLOOR: CandidateSource
CANDIDATE_SOURCE_SHARED_CLAIM: CandidateSource
HISTORY_ACTION_UNSPECIFIED: HistoryAction
HISTORY_ACTION_CREATED: HistoryAction
HISTORY_ACTION_STRENGTHENED: HistoryAction
HISTORY_ACTION_DECAYED: HistoryAction
HISTORY_ACTION_CONTRADICTED: HistoryAction
HISTORY_ACTION_MERGED: HistoryAction
HISTORY_ACTION_CANDIDATE_ACCEPTED: HistoryAction
HISTORY_ACTION_CANDIDATE_REJECTED: HistoryAction
HISTORY_ACTION_KEPT_BOTH: HistoryAction
HISTORY_ACTION_EDITED: HistoryAction
HISTORY_ACTION_DELETED: HistoryAction
HISTORY_ACTION_RECLASSIFIED: HistoryAction
HISTORY_ACTION_IMPORTED: HistoryAction
HISTORY_ACTION_ARCHIVED: HistoryAction
ENTITY_KIND_UNSPECIFIED: EntityKind
ENTITY_KIND_PERSON: EntityKind
ENTITY_KIND_WORLD: EntityKind
ENTITY_KIND_AGENT_WIDE: EntityKind
ENTITY_KIND_HELD: EntityKind

class ChatMessage(_message.Message):
    __slots__ = ("id", "entity_id", "name", "text", "created_at")
    ID_FIELD_NUMBER: _ClassVar[int]
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    id: str
    entity_id: str
    name: str
    text: str
    created_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., entity_id: _Optional[str] = ..., name: _Optional[str] = ..., text: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class RoomEntity(_message.Message):
    __slots__ = ("id", "names")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAMES_FIELD_NUMBER: _ClassVar[int]
    id: str
    names: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, id: _Optional[str] = ..., names: _Optional[_Iterable[str]] = ...) -> None: ...

class Fact(_message.Message):
    __slots__ = ("id", "agent_id", "entity_id", "kind", "category", "claim", "structured_fields", "confidence", "evidence_message_ids", "verification_status", "created_at", "last_confirmed_at", "valid_at", "previous_claims", "disputed_by", "evidence_count")
    ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    CLAIM_FIELD_NUMBER: _ClassVar[int]
    STRUCTURED_FIELDS_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    EVIDENCE_MESSAGE_IDS_FIELD_NUMBER: _ClassVar[int]
    VERIFICATION_STATUS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    LAST_CONFIRMED_AT_FIELD_NUMBER: _ClassVar[int]
    VALID_AT_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_CLAIMS_FIELD_NUMBER: _ClassVar[int]
    DISPUTED_BY_FIELD_NUMBER: _ClassVar[int]
    EVIDENCE_COUNT_FIELD_NUMBER: _ClassVar[int]
    id: str
    agent_id: str
    entity_id: str
    kind: Kind
    category: str
    claim: str
    structured_fields: _struct_pb2.Struct
    confidence: float
    evidence_message_ids: _containers.RepeatedScalarFieldContainer[str]
    verification_status: VerificationStatus
    created_at: _timestamp_pb2.Timestamp
    last_confirmed_at: _timestamp_pb2.Timestamp
    valid_at: _timestamp_pb2.Timestamp
    previous_claims: _containers.RepeatedScalarFieldContainer[str]
    disputed_by: str
    evidence_count: int
    def __init__(self, id: _Optional[str] = ..., agent_id: _Optional[str] = ..., entity_id: _Optional[str] = ..., kind: _Optional[_Union[Kind, str]] = ..., category: _Optional[str] = ..., claim: _Optional[str] = ..., structured_fields: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., confidence: _Optional[float] = ..., evidence_message_ids: _Optional[_Iterable[str]] = ..., verification_status: _Optional[_Union[VerificationStatus, str]] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., last_confirmed_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., valid_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., previous_claims: _Optional[_Iterable[str]] = ..., disputed_by: _Optional[str] = ..., evidence_count: _Optional[int] = ...) -> None: ...

class EvaluateRequest(_message.Message):
    __slots__ = ("agent_id", "entity_id", "room_id", "message", "recent_messages", "items", "room_entities", "agent_responses", "did_respond", "world_id", "speaker_roles", "world_name")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    RECENT_MESSAGES_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    ROOM_ENTITIES_FIELD_NUMBER: _ClassVar[int]
    AGENT_RESPONSES_FIELD_NUMBER: _ClassVar[int]
    DID_RESPOND_FIELD_NUMBER: _ClassVar[int]
    WORLD_ID_FIELD_NUMBER: _ClassVar[int]
    SPEAKER_ROLES_FIELD_NUMBER: _ClassVar[int]
    WORLD_NAME_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    entity_id: str
    room_id: str
    message: ChatMessage
    recent_messages: _containers.RepeatedCompositeFieldContainer[ChatMessage]
    items: _containers.RepeatedScalarFieldContainer[Item]
    room_entities: _containers.RepeatedCompositeFieldContainer[RoomEntity]
    agent_responses: _containers.RepeatedCompositeFieldContainer[ChatMessage]
    did_respond: bool
    world_id: str
    speaker_roles: _containers.RepeatedScalarFieldContainer[str]
    world_name: str
    def __init__(self, agent_id: _Optional[str] = ..., entity_id: _Optional[str] = ..., room_id: _Optional[str] = ..., message: _Optional[_Union[ChatMessage, _Mapping]] = ..., recent_messages: _Optional[_Iterable[_Union[ChatMessage, _Mapping]]] = ..., items: _Optional[_Iterable[_Union[Item, str]]] = ..., room_entities: _Optional[_Iterable[_Union[RoomEntity, _Mapping]]] = ..., agent_responses: _Optional[_Iterable[_Union[ChatMessage, _Mapping]]] = ..., did_respond: _Optional[bool] = ..., world_id: _Optional[str] = ..., speaker_roles: _Optional[_Iterable[str]] = ..., world_name: _Optional[str] = ...) -> None: ...

class EvaluateBatchRequest(_message.Message):
    __slots__ = ("agent_id", "entity_id", "room_id", "messages", "recent_messages", "items", "room_entities", "agent_responses", "did_respond", "world_id", "speaker_roles", "world_name")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    RECENT_MESSAGES_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    ROOM_ENTITIES_FIELD_NUMBER: _ClassVar[int]
    AGENT_RESPONSES_FIELD_NUMBER: _ClassVar[int]
    DID_RESPOND_FIELD_NUMBER: _ClassVar[int]
    WORLD_ID_FIELD_NUMBER: _ClassVar[int]
    SPEAKER_ROLES_FIELD_NUMBER: _ClassVar[int]
    WORLD_NAME_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    entity_id: str
    room_id: str
    messages: _containers.RepeatedCompositeFieldContainer[ChatMessage]
    recent_messages: _containers.RepeatedCompositeFieldContainer[ChatMessage]
    items: _containers.RepeatedScalarFieldContainer[Item]
    room_entities: _containers.RepeatedCompositeFieldContainer[RoomEntity]
    agent_responses: _containers.RepeatedCompositeFieldContainer[ChatMessage]
    did_respond: bool
    world_id: str
    speaker_roles: _containers.RepeatedScalarFieldContainer[str]
    world_name: str
    def __init__(self, agent_id: _Optional[str] = ..., entity_id: _Optional[str] = ..., room_id: _Optional[str] = ..., messages: _Optional[_Iterable[_Union[ChatMessage, _Mapping]]] = ..., recent_messages: _Optional[_Iterable[_Union[ChatMessage, _Mapping]]] = ..., items: _Optional[_Iterable[_Union[Item, str]]] = ..., room_entities: _Optional[_Iterable[_Union[RoomEntity, _Mapping]]] = ..., agent_responses: _Optional[_Iterable[_Union[ChatMessage, _Mapping]]] = ..., did_respond: _Optional[bool] = ..., world_id: _Optional[str] = ..., speaker_roles: _Optional[_Iterable[str]] = ..., world_name: _Optional[str] = ...) -> None: ...

class EvaluateBatchResponse(_message.Message):
    __slots__ = ("results", "usage")
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    USAGE_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[EvaluateResponse]
    usage: Usage
    def __init__(self, results: _Optional[_Iterable[_Union[EvaluateResponse, _Mapping]]] = ..., usage: _Optional[_Union[Usage, _Mapping]] = ...) -> None: ...

class AppliedOp(_message.Message):
    __slots__ = ("op", "fact", "deduplicated", "deleted", "candidate_id", "rejected", "reason", "handle", "duplicate_handle", "duplicate_fact_id")
    OP_FIELD_NUMBER: _ClassVar[int]
    FACT_FIELD_NUMBER: _ClassVar[int]
    DEDUPLICATED_FIELD_NUMBER: _ClassVar[int]
    DELETED_FIELD_NUMBER: _ClassVar[int]
    CANDIDATE_ID_FIELD_NUMBER: _ClassVar[int]
    REJECTED_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    HANDLE_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_HANDLE_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_FACT_ID_FIELD_NUMBER: _ClassVar[int]
    op: OpType
    fact: Fact
    deduplicated: bool
    deleted: bool
    candidate_id: str
    rejected: bool
    reason: str
    handle: str
    duplicate_handle: str
    duplicate_fact_id: str
    def __init__(self, op: _Optional[_Union[OpType, str]] = ..., fact: _Optional[_Union[Fact, _Mapping]] = ..., deduplicated: _Optional[bool] = ..., deleted: _Optional[bool] = ..., candidate_id: _Optional[str] = ..., rejected: _Optional[bool] = ..., reason: _Optional[str] = ..., handle: _Optional[str] = ..., duplicate_handle: _Optional[str] = ..., duplicate_fact_id: _Optional[str] = ...) -> None: ...

class Relationship(_message.Message):
    __slots__ = ("source_entity_id", "target_entity_id", "tags", "interaction_count")
    SOURCE_ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    TAGS_FIELD_NUMBER: _ClassVar[int]
    INTERACTION_COUNT_FIELD_NUMBER: _ClassVar[int]
    source_entity_id: str
    target_entity_id: str
    tags: _containers.RepeatedScalarFieldContainer[str]
    interaction_count: int
    def __init__(self, source_entity_id: _Optional[str] = ..., target_entity_id: _Optional[str] = ..., tags: _Optional[_Iterable[str]] = ..., interaction_count: _Optional[int] = ...) -> None: ...

class Identity(_message.Message):
    __slots__ = ("entity_id", "platform", "handle", "confidence")
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    PLATFORM_FIELD_NUMBER: _ClassVar[int]
    HANDLE_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    entity_id: str
    platform: str
    handle: str
    confidence: float
    def __init__(self, entity_id: _Optional[str] = ..., platform: _Optional[str] = ..., handle: _Optional[str] = ..., confidence: _Optional[float] = ...) -> None: ...

class SuccessVerdict(_message.Message):
    __slots__ = ("completed", "reason")
    COMPLETED_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    completed: bool
    reason: str
    def __init__(self, completed: _Optional[bool] = ..., reason: _Optional[str] = ...) -> None: ...

class Usage(_message.Message):
    __slots__ = ("llm_calls", "prompt_tokens", "completion_tokens")
    LLM_CALLS_FIELD_NUMBER: _ClassVar[int]
    PROMPT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    COMPLETION_TOKENS_FIELD_NUMBER: _ClassVar[int]
    llm_calls: int
    prompt_tokens: int
    completion_tokens: int
    def __init__(self, llm_calls: _Optional[int] = ..., prompt_tokens: _Optional[int] = ..., completion_tokens: _Optional[int] = ...) -> None: ...

class EvaluateResponse(_message.Message):
    __slots__ = ("ops", "relationships", "identities", "success", "usage", "replayed", "dropped", "original_usage")
    OPS_FIELD_NUMBER: _ClassVar[int]
    RELATIONSHIPS_FIELD_NUMBER: _ClassVar[int]
    IDENTITIES_FIELD_NUMBER: _ClassVar[int]
    SUCCESS_FIELD_NUMBER: _ClassVar[int]
    USAGE_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    DROPPED_FIELD_NUMBER: _ClassVar[int]
    ORIGINAL_USAGE_FIELD_NUMBER: _ClassVar[int]
    ops: _containers.RepeatedCompositeFieldContainer[AppliedOp]
    relationships: _containers.RepeatedCompositeFieldContainer[Relationship]
    identities: _containers.RepeatedCompositeFieldContainer[Identity]
    success: SuccessVerdict
    usage: Usage
    replayed: bool
    dropped: DroppedCounts
    original_usage: Usage
    def __init__(self, ops: _Optional[_Iterable[_Union[AppliedOp, _Mapping]]] = ..., relationships: _Optional[_Iterable[_Union[Relationship, _Mapping]]] = ..., identities: _Optional[_Iterable[_Union[Identity, _Mapping]]] = ..., success: _Optional[_Union[SuccessVerdict, _Mapping]] = ..., usage: _Optional[_Union[Usage, _Mapping]] = ..., replayed: _Optional[bool] = ..., dropped: _Optional[_Union[DroppedCounts, _Mapping]] = ..., original_usage: _Optional[_Union[Usage, _Mapping]] = ...) -> None: ...

class ProvideRequest(_message.Message):
    __slots__ = ("agent_id", "entity_id", "room_id", "recent_messages", "durable_limit", "current_limit", "subject_name", "now", "world_id", "shared_limit", "total_limit")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    RECENT_MESSAGES_FIELD_NUMBER: _ClassVar[int]
    DURABLE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    CURRENT_LIMIT_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_NAME_FIELD_NUMBER: _ClassVar[int]
    NOW_FIELD_NUMBER: _ClassVar[int]
    WORLD_ID_FIELD_NUMBER: _ClassVar[int]
    SHARED_LIMIT_FIELD_NUMBER: _ClassVar[int]
    TOTAL_LIMIT_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    entity_id: str
    room_id: str
    recent_messages: _containers.RepeatedCompositeFieldContainer[ChatMessage]
    durable_limit: int
    current_limit: int
    subject_name: str
    now: _timestamp_pb2.Timestamp
    world_id: str
    shared_limit: int
    total_limit: int
    def __init__(self, agent_id: _Optional[str] = ..., entity_id: _Optional[str] = ..., room_id: _Optional[str] = ..., recent_messages: _Optional[_Iterable[_Union[ChatMessage, _Mapping]]] = ..., durable_limit: _Optional[int] = ..., current_limit: _Optional[int] = ..., subject_name: _Optional[str] = ..., now: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., world_id: _Optional[str] = ..., shared_limit: _Optional[int] = ..., total_limit: _Optional[int] = ...) -> None: ...

class ScoredFact(_message.Message):
    __slots__ = ("fact", "relevance", "time_weight", "score")
    FACT_FIELD_NUMBER: _ClassVar[int]
    RELEVANCE_FIELD_NUMBER: _ClassVar[int]
    TIME_WEIGHT_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    fact: Fact
    relevance: float
    time_weight: float
    score: float
    def __init__(self, fact: _Optional[_Union[Fact, _Mapping]] = ..., relevance: _Optional[float] = ..., time_weight: _Optional[float] = ..., score: _Optional[float] = ...) -> None: ...

class ProvideResponse(_message.Message):
    __slots__ = ("text", "durable", "current", "degraded", "degraded_reason", "shared")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    DURABLE_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    DEGRADED_FIELD_NUMBER: _ClassVar[int]
    DEGRADED_REASON_FIELD_NUMBER: _ClassVar[int]
    SHARED_FIELD_NUMBER: _ClassVar[int]
    text: str
    durable: _containers.RepeatedCompositeFieldContainer[ScoredFact]
    current: _containers.RepeatedCompositeFieldContainer[ScoredFact]
    degraded: bool
    degraded_reason: str
    shared: _containers.RepeatedCompositeFieldContainer[ScoredFact]
    def __init__(self, text: _Optional[str] = ..., durable: _Optional[_Iterable[_Union[ScoredFact, _Mapping]]] = ..., current: _Optional[_Iterable[_Union[ScoredFact, _Mapping]]] = ..., degraded: _Optional[bool] = ..., degraded_reason: _Optional[str] = ..., shared: _Optional[_Iterable[_Union[ScoredFact, _Mapping]]] = ...) -> None: ...

class ListFactsRequest(_message.Message):
    __slots__ = ("agent_id", "entity_id", "kind", "page_size", "page_token")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    entity_id: str
    kind: Kind
    page_size: int
    page_token: str
    def __init__(self, agent_id: _Optional[str] = ..., entity_id: _Optional[str] = ..., kind: _Optional[_Union[Kind, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListFactsResponse(_message.Message):
    __slots__ = ("facts", "next_page_token")
    FACTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    facts: _containers.RepeatedCompositeFieldContainer[Fact]
    next_page_token: str
    def __init__(self, facts: _Optional[_Iterable[_Union[Fact, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class Candidate(_message.Message):
    __slots__ = ("id", "agent_id", "entity_id", "fact", "proposed_claim", "reason", "source", "evidence_message_id", "status", "created_at", "resolved_at", "related_fact_id", "resolution", "resolved_by")
    ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    FACT_FIELD_NUMBER: _ClassVar[int]
    PROPOSED_CLAIM_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    EVIDENCE_MESSAGE_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    RESOLVED_AT_FIELD_NUMBER: _ClassVar[int]
    RELATED_FACT_ID_FIELD_NUMBER: _ClassVar[int]
    RESOLUTION_FIELD_NUMBER: _ClassVar[int]
    RESOLVED_BY_FIELD_NUMBER: _ClassVar[int]
    id: str
    agent_id: str
    entity_id: str
    fact: Fact
    proposed_claim: str
    reason: str
    source: str
    evidence_message_id: str
    status: CandidateStatus
    created_at: _timestamp_pb2.Timestamp
    resolved_at: _timestamp_pb2.Timestamp
    related_fact_id: str
    resolution: Resolution
    resolved_by: str
    def __init__(self, id: _Optional[str] = ..., agent_id: _Optional[str] = ..., entity_id: _Optional[str] = ..., fact: _Optional[_Union[Fact, _Mapping]] = ..., proposed_claim: _Optional[str] = ..., reason: _Optional[str] = ..., source: _Optional[str] = ..., evidence_message_id: _Optional[str] = ..., status: _Optional[_Union[CandidateStatus, str]] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., resolved_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., related_fact_id: _Optional[str] = ..., resolution: _Optional[_Union[Resolution, str]] = ..., resolved_by: _Optional[str] = ...) -> None: ...

class ListCandidatesRequest(_message.Message):
    __slots__ = ("agent_id", "entity_id", "status", "source", "page_size", "page_token", "any_status")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ANY_STATUS_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    entity_id: str
    status: CandidateStatus
    source: CandidateSource
    page_size: int
    page_token: str
    any_status: bool
    def __init__(self, agent_id: _Optional[str] = ..., entity_id: _Optional[str] = ..., status: _Optional[_Union[CandidateStatus, str]] = ..., source: _Optional[_Union[CandidateSource, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., any_status: _Optional[bool] = ...) -> None: ...

class ListCandidatesResponse(_message.Message):
    __slots__ = ("candidates", "next_page_token")
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    candidates: _containers.RepeatedCompositeFieldContainer[Candidate]
    next_page_token: str
    def __init__(self, candidates: _Optional[_Iterable[_Union[Candidate, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ResolveCandidateRequest(_message.Message):
    __slots__ = ("agent_id", "entity_id", "candidate_id", "decision", "resolution", "chat", "agent_wide")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    CANDIDATE_ID_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    RESOLUTION_FIELD_NUMBER: _ClassVar[int]
    CHAT_FIELD_NUMBER: _ClassVar[int]
    AGENT_WIDE_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    entity_id: str
    candidate_id: str
    decision: Decision
    resolution: Resolution
    chat: ChatRequest
    agent_wide: bool
    def __init__(self, agent_id: _Optional[str] = ..., entity_id: _Optional[str] = ..., candidate_id: _Optional[str] = ..., decision: _Optional[_Union[Decision, str]] = ..., resolution: _Optional[_Union[Resolution, str]] = ..., chat: _Optional[_Union[ChatRequest, _Mapping]] = ..., agent_wide: _Optional[bool] = ...) -> None: ...

class ResolveCandidateResponse(_message.Message):
    __slots__ = ("candidate", "fact")
    CANDIDATE_FIELD_NUMBER: _ClassVar[int]
    FACT_FIELD_NUMBER: _ClassVar[int]
    candidate: Candidate
    fact: Fact
    def __init__(self, candidate: _Optional[_Union[Candidate, _Mapping]] = ..., fact: _Optional[_Union[Fact, _Mapping]] = ...) -> None: ...

class ForgetEntityRequest(_message.Message):
    __slots__ = ("agent_id", "entity_id", "chat")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    CHAT_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    entity_id: str
    chat: ChatRequest
    def __init__(self, agent_id: _Optional[str] = ..., entity_id: _Optional[str] = ..., chat: _Optional[_Union[ChatRequest, _Mapping]] = ...) -> None: ...

class ChatRequest(_message.Message):
    __slots__ = ("message_id", "confirmed")
    MESSAGE_ID_FIELD_NUMBER: _ClassVar[int]
    CONFIRMED_FIELD_NUMBER: _ClassVar[int]
    message_id: str
    confirmed: bool
    def __init__(self, message_id: _Optional[str] = ..., confirmed: _Optional[bool] = ...) -> None: ...

class FindFactsRequest(_message.Message):
    __slots__ = ("agent_id", "entity_id", "text", "limit", "now")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    NOW_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    entity_id: str
    text: str
    limit: int
    now: _timestamp_pb2.Timestamp
    def __init__(self, agent_id: _Optional[str] = ..., entity_id: _Optional[str] = ..., text: _Optional[str] = ..., limit: _Optional[int] = ..., now: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class FindFactsResponse(_message.Message):
    __slots__ = ("matches", "near")
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    NEAR_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[ScoredFact]
    near: _containers.RepeatedCompositeFieldContainer[ScoredFact]
    def __init__(self, matches: _Optional[_Iterable[_Union[ScoredFact, _Mapping]]] = ..., near: _Optional[_Iterable[_Union[ScoredFact, _Mapping]]] = ...) -> None: ...

class ForgetEntityResponse(_message.Message):
    __slots__ = ("facts_deleted", "candidates_deleted", "relationships_deleted", "identities_deleted", "evaluations_deleted")
    FACTS_DELETED_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_DELETED_FIELD_NUMBER: _ClassVar[int]
    RELATIONSHIPS_DELETED_FIELD_NUMBER: _ClassVar[int]
    IDENTITIES_DELETED_FIELD_NUMBER: _ClassVar[int]
    EVALUATIONS_DELETED_FIELD_NUMBER: _ClassVar[int]
    facts_deleted: int
    candidates_deleted: int
    relationships_deleted: int
    identities_deleted: int
    evaluations_deleted: int
    def __init__(self, facts_deleted: _Optional[int] = ..., candidates_deleted: _Optional[int] = ..., relationships_deleted: _Optional[int] = ..., identities_deleted: _Optional[int] = ..., evaluations_deleted: _Optional[int] = ...) -> None: ...

class ExportEntityRequest(_message.Message):
    __slots__ = ("agent_id", "entity_id", "page_token")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    entity_id: str
    page_token: str
    def __init__(self, agent_id: _Optional[str] = ..., entity_id: _Optional[str] = ..., page_token: _Optional[str] = ...) -> None: ...

class ExportEntityResponse(_message.Message):
    __slots__ = ("json", "next_page_token")
    JSON_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    json: str
    next_page_token: str
    def __init__(self, json: _Optional[str] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class DroppedCounts(_message.Message):
    __slots__ = ("ops", "relationships", "identities")
    OPS_FIELD_NUMBER: _ClassVar[int]
    RELATIONSHIPS_FIELD_NUMBER: _ClassVar[int]
    IDENTITIES_FIELD_NUMBER: _ClassVar[int]
    ops: int
    relationships: int
    identities: int
    def __init__(self, ops: _Optional[int] = ..., relationships: _Optional[int] = ..., identities: _Optional[int] = ...) -> None: ...

class HistoryEntry(_message.Message):
    __slots__ = ("id", "fact_id", "at", "action", "actor", "reason", "before", "after")
    ID_FIELD_NUMBER: _ClassVar[int]
    FACT_ID_FIELD_NUMBER: _ClassVar[int]
    AT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    ACTOR_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    BEFORE_FIELD_NUMBER: _ClassVar[int]
    AFTER_FIELD_NUMBER: _ClassVar[int]
    id: str
    fact_id: str
    at: _timestamp_pb2.Timestamp
    action: HistoryAction
    actor: str
    reason: str
    before: _struct_pb2.Struct
    after: _struct_pb2.Struct
    def __init__(self, id: _Optional[str] = ..., fact_id: _Optional[str] = ..., at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., action: _Optional[_Union[HistoryAction, str]] = ..., actor: _Optional[str] = ..., reason: _Optional[str] = ..., before: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., after: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class AddFactRequest(_message.Message):
    __slots__ = ("agent_id", "entity_id", "kind", "category", "claim", "confidence", "structured_fields")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    CLAIM_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    STRUCTURED_FIELDS_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    entity_id: str
    kind: Kind
    category: str
    claim: str
    confidence: float
    structured_fields: _struct_pb2.Struct
    def __init__(self, agent_id: _Optional[str] = ..., entity_id: _Optional[str] = ..., kind: _Optional[_Union[Kind, str]] = ..., category: _Optional[str] = ..., claim: _Optional[str] = ..., confidence: _Optional[float] = ..., structured_fields: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class AddFactResponse(_message.Message):
    __slots__ = ("fact",)
    FACT_FIELD_NUMBER: _ClassVar[int]
    fact: Fact
    def __init__(self, fact: _Optional[_Union[Fact, _Mapping]] = ...) -> None: ...

class UpdateFactRequest(_message.Message):
    __slots__ = ("agent_id", "entity_id", "fact_id", "claim", "category", "kind", "confidence", "verification_status", "chat")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    FACT_ID_FIELD_NUMBER: _ClassVar[int]
    CLAIM_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    VERIFICATION_STATUS_FIELD_NUMBER: _ClassVar[int]
    CHAT_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    entity_id: str
    fact_id: str
    claim: str
    category: str
    kind: Kind
    confidence: float
    verification_status: VerificationStatus
    chat: ChatRequest
    def __init__(self, agent_id: _Optional[str] = ..., entity_id: _Optional[str] = ..., fact_id: _Optional[str] = ..., claim: _Optional[str] = ..., category: _Optional[str] = ..., kind: _Optional[_Union[Kind, str]] = ..., confidence: _Optional[float] = ..., verification_status: _Optional[_Union[VerificationStatus, str]] = ..., chat: _Optional[_Union[ChatRequest, _Mapping]] = ...) -> None: ...

class UpdateFactResponse(_message.Message):
    __slots__ = ("fact",)
    FACT_FIELD_NUMBER: _ClassVar[int]
    fact: Fact
    def __init__(self, fact: _Optional[_Union[Fact, _Mapping]] = ...) -> None: ...

class DeleteFactRequest(_message.Message):
    __slots__ = ("agent_id", "entity_id", "fact_id", "chat")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    FACT_ID_FIELD_NUMBER: _ClassVar[int]
    CHAT_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    entity_id: str
    fact_id: str
    chat: ChatRequest
    def __init__(self, agent_id: _Optional[str] = ..., entity_id: _Optional[str] = ..., fact_id: _Optional[str] = ..., chat: _Optional[_Union[ChatRequest, _Mapping]] = ...) -> None: ...

class DeleteFactResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetFactRequest(_message.Message):
    __slots__ = ("agent_id", "entity_id", "fact_id")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    FACT_ID_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    entity_id: str
    fact_id: str
    def __init__(self, agent_id: _Optional[str] = ..., entity_id: _Optional[str] = ..., fact_id: _Optional[str] = ...) -> None: ...

class GetFactResponse(_message.Message):
    __slots__ = ("fact", "history")
    FACT_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    fact: Fact
    history: _containers.RepeatedCompositeFieldContainer[HistoryEntry]
    def __init__(self, fact: _Optional[_Union[Fact, _Mapping]] = ..., history: _Optional[_Iterable[_Union[HistoryEntry, _Mapping]]] = ...) -> None: ...

class ListEntitiesRequest(_message.Message):
    __slots__ = ("agent_id", "query", "page_size", "page_token")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    query: str
    page_size: int
    page_token: str
    def __init__(self, agent_id: _Optional[str] = ..., query: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class EntitySummary(_message.Message):
    __slots__ = ("entity_id", "name", "durable_facts", "current_facts", "pending_candidates", "last_activity", "kind", "world_id", "world_name")
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DURABLE_FACTS_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FACTS_FIELD_NUMBER: _ClassVar[int]
    PENDING_CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    LAST_ACTIVITY_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    WORLD_ID_FIELD_NUMBER: _ClassVar[int]
    WORLD_NAME_FIELD_NUMBER: _ClassVar[int]
    entity_id: str
    name: str
    durable_facts: int
    current_facts: int
    pending_candidates: int
    last_activity: _timestamp_pb2.Timestamp
    kind: EntityKind
    world_id: str
    world_name: str
    def __init__(self, entity_id: _Optional[str] = ..., name: _Optional[str] = ..., durable_facts: _Optional[int] = ..., current_facts: _Optional[int] = ..., pending_candidates: _Optional[int] = ..., last_activity: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., kind: _Optional[_Union[EntityKind, str]] = ..., world_id: _Optional[str] = ..., world_name: _Optional[str] = ...) -> None: ...

class ListEntitiesResponse(_message.Message):
    __slots__ = ("entities", "next_page_token")
    ENTITIES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    entities: _containers.RepeatedCompositeFieldContainer[EntitySummary]
    next_page_token: str
    def __init__(self, entities: _Optional[_Iterable[_Union[EntitySummary, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class PromptMessage(_message.Message):
    __slots__ = ("role", "content")
    ROLE_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    role: str
    content: str
    def __init__(self, role: _Optional[str] = ..., content: _Optional[str] = ...) -> None: ...

class PrepareEvaluationRequest(_message.Message):
    __slots__ = ("single", "batch")
    SINGLE_FIELD_NUMBER: _ClassVar[int]
    BATCH_FIELD_NUMBER: _ClassVar[int]
    single: EvaluateRequest
    batch: EvaluateBatchRequest
    def __init__(self, single: _Optional[_Union[EvaluateRequest, _Mapping]] = ..., batch: _Optional[_Union[EvaluateBatchRequest, _Mapping]] = ...) -> None: ...

class PrepareEvaluationResponse(_message.Message):
    __slots__ = ("ticket", "prompt", "json_schema", "schema_name", "expires_at", "results")
    TICKET_FIELD_NUMBER: _ClassVar[int]
    PROMPT_FIELD_NUMBER: _ClassVar[int]
    JSON_SCHEMA_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_NAME_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    ticket: str
    prompt: _containers.RepeatedCompositeFieldContainer[PromptMessage]
    json_schema: str
    schema_name: str
    expires_at: _timestamp_pb2.Timestamp
    results: _containers.RepeatedCompositeFieldContainer[EvaluateResponse]
    def __init__(self, ticket: _Optional[str] = ..., prompt: _Optional[_Iterable[_Union[PromptMessage, _Mapping]]] = ..., json_schema: _Optional[str] = ..., schema_name: _Optional[str] = ..., expires_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., results: _Optional[_Iterable[_Union[EvaluateResponse, _Mapping]]] = ...) -> None: ...

class CompleteEvaluationRequest(_message.Message):
    __slots__ = ("agent_id", "entity_id", "ticket", "reply", "usage")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    TICKET_FIELD_NUMBER: _ClassVar[int]
    REPLY_FIELD_NUMBER: _ClassVar[int]
    USAGE_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    entity_id: str
    ticket: str
    reply: str
    usage: Usage
    def __init__(self, agent_id: _Optional[str] = ..., entity_id: _Optional[str] = ..., ticket: _Optional[str] = ..., reply: _Optional[str] = ..., usage: _Optional[_Union[Usage, _Mapping]] = ...) -> None: ...

class CompleteEvaluationResponse(_message.Message):
    __slots__ = ("results", "usage")
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    USAGE_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[EvaluateResponse]
    usage: Usage
    def __init__(self, results: _Optional[_Iterable[_Union[EvaluateResponse, _Mapping]]] = ..., usage: _Optional[_Union[Usage, _Mapping]] = ...) -> None: ...

class ForgetMessagesRequest(_message.Message):
    __slots__ = ("agent_id", "entity_id", "message_ids", "room_id")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    ENTITY_ID_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_IDS_FIELD_NUMBER: _ClassVar[int]
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    entity_id: str
    message_ids: _containers.RepeatedScalarFieldContainer[str]
    room_id: str
    def __init__(self, agent_id: _Optional[str] = ..., entity_id: _Optional[str] = ..., message_ids: _Optional[_Iterable[str]] = ..., room_id: _Optional[str] = ...) -> None: ...

class ForgetMessagesResponse(_message.Message):
    __slots__ = ("messages_forgotten", "facts_deleted", "facts_updated", "candidates_closed")
    MESSAGES_FORGOTTEN_FIELD_NUMBER: _ClassVar[int]
    FACTS_DELETED_FIELD_NUMBER: _ClassVar[int]
    FACTS_UPDATED_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_CLOSED_FIELD_NUMBER: _ClassVar[int]
    messages_forgotten: int
    facts_deleted: int
    facts_updated: int
    candidates_closed: int
    def __init__(self, messages_forgotten: _Optional[int] = ..., facts_deleted: _Optional[int] = ..., facts_updated: _Optional[int] = ..., candidates_closed: _Optional[int] = ...) -> None: ...

class RegisterAgentRequest(_message.Message):
    __slots__ = ("agent_id", "name")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    name: str
    def __init__(self, agent_id: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class RegisterAgentResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListAgentsRequest(_message.Message):
    __slots__ = ("query", "page_size", "page_token")
    QUERY_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    query: str
    page_size: int
    page_token: str
    def __init__(self, query: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class AgentSummary(_message.Message):
    __slots__ = ("agent_id", "name", "entities", "facts", "pending_candidates", "last_activity", "communities")
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ENTITIES_FIELD_NUMBER: _ClassVar[int]
    FACTS_FIELD_NUMBER: _ClassVar[int]
    PENDING_CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    LAST_ACTIVITY_FIELD_NUMBER: _ClassVar[int]
    COMMUNITIES_FIELD_NUMBER: _ClassVar[int]
    agent_id: str
    name: str
    entities: int
    facts: int
    pending_candidates: int
    last_activity: _timestamp_pb2.Timestamp
    communities: int
    def __init__(self, agent_id: _Optional[str] = ..., name: _Optional[str] = ..., entities: _Optional[int] = ..., facts: _Optional[int] = ..., pending_candidates: _Optional[int] = ..., last_activity: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., communities: _Optional[int] = ...) -> None: ...

class ListAgentsResponse(_message.Message):
    __slots__ = ("agents", "next_page_token")
    AGENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    agents: _containers.RepeatedCompositeFieldContainer[AgentSummary]
    next_page_token: str
    def __init__(self, agents: _Optional[_Iterable[_Union[AgentSummary, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetLimitsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetLimitsResponse(_message.Message):
    __slots__ = ("max_text_chars", "max_name_chars", "max_recent_messages", "max_batch_messages", "max_room_entities", "max_names_per_entity", "max_provide_limit", "max_speaker_roles", "max_id_chars")
    MAX_TEXT_CHARS_FIELD_NUMBER: _ClassVar[int]
    MAX_NAME_CHARS_FIELD_NUMBER: _ClassVar[int]
    MAX_RECENT_MESSAGES_FIELD_NUMBER: _ClassVar[int]
    MAX_BATCH_MESSAGES_FIELD_NUMBER: _ClassVar[int]
    MAX_ROOM_ENTITIES_FIELD_NUMBER: _ClassVar[int]
    MAX_NAMES_PER_ENTITY_FIELD_NUMBER: _ClassVar[int]
    MAX_PROVIDE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    MAX_SPEAKER_ROLES_FIELD_NUMBER: _ClassVar[int]
    MAX_ID_CHARS_FIELD_NUMBER: _ClassVar[int]
    max_text_chars: int
    max_name_chars: int
    max_recent_messages: int
    max_batch_messages: int
    max_room_entities: int
    max_names_per_entity: int
    max_provide_limit: int
    max_speaker_roles: int
    max_id_chars: int
    def __init__(self, max_text_chars: _Optional[int] = ..., max_name_chars: _Optional[int] = ..., max_recent_messages: _Optional[int] = ..., max_batch_messages: _Optional[int] = ..., max_room_entities: _Optional[int] = ..., max_names_per_entity: _Optional[int] = ..., max_provide_limit: _Optional[int] = ..., max_speaker_roles: _Optional[int] = ..., max_id_chars: _Optional[int] = ...) -> None: ...
