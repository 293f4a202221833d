"""The pure parts of the three dedup layers: the exact key, add plans, the shown pairs, merges, the prompt."""

from __future__ import annotations

import csv
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import uuid4

import numpy as np
import pytest

from factmemory.domain.dedup.objects import number_only_in_one, object_difference
from factmemory.domain.dedup.planning import (
    EarlierAdd,
    Existing,
    Neighbour,
    OpenPair,
    known_facts,
    merge_refusal,
    merged_values,
    offerable,
    plan_adds,
)
from factmemory.domain.dedup.prefilter import stand_out, stands_out
from factmemory.domain.limits import MAX_PAIRS_SHOWN
from factmemory.domain.models import ChatMessage, Fact, Item, Kind, OpType, Verification
from factmemory.domain.ops import PlannedAdd, PlannedMerge, RejectedOp, plan_ops
from factmemory.domain.prompts import SYSTEM, build_prompt, pair_line
from factmemory.domain.vectors import Matrix
from factmemory.settings import DEFAULT_DEDUP_THRESHOLDS
from tests.support.fm import LIMITS

AT = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
THRESHOLD = DEFAULT_DEDUP_THRESHOLDS["local"]
DATA = Path(__file__).parent / "data"


def fact(claim: str, kind: Kind = Kind.DURABLE, category: str = "identity", **kw: object) -> Fact:
    values: dict[str, Any] = {
        "id": uuid4(),
        "agent_id": uuid4(),
        "entity_id": uuid4(),
        "kind": kind,
        "category": category,
        "claim": claim,
        "confidence": 0.7,
        "created_at": AT,
        "last_confirmed_at": AT,
    }
    return Fact(**values | kw)


def add(claim: str, kind: Kind = Kind.DURABLE, category: str = "identity") -> PlannedAdd:
    op = OpType.ADD_DURABLE if kind is Kind.DURABLE else OpType.ADD_CURRENT
    return PlannedAdd(op, kind, category, claim, {}, Verification.SELF_REPORTED, None)


def unit(*rows: list[float]) -> Matrix:
    matrix = np.asarray(rows, dtype=np.float32)
    normed: Matrix = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
    return normed


# --- add plans ----------------------------------------------------------------------------------------------------


def test_a_paraphrase_the_rule_misses_becomes_a_pair_with_its_nearest_neighbour() -> None:
    berlin, coffee = fact("lives in Berlin"), fact("loves coffee", category="preference")
    near = [[Neighbour(berlin, 0.968), Neighbour(coffee, 0.86)]]
    [plan] = plan_adds([add("resides in Berlin")], unit([1.0]), ["resides in berlin"], near, {}, THRESHOLD)
    assert plan.same_as is None and plan.conflict is None
    assert [(p.other, round(p.similarity, 3)) for p in plan.pairs] == [(Existing(berlin), 0.968)]


def test_a_neighbour_that_does_not_stand_out_from_the_persons_other_facts_is_no_pair() -> None:
    # Issue 25's third prompt: unrelated short claims of one person at cosine 0.86-0.88, above the pre-filter.
    others = [fact(claim) for claim in ("plays the cello", "likes spicy food", "wears glasses", "drives a Volvo")]
    near = [[Neighbour(f, s) for f, s in zip(others, (0.878, 0.872, 0.866, 0.861), strict=True)]]
    [plan] = plan_adds([add("collects vintage stamps")], unit([1.0]), ["collects vintage stamps"], near, {}, THRESHOLD)
    assert plan.same_as is None and not plan.pairs
    paraphrase = [[Neighbour(fact("is fluent in Japanese"), 0.968), *near[0]]]
    [plan] = plan_adds([add("speaks fluent Japanese")], unit([1.0]), ["x"], paraphrase, {}, THRESHOLD)
    [pair] = plan.pairs
    assert pair.likelihood == round(stand_out([0.968, 0.878, 0.872, 0.866, 0.861], 0, THRESHOLD), 4)
    assert stands_out(pair.likelihood) and not stands_out(stand_out([0.878, 0.872, 0.866, 0.861], 0, THRESHOLD))


def test_stand_out_is_padded_with_the_threshold_when_the_person_has_few_facts() -> None:
    assert stand_out([0.9], 0, 0.85) == 0.9 - 0.85
    assert round(stand_out([0.95, 0.80], 0, 0.85), 6) == round(0.95 - (0.80 + 0.85 + 0.85) / 3, 6)
    assert round(stand_out([0.95, 0.80, 0.80, 0.80], 0, 0.85), 6) == round(0.95 - 0.80, 6)


