"""The pure rules of ForgetMessages: support recounted as the write path counts it, who stays, which ids are valid."""

from __future__ import annotations

import pytest

from factmemory.domain.errors import InvalidInput
from factmemory.domain.forget_messages import Cited, Outcome, after_deletion, check_message_ids, recounted, support


def test_support_is_the_write_paths_add_then_strengthen_rule() -> None:
    assert [support(n) for n in range(6)] == pytest.approx([0.0, 0.7, 0.8, 0.9, 1.0, 1.0])


def test_recounting_takes_back_only_what_the_deleted_support_added() -> None:
    assert recounted(0.8, 2, 1) == pytest.approx(0.7)
    assert recounted(1.0, 6, 5) == pytest.approx(1.0)  # six messages were capped at 1.0; five still are
    assert recounted(0.65, 2, 1) == pytest.approx(0.55)  # a decay since stays counted
    assert recounted(0.05, 3, 1) == 0.0


def test_a_fact_left_without_evidence_goes_unless_a_person_vouched_for_it() -> None:
    assert after_deletion(Cited(("m1",), 0.7, vouched=False), {"m1"}) == Outcome(delete=True)
    assert after_deletion(Cited(("m1",), 0.95, vouched=True), {"m1"}) == Outcome(False, (), 0.95)
    assert after_deletion(Cited(("m1", "m2", "m3"), 0.9, vouched=False), {"m2"}) == Outcome(False, ("m1", "m3"), 0.8)
    # A hand-added fact cites its reviewer: a strengthening message deleted takes back its step only.
    assert after_deletion(Cited(("reviewer:alice", "m1"), 1.0, vouched=True), {"m1"}) == Outcome(
        False, ("reviewer:alice",), 0.9
    )


@pytest.mark.parametrize("bad", ["", " ", "a\tb", "x" * 129, "reviewer:alice", "import:x"])
def test_bad_message_ids_are_refused(bad: str) -> None:
    with pytest.raises(InvalidInput):
        check_message_ids([bad], 128)


def test_at_most_a_thousand_ids() -> None:
    check_message_ids([str(i) for i in range(1000)], 128)
    with pytest.raises(InvalidInput, match="at most 1000"):
        check_message_ids([str(i) for i in range(1001)], 128)
