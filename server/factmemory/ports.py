"""What the use-cases need from the edges: protocols for the fact store and its write transaction, the extractor
and the embedder, and the plain values that cross them. Adapters implement these; use-cases import only these."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol
from uuid import UUID

from factmemory.domain.agents import AgentSummary
from factmemory.domain.confidence import Strengthened
from factmemory.domain.contract import ExtractionReply
from factmemory.domain.dedup.planning import MergedFact, OpenPair
from factmemory.domain.excerpts import EvidenceSource
from factmemory.domain.message_deletion import Cited
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
    Item,
    Kind,
    Relationship,
    Resolution,
    Usage,
    Verification,
)
from factmemory.domain.new_fact import NewFact
from factmemory.domain.prompts import Prompt
from factmemory.domain.tickets import TicketPolicy, TicketRow
from factmemory.domain.vectors import Matrix, Vector

__all__ = ["Matrix", "NewFact", "Vector"]  # re-exported: the values that cross the ports


@dataclass(frozen=True)
class Similar:
    """A stored fact with its cosine similarity (or text rank) to a query, and, from `lexical`, the share of the
    query's word weight it contains (0 when not asked)."""

    fact: Fact
    similarity: float
    lexical: float = 0.0
    via: UUID | None = None  # found through this fact (the second hop of store.lexical), not by the query


@dataclass(frozen=True)
class Hop:
    """The second hop of store.lexical: the `seeds` facts nearest the query link to the facts sharing a word with
    them that is in at most `max_df` of the entity's facts, at most `limit` of those (0 seeds: no hop)."""

    seeds: int = 0
    max_df: int = 6
    limit: int = 24


NO_HOP = Hop()


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


class Embedder(Protocol):
    """Unit-length embeddings; queries and passages may be embedded differently (E5 prefixes)."""

    model_name: str
    dimensions: int

    async def queries(self, texts: Sequence[str]) -> Matrix: ...

    async def passages(self, texts: Sequence[str]) -> Matrix: ...

    def healthy(self) -> bool:
        """False while the embedder cannot embed at all (for example every local engine process is down)."""
        ...

    async def close(self) -> None: ...


class Extractor(Protocol):
    """The one structured LLM call of a turn: the reply validated against the contract, and its token usage."""

    async def extract(self, prompt: Prompt, items: frozenset[Item]) -> tuple[ExtractionReply, Usage]: ...


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

    async def mark(self, action: HistoryAction, actor: str, reason: str = "") -> None: ...

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


class FactStore(Protocol):
    """Every read and write of facts, candidates, relationships, identities and evaluations, scoped by agent."""

    def turn(self, agent_id: UUID, entity_id: UUID) -> AbstractAsyncContextManager[WriteTransaction]: ...

    async def forget_epoch(self, agent_id: UUID, entity_id: UUID) -> int: ...

    async def get_evaluations(
        self, agent_id: UUID, message_ids: Sequence[str]
    ) -> dict[str, tuple[UUID, EvaluateResult]]:
        """The stored results (with their entity) of the messages evaluated before, by message id."""
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

    async def hybrid(
        self,
        agent_id: UUID,
        entity_id: UUID,
        embedding: Vector,
        durable_limit: int,
        current_limit: int,
        terms: Sequence[str],
        per_term: int,
        *,
        replica_ok: bool = False,
    ) -> list[Similar]: ...

    async def lexical(
        self,
        agent_id: UUID,
        entity_id: UUID,
        embedding: Vector,
        durable_limit: int,
        current_limit: int,
        text: str,
        rare_df: int,
        rare_terms: int,
        hop: Hop = NO_HOP,
        *,
        replica_ok: bool = False,
    ) -> list[Similar]: ...

    async def text_search(
        self, agent_id: UUID, entity_id: UUID, query: str, durable_limit: int, current_limit: int
    ) -> list[Similar]: ...

    async def list_facts(
        self, agent_id: UUID, entity_id: UUID, kind: Kind | None, after: UUID | None, limit: int
    ) -> list[Fact]: ...

    def review(self, agent_id: UUID, entity_id: UUID) -> AbstractAsyncContextManager[ReviewTransaction]: ...

    async def get_fact(
        self, agent_id: UUID, entity_id: UUID, fact_id: UUID, *, replica_ok: bool = False
    ) -> Fact | None: ...

    async def evidence_sources(
        self, agent_id: UUID, entity_id: UUID, message_ids: Sequence[str]
    ) -> list[EvidenceSource]: ...

    async def fact_history(self, agent_id: UUID, entity_id: UUID, fact_id: UUID) -> list[HistoryEntry]: ...

    async def get_candidate(self, agent_id: UUID, entity_id: UUID, candidate_id: UUID) -> Candidate | None: ...

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

    async def import_facts(self, agent_id: UUID, entity_id: UUID, facts: Sequence[NewFact], actor: str) -> int: ...

    async def imported_ids(self, agent_id: UUID, entity_id: UUID, source_ids: Sequence[str]) -> set[str]: ...

    async def forget_entity(self, agent_id: UUID, entity_id: UUID) -> ForgetCounts: ...

    async def export_rows(
        self, agent_id: UUID, entity_id: UUID, section: str, after: tuple[str, str] | None, limit: int
    ) -> list[tuple[dict[str, Any], tuple[str, str]]]: ...


