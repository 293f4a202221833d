"""The confidence rules on their own (pure, no fixtures): steps, the 1.0 cap, rounding, once-per-message support,
filling `uncategorized`, the verification upgrade, and when a decay deletes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import uuid4

import pytest

from factmemory.domain.confidence import (
    DECAY_STEP,
    DELETE_BELOW,
    STRENGTHEN_STEP,
    decayed,
    lowered,
    raised,
    stored,
    strengthened,
)
from factmemory.domain.errors import Conflict
from factmemory.domain.forgetting import check_not_forgotten
from factmemory.domain.models import Fact, Kind, Verification

AT = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


def fact(
    confidence: float = 0.7,
    category: str = "preference",
    evidence: tuple[str, ...] = ("m1",),
    verification: Verification = Verification.SELF_REPORTED,
) -> Fact:
    return Fact(
        id=uuid4(),
        agent_id=uuid4(),
        entity_id=uuid4(),
        kind=Kind.DURABLE,
        category=category,
        claim="likes tea",
        confidence=confidence,
        evidence_message_ids=evidence,
        evidence_count=len(evidence),
        verification_status=verification,
        created_at=AT,
        last_confirmed_at=AT,
    )


def test_a_step_is_added_and_stored_to_four_decimals() -> None:
    assert raised(0.7, STRENGTHEN_STEP) == 0.8  # 0.7 + 0.1 is 0.7999999999999999 in binary
    assert raised(0.12344, 0.00001) == 0.1235  # half away from zero, as PostgreSQL rounded
    assert stored(0.33335) == 0.3334
    assert stored(1 / 3) == 0.3333


def test_confidence_is_capped_at_one_and_floored_at_zero() -> None:
    assert raised(0.95, STRENGTHEN_STEP) == 1.0
    assert raised(1.0, STRENGTHEN_STEP) == 1.0
    assert lowered(0.1, DECAY_STEP) == 0.0


def test_a_new_message_strengthens_and_joins_the_evidence() -> None:
    later = AT + timedelta(days=1)
    values = strengthened(fact(), STRENGTHEN_STEP, later, "m2", "preference", Verification.SELF_REPORTED)
    assert values.confidence == 0.8
    assert values.evidence_message_ids == ("m1", "m2")
    assert values.last_confirmed_at == later


def test_one_message_supports_a_fact_once() -> None:
    values = strengthened(fact(), STRENGTHEN_STEP, AT, "m1", "preference", Verification.SELF_REPORTED)
    assert values.confidence == 0.7 and values.evidence_message_ids == ("m1",)


def test_the_last_confirmation_never_moves_back() -> None:
    earlier = AT - timedelta(days=3)
    values = strengthened(fact(), STRENGTHEN_STEP, earlier, "m2", "preference", Verification.SELF_REPORTED)
    assert values.last_confirmed_at == AT


def test_only_an_uncategorized_fact_takes_the_category_named_now() -> None:
    filled = strengthened(fact(category="uncategorized"), STRENGTHEN_STEP, AT, "m2", "hobby", Verification.CONFIRMED)
    kept = strengthened(fact(category="preference"), STRENGTHEN_STEP, AT, "m2", "hobby", Verification.CONFIRMED)
    assert filled.category == "hobby" and kept.category == "preference"


def test_a_confirmation_upgrades_the_verification_and_nothing_downgrades_it() -> None:
    upgraded = strengthened(fact(), STRENGTHEN_STEP, AT, "m2", "preference", Verification.CONFIRMED)
    confirmed = fact(verification=Verification.CONFIRMED)
    kept = strengthened(confirmed, STRENGTHEN_STEP, AT, "m2", "preference", Verification.SELF_REPORTED)
    assert upgraded.verification is Verification.CONFIRMED and kept.verification is Verification.CONFIRMED


@pytest.mark.parametrize(
    ("confidence", "after", "delete"),
    [(0.7, 0.55, False), (0.35, 0.2, False), (0.34, 0.19, True), (0.1, 0.0, True)],
)
def test_a_decay_deletes_only_below_the_floor(confidence: float, after: float, delete: bool) -> None:
    decision = decayed(fact(confidence=confidence))
    assert decision.confidence == after and decision.delete is delete
    assert DELETE_BELOW == 0.2


def test_a_write_planned_before_a_forget_is_refused() -> None:
    check_not_forgotten(2, 2)
    with pytest.raises(Conflict, match="forgotten"):
        check_not_forgotten(2, 3)
