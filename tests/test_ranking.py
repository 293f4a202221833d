"""The provider's scoring and selection (ranking.py), pure: no database, no embedder."""

from __future__ import annotations

import math
import uuid
from dataclasses import FrozenInstanceError, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from factmemory.domain.models import AppliedOp, EvaluateResult, Fact, Kind, OpType, ScoredFact, Verification
from factmemory.domain.ranking import Weights, by_kind, same_claim, score, select, share, time_weight

NOW = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
DECAY = 14.0
MODIFIER = Weights().modifier


def fact(
    claim: str, kind: Kind = Kind.CURRENT, days: float = 0.0, confidence: float = 0.7, fid: int | None = None
) -> Fact:
    at = NOW - timedelta(days=days)
    return Fact(
        id=uuid.UUID(int=fid if fid is not None else abs(hash(claim)) % 2**64),
        agent_id=uuid.UUID(int=1),
        entity_id=uuid.UUID(int=2),
        kind=kind,
        category="feeling" if kind is Kind.CURRENT else "identity",
        claim=claim,
        confidence=confidence,
        created_at=at,
        last_confirmed_at=at,
        valid_at=at if kind is Kind.CURRENT else None,
    )


def scored(f: Fact, relevance: float) -> ScoredFact:
    return score(f, relevance, NOW, DECAY, MODIFIER)


# --- time weight: the design's scenarios ------------------------------------------------------------------


def test_current_weights_at_1_14_30_days() -> None:
    for days in (1, 14, 30):
        assert math.isclose(time_weight(fact("x", days=days), NOW, DECAY), math.exp(-days / DECAY))


def test_durable_facts_do_not_decay_at_30_days_or_a_year() -> None:
    for days in (30, 365):
        old = fact("lives in Berlin", Kind.DURABLE, days=days)
        assert time_weight(old, NOW, DECAY) == 1.0
        assert scored(old, 0.8).score == scored(fact("lives in Berlin", Kind.DURABLE), 0.8).score


# --- score: relevance first, confidence and age among comparable facts ------------------------------------


def test_clearly_relevant_beats_irrelevant_whatever_confidence_and_age() -> None:
    relevant = scored(fact("anxious about the exam", days=30, confidence=0.3), 0.9)
    irrelevant = scored(fact("enjoys jazz", days=0, confidence=1.0), 0.3)
    assert relevant.score > irrelevant.score


def test_at_equal_relevance_fresh_current_beats_stale() -> None:
    fresh = scored(fact("fixed the auth bug", days=1), 0.7)
    for days in (14, 30):
        assert fresh.score > scored(fact("debugging the auth flow", days=days), 0.7).score


def test_at_equal_relevance_confidence_decides() -> None:
    assert scored(fact("a", confidence=1.0), 0.6).score > scored(fact("b", confidence=0.7), 0.6).score


def test_confidence_moves_a_score_by_at_most_the_modifier_share() -> None:
    low, high = scored(fact("a", confidence=0.0), 0.8), scored(fact("a", confidence=1.0), 0.8)
    assert math.isclose(high.score - low.score, 0.8 * MODIFIER)


def test_a_full_modifier_is_the_old_product() -> None:
    f = fact("a", days=7, confidence=0.8)
    s = score(f, 0.9, NOW, DECAY, modifier=1.0)
    assert math.isclose(s.score, 0.9 * 0.8 * math.exp(-7 / DECAY))


# --- select: per kind, the lane, no duplicate lines, determinism -------------------------------------------

LIMITS = {Kind.DURABLE: 2, Kind.CURRENT: 2}


def test_lane_brings_an_old_relevant_fact_into_its_own_section() -> None:
    fresh = [scored(fact(f"fresh {n}", days=0, confidence=1.0, fid=n), 0.8) for n in range(3)]
    old = scored(fact("ran the Lisbon half marathon", days=200, fid=9), 0.95)
    durable = [scored(fact(f"durable {n}", Kind.DURABLE, fid=20 + n), 0.6 + n / 100) for n in range(2)]
    without = select([*fresh, old, *durable], LIMITS, Weights(lane=0, spill_below=0.0), same=None)
    assert old not in without[Kind.CURRENT]
    with_lane = select([*fresh, old, *durable], LIMITS, Weights(lane=1, spill_below=0.0), same=None)
    assert old in with_lane[Kind.CURRENT] and len(with_lane[Kind.CURRENT]) == 3  # the quota gives way
    assert with_lane[Kind.DURABLE] == [durable[1]]  # the lowest-scored fact shown made room; 4 lines in all


