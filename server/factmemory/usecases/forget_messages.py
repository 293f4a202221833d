"""Deleted messages leave the memory (ForgetMessages, one name in every layer: domain/forget_messages.py,
adapters/postgres/erasure/forget_messages.py): their facts go or are recounted, what they raised closes, they are never
learned again. One transaction under the lock of each entity concerned; a repeat changes nothing. Also: out of
every shared fact when their author is forgotten (ForgetEntity of a teacher, docs/shared-facts.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from uuid import UUID

from factmemory.domain.errors import InvalidInput, NotConfigured
from factmemory.domain.forget_messages import REASON, after_deletion, check_message_ids
from factmemory.domain.shared import subject_order
from factmemory.ports import ForgetTransaction
from factmemory.usecases.deps import Deps


@dataclass(frozen=True)
class MessagesForgotten:
    messages: int = 0
    facts_deleted: int = 0
    facts_updated: int = 0
    candidates_closed: int = 0
    relationships_deleted: int = 0
    identities_deleted: int = 0

    def __add__(self, other: MessagesForgotten) -> MessagesForgotten:
        return MessagesForgotten(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))


async def unlearn(
    tx: ForgetTransaction, forgotten: Sequence[str], messages: int, shared: bool = False
) -> MessagesForgotten:
    """The forgotten messages taken out of the subject's facts, review items and links; of a shared subject (which
    is never forgotten itself), their words everywhere too (docs/retention.md)."""
    if not forgotten:
        return MessagesForgotten()
    closed = await tx.close_raised(forgotten)
    await tx.void_tickets(forgotten)  # an open ticket may show the messages (or facts they alone supported)
    gone = set(forgotten)
    deleted: list[UUID] = []
    changed: list[tuple[UUID, tuple[str, ...], float]] = []
    for fact_id, cited in await tx.citing(forgotten):
        outcome = after_deletion(cited, gone)
        if outcome.delete:
            deleted.append(fact_id)
        else:
            changed.append((fact_id, outcome.evidence, outcome.confidence))
    if changed:
        await tx.set_evidence(changed, REASON)
    if deleted:
        await tx.delete_facts(deleted, REASON)
    if shared:
        closed = await tx.erase_words(forgotten, deleted)
    relationships, identities = await tx.unlink(forgotten)
    return MessagesForgotten(messages, len(deleted), len(changed), closed, relationships, identities)


async def unlearn_teacher(deps: Deps, agent_id: UUID, entity_id: UUID, at: datetime) -> MessagesForgotten:
    """Before a person is forgotten: their messages leave every shared fact's evidence. A shared fact that stood on
    their messages alone is deleted; one others also taught keeps the others' evidence; one a reviewer vouched for
    (accepted or edited) stays without evidence, as after ForgetMessages."""
    if deps.messages is None:
        return MessagesForgotten()
    subjects = [s.subject_id for s in sorted(await deps.messages.shared_subjects(agent_id), key=subject_order)]
    if not subjects or entity_id in subjects:
        return MessagesForgotten()
    said = await deps.messages.evaluated_by(agent_id, entity_id)
    total = MessagesForgotten()
    if said:
        async with deps.messages.forgetting(agent_id, [], at, subjects) as transactions:
            for tx in transactions:
                total += await unlearn(tx, said, 0, shared=True)
    return total


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
    shared = [s.subject_id for s in sorted(await deps.messages.shared_subjects(agent_id), key=subject_order)]
    async with deps.messages.forgetting(agent_id, entities, at, shared) as transactions:
        people = transactions[: len(transactions) - len(shared)]
        forgotten: list[str] = []
        for tx in people:
            done, ids = await _forget(tx, message_ids, room_id)
            total += done
            forgotten += ids
        for tx in transactions[len(people) :]:  # shared facts cite the people's messages (docs/shared-facts.md)
            total += await unlearn(tx, forgotten, 0, shared=True)
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
