"""The fact store, one small port per user (Evaluate, Provide, a reviewer, the read pages, bulk import, export and
forgetting), and its two transactions (Evaluate's write, a reviewer's action)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Any, Protocol
from uuid import UUID

from factmemory.domain.backup import PersonBackup, Restored
from factmemory.domain.confidence import Strengthened
from factmemory.domain.dedup.planning import MergedFact, OpenPair
from factmemory.domain.excerpts import EvidenceSource
from factmemory.domain.models import (
    Candidate,
    CandidateSource,
    CandidateStatus,
    EntitySummary,
    EvaluateResult,
    Fact,
    ForgetCounts,
    HistoryAction,
    HistoryEntry,
    Identity,
    Kind,
    Relationship,
    Resolution,
)
from factmemory.domain.new_fact import NewFact
from factmemory.domain.shared import ClaimSource, SharedSubject
from factmemory.domain.vectors import Vector
from factmemory.ports.values import FactChange, Pool, Position, Similar, TurnStart, WriteContext


class WriteTransaction(Protocol):
    """One Evaluate's write transaction, holding the per-(agent, entity) lock."""

    agent_id: UUID
    entity_id: UUID
    revision: int  # the entity's revision, bumped by taking the lock
    forget_epoch: int  # how many times the entity was forgotten, read under the lock

    async def write_context(
        self, kinds: Sequence[Kind], vectors: Sequence[Vector], claims: Sequence[str], limit: int
    ) -> WriteContext: ...

    async def claim_evaluation(self, message_id: str, room_id: UUID | None, excerpt: str = "") -> bool: ...

    # The same transaction on a shared subject (a world's facts), under its lock too; its history names this
    # transaction's message.
    async def elsewhere(self, subject: SharedSubject, at: datetime) -> WriteTransaction: ...

    async def finish_evaluation(self, message_id: str, result: EvaluateResult) -> None: ...

    async def get_fact(self, fact_id: UUID) -> Fact | None: ...

    async def insert_fact(self, new: NewFact) -> Fact: ...

    # The values domain.confidence decided; None when the fact is gone.
    async def set_strengthened(self, fact_id: UUID, values: Strengthened) -> Fact | None: ...

    async def set_decayed(self, fact_id: UUID, confidence: float) -> Fact | None: ...

    async def delete_fact(self, fact_id: UUID, reason: str) -> bool: ...

    # None when a reviewer kept the two facts as both true: they are never flagged against each other again.
    async def insert_candidate(
        self,
        fact_id: UUID,
        proposed_claim: str,
        reason: str,
        source: str,
        message_id: str,
        at: datetime,
        related_fact_id: UUID | None = None,
    ) -> UUID | None: ...

    async def reclassify(self, fact_id: UUID, kind: Kind, category: str) -> Fact | None: ...

    async def record_name(self, name: str, at: datetime) -> None: ...

    async def name_world(self, world_id: UUID, name: str, at: datetime) -> None: ...

    async def insert_pair(
        self,
        fact_id: UUID,
        other_fact_id: UUID,
        similarity: float,
        reason: str,
        message_id: str,
        at: datetime,
        likelihood: float = 0.0,
    ) -> None: ...

    async def close_pair(self, fact_id: UUID, other_fact_id: UUID, at: datetime) -> None: ...

    async def expire_pairs(self, ttl_turns: int, at: datetime) -> int: ...

    async def merge_facts(
        self, keep_id: UUID, duplicate_id: UUID, merged: MergedFact, at: datetime, reason: str = ""
    ) -> Fact | None: ...

    async def upsert_relationship(
        self, source: UUID, target: UUID, tags: Sequence[str], at: datetime, max_tags: int
    ) -> Relationship: ...

    async def upsert_identity(
        self, entity_id: UUID, platform: str, handle: str, confidence: float, at: datetime
    ) -> Identity: ...