def test_a_conflict_that_does_not_stand_out_goes_to_review_and_is_no_pair() -> None:
    crowd = [Neighbour(fact(c, category="preference"), 0.92) for c in ("loves tea", "loves jazz", "loves hiking")]
    stored = fact("loves coffee", category="preference")
    near = [[Neighbour(stored, 0.925), *crowd]]
    [plan] = plan_adds([add("hates coffee", category="preference")], unit([1.0]), ["hates coffee"], near, {}, THRESHOLD)
    assert plan.conflict is not None and plan.conflict[0] == stored and not plan.pairs
    assert not stands_out(stand_out([0.925, 0.92, 0.92, 0.92], 0, THRESHOLD))


@pytest.mark.parametrize(
    ("new", "stored"),
    [
        ("lives in Munich", "lives in Berlin"),  # names differ
        ("has type 2 diabetes", "has type 1 diabetes"),  # numbers differ
        ("feeling irritable about the family visit", "feeling irritable about the neighbours' renovation"),
        ("allergic to tree nuts", "allergic to shellfish"),  # what 'to' governs differs
        ("works as a translator at Veltrix Health", "started a new job as a translator at Veltrix Health in June 2026"),
    ],
)
def test_a_pair_whose_merge_would_be_refused_is_not_offered(new: str, stored: str) -> None:
    """It stands out, but a merge of it is refused (merge_refusal): the review candidate, if any, is all it gets."""
    existing = fact(stored)
    [plan] = plan_adds([add(new)], unit([1.0]), [new], [[Neighbour(existing, 0.96)]], {}, THRESHOLD)
    assert stands_out(stand_out([0.96], 0, THRESHOLD)) and not plan.pairs
    assert merge_refusal(existing, fact(new)) is not None and not offerable(new, stored)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("feeling irritable about the family visit", "feeling irritable about the neighbours' renovation"),
        ("tired after a night shift", "tired after a long run"),
        ("packing for the move to Leeds", "packing for the trip to Leeds"),
    ],
)
def test_one_frame_about_different_things_is_an_object_difference(a: str, b: str) -> None:
    assert object_difference(a, b) is not None and object_difference(b, a) is not None
    refusal = merge_refusal(fact(a), fact(b))
    assert refusal is not None and refusal.startswith("not merged, they are about different things")


def test_a_number_only_one_claim_states_refuses_the_merge_either_way() -> None:
    event, role = (
        "started a new job as a translator at Veltrix Health in June 2026",
        "works as a translator at Veltrix Health",
    )
    assert number_only_in_one(event, role) == number_only_in_one(role, event) == "2026 only in one"
    for keep, duplicate in ((event, role), (role, event)):
        assert merge_refusal(fact(keep), fact(duplicate)) == (
            "not merged, one states a number the other does not: 2026 only in one"
        )
    assert number_only_in_one("has two cats", "owns two cats") is None
    assert number_only_in_one("moved to Berlin in 2023", "relocated to Berlin in 2023") is None


def test_no_paraphrase_of_the_pair_sets_is_an_object_difference() -> None:
    """The labelled, held-out and blind paraphrases (tests/data/dedup-*.tsv): none is refused."""
    rows = [
        row
        for name in ("dedup-pairs.tsv", "dedup-heldout.tsv", "dedup-blind.tsv")
        for row in csv.DictReader((DATA / name).open(encoding="utf-8"), delimiter="\t")
    ]
    same = [(r["claim_a"], r["claim_b"]) for r in rows if r["label"] == "same"]
    assert len(same) == 46
    assert [pair for pair in same if merge_refusal(fact(pair[0]), fact(pair[1])) is not None] == []
    different = [(r["claim_a"], r["claim_b"]) for r in rows if r["label"] == "different"]
    assert sum(object_difference(a, b) is not None for a, b in different) == 9


def test_same_claim_strengthens_and_records_no_pair() -> None:
    stored = fact("allergic to penicillin", category="health")
    [plan] = plan_adds(
        [add("is allergic to penicillin", category="health")],
        unit([1.0]),
        ["is allergic to penicillin"],
        [[Neighbour(stored, 0.97)]],
        {},
        THRESHOLD,
    )
    assert plan.same_as == Existing(stored) and not plan.pairs


def test_a_conflict_that_stands_out_goes_to_review_and_is_also_a_pair() -> None:
    stored = fact("loves coffee", category="preference")
    [plan] = plan_adds(
        [add("hates coffee", category="preference")],
        unit([1.0]),
        ["hates coffee"],
        [[Neighbour(stored, 0.925)]],
        {},
        THRESHOLD,
    )
    assert plan.conflict is not None and plan.conflict[0] == stored
    assert [p.other for p in plan.pairs] == [Existing(stored)]


