"""Scores facts for the provider. Pure: score = relevance x confidence x time_weight."""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import datetime

from factmemory.domain.models import Fact, Kind, ScoredFact

SECONDS_PER_DAY = 86_400.0


def time_weight(fact: Fact, now: datetime, decay_days: float) -> float:
    """Durable facts: 1 at any age. Current facts: exp(-age_days / decay_days), age from valid_at; no cutoff."""
    if fact.kind is Kind.DURABLE:
        return 1.0
    began = fact.valid_at or fact.created_at
    # A time after `now` counts as `now` (weight 1, never more). Facts take their times from messages clamped to
    # the server's clock (convert.evaluate_input, migration 0002), so no fact stays new for ever.
    age_days = max(0.0, (now - began).total_seconds() / SECONDS_PER_DAY)
    return math.exp(-age_days / decay_days)


def score(fact: Fact, relevance: float, now: datetime, decay_days: float) -> ScoredFact:
    clamped = min(1.0, max(0.0, relevance))
    weight = time_weight(fact, now, decay_days)
    return ScoredFact(fact=fact, relevance=clamped, time_weight=weight, score=clamped * fact.confidence * weight)


def top(scored: Iterable[ScoredFact], limit: int) -> list[ScoredFact]:
    """Highest score first; ties broken by fact id so equal inputs give identical output."""
    return sorted(scored, key=lambda s: (-s.score, str(s.fact.id)))[:limit]
