"""The plain values that cross the ports: similar facts, a fact change, what a turn reads first, the write
context, the call scope."""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from factmemory.domain.bm25 import Stats
from factmemory.domain.dedup.planning import OpenPair
from factmemory.domain.models import (
    EvaluateResult,
    Fact,
    Kind,
    Verification,
)
from factmemory.domain.vectors import Vector


@dataclass(frozen=True)
class Similar:
    """A stored fact with its cosine similarity (or text rank) to a query."""

    fact: Fact
    similarity: float


@dataclass(frozen=True)
class Pool:
    """Provide's candidates (store.candidates): each fact with its cosine to the turn, the content terms of each
    (in `found` order), and the person's term statistics for BM25."""

    found: list[Similar]
    terms: list[tuple[str, ...]]
    stats: Stats


@dataclass(frozen=True)
class FactChange:
    """A change of one stored fact; None leaves a field as it is."""

    claim: str | None = None
    category: str | None = None
    kind: Kind | None = None
    confidence: float | None = None
    verification: Verification | None = None
    embedding: Vector | None = None
    embedding_model: str | None = None
    keep_previous_claim: bool = False  # the replaced claim joins previous_claims
    add_evidence: tuple[str, ...] = ()
    confirmed_at: datetime | None = None


Position = tuple[datetime, UUID]


@dataclass(frozen=True)
class CallScope:
    """On whose behalf, and until when, the current call works: shared engines queue fairly by `caller` and
    drop work whose `deadline` (time.monotonic()) has passed. Set per RPC by the API layer."""

    caller: str
    deadline: float | None


CALL_SCOPE: ContextVar[CallScope | None] = ContextVar("factmemory_call_scope", default=None)


@dataclass(frozen=True)
class WriteContext:
    """What the adds of one turn are compared with, read at one revision of the entity."""

    revision: int
    neighbours: list[list[Similar]]  # per add, nearest first, same kind
    keys: list[str | None]  # per add, its exact-duplicate key (None when the claim has no letters or digits)
    by_key: dict[tuple[Kind, str, str], Fact]  # (kind, category, key) -> the stored fact with that key


@dataclass(frozen=True)
class TurnStart:
    """What an Evaluate reads first, in one round trip: the entity's forget epoch (a ForgetEntity after this makes
    the turn write nothing), the stored results of its messages evaluated before (with their entity), the open
    possible-duplicate pairs shown to the model, and which of its message ids were deleted recently for any person
    of the agent (a room-mate's message sent back as context; on Citus its tombstone is on the room-mate's shard)."""

    forget_epoch: int
    evaluations: dict[str, tuple[UUID, EvaluateResult]]
    open_pairs: list[OpenPair]
    deleted: frozenset[str] = frozenset()
    # Which of the ids asked about are recorded shared subjects (domain/shared.py).
    subjects: frozenset[UUID] = frozenset()
