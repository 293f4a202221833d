"""Deleted messages leave the memory: their facts go or are recounted, what they raised closes, they are never
learned again. One transaction under the lock of each entity concerned; a repeat changes nothing."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

from factmemory.domain.errors import InvalidInput, NotConfigured
from factmemory.domain.message_deletion import check_message_ids
from factmemory.domain.shared import subject_order
from factmemory.ports import ForgetTransaction
from factmemory.usecases.deps import Deps
from factmemory.usecases.unlearning import MessagesForgotten as MessagesForgotten  # re-exported
from factmemory.usecases.unlearning import unlearn


async def forget_messages(
    deps: Deps,
    agent_id: UUID,
    entity_id: UUID | None,
    message_ids: Sequence[str],
    room_id: UUID | None,
    at: datetime,
    max_id_chars: int,
) -> MessagesForgotten:
    """The messages (and, with room_id, every message evaluated in that room) of the entity (of every entity of the
    agent when entity_id is None and room_id is set) are forgotten; returns what changed."""
    if deps.messages is None:
        raise NotConfigured("this service was built without message deletion")
    check_message_ids(message_ids, max_id_chars)
    if not message_ids and room_id is None:
        raise InvalidInput("give message_ids, room_id or both")
    if entity_id is not None:
        entities = [entity_id]
    elif room_id is not None and not message_ids:
        entities = await deps.messages.entities_in_room(agent_id, room_id)
    else:
        raise InvalidInput("entity_id is required, except to clear a room (room_id without message_ids)")
    total = MessagesForgotten()
    shared = [s.subject_id for s in sorted(await deps.store.shared_subjects(agent_id), key=subject_order)]
    async with deps.messages.forgetting(agent_id, entities, at, shared) as transactions:
        people = transactions[: len(transactions) - len(shared)]
        forgotten: list[str] = []
        for tx in people:
            done, ids = await _forget(tx, message_ids, room_id)
            total += done
            forgotten += ids
        for tx in transactions[len(people) :]:  # shared facts cite the people's messages (docs/shared-facts.md)
            total += await unlearn(tx, forgotten, 0)
    return total


async def _forget(
    tx: ForgetTransaction, message_ids: Sequence[str], room_id: UUID | None
) -> tuple[MessagesForgotten, list[str]]:
    """One entity: tombstones first, then only the messages newly forgotten are taken out (a repeat does nothing);
    and the messages newly forgotten."""
    forgotten = await tx.tombstone(message_ids, room_id)
    if not forgotten:
        return MessagesForgotten(), []
    return await unlearn(tx, forgotten, len(forgotten)), forgotten
