"""What leaves the store, and when. Pure: the retention policy, when a current fact went stale, and whether a
scheduled plan's date has passed.

A current fact's weight is confidence x exp(-age / decay_days) (domain/ranking.py). Once it is below `floor` it
can no longer win a place in the provider's block against anything fresh; once it has stayed below for
`stale_days` it is archived. The default floor 0.02 is the weight a fact of confidence 1 reaches after
decay_days x ln(50) ~ 55 days at the default 14-day constant (about 50 days at the confidence of a new fact, 0.7);
with the 7 stale days a new, never confirmed current fact is archived about two months after its time.
Durable facts never leave by age.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from factmemory.domain.models import Fact, Kind

SCHEDULE_CATEGORY = "schedule_context"
# structured_fields keys of a scheduled plan: its day, or the last day of its range (the model is asked for ISO
# dates resolved against the message's time).
SCHEDULE_DATE_KEYS = ("until", "date")


@dataclass(frozen=True)
class RetentionPolicy:
    """Every retention knob, built from Settings (the one home of their defaults, app.retention_policy); a None
    period (or floor 0) turns that part off."""

    decay_days: float
    floor: float
    stale_days: float
    delete_after_days: float | None
    evaluation_window_days: float | None
    candidate_archive_days: float | None
    batch: int


def scheduled_until(fact: Fact) -> date | None:
    """The last day of a scheduled plan (field `until`, else `date`), when it names a readable ISO date."""
    if fact.category != SCHEDULE_CATEGORY:
        return None
    for key in SCHEDULE_DATE_KEYS:
        value = fact.structured_fields.get(key)
        if isinstance(value, str):
            parsed = _iso_day(value)
            if parsed is not None:
                return parsed
    return None


def _iso_day(value: str) -> date | None:
    """The day of '2026-11-20', '2026-11-20T10:00', or the end of a range '2026-11-20/2026-11-22'."""
    text = value.strip().rsplit("/", 1)[-1].strip()[:10]
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def plan_is_past(fact: Fact, now: datetime) -> bool:
    """True once the whole day of a scheduled plan's date (or range end) is over, in UTC."""
    until = scheduled_until(fact)
    return until is not None and now >= _end_of(until)


def _end_of(day: date) -> datetime:
    return datetime.combine(day + timedelta(days=1), time(), tzinfo=UTC)


def fell_below_at(fact: Fact, policy: RetentionPolicy) -> datetime | None:
    """When a current fact's weight x confidence fell (or will fall) below the floor; None when it never leaves
    by age (durable facts, floor off). Counted from its latest time (began, last confirmed), and never before a
    scheduled plan's date has passed: a trip planned months ahead is not stale while it is still ahead."""
    if fact.kind is Kind.DURABLE or policy.floor <= 0:
        return None
    began = max(fact.valid_at or fact.created_at, fact.last_confirmed_at)
    until = scheduled_until(fact)
    if until is not None:
        began = max(began, _end_of(until))
    if fact.confidence <= policy.floor:
        return began
    return began + timedelta(days=policy.decay_days * math.log(fact.confidence / policy.floor))


def should_archive(fact: Fact, now: datetime, policy: RetentionPolicy) -> bool:
    """Below the floor for at least stale_days."""
    fell = fell_below_at(fact, policy)
    return fell is not None and now - fell >= timedelta(days=policy.stale_days)


def scan_cutoff(now: datetime, policy: RetentionPolicy) -> datetime:
    """No fact whose latest time is after this can be archived yet (a fact at or under the floor from the
    start goes stale soonest): the store scans only older ones."""
    return now - timedelta(days=policy.stale_days)


def cutoff(now: datetime, days: float | None) -> datetime | None:
    """now - days, or None when the period is off."""
    return None if days is None else now - timedelta(days=days)