class ForgetTransaction(Protocol):
    """One entity's part of a ForgetMessages call, under its per-entity lock (adapters/postgres/messages.py)."""

    async def tombstone(self, message_ids: Sequence[str], room_id: UUID | None) -> list[str]: ...

    async def citing(self, message_ids: Sequence[str]) -> list[tuple[UUID, Cited]]: ...

    async def delete_facts(self, fact_ids: Sequence[UUID], reason: str) -> int: ...

    async def set_evidence(self, changes: Sequence[tuple[UUID, tuple[str, ...], float]], reason: str) -> None: ...

    async def close_raised(self, message_ids: Sequence[str]) -> int: ...

    async def unlink(self, message_ids: Sequence[str]) -> tuple[int, int]: ...


class MessageStore(Protocol):
    """Deleted messages: which entities a room's evaluated messages belong to, and one transaction over entities."""

    async def entities_in_room(self, agent_id: UUID, room_id: UUID) -> list[UUID]: ...

    def forgetting(
        self, agent_id: UUID, entity_ids: Sequence[UUID], at: datetime
    ) -> AbstractAsyncContextManager[Sequence[ForgetTransaction]]: ...


class AgentStore(Protocol):
    """Agents by name (adapters/postgres/agents.py)."""

    async def register(self, agent_id: UUID, name: str, at: datetime) -> None: ...

    async def list_agents(
        self, pattern: str, after: tuple[datetime, UUID] | None, limit: int
    ) -> list[AgentSummary]: ...


class Telemetry(Protocol):
    """What the service counts and times (Prometheus in adapters/metrics.py); labels are short fixed words,
    never caller or model text."""

    def rpc(self, method: str, code: str, seconds: float) -> None: ...

    def llm_call(self, outcome: str, seconds: float) -> None: ...

    def llm_tokens(self, prompt: int, completion: int) -> None: ...

    def llm_retry(self, reason: str) -> None: ...

    def llm_format_fallback(self, rejected_format: str) -> None: ...

    def op(self, op: str, outcome: str, reason: str = "") -> None: ...

    def dedup(self, verdict: str) -> None: ...

    def embedding(self, kind: str, texts: int, seconds: float) -> None: ...

    def read_routed(self, target: str, reason: str) -> None: ...

    def read_fallback(self, reason: str) -> None: ...

    def replica_up(self, up: bool) -> None: ...

    def retention(self, what: str, count: int) -> None:
        """Rows retention changed: archived_facts, deleted_facts, reduced_evaluations, archived_candidates."""
        ...

    def auth_failure(self, surface: str, outcome: str) -> None:
        """A wrong token (wrong_token) or an attempt refused untried (throttled_client, throttled_overall), on the
        page (page) or the gRPC bearer check (grpc)."""
        ...


class NullTelemetry:
    """Records nothing (metrics off, tests, tools)."""

    def rpc(self, method: str, code: str, seconds: float) -> None:
        return None

    def llm_call(self, outcome: str, seconds: float) -> None:
        return None

    def llm_tokens(self, prompt: int, completion: int) -> None:
        return None

    def llm_retry(self, reason: str) -> None:
        return None

    def llm_format_fallback(self, rejected_format: str) -> None:
        return None

    def op(self, op: str, outcome: str, reason: str = "") -> None:
        return None

    def dedup(self, verdict: str) -> None:
        return None

    def embedding(self, kind: str, texts: int, seconds: float) -> None:
        return None

    def read_routed(self, target: str, reason: str) -> None:
        return None

    def read_fallback(self, reason: str) -> None:
        return None

    def replica_up(self, up: bool) -> None:
        return None

    def retention(self, what: str, count: int) -> None:
        return None

    def auth_failure(self, surface: str, outcome: str) -> None:
        return None


class RetentionStore(Protocol):
    """What retention reads and changes (adapters/postgres/retention.py): scans in keyset batches, and one short
    transaction per entity under the per-entity lock for every change of facts."""

    async def stale_candidates(
        self, older_than: datetime, after: tuple[UUID, UUID, UUID] | None, limit: int
    ) -> list[Fact]: ...

    async def archive_facts(
        self, agent_id: UUID, entity_id: UUID, facts: Sequence[Fact], at: datetime, reason: str
    ) -> int: ...

    async def archived_before(self, before: datetime, limit: int) -> list[tuple[UUID, UUID, UUID]]: ...

    async def delete_archived(
        self, agent_id: UUID, entity_id: UUID, fact_ids: Sequence[UUID], before: datetime, reason: str
    ) -> int: ...

    async def reduce_evaluations(self, before: datetime, at: datetime, limit: int) -> int: ...

    async def archive_candidates(self, before: datetime, at: datetime, limit: int) -> int: ...


class TicketStore(Protocol):
    """Agent-model tickets (adapters/postgres/tickets.py): shared by every service process on the database."""

    async def issue(
        self,
        agent_id: UUID,
        entity_id: UUID,
        token_hash: bytes,
        forget_epoch: int,
        body: str,
        now: datetime,
        expires_at: datetime,
        policy: TicketPolicy,
    ) -> None: ...

    async def find(self, agent_id: UUID, entity_id: UUID, token_hash: bytes) -> TicketRow | None:
        """The agent's ticket, with the forget epoch `entity_id` has now."""
        ...

    async def use(self, agent_id: UUID, token_hash: bytes, now: datetime) -> bool: ...