class ReviewTransaction(Protocol):
    """One reviewer action as one transaction, holding the per-(agent, entity) lock. Every change of a fact
    is recorded in its history under the last mark()."""

    agent_id: UUID
    entity_id: UUID

    # The same transaction on a shared subject (a held claim's world), under its lock too, with this mark.
    async def elsewhere(self, subject: SharedSubject) -> ReviewTransaction: ...

    def mark(self, action: HistoryAction, actor: str, reason: str = "") -> None: ...

    async def get_fact(self, fact_id: UUID) -> Fact | None: ...

    async def get_candidate(self, candidate_id: UUID) -> Candidate | None: ...

    async def insert_fact(self, new: NewFact) -> Fact: ...

    async def change_fact(self, fact_id: UUID, change: FactChange) -> Fact | None: ...

    async def delete_fact(self, fact_id: UUID) -> bool: ...

    async def record(self, fact_id: UUID, action: HistoryAction, actor: str, reason: str) -> None:
        """A history entry for an event that changes no field of the fact (a rejected candidate, ...)."""
        ...

    async def close_candidate(
        self, candidate_id: UUID, status: CandidateStatus, resolution: Resolution, actor: str, at: datetime
    ) -> Candidate: ...

    async def keep_pair(self, first: UUID, second: UUID) -> None: ...


class NearestFacts(Protocol):
    """A person's facts nearest a vector, by kind (Evaluate's and Provide's reads)."""

    async def nearest(
        self,
        agent_id: UUID,
        entity_id: UUID,
        embedding: Vector,
        durable_limit: int,
        current_limit: int,
        *,
        replica_ok: bool = False,
    ) -> list[Similar]: ...


class SubjectIds(Protocol):
    """Which ids are shared subjects (domain/shared.py), refused where a person's id is expected."""

    async def shared_among(self, agent_id: UUID, ids: Sequence[UUID]) -> frozenset[UUID]: ...


class OneFact(Protocol):
    """One fact by id (a reviewer's edit, GetFact)."""

    async def get_fact(
        self, agent_id: UUID, entity_id: UUID, fact_id: UUID, *, replica_ok: bool = False
    ) -> Fact | None: ...


class EvaluateStore(NearestFacts, Protocol):
    """What Evaluate reads before its lock, and its write transaction."""

    # The write transaction of one person: under the per-entity lock, one revision.
    def writing(self, agent_id: UUID, entity_id: UUID) -> AbstractAsyncContextManager[WriteTransaction]: ...

    async def turn_start(
        self,
        agent_id: UUID,
        entity_id: UUID,
        message_ids: Sequence[str],
        pairs_limit: int,
        ttl_turns: int,
        subject_ids: Sequence[UUID] = (),
    ) -> TurnStart:
        """The forget epoch, the stored results of `message_ids`, the open pairs and which of `subject_ids` are
        recorded shared subjects: one round trip."""
        ...

    async def get_evaluations(
        self, agent_id: UUID, message_ids: Sequence[str], entity_id: UUID | None = None
    ) -> dict[str, tuple[UUID, EvaluateResult]]:
        """The stored results (with their entity) of the messages evaluated before, by message id; of `entity_id`
        only, when given, on a database distributed by person."""
        ...

    async def write_context(
        self,
        agent_id: UUID,
        entity_id: UUID,
        kinds: Sequence[Kind],
        vectors: Sequence[Vector],
        claims: Sequence[str],
        limit: int,
    ) -> WriteContext: ...

    async def open_pairs(self, agent_id: UUID, entity_id: UUID, limit: int, ttl_turns: int) -> list[OpenPair]: ...


class ProvideStore(NearestFacts, SubjectIds, Protocol):
    """Provide's reads: the candidate pool, text search, and the shared subjects' nearest facts."""

    async def provide_pool(
        self,
        agent_id: UUID,
        entity_id: UUID,
        embedding: Vector,
        terms: Sequence[str],
        pool: int,
        rare_df: int,
        rare_limit: int,
        spans: Sequence[tuple[datetime, datetime]] = (),
        *,
        replica_ok: bool = False,
    ) -> Pool: ...

    async def text_search(
        self, agent_id: UUID, entity_id: UUID, query: str, durable_limit: int, current_limit: int
    ) -> list[Similar]: ...


