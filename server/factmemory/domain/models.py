"""Plain domain values shared by the use-cases, the edges and the pure modules."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

from pydantic import BaseModel, ConfigDict


class Kind(enum.StrEnum):
    DURABLE = "durable"
    CURRENT = "current"


class Verification(enum.StrEnum):
    SELF_REPORTED = "self_reported"
    CONFIRMED = "confirmed"
    CONTRADICTED = "contradicted"


class Item(enum.StrEnum):
    FACTS = "facts"
    RELATIONSHIPS = "relationships"
    IDENTITIES = "identities"
    SUCCESS = "success"


class OpType(enum.StrEnum):
    ADD_DURABLE = "add_durable"
    ADD_CURRENT = "add_current"
    STRENGTHEN = "strengthen"
    DECAY = "decay"
    CONTRADICT = "contradict"
    MERGE = "merge"


class CandidateSource(enum.StrEnum):
    """Why a review candidate exists."""

    CONTRADICT = "contradict"  # the model proposed a replacement claim
    DEDUP_CONFLICT = "dedup_conflict"  # the write-time rule kept an add beside a conflicting fact
    DECAY_FLOOR = "decay_floor"  # a model decay would have deleted a protected fact (domain/protection.py)
    SHARED_CLAIM = "shared_claim"  # a shared claim of a speaker not trusted to teach (domain/shared.py)


class CandidateStatus(enum.StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"


class Resolution(enum.StrEnum):
    """How a reviewer settles a candidate; which ones apply depends on the candidate's source."""

    ACCEPT = "accept"
    REJECT = "reject"
    KEEP_BOTH = "keep_both"
    KEEP_NEW = "keep_new"
    KEEP_OLD = "keep_old"
    MERGE = "merge"


class HistoryAction(enum.StrEnum):
    CREATED = "created"
    STRENGTHENED = "strengthened"
    DECAYED = "decayed"
    CONTRADICTED = "contradicted"
    MERGED = "merged"
    CANDIDATE_ACCEPTED = "candidate_accepted"
    CANDIDATE_REJECTED = "candidate_rejected"
    KEPT_BOTH = "kept_both"
    EDITED = "edited"
    DELETED = "deleted"
    RECLASSIFIED = "reclassified"
    IMPORTED = "imported"
    ARCHIVED = "archived"


# The one category table: it feeds the contract (allowed values), the prompt (taxonomy) and the validation.
# Each category with the hint the model is given; order is the order shown.
CATEGORIES: dict[Kind, dict[str, str]] = {
    Kind.DURABLE: {
        "identity": "home, name, languages",
        "health": "conditions, allergies, recurring patterns",
        "relationship": "people, pets",
        "life_event": "dated past events, field date",
        "business_role": "job, company, role",
        "preference": "likes, dislikes, answer style",
        "goal": "long-term aims",
    },
    Kind.CURRENT: {
        "feeling": '"anxious this morning"',
        "physical_state": "body now",
        "working_on": "tasks in progress",
        "going_through": 'ongoing situations, "going through a divorce"',
        "schedule_context": (
            "near-term plans; field date, or until for a range: ISO date resolved from the message time"
        ),
    },
}
DURABLE_CATEGORIES: tuple[str, ...] = tuple(CATEGORIES[Kind.DURABLE])
CURRENT_CATEGORIES: tuple[str, ...] = tuple(CATEGORIES[Kind.CURRENT])
# Only for facts imported from elsewhere and not reclassified yet; the model never emits it.
UNCATEGORIZED = "uncategorized"
ALL_ITEMS: frozenset[Item] = frozenset(Item)


class Frozen(BaseModel):
    """A value validated when it is made: what comes from a caller, the model or stored JSON."""

    model_config = ConfigDict(frozen=True)


class ChatMessage(Frozen):
    id: str
    entity_id: str = ""
    name: str = ""
    text: str
    created_at: datetime


