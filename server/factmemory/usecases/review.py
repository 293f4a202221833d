"""Review and erasure: listing facts and candidates, resolving candidates, forgetting and exporting an entity."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from factmemory.domain.errors import NotFound
from factmemory.domain.models import Candidate, Fact, ForgetCounts, Kind
from factmemory.usecases.deps import Deps


async def list_facts(
    deps: Deps, agent_id: UUID, entity_id: UUID, kind: Kind | None, after: UUID | None, page_size: int
) -> tuple[list[Fact], UUID | None]:
    """One page ordered by id, and the id to continue after (None on the last page)."""
    facts = await deps.store.list_facts(agent_id, entity_id, kind, after, page_size + 1)
    if len(facts) > page_size:
        return facts[:page_size], facts[page_size - 1].id
    return facts, None


async def list_candidates(deps: Deps, agent_id: UUID, entity_id: UUID) -> list[Candidate]:
    return await deps.store.list_candidates(agent_id, entity_id)


async def resolve_candidate(
    deps: Deps, agent_id: UUID, entity_id: UUID, candidate_id: UUID, accept: bool, now: datetime
) -> tuple[Candidate, Fact | None]:
    """Accepting re-embeds the proposed claim (outside the transaction) and replaces the fact's claim."""
    embedding = None
    if accept:
        claim = await deps.store.get_candidate_claim(agent_id, entity_id, candidate_id)
        if claim is None:
            raise NotFound(f"candidate {candidate_id} not found for this agent and entity")
        embedding = (await deps.embedder.passages([claim]))[0]
    return await deps.store.resolve_candidate(
        agent_id, entity_id, candidate_id, accept, now, embedding, deps.embedder.model_name
    )


async def forget_entity(deps: Deps, agent_id: UUID, entity_id: UUID) -> ForgetCounts:
    return await deps.store.forget_entity(agent_id, entity_id)


async def export_entity(deps: Deps, agent_id: UUID, entity_id: UUID) -> dict[str, object]:
    return await deps.store.export_entity(agent_id, entity_id)
