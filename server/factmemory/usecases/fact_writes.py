"""The write path's changes of a stored fact under the per-entity lock: read it, let domain.confidence decide, set
what it decided. The lock is what makes the read-then-write safe (tests/test_store.py's concurrency tests)."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from factmemory.domain.confidence import DECAY_STEP, DELETE_BELOW, decayed, strengthened
from factmemory.domain.models import Fact, Verification
from factmemory.ports import WriteTransaction


async def strengthen(
    tx: WriteTransaction,
    fact_id: UUID,
    step: float,
    at: datetime,
    message_id: str,
    category: str,
    verification: Verification,
) -> Fact | None:
    """One message's support of a stored fact; None when the fact is gone."""
    fact = await tx.get_fact(fact_id)
    if fact is None:
        return None
    return await tx.set_strengthened(fact_id, strengthened(fact, step, at, message_id, category, verification))


async def decay(
    tx: WriteTransaction, fact_id: UUID, step: float = DECAY_STEP, delete_below: float = DELETE_BELOW
) -> tuple[Fact | None, bool]:
    """Lowers the fact's confidence, and deletes it when it fell below the floor: (the fact, whether deleted)."""
    fact = await tx.get_fact(fact_id)
    if fact is None:
        return None, False
    decision = decayed(fact, step, delete_below)
    lowered = await tx.set_decayed(fact_id, decision.confidence)
    if lowered is None or not decision.delete:
        return lowered, False
    await tx.delete_fact(fact_id, f"confidence below {delete_below}")
    return lowered, True