def test_below_the_pre_filter_nothing_is_recorded() -> None:
    stored = fact("lives in Berlin")
    [plan] = plan_adds([add("prefers tea")], unit([1.0]), ["prefers tea"], [[Neighbour(stored, 0.82)]], {}, THRESHOLD)
    assert plan.same_as is None and plan.conflict is None and not plan.pairs


def test_the_exact_key_wins_whatever_the_similarity() -> None:
    stored = fact("Живёт в Берлине")
    by_key = {(Kind.DURABLE, "identity", "живёт в берлине"): stored}
    [plan] = plan_adds([add("живёт  в берлине.")], unit([1.0]), ["живёт в берлине"], [[]], by_key, THRESHOLD)
    assert plan.same_as == Existing(stored)
    [other_category] = plan_adds(
        [add("живёт  в берлине.", category="relationship")], unit([1.0]), ["живёт в берлине"], [[]], by_key, THRESHOLD
    )
    assert other_category.same_as == Existing(stored)  # a model's wrong category: the same words are one fact
    assert "category identity, kept" in other_category.reason
    [other_kind] = plan_adds(
        [add("живёт  в берлине.", Kind.CURRENT, "feeling")], unit([1.0]), ["живёт в берлине"], [[]], by_key, THRESHOLD
    )
    assert other_kind.same_as is None
    [no_key] = plan_adds([add("!!!")], unit([1.0]), [None], [[]], {}, THRESHOLD)
    assert no_key.same_as is None


def test_two_adds_of_one_reply_one_fact_when_same_else_a_pair() -> None:
    same = plan_adds(
        [add("allergic to penicillin", category="health"), add("is allergic to penicillin", category="health")],
        unit([1.0, 0.0], [0.99, 0.1]),
        ["allergic to penicillin", "is allergic to penicillin"],
        [[], []],
        {},
        THRESHOLD,
    )
    assert same[0].same_as is None and same[1].same_as == EarlierAdd(0)
    paraphrase = plan_adds(
        [add("lives in Berlin"), add("resides in Berlin")],
        unit([1.0, 0.0], [0.97, 0.25]),
        ["lives in berlin", "resides in berlin"],
        [[], []],
        {},
        THRESHOLD,
    )
    assert paraphrase[1].same_as is None and [p.other for p in paraphrase[1].pairs] == [EarlierAdd(0)]
    exact = plan_adds(
        [add("Lives in Berlin"), add("lives in  berlin")],
        unit([1.0, 0.0], [0.0, 1.0]),
        ["lives in berlin", "lives in berlin"],
        [[], []],
        {},
        THRESHOLD,
    )
    assert exact[1].same_as == EarlierAdd(0)
    other_category = plan_adds(
        [add("Lives in Berlin"), add("lives in  berlin", category="relationship")],
        unit([1.0, 0.0], [0.0, 1.0]),
        ["lives in berlin", "lives in berlin"],
        [[], []],
        {},
        THRESHOLD,
    )
    assert other_category[1].same_as == EarlierAdd(0) and "category identity" in other_category[1].reason
    other_kind = plan_adds(
        [add("lives in Berlin"), add("resides in Berlin", Kind.CURRENT, "schedule_context")],
        unit([1.0, 0.0], [0.97, 0.25]),
        ["lives in berlin", "resides in berlin"],
        [[], []],
        {},
        THRESHOLD,
    )
    assert not other_kind[1].pairs  # pairs only within a kind


# --- what the model is shown --------------------------------------------------------------------------------------


def test_open_pairs_take_priority_within_the_budget() -> None:
    near = [fact(f"near fact {i}") for i in range(15)]
    a, b = fact("lives in Berlin"), fact("resides in Berlin")
    durable, _, pairs = known_facts(near, [], [OpenPair(a, b)], 15)
    assert len(durable) == 15 and durable[:2] == [a, b] and pairs == [OpenPair(a, b)]
    assert durable[2:] == near[:13]


def test_at_most_max_pairs_are_shown_and_both_facts_or_neither() -> None:
    many = [OpenPair(fact(f"a{i}"), fact(f"b{i}")) for i in range(MAX_PAIRS_SHOWN + 2)]
    durable, _, pairs = known_facts([], [], many, 15)
    assert pairs == many[:MAX_PAIRS_SHOWN] and len(durable) == 2 * MAX_PAIRS_SHOWN
    durable, _, pairs = known_facts([], [], many, 3)
    assert pairs == many[:1] and len(durable) == 2