def test_lane_never_displaces_a_more_relevant_fact() -> None:
    shown = [scored(fact(f"shown {n}", Kind.DURABLE, fid=n), 0.9) for n in range(2)]
    left_out = scored(fact("left out", Kind.DURABLE, fid=7), 0.9)
    chosen = select([*shown, left_out], {Kind.DURABLE: 2, Kind.CURRENT: 0}, Weights(), same=None)
    assert chosen[Kind.DURABLE] == shown


def test_lane_needs_enough_relevance() -> None:
    fresh = [scored(fact(f"fresh {n}", confidence=1.0, fid=n), 0.45) for n in range(2)]
    old = scored(fact("old", days=300, fid=9), 0.49)
    assert old not in select([*fresh, old], LIMITS, Weights(lane_min=0.5), same=None)[Kind.CURRENT]
    assert old in select([*fresh, old], LIMITS, Weights(lane_min=0.4), same=None)[Kind.CURRENT]


def test_lane_is_bounded() -> None:
    fresh = [scored(fact(f"fresh {n}", confidence=1.0, fid=n), 0.8) for n in range(4)]
    old = [scored(fact(f"old {n}", days=300, fid=10 + n), 0.9 - n / 100) for n in range(4)]
    limits = {Kind.DURABLE: 0, Kind.CURRENT: 4}
    chosen = select([*fresh, *old], limits, Weights(spill_below=0.0), same=None)[Kind.CURRENT]
    assert sum(1 for s in chosen if s.fact.claim.startswith("old")) == 2 and len(chosen) == 4


def test_beyond_the_lane_only_unrelated_facts_give_up_their_slots() -> None:
    durable = [scored(fact(f"unrelated {n}", Kind.DURABLE, fid=n), 0.1 * n) for n in range(4)]
    current = [scored(fact(f"asked about {n}", fid=10 + n), 0.9 - n / 100) for n in range(8)]
    limits = {Kind.DURABLE: 4, Kind.CURRENT: 4}
    chosen = select([*durable, *current], limits, Weights(lane=0, spill_below=0.25), same=None)
    assert [s.fact.id.int for s in chosen[Kind.DURABLE]] == [3]  # relevance 0.3 keeps its slot
    assert len(chosen[Kind.CURRENT]) == 7


def test_same_claims_take_one_slot_and_different_ones_still_show() -> None:
    first = scored(fact("loves coffee", Kind.DURABLE, fid=1), 0.9)
    again = scored(fact("Loves coffee.", Kind.DURABLE, fid=2), 0.85)
    other = scored(fact("hates coffee", Kind.DURABLE, fid=3), 0.8)
    tea = scored(fact("loves tea", Kind.DURABLE, fid=4), 0.7)
    chosen = select([first, again, other, tea], {Kind.DURABLE: 3, Kind.CURRENT: 0}, Weights(lane=0), same=same_claim)
    assert [s.fact.claim for s in chosen[Kind.DURABLE]] == ["loves coffee", "hates coffee", "loves tea"]


def test_identical_input_identical_output_ties_by_id() -> None:
    tied = [scored(fact(f"claim {n}", Kind.DURABLE, fid=n), 0.5) for n in (5, 3, 9, 1)]
    one = select(tied, {Kind.DURABLE: 3, Kind.CURRENT: 0}, Weights(), same=same_claim)
    two = select(list(reversed(tied)), {Kind.DURABLE: 3, Kind.CURRENT: 0}, Weights(), same=same_claim)
    assert one == two
    assert [s.fact.id.int for s in one[Kind.DURABLE]] == [1, 3, 5]


