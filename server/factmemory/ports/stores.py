"""The smaller stores: deleted messages, agents, retention, agent-model tickets."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Protocol
from uuid import UUID

from factmemory.domain.agents import AgentSummary
from factmemory.domain.forget_messages import Cited
from factmemory.domain.models import (
    Fact,
)
from factmemory.domain.shared import SharedSubject
from factmemory.domain.tickets import TicketPolicy, TicketRow


class ForgetTransaction(Protocol):
    """One entity's part of a ForgetMessages call, under its per-entity lock
    (adapters/postgres/erasure/forget_messages.py)."""

    async def tombstone(self, message_ids: Sequence[str], room_id: UUID | None) -> list[str]: ...

    async def citing(self, message_ids: Sequence[str]) -> list[tuple[UUID, Cited]]: ...

    async def delete_facts(self, fact_ids: Sequence[UUID], reason: str) -> int: ...

    async def set_evidence(self, changes: Sequence[tuple[UUID, tuple[str, ...], float]], reason: str) -> None: ...

    async def close_raised(self, message_ids: Sequence[str]) -> int: ...

    async def void_tickets(self, message_ids: Sequence[str]) -> int: ...

    # A shared subject's words of the messages past its facts (`deleted`: those that went with them): the review
    # items they raised, their history, other people's stored results and open tickets; review items deleted.
    async def erase_words(self, message_ids: Sequence[str], deleted: Sequence[UUID]) -> int: ...

    async def unlink(self, message_ids: Sequence[str]) -> tuple[int, int]: ...


class MessageStore(Protocol):
    """Deleted messages: which entities a room's evaluated messages belong to, and one transaction over entities."""

    async def entities_in_room(self, agent_id: UUID, room_id: UUID) -> list[UUID]: ...

    # The ids of the messages evaluated for the entity (its shared teaching included).
    async def evaluated_by(self, agent_id: UUID, entity_id: UUID) -> list[str]: ...

    # The agent's shared subjects (domain/shared.py): their facts cite the people's messages.
    async def shared_subjects(self, agent_id: UUID) -> list[SharedSubject]: ...

    # One transaction per call: a transaction per entity, then one per shared subject (shared_ids, in that order:
    # their messages are the entities', and only their evidence is taken out).
    def forgetting(
        self, agent_id: UUID, entity_ids: Sequence[UUID], at: datetime, shared_ids: Sequence[UUID] = ()
    ) -> AbstractAsyncContextManager[Sequence[ForgetTransaction]]: ...


class AgentStore(Protocol):
    """Agents by name (adapters/postgres/agents.py)."""

    async def register(self, agent_id: UUID, name: str, at: datetime) -> None: ...

    async def list_agents(
        self, pattern: str, after: tuple[datetime, UUID] | None, limit: int
    ) -> list[AgentSummary]: ...

    async def agent_name(self, agent_id: UUID) -> str: ...


class RetentionStore(Protocol):
    """What retention reads and changes (adapters/postgres/erasure/retention.py): scans in keyset batches, and one short
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

    async def expire_tickets(self, now: datetime) -> int:
        """Expired agent-model tickets lose their content; rows kept long enough past their expiry go."""
        ...


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

    async def find(self, agent_id: UUID, entity_id: UUID, token_hash: bytes, now: datetime) -> TicketRow | None:
        """The agent's ticket, with the forget epoch `entity_id` has now; an expired one without its content."""
        ...

    async def use(self, agent_id: UUID, entity_id: UUID, token_hash: bytes, now: datetime) -> bool: ...