class RoomEntity(Frozen):
    id: str
    names: tuple[str, ...] = ()


# Rows of the store and scores the ranking computed are plain frozen dataclasses: their values already hold what
# the fields demand (the columns' types and CHECK constraints; ranking.score), so making one costs no validation
# (a Provide builds some 60 facts and as many scores). Where a pydantic model holds one (AppliedOp, Candidate,
# ProvideResult, a stored EvaluateResult), pydantic validates it from JSON and dumps it like a model's fields.
@dataclass(frozen=True, slots=True, kw_only=True)
class Fact:
    id: UUID
    agent_id: UUID
    entity_id: UUID
    kind: Kind
    category: str
    claim: str
    structured_fields: dict[str, Any] = field(default_factory=dict)
    confidence: float
    evidence_message_ids: tuple[str, ...] = ()
    # The total; evidence_message_ids may hold only the latest (responses and stored evaluations are bounded).
    evidence_count: int = 0
    verification_status: Verification = Verification.SELF_REPORTED
    created_at: datetime
    last_confirmed_at: datetime
    valid_at: datetime | None = None
    previous_claims: tuple[str, ...] = ()
    # The proposed claim of a pending contradiction of this fact; "" when none.
    disputed_by: str = ""
    # Set when retention archived it (domain/retention.py): out of ranking and prompts, kept for review and export.
    archived_at: datetime | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoredFact:
    fact: Fact
    relevance: float
    time_weight: float
    score: float


class AppliedOp(Frozen):
    op: OpType
    fact: Fact | None = None
    deduplicated: bool = False
    deleted: bool = False
    candidate_id: UUID | None = None
    rejected: bool = False
    reason: str = ""
    handle: str = ""
    # merge: the handle and id of the fact folded into `fact` (and deleted).
    duplicate_handle: str = ""
    duplicate_fact_id: UUID | None = None


class Relationship(Frozen):
    source_entity_id: str
    target_entity_id: str
    tags: tuple[str, ...] = ()
    interaction_count: int = 1


class Identity(Frozen):
    entity_id: str
    platform: str
    handle: str
    confidence: float


class Success(Frozen):
    completed: bool
    reason: str = ""


class Usage(Frozen):
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0


class Dropped(Frozen):
    """Items of one model reply beyond the per-message caps, dropped unread."""

    ops: int = 0
    relationships: int = 0
    identities: int = 0


class EvaluateResult(Frozen):
    ops: tuple[AppliedOp, ...] = ()
    relationships: tuple[Relationship, ...] = ()
    identities: tuple[Identity, ...] = ()
    success: Success | None = None
    usage: Usage = Usage()
    replayed: bool = False
    dropped: Dropped = Dropped()
    # The message was deleted (ForgetMessages): nothing was or will be learned from it, nor shown as context.
    forgotten: bool = False
    # A replay made no call: usage is zero and this is what the first evaluation cost.
    original_usage: Usage = Usage()

    def as_replay(self) -> EvaluateResult:
        """This stored result returned again: nothing applied, no model call (usage zero), the first cost kept."""
        return self.model_copy(update={"replayed": True, "usage": Usage(), "original_usage": self.usage})


class EvaluateBatchResult(Frozen):
    """One result per message of the batch (results[i] is message_ids[i]'s, oldest first), and what it cost."""

    message_ids: tuple[str, ...]
    results: tuple[EvaluateResult, ...]
    usage: Usage = Usage()

    def result_of(self, message_id: str) -> EvaluateResult:
        return self.results[self.message_ids.index(message_id)]


