"""Agents by name: what an agent is listed as, and the name it registers (bounded, one line). Pure."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

from factmemory.domain.errors import InvalidInput
from factmemory.domain.models import Frozen
from factmemory.domain.text import one_line


class AgentSummary(Frozen):
    agent_id: UUID
    # "" when the agent never registered a name.
    name: str = ""
    entities: int = 0  # people only
    facts: int = 0
    pending_candidates: int = 0
    last_activity: datetime | None = None
    communities: int = 0  # worlds with shared facts or held claims, and the agent-wide facts

    @property
    def label(self) -> str:
        """The name, or the id for an agent that never registered one."""
        return self.name or str(self.agent_id)


def agent_name(raw: str, max_chars: int) -> str:
    """The name to store: one line, not empty, at most max_chars."""
    name = one_line(raw)
    if not name:
        raise InvalidInput("name is required (the character's name)")
    if len(name) > max_chars:
        raise InvalidInput(f"name is longer than {max_chars} characters ({len(name)})")
    return name


def the_one(given: str, found: Sequence[tuple[UUID, str]]) -> UUID | None:
    """The id a name means among (id, name) pairs: the one exact name (case-insensitive), else the one partial
    match; None when none or several (the caller lists them)."""
    wanted = " ".join(given.split()).casefold()
    exact = [i for i, name in found if name.casefold() == wanted]
    matches = exact or [i for i, name in found if wanted in name.casefold()]
    return matches[0] if len(set(matches)) == 1 else None