def test_a_fact_is_a_plain_frozen_value_that_a_stored_result_keeps_as_it_was() -> None:
    """Rows and scores are frozen dataclasses (no validation when made); a model holding one (a stored
    EvaluateResult) dumps it to JSON and validates it back to the same fact."""
    values: dict[str, Any] = {
        "id": uuid.uuid4(),
        "agent_id": uuid.uuid4(),
        "entity_id": uuid.uuid4(),
        "kind": Kind.DURABLE,
        "category": "preference",
        "claim": "likes green tea",
        "structured_fields": {"drink": "tea"},
        "confidence": 0.7,
        "evidence_message_ids": ("m1",),
        "evidence_count": 1,
        "verification_status": Verification.SELF_REPORTED,
        "created_at": datetime(2026, 11, 1, tzinfo=UTC),
        "last_confirmed_at": datetime(2026, 11, 2, tzinfo=UTC),
        "valid_at": None,
        "previous_claims": (),
        "disputed_by": "",
        "archived_at": None,
    }
    made = Fact(**values)
    with pytest.raises(FrozenInstanceError):
        made.claim = "likes tea"  # type: ignore[misc]
    assert replace(made, claim="likes tea").claim == "likes tea" and made.claim == "likes green tea"
    stored = EvaluateResult(ops=(AppliedOp(op=OpType.ADD_DURABLE, fact=made),))
    again = EvaluateResult.model_validate_json(stored.model_dump_json())
    back = again.ops[0].fact
    assert again == stored and back == made and back is not None
    assert (
        type(back.kind) is Kind and back.evidence_message_ids == ("m1",) and back.structured_fields == {"drink": "tea"}
    )
    with pytest.raises(TypeError, match="score"):
        ScoredFact(fact=made, relevance=1.0, time_weight=1.0)  # type: ignore[call-arg]


# --- one shared budget (ProvideRequest.total_limit) --------------------------------------------------------


def test_a_shared_budget_goes_by_relevance_and_keeps_each_section_s_best_relevant_fact() -> None:
    durable = [scored(fact(f"durable {n}", Kind.DURABLE, fid=n), 0.9 - n * 0.05) for n in range(8)]
    current = [scored(fact("current relevant", fid=20), 0.35), scored(fact("current unrelated", fid=21), 0.1)]
    limits = {Kind.DURABLE: 6, Kind.CURRENT: 6}
    chosen = share([*durable, *current], 6, limits, None, by_kind)
    assert [s.fact.claim for s in chosen[Kind.CURRENT]] == ["current relevant"]  # its section's best, relevant
    assert [s.fact.claim for s in chosen[Kind.DURABLE]] == [f"durable {n}" for n in range(5)]  # the rest by score
    alone = share([*durable, current[1]], 6, limits, None, by_kind)
    assert not alone[Kind.CURRENT] and len(alone[Kind.DURABLE]) == 6  # an unrelated section gets no floor
    capped = share([*durable, *current], 6, {Kind.DURABLE: 3, Kind.CURRENT: 6}, None, by_kind)
    assert len(capped[Kind.DURABLE]) == 3 and len(capped[Kind.CURRENT]) == 2  # the section's maximum holds


def test_a_shared_budget_takes_any_number_of_sections() -> None:
    facts = [scored(fact(f"f{n}", Kind.DURABLE, fid=n), 0.9 - n * 0.1) for n in range(6)]
    chosen = share(facts, 4, {"odd": 4, "even": 4}, None, lambda s: "odd" if s.fact.id.int % 2 else "even")
    assert [s.fact.claim for s in chosen["even"]] == ["f0", "f2"]
    assert [s.fact.claim for s in chosen["odd"]] == ["f1", "f3"]


def test_a_section_s_own_mark_says_when_its_best_fact_is_relevant() -> None:
    durable = [scored(fact(f"durable {n}", Kind.DURABLE, fid=n), 0.9 - n * 0.05) for n in range(8)]
    low = scored(fact("shared, past its own floor", Kind.DURABLE, fid=30), 0.2)
    limits = {"person": 6, "shared": 4}

    def section(s: ScoredFact) -> str:
        return "shared" if s.fact.id == low.fact.id else "person"

    assert not share([*durable, low], 6, limits, None, section)["shared"]  # below RELEVANT: no floor
    chosen = share([*durable, low], 6, limits, None, section, {"shared": 0.0})
    assert chosen["shared"] == [low] and len(chosen["person"]) == 5  # its floor takes a slot of the budget
