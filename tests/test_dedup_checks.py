"""Each dedup check with its labelled examples, and the policy table that says what each finding does. Pure.

One table per check: (claim a, claim b, the finding expected or None). A row of the policy (domain/dedup/policy.py)
without examples that find and examples that do not fails `test_every_check_has_examples_both_ways`.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from uuid import uuid4

import pytest

from factmemory.domain.dedup import policy
from factmemory.domain.dedup.additions import safe_addition
from factmemory.domain.dedup.claims import analyse
from factmemory.domain.dedup.differences import diff
from factmemory.domain.dedup.planning import merge_refusal, offerable
from factmemory.domain.dedup.policy import POLICY, Same
from factmemory.domain.dedup.rule import DedupVerdict, decide
from factmemory.domain.models import Fact, Kind

EXAMPLES: dict[str, list[tuple[str, str, str | None]]] = {
    "opposites": [
        ("loves coffee", "hates coffee", "opposites: loves vs hates"),
        ("is happy at work", "is unhappy at work", "opposites: happy vs unhappy"),
        ("started running", "stopped running", "opposites: started vs stopped"),
        ("loves coffee", "loves tea", None),
        ("loves coffee", "adores coffee", None),
    ],
    "negation": [
        ("eats meat", "never eats meat", "negation differs: never"),
        ("drinks tea, not coffee", "drinks tea and coffee", "negation differs: not"),
        ("doesn't eat meat", "does not eat meat", None),
        ("eats meat", "eats fish", None),
    ],
    "time or status": [
        ("was married", "married", "time or status differs: was"),
        ("quit smoking", "smoking", "time or status differs: quit"),
        ("lives in Berlin", "formerly lives in Berlin", "time or status differs: formerly"),
        ("lives in Berlin", "lives in Berlin today", None),
        ("married", "married", None),
    ],
    "qualifier": [
        ("sometimes vegetarian", "vegetarian", "qualifier differs: sometimes"),
        ("might move to Lisbon", "move to Lisbon", "qualifier differs: might"),
        ("vegetarian", "vegan", None),
    ],
    "numbers": [
        ("has type 1 diabetes", "has type 2 diabetes", "numbers differ: 1 vs 2"),
        ("bought a desk for $405", "bought a desk for $935", "numbers differ: 405 vs 935"),
        ("has two cats", "has three cats", "numbers differ: two vs three"),
        ("has two cats", "has 2 cats", None),
        ("has two cats", "has cats", None),
    ],
    "roles": [
        ("CTO of Acme", "CEO of Acme", "roles differ: cto vs ceo"),
        ("works as a nurse", "works as a doctor", "roles differ: nurse vs doctor"),
        ("works as a nurse", "is a nurse", None),
    ],
    "names": [
        ("lives in Berlin", "lives in Munich", "names differ: berlin vs munich"),
        ("has a sister Mia", "has a sister Ana", "names differ: mia vs ana"),
        ("lives in Berlin", "lives in berlin", None),
        ("lives in Berlin", "moved to Berlin", None),
    ],
    "tense": [
        ("moved to Berlin", "moves to Berlin", "tense differs: moved vs moves"),
        ("has a lovely garden", "loves the garden", "word form differs: lovely vs loves"),
        ("runs every day", "running every day", None),
        ("moved to Berlin", "relocated to Berlin", None),
    ],
    "relation": [
        ("moved to Berlin", "moved from Berlin", "relation differs: berlin: to vs from"),
        ("sends money to Ana", "Ana sends money to", "relation differs: to: ana vs (pronoun)"),
        ("moved to Berlin", "moved to Berlin", None),
    ],
    "word order": [
        ("Ana hired Leo", "Leo hired Ana", "word order differs"),
        ("penicillin allergy", "allergy penicillin", None),
        ("allergic to penicillin", "penicillin allergy", None),
    ],
    "is/has": [
        ("is a nurse", "has a nurse", "is/has differs"),
        ("is a nurse", "nurse", None),
        ("has a nurse", "has a nurse", None),
    ],
    "governed": [
        (
            "feeling irritable about the family visit",
            "feeling irritable about the neighbours' renovation",
            "what 'about' governs differs: family visit vs neighbours renovation",
        ),
        ("allergic to shellfish", "allergic to tree nuts", "what 'to' governs differs: shellfish vs tree nuts"),
        ("allergic to shellfish", "allergic to shellfish and nuts", None),
        ("worried about the exam", "stressed about the exam", None),
    ],
    "number in one": [
        ("started a job at Veltrix in June 2026", "works at Veltrix", "2026 only in one"),
        ("has two cats", "has cats", "two only in one"),
        ("has two cats", "owns two cats", None),
        ("moved to Berlin in 2023", "relocated to Berlin in 2023", None),
    ],
}
# The harmless additions the rule allows (additions.py): not findings, so not rows of the policy.
ADDITIONS: list[tuple[str, str, str | None]] = [
    ("anxious", "anxious this morning", "adds only a time word: morning"),
    ("works as a nurse", "works as a nurse at a hospital", "adds only a trailing detail: hospital"),
    ("works as a nurse", "works as a nurse at a big new hospital", None),  # more words than the shorter claim
    ("lives in Berlin", "lives in Berlin with Ana", None),  # a name
    ("married", "married with kids", None),  # "with" adds a co-agent
]
ROWS = {row.name: row for row in POLICY}
CASES = [(name, a, b, expected) for name, rows in EXAMPLES.items() for a, b, expected in rows]


def finding(name: str, a: str, b: str) -> str | None:
    left, right = analyse(a), analyse(b)
    return ROWS[name].check(left, right, diff(left, right))


@pytest.mark.parametrize(("name", "a", "b", "expected"), CASES)
def test_each_check_on_its_labelled_examples(name: str, a: str, b: str, expected: str | None) -> None:
    assert finding(name, a, b) == expected


@pytest.mark.parametrize(("a", "b", "expected"), ADDITIONS)
def test_harmless_additions(a: str, b: str, expected: str | None) -> None:
    left, right = analyse(a), analyse(b)
    assert safe_addition(left, right, diff(left, right)) == expected


def test_every_check_has_examples_both_ways() -> None:
    assert len(ROWS) == len(POLICY) and set(EXAMPLES) == set(ROWS)
    for name, rows in EXAMPLES.items():
        assert any(e is not None for _, _, e in rows) and any(e is None for _, _, e in rows), name


AT = datetime(2026, 11, 26, tzinfo=UTC)


def fact(claim: str) -> Fact:
    return Fact(
        id=uuid4(),
        agent_id=uuid4(),
        entity_id=uuid4(),
        kind=Kind.DURABLE,
        category="identity",
        claim=claim,
        confidence=0.5,
        created_at=AT,
        last_confirmed_at=AT,
    )


@pytest.mark.parametrize(("name", "a", "b"), [(n, a, b) for n, a, b, e in CASES if e is not None])
def test_what_each_finding_does_follows_its_row(name: str, a: str, b: str) -> None:
    row = ROWS[name]
    verdict = decide(a, b, 1.0, 0.0).verdict
    if row.same is not Same.ASKED_NOT:
        assert verdict is not DedupVerdict.SAME
    assert (merge_refusal(fact(a), fact(b)) is not None) is (row.merge or _refused_by_another(a, b, "merge"))
    assert (not offerable(a, b)) is (row.pair or _refused_by_another(a, b, "pair"))


def _refused_by_another(a: str, b: str, point: str) -> bool:
    left, right = analyse(a), analyse(b)
    d = diff(left, right)
    return any(getattr(r, point) and r.check(left, right, d) is not None for r in POLICY)


def test_planning_consults_the_table_not_the_call_order(monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = "moved to Berlin", "moves to Berlin"  # tense: a conflict, the model may merge it
    assert decide(a, b, 1.0, 0.0).verdict is DedupVerdict.CONFLICT
    assert merge_refusal(fact(a), fact(b)) is None and offerable(a, b)
    changed = tuple(
        dataclasses.replace(r, conflict=False, merge=True, pair=True, refusal="test") if r.name == "tense" else r
        for r in POLICY
    )
    monkeypatch.setattr(policy, "POLICY", changed)
    assert decide(a, b, 1.0, 0.0).verdict is DedupVerdict.DISTINCT
    assert merge_refusal(fact(a), fact(b)) == "not merged, test: tense differs: moved vs moves"
    assert not offerable(a, b)
