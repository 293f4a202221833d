"""Agents by name: RegisterAgent and ListAgents (the review page's start page and the CLI's names use the list)."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

from factmemory.domain.agents import AgentSummary, agent_name
from factmemory.domain.errors import NotConfigured
from factmemory.domain.resolutions import decode_position, encode_position, search_pattern
from factmemory.ports import AgentStore
from factmemory.usecases.deps import Deps

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _agents(deps: Deps) -> AgentStore:
    if deps.agents is None:
        raise NotConfigured("this service was built without agent names")
    return deps.agents


async def register_agent(deps: Deps, agent_id: UUID, name: str, at: datetime) -> None:
    """Records (or renames) the agent's display name."""
    await _agents(deps).register(agent_id, agent_name(name, deps.tuning.limits.max_name_chars), at)


async def list_agents(deps: Deps, query: str, page_token: str, page_size: int) -> tuple[list[AgentSummary], str]:
    """One page, most recent activity first, and the token of the next page ("" on the last)."""
    found = await _agents(deps).list_agents(search_pattern(query), decode_position(page_token), page_size + 1)
    if len(found) <= page_size:
        return found, ""
    last = found[page_size - 1]
    return found[:page_size], encode_position(last.last_activity or EPOCH, last.agent_id)


async def name_of(deps: Deps, agent_id: UUID) -> str:
    """The agent's registered name ("" when it never registered one, or names are not kept here)."""
    return "" if deps.agents is None else await deps.agents.agent_name(agent_id)