class ReviewStore(OneFact, SubjectIds, Protocol):
    """A reviewer's actions (resolutions, edits): the reads before the lock, and the reviewer's transaction."""

    def review(self, agent_id: UUID, entity_id: UUID) -> AbstractAsyncContextManager[ReviewTransaction]: ...

    async def get_candidate(self, agent_id: UUID, entity_id: UUID, candidate_id: UUID) -> Candidate | None: ...

    # None for a person: the shared subject (domain/shared.py) this entity id is.
    async def shared_subject(self, agent_id: UUID, subject_id: UUID) -> SharedSubject | None: ...


class BrowseStore(OneFact, Protocol):
    """The read RPCs' pages: facts, their history and sources, the review queue, the entities."""

    async def list_facts(
        self, agent_id: UUID, entity_id: UUID, kind: Kind | None, after: UUID | None, limit: int
    ) -> list[Fact]: ...

    async def fact_history(self, agent_id: UUID, entity_id: UUID, fact_id: UUID) -> list[HistoryEntry]: ...

    async def evidence_sources(
        self, agent_id: UUID, entity_id: UUID, message_ids: Sequence[str]
    ) -> list[EvidenceSource]: ...

    # Who said each message (a shared claim's speaker), with its kept excerpt.
    async def claim_sources(self, agent_id: UUID, message_ids: Sequence[str]) -> list[ClaimSource]: ...

    async def shared_subject(self, agent_id: UUID, subject_id: UUID) -> SharedSubject | None: ...

    # A shared fact's messages, each excerpt led by who taught it; [] for a person's subject.
    async def teaching_sources(
        self, agent_id: UUID, subject_id: UUID, message_ids: Sequence[str]
    ) -> list[EvidenceSource]: ...

    async def list_candidates(
        self,
        agent_id: UUID,
        entity_id: UUID | None,
        status: CandidateStatus | None,
        source: CandidateSource | None,
        after: Position | None,
        limit: int,
    ) -> list[Candidate]: ...

    async def list_entities(
        self, agent_id: UUID, pattern: str, after: Position | None, limit: int
    ) -> list[EntitySummary]: ...


class BulkStore(SubjectIds, Protocol):
    """A person's facts in bulk: import, export, and forgetting the person (ForgetEntity)."""

    async def import_facts(
        self, agent_id: UUID, entity_id: UUID, facts: Sequence[NewFact], actor: str, forget_epoch: int
    ) -> int | None:
        """How many facts were stored; None (nothing stored, nothing in the ledger) when the entity was forgotten
        since its forget epoch was `forget_epoch`."""
        ...

    async def forget_epoch(self, agent_id: UUID, entity_id: UUID) -> int:
        """How many times the entity was forgotten (read before an import stores anything of it)."""
        ...

    async def imported_ids(self, agent_id: UUID, entity_id: UUID, source_ids: Sequence[str]) -> set[str]: ...

    async def restore(
        self,
        backup: PersonBackup,
        vectors: Mapping[UUID, Vector],
        model: str,
        actor: str,
        forget_epoch: int,
        ignore_ledger: bool,
    ) -> Restored | None:
        """Stores a person's export back, ids kept, in one transaction: the facts the import ledger has not seen
        for the agent (all of them when ignore_ledger) with their vectors (by fact id), then their history, review
        items, relationships, identities, evaluations and name; deleted messages stay deleted. None (nothing
        stored) when the person was forgotten since their epoch was `forget_epoch`."""
        ...

    async def forget_entity(self, agent_id: UUID, entity_id: UUID) -> ForgetCounts: ...

    async def export_rows(
        self, agent_id: UUID, entity_id: UUID, section: str, after: tuple[str, str] | None, limit: int
    ) -> list[tuple[dict[str, Any], tuple[str, str]]]: ...
