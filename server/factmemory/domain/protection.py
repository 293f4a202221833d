"""Facts a model cannot remove on its own: a confirmed fact, and any health fact. Pure.

A small model decays facts it merely did not see confirmed; repeated, that deletes what a person or a reviewer
confirmed, or a health fact whose loss is a safety risk. Such a decay stops at the deletion floor and becomes a
review candidate (source `decay_floor`); contradictions already go to review.
"""

from __future__ import annotations

from typing import Final

from factmemory.domain.confidence import decayed
from factmemory.domain.models import Fact, Verification

PROTECTED_CATEGORIES: Final = frozenset({"health"})


def protected(fact: Fact) -> str | None:
    """Why the model alone may not delete this fact, or None."""
    if fact.verification_status is Verification.CONFIRMED:
        return "confirmed"
    if fact.category in PROTECTED_CATEGORIES:
        return f"{fact.category} fact"
    return None


def decay_needs_review(fact: Fact, step: float, floor: float) -> str | None:
    """Why this decay must go to review instead (it would delete a protected fact), or None to apply it."""
    why = protected(fact)
    return why if why is not None and decayed(fact, step, floor).delete else None
