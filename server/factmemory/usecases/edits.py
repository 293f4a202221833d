"""Corrections by people: add a fact by hand, edit one, delete one; each one transaction and one history entry."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from factmemory.domain.confidence import MANUAL_CONFIDENCE
from factmemory.domain.errors import Conflict, NotFound
from factmemory.domain.limits import Limits
from factmemory.domain.models import Fact, FactEdit, HistoryAction, Kind, Verification
from factmemory.domain.new_fact import new_fact
from factmemory.domain.protection import PROTECTED_CATEGORIES
from factmemory.domain.resolutions import chat_actor, check_category, check_claim, check_confidence, check_edit
from factmemory.domain.shared import refuse_subject
from factmemory.domain.text import one_line
from factmemory.ports import FactChange
from factmemory.usecases.deps import Deps

EDITED_BY_HAND = "edited by hand"
DELETED_BY_HAND = "deleted by hand"
CORRECTED_IN_CHAT = "corrected in the chat"
DELETED_IN_CHAT = "deleted in the chat"


def _fields(raw: dict[str, Any] | None, limits: Limits) -> dict[str, str]:
    """Structured fields as bounded one-line strings, like the model's."""
    out: dict[str, str] = {}
    for key, value in list((raw or {}).items())[: limits.max_fields]:
        name = one_line(str(key))[: limits.max_field_chars]
        if name:
            out[name] = one_line(str(value))[: limits.max_field_chars]
    return out


async def add_fact(
    deps: Deps,
    agent_id: UUID,
    entity_id: UUID,
    kind: Kind,
    category: str,
    claim: str,
    actor: str,
    confidence: float | None = None,
    structured_fields: dict[str, Any] | None = None,
) -> Fact:
    """A fact a person states: verification confirmed, embedded like any other."""
    refuse_subject(entity_id, agent_id, None, await deps.review_store.shared_among(agent_id, [entity_id]))
    claim = check_claim(claim, deps.tuning.limits.max_claim_chars)
    check_category(kind, category)
    level = MANUAL_CONFIDENCE if confidence is None else check_confidence(confidence)
    vector = (await deps.embedder.passages([claim]))[0]
    now = datetime.now(UTC)
    async with deps.review_store.review(agent_id, entity_id) as tx:
        tx.mark(HistoryAction.CREATED, actor, "added by hand")
        return await tx.insert_fact(
            new_fact(
                kind,
                category,
                claim,
                confidence=level,
                evidence=actor,
                verification=Verification.CONFIRMED,
                at=now,
                embedding=vector,
                embedding_model=deps.embedder.model_name,
                structured_fields=_fields(structured_fields, deps.tuning.limits),
            )
        )


async def update_fact(
    deps: Deps, agent_id: UUID, entity_id: UUID, fact_id: UUID, edit: FactEdit, actor: str, reason: str = EDITED_BY_HAND
) -> Fact:
    """Changes the given fields; a new claim is re-embedded (before the transaction) and the old one kept."""
    current = await deps.review_store.get_fact(agent_id, entity_id, fact_id)
    if current is None:
        raise NotFound(f"fact {fact_id} not found for this agent and entity")
    edit = check_edit(edit, current.kind, current.category, deps.tuning.limits.max_claim_chars)
    claim_changes = edit.claim is not None and edit.claim != current.claim
    vector = (await deps.embedder.passages([edit.claim]))[0] if claim_changes and edit.claim else None
    async with deps.review_store.review(agent_id, entity_id) as tx:
        tx.mark(HistoryAction.EDITED, actor, reason)
        changed = await tx.change_fact(
            fact_id,
            FactChange(
                claim=edit.claim if claim_changes else None,
                category=edit.category,
                kind=edit.kind,
                confidence=edit.confidence,
                verification=edit.verification,
                embedding=vector,
                embedding_model=deps.embedder.model_name if vector is not None else None,
                keep_previous_claim=claim_changes,
            ),
        )
    if changed is None:
        raise NotFound(f"fact {fact_id} not found for this agent and entity")
    return changed


async def delete_fact(
    deps: Deps, agent_id: UUID, entity_id: UUID, fact_id: UUID, actor: str, reason: str = DELETED_BY_HAND
) -> None:
    """Deletes one fact; its history stays (until the entity is forgotten) and records who deleted it."""
    async with deps.review_store.review(agent_id, entity_id) as tx:
        tx.mark(HistoryAction.DELETED, actor, reason)
        if not await tx.delete_fact(fact_id):
            raise NotFound(f"fact {fact_id} not found for this agent and entity")


async def delete_fact_asked(deps: Deps, agent_id: UUID, entity_id: UUID, fact_id: UUID, confirmed: bool) -> None:
    """The person asked in a conversation to delete one of their facts: a health fact (a safety risk when lost) only
    once they confirmed; the history names them."""
    if not confirmed:
        current = await deps.review_store.get_fact(agent_id, entity_id, fact_id)
        if current is None:
            raise NotFound(f"fact {fact_id} not found for this agent and entity")
        if current.category in PROTECTED_CATEGORIES:
            raise Conflict(f"a {current.category} fact is deleted from the chat only once the person confirms")
    await delete_fact(deps, agent_id, entity_id, fact_id, chat_actor(entity_id), DELETED_IN_CHAT)