class EvaluateInput(Frozen):
    agent_id: UUID
    entity_id: UUID
    room_id: UUID | None
    message: ChatMessage
    # A batch (EvaluateBatch): the person's messages before `message`, oldest first, evaluated in the same call.
    earlier: tuple[ChatMessage, ...] = ()
    recent_messages: tuple[ChatMessage, ...] = ()
    items: frozenset[Item] = ALL_ITEMS
    room_entities: tuple[RoomEntity, ...] = ()
    agent_responses: tuple[ChatMessage, ...] = ()
    did_respond: bool = False
    # The world the messages were said in (shared facts, domain/shared.py) and the speaker's roles in it.
    world_id: UUID | None = None
    speaker_roles: tuple[str, ...] = ()
    # The world's name as the caller gives it (one line, bounded); "" leaves the stored name as it is.
    world_name: str = ""

    @property
    def messages(self) -> tuple[ChatMessage, ...]:
        """The messages this call evaluates, oldest first (one for Evaluate)."""
        return (*self.earlier, self.message)


class ProvideInput(Frozen):
    agent_id: UUID
    entity_id: UUID
    room_id: UUID | None
    recent_messages: tuple[ChatMessage, ...] = ()
    durable_limit: int = 6
    current_limit: int = 6
    total_limit: int = 0  # > 0: one budget both sections share, the limits above each section's maximum
    subject_name: str = ""
    now: datetime
    # The turn's world: its shared facts relevant to the turn form a third section (at most shared_limit).
    world_id: UUID | None = None
    shared_limit: int = 4


class ProvideResult(Frozen):
    text: str
    durable: tuple[ScoredFact, ...] = ()
    current: tuple[ScoredFact, ...] = ()
    degraded: bool = False
    degraded_reason: str = ""
    shared: tuple[ScoredFact, ...] = ()


class Candidate(Frozen):
    id: UUID
    agent_id: UUID
    entity_id: UUID
    fact: Fact | None
    proposed_claim: str
    reason: str
    source: CandidateSource
    evidence_message_id: str
    status: CandidateStatus
    created_at: datetime
    resolved_at: datetime | None = None
    # dedup_conflict: the new fact added beside `fact`.
    related_fact_id: UUID | None = None
    resolution: Resolution | None = None
    resolved_by: str = ""


class ForgetCounts(Frozen):
    facts: int = 0
    candidates: int = 0
    relationships: int = 0
    identities: int = 0
    evaluations: int = 0


class HistoryEntry(Frozen):
    """One change of a fact: who did what, when, and the fact's reviewable fields before and after."""

    id: UUID
    fact_id: UUID
    at: datetime
    action: HistoryAction
    # "message:<id>" for evaluations, "reviewer:<identity>" for people, "import:<source>" for imports, "chat:<entity
    # id>" for the person themself in a conversation.
    actor: str
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    reason: str = ""


class FactEdit(Frozen):
    """The fields a reviewer may change; None leaves a field as it is."""

    claim: str | None = None
    category: str | None = None
    kind: Kind | None = None
    confidence: float | None = None
    verification: Verification | None = None


class EntityKind(enum.StrEnum):
    """A person, or one of a community's shared subjects (domain/shared.py Scope, by the same values)."""

    PERSON = "person"
    WORLD = "world"
    AGENT = "agent"
    HELD = "held"


class EntitySummary(Frozen):
    entity_id: UUID
    name: str = ""
    durable_facts: int = 0
    current_facts: int = 0
    pending_candidates: int = 0
    last_activity: datetime | None = None
    kind: EntityKind = EntityKind.PERSON
    world_id: UUID | None = None  # a world's or held subject's world
    world_name: str = ""  # that world's name as a caller last gave it ("" when never named)

    @property
    def is_person(self) -> bool:
        return self.kind is EntityKind.PERSON


class LegacyFact(Frozen):
    """A fact stored by another memory system (elizaOS plugin-sql `facts` memories), to import."""

    source_id: str
    agent_id: UUID
    entity_id: UUID
    room_id: UUID | None = None
    text: str
    created_at: datetime


class ImportReport(Frozen):
    read: int = 0
    imported: int = 0
    already_imported: int = 0
    skipped: int = 0
    forgotten: int = 0  # not stored: their person was forgotten (ForgetEntity) while the import ran
