"""Agents by name: the registered name (bounded, one line), and which agent a name given by a person means. Pure."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

from factmemory.domain.errors import InvalidInput, NotFound
from factmemory.domain.models import Frozen
from factmemory.domain.text import one_line


class AgentSummary(Frozen):
    agent_id: UUID
    # "" when the agent never registered a name.
    name: str = ""
    entities: int = 0
    facts: int = 0
    pending_candidates: int = 0
    last_activity: datetime | None = None

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


def pick_agent(given: str, found: Sequence[AgentSummary]) -> UUID:
    """The one agent a person meant by a name (or the start of an id): an exact name (case-insensitive) wins over
    partial matches; several candidates are refused, naming them."""
    wanted = one_line(given).casefold()
    exact = [a for a in found if a.name.casefold() == wanted or str(a.agent_id) == wanted]
    matches = exact or list(found)
    if len(matches) == 1:
        return matches[0].agent_id
    if not matches:
        raise NotFound(f"no agent is named {given!r} (see `factmemory agents`)")
    listed = ", ".join(f"{a.label} ({a.agent_id})" for a in matches[:10])
    more = f" and {len(matches) - 10} more" if len(matches) > 10 else ""
    raise InvalidInput(f"{given!r} matches {len(matches)} agents: {listed}{more}; give the agent id")
