"""How sure the memory is of a fact, pure: the confidence a new fact starts at, how one message strengthens a fact
(once per message, capped at 1.0, stored to 4 decimals, filling an `uncategorized` category, upgrading the
verification) and how a decay lowers it until the fact is deleted. The write transaction only sets what these say."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal

from factmemory.domain.models import UNCATEGORIZED, Fact, Verification

ADD_CONFIDENCE = 0.7  # a fact the model extracted from a message
MANUAL_CONFIDENCE = 0.9  # a fact a person added by hand without naming a confidence
STRENGTHEN_STEP = 0.1  # per message that supports a fact again
DECAY_STEP = 0.15  # per message that makes a fact less likely
DELETE_BELOW = 0.2  # a decayed fact below this is deleted
MAX_CONFIDENCE = 1.0
_STORED = Decimal("0.0001")  # confidences are stored to 4 decimals


def stored(value: float) -> float:
    """The value as stored: rounded to 4 decimals, half away from zero, from its 15 significant digits (as
    PostgreSQL's round(float8::numeric, 4) did when this rule lived in SQL)."""
    return float(Decimal(f"{value:.15g}").quantize(_STORED, rounding=ROUND_HALF_UP))


def raised(confidence: float, step: float) -> float:
    """The confidence after `step` more support, at most 1.0."""
    return stored(min(MAX_CONFIDENCE, confidence + step))


def lowered(confidence: float, step: float) -> float:
    """The confidence after a decay of `step`, at least 0.0."""
    return stored(max(0.0, confidence - step))


@dataclass(frozen=True)
class Strengthened:
    """The values a strengthened fact takes."""

    confidence: float
    evidence_message_ids: tuple[str, ...]
    last_confirmed_at: datetime
    category: str
    verification: Verification


def strengthened(
    fact: Fact, step: float, at: datetime, message_id: str, category: str, verification: Verification
) -> Strengthened:
    """One message's support of a stored fact. A message supports a fact once: a message already among its evidence
    leaves the confidence and evidence as they are. A fact still `uncategorized` takes the category named now;
    a confirmation upgrades the verification, nothing downgrades it."""
    supported = message_id in fact.evidence_message_ids
    return Strengthened(
        confidence=fact.confidence if supported else raised(fact.confidence, step),
        evidence_message_ids=fact.evidence_message_ids if supported else (*fact.evidence_message_ids, message_id),
        last_confirmed_at=max(fact.last_confirmed_at, at),
        category=category if fact.category == UNCATEGORIZED else fact.category,
        verification=Verification.CONFIRMED if verification is Verification.CONFIRMED else fact.verification_status,
    )


@dataclass(frozen=True)
class Decayed:
    """A decayed fact's new confidence, and whether it is deleted (it fell below the floor)."""

    confidence: float
    delete: bool


def decayed(fact: Fact, step: float = DECAY_STEP, delete_below: float = DELETE_BELOW) -> Decayed:
    """The fact after one message made it less likely."""
    confidence = lowered(fact.confidence, step)
    return Decayed(confidence, confidence < delete_below)
