"""Formats the provider's two-section facts block. Pure."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from factmemory.domain.models import ScoredFact
from factmemory.domain.resolutions import dispute_note
from factmemory.domain.retention import plan_is_past, scheduled_until
from factmemory.domain.text import inert

# The proposed claim is quoted on the first few disputed lines only, so the block stays within the provider's
# token budget even when every fact shown is disputed.
QUOTED_DISPUTES = 2
SHORT_DISPUTE = "(may have changed)"


def _title(template: str, subject_name: str) -> str:
    # The caller's name and the model's claims go into the agent's prompt: one line each, no tags.
    return template.format(subject=inert(subject_name) or "you")


def _when(scored: ScoredFact, now: datetime | None) -> str:
    """A dated plan says when it is, and that it is over once its day has passed; other facts since when."""
    fact = scored.fact
    until = scheduled_until(fact)
    if until is not None and now is not None:
        return f" (was planned for {until:%Y-%m-%d})" if plan_is_past(fact, now) else f" (planned for {until:%Y-%m-%d})"
    return "" if fact.valid_at is None else f" (since {fact.valid_at:%Y-%m-%d})"


def _line(scored: ScoredFact, quote_dispute: bool = True, now: datetime | None = None) -> str:
    fact = scored.fact
    line = f"- [{fact.kind.value}.{inert(fact.category)}] {inert(fact.claim)}" + _when(scored, now)
    if fact.disputed_by:
        # A pending contradiction: the agent should ask rather than assert.
        line += " " + (inert(dispute_note(fact.disputed_by)) if quote_dispute else SHORT_DISPUTE)
    return line


def _lines(facts: Sequence[ScoredFact], quoted_before: int, now: datetime | None) -> list[str]:
    lines, quoted = [], quoted_before
    for scored in facts:
        lines.append(_line(scored, quoted < QUOTED_DISPUTES, now))
        quoted += bool(scored.fact.disputed_by)
    return lines


def render(
    durable: Sequence[ScoredFact], current: Sequence[ScoredFact], subject_name: str = "", now: datetime | None = None
) -> str:
    """'What I know about you:' and "What's currently happening for you:"; empty sections are left out. With
    `now`, a scheduled plan whose date has passed is shown as past ("was planned for ...")."""
    sections: list[str] = []
    if durable:
        sections.append(_title("What I know about {subject}:", subject_name))
        sections.extend(_lines(durable, 0, now))
    if current:
        sections.append(_title("What's currently happening for {subject}:", subject_name))
        sections.extend(_lines(current, sum(1 for s in durable if s.fact.disputed_by), now))
    return "\n".join(sections)


SHARED_TITLE = "What I know about this community:"


def render_shared(shared: Sequence[ScoredFact], now: datetime | None = None) -> str:
    """The shared facts' section (docs/shared-facts.md); '' when there are none."""
    return "\n".join([SHARED_TITLE, *_lines(shared, QUOTED_DISPUTES, now)]) if shared else ""
