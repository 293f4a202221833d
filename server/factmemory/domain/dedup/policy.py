"""What each finding of the dedup checks does at each decision point: one table, read by the rule and the planner. Pure.

A check is a named pure function of two claims and their difference that says why they differ, or None
(differences.py, structure.py, objects.py; each with its labelled examples in tests/test_dedup_checks.py). The
decision points:

    same      the write-time rule (rule.decide): BLOCK means a pair with this finding is never SAME (so never folded
              into one fact at write time, nor deduplicated at read time: ranking.same_claim asks the rule);
              SAME_WORDS means the check is asked only of claims whose content words agree (who did what to whom);
              ASKED_NOT means the rule does not ask it
    conflict  the rule's CONFLICT verdict (a review candidate for a person) when the claims share a word or differ in
              just this one word; otherwise the finding keeps them DISTINCT
    pair      no possible-duplicate pair is offered to the model (planning._plan_one)
    merge     a model's merge of the two facts is refused (planning.merge_refusal)

Rows are asked in order; the first finding is the one reported. To add a rule: write the check (a function
`(a, b, d) -> str | None`), add its labelled examples to tests/test_dedup_checks.py (a test fails for a row without
examples that find and examples that do not), and add its row here.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

from factmemory.domain.dedup.claims import Claim
from factmemory.domain.dedup.differences import (
    Diff,
    diff,
    names,
    negation,
    numbers,
    opposites,
    qualifier,
    roles,
    tense,
    time_or_status,
)
from factmemory.domain.dedup.objects import governed, number_in_one
from factmemory.domain.dedup.structure import light_verb, relation, word_order

Check = Callable[[Claim, Claim, Diff], "str | None"]


class Same(enum.Enum):
    BLOCK = "block"  # asked of every pair: the finding blocks SAME
    SAME_WORDS = "same words"  # asked of claims whose content words agree: the finding blocks SAME
    ASKED_NOT = "-"  # not asked by the rule


@dataclass(frozen=True)
class Row:
    name: str
    check: Check
    same: Same
    conflict: bool  # raises CONFLICT (a review candidate) when the claims share a word
    pair: bool  # refuses to offer the pair to the model
    merge: bool  # refuses a model's merge
    refusal: str = ""  # how a refused pair or merge says why


_NAMED: Final = "they name different things"
_ABOUT: Final = "they are about different things"
_COUNTED: Final = "one states a number the other does not"
# fmt: off
POLICY: Final[tuple[Row, ...]] = (
    #   finding             check           same             conflict pair   merge
    Row("opposites",        opposites,      Same.BLOCK,      True,    False, False),
    Row("negation",         negation,       Same.BLOCK,      True,    False, False),
    Row("time or status",   time_or_status, Same.BLOCK,      True,    False, False),
    Row("qualifier",        qualifier,      Same.BLOCK,      True,    False, False),
    Row("numbers",          numbers,        Same.BLOCK,      True,    True,  True,  _NAMED),
    Row("roles",            roles,          Same.BLOCK,      True,    False, False),
    Row("names",            names,          Same.BLOCK,      True,    True,  True,  _NAMED),
    Row("tense",            tense,          Same.BLOCK,      True,    False, False),
    Row("relation",         relation,       Same.SAME_WORDS, True,    False, False),
    Row("word order",       word_order,     Same.SAME_WORDS, True,    False, False),
    Row("is/has",           light_verb,     Same.SAME_WORDS, True,    False, False),
    Row("governed",         governed,       Same.ASKED_NOT,  False,   True,  True,  _ABOUT),
    Row("number in one",    number_in_one,  Same.ASKED_NOT,  False,   True,  True,  _COUNTED),
)
# fmt: on


@dataclass(frozen=True)
class Finding:
    row: Row
    reason: str


def first_finding(a: Claim, b: Claim, d: Diff, same: Same) -> Finding | None:
    """The first finding of the rows asked at this stage of the rule, in table order."""
    for row in POLICY:
        if row.same is same and (reason := row.check(a, b, d)) is not None:
            return Finding(row, reason)
    return None


def structure_problem(a: Claim, b: Claim) -> str | None:
    """Why two claims with the same content words may still say different things (the SAME_WORDS rows)."""
    found = first_finding(a, b, diff(a, b), Same.SAME_WORDS)
    return None if found is None else found.reason


def refusal(a: Claim, b: Claim, point: Literal["pair", "merge"]) -> str | None:
    """Why offering (point "pair") or merging (point "merge") these two claims is refused, or None."""
    d = diff(a, b)
    for row in POLICY:
        if getattr(row, point) and (reason := row.check(a, b, d)) is not None:
            return f"not merged, {row.refusal}: {reason}"
    return None
