"""ForgetEntity is final, pure: a write planned before a forget of its entity commits nothing."""

from __future__ import annotations

from factmemory.domain.errors import Conflict


def check_not_forgotten(epoch_when_started: int, epoch_under_lock: int) -> None:
    """Raises Conflict when the entity was forgotten (its epoch bumped) since the call read its epoch."""
    if epoch_under_lock != epoch_when_started:
        raise Conflict(
            "the entity was forgotten while this message was being evaluated; nothing was "
            "stored (ForgetEntity is final: do not resend messages of a forgotten entity)"
        )