def test_the_prompt_marks_pairs_and_says_what_to_do() -> None:
    a, b = fact("lives in Berlin"), fact("resides in Berlin")
    c = fact("anxious this morning", Kind.CURRENT, "feeling")
    msg = ChatMessage(id="m", text="hello", created_at=AT)
    prompt = build_prompt(msg, [], [a, b], [c], frozenset(Item), pairs=[OpenPair(a, b)], limits=LIMITS)
    assert "Possible duplicates: D1~D2\n</known_facts>" in prompt.user
    assert pair_line(prompt.handles, [OpenPair(a, c)]) == "Possible duplicates: D1~C1"
    assert "Possible duplicates" not in build_prompt(msg, [], [a, b], [c], frozenset(Item), limits=LIMITS).user
    # The three dedup instructions, short: strengthen instead of adding, merge marked pairs, never merge a detail.
    assert "strengthen its handle, never add a duplicate" in SYSTEM
    assert "Possible duplicates X~Y: merge if they say the same" in SYSTEM
    assert "never merge facts that differ in a detail" in SYSTEM


# --- merge ops ----------------------------------------------------------------------------------------------------


def test_merge_ops_are_validated_against_what_was_shown() -> None:
    a, b = fact("lives in Berlin"), fact("resides in Berlin")
    c = fact("anxious this morning", Kind.CURRENT, "feeling")
    shown = {"D1": a, "D2": b, "C1": c}

    def merge(keep: str, duplicate: str) -> dict[str, object]:
        return {"op": "merge", "fact": keep, "duplicate": duplicate, "reason": "same"}

    planned = plan_ops(
        [
            merge("D9", "D1"),
            merge("D1", "C1"),
            merge("D1", "D1"),
            merge("d2", "D1"),
            {"op": "strengthen", "fact": "D1"},
        ],
        shown,
        AT,
        LIMITS,
    )
    first, second, third, ok, again = planned
    assert isinstance(first, RejectedOp) and "unknown handle 'D9'" in first.reason
    assert isinstance(second, RejectedOp) and "durable and a current" in second.reason
    assert isinstance(third, RejectedOp) and "two different facts" in third.reason
    assert isinstance(ok, PlannedMerge) and (ok.fact, ok.duplicate) == (b, a)
    assert isinstance(again, RejectedOp) and "already changed" in again.reason
    missing = plan_ops([{"op": "merge", "fact": "D1", "duplicate": None}], shown, AT, LIMITS)
    assert isinstance(missing[0], RejectedOp) and "duplicate" in missing[0].reason


def test_a_merge_of_facts_that_name_different_things_is_refused() -> None:
    marigold, sandpiper = fact("working on the Marigold pilot"), fact("working on the Sandpiper pilot")
    assert "names differ" in (merge_refusal(marigold, sandpiper) or "")
    assert "numbers differ" in (merge_refusal(fact("bought a desk for $405"), fact("bought a desk for $935")) or "")
    # paraphrases the rule cannot prove the same, and the rule's other conflicts, stay the model's decision
    assert merge_refusal(fact("grew up in Valencia"), fact("was raised in Valencia")) is None
    assert merge_refusal(fact("flying to Oslo on Friday"), fact("has a flight to Oslo this Friday")) is None


def test_merged_values_count_the_duplicates_support_as_strengthens() -> None:
    later = AT + timedelta(days=2)
    keep = fact("lives in Berlin", confidence=0.8, evidence_message_ids=("m1", "m2"), structured_fields={"a": "1"})
    duplicate = fact(
        "resides in Berlin",
        confidence=0.9,
        evidence_message_ids=("m2", "m3", "m4"),
        previous_claims=("lives in Munich",),
        last_confirmed_at=later,
        verification_status=Verification.CONFIRMED,
        structured_fields={"a": "2", "b": "3"},
    )
    merged = merged_values(keep, duplicate, 0.1)
    assert merged.evidence_message_ids == ("m1", "m2", "m3", "m4")
    assert merged.confidence == 1.0  # 0.8 + 2 x 0.1, capped
    assert (
        merged_values(
            fact("x", confidence=0.7, evidence_message_ids=("m1",)), fact("y", evidence_message_ids=("m2",)), 0.1
        ).confidence
        == 0.8
    )
    assert merged.previous_claims == ("lives in Munich", "resides in Berlin")
    assert merged.last_confirmed_at == later and merged.verification is Verification.CONFIRMED
    assert merged.structured_fields == {"a": "1", "b": "3"}
