"""Write-time dedup: decide whether a proposed fact repeats, contradicts or differs from a near neighbour.

Embedding similarity is only a pre-filter: with small embedders, claims that differ in one word or
number ("type 1" / "type 2 diabetes", "loves" / "hates coffee") score as high as true paraphrases.
The decision is therefore lexical and deliberately one-sided: SAME (merge) only when the content
words agree exactly, up to a small table of equivalents, or one side adds a harmless trailing
attachment. Anything else keeps both facts. A duplicate is a nuisance; a merged different fact is
a defect. See docs/dedup.md for the rule, the tables (lexicon.py) and the measurements behind the thresholds.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from factmemory.domain.dedup.additions import safe_addition
from factmemory.domain.dedup.claims import Claim, analyse
from factmemory.domain.dedup.differences import Diff, diff, fmt
from factmemory.domain.dedup.policy import Same, first_finding, structure_problem


class DedupVerdict(enum.Enum):
    """What the write path should do with an add that has a near neighbour."""

    SAME = "same"  # merge: the add becomes a strengthen of the existing fact
    CONFLICT = "conflict"  # same statement, conflicting detail: keep the new fact and record a candidate
    DISTINCT = "distinct"  # different facts: keep both, nothing else


@dataclass(frozen=True)
class DedupDecision:
    """A verdict with a short human-readable reason."""

    verdict: DedupVerdict
    reason: str


_CONFLICT_MIN_SHARED: Final = 2
_CONFLICT_MIN_OVERLAP: Final = 0.6


def _same_reason(a: Claim, b: Claim, d: Diff) -> str | None:
    if not d.only_a and not d.only_b:
        if not a.content or structure_problem(a, b) is not None:
            return None
        if d.raw_only_a or d.raw_only_b:
            return f"equivalent words: {fmt(d.raw_only_a)} ~ {fmt(d.raw_only_b)}"
        return "same content words"
    return safe_addition(a, b, d)


def _classify_difference(a: Claim, b: Claim, d: Diff) -> DedupDecision:
    """Not the same: a conflict if one slot of a shared statement differs (a finding whose policy row raises one),
    otherwise distinct."""
    found = first_finding(a, b, d, Same.BLOCK) or (
        None if d.only_a or d.only_b else first_finding(a, b, d, Same.SAME_WORDS)
    )
    one_slot = len(d.only_a) == 1 and len(d.only_b) == 1  # "happy" vs "unhappy": the whole claim is the slot
    if found is not None and found.row.conflict and (d.shared >= 1 or one_slot):
        return DedupDecision(DedupVerdict.CONFLICT, found.reason)
    if d.only_a and d.only_b:
        overlap = d.shared / max(len(a.content), len(b.content))
        if d.shared >= _CONFLICT_MIN_SHARED and overlap >= _CONFLICT_MIN_OVERLAP:
            return DedupDecision(DedupVerdict.CONFLICT, f"detail differs: {fmt(d.only_a)} vs {fmt(d.only_b)}")
        return DedupDecision(DedupVerdict.DISTINCT, f"different words: {fmt(d.only_a)} vs {fmt(d.only_b)}")
    if d.only_a or d.only_b:
        return DedupDecision(DedupVerdict.DISTINCT, f"adds detail: {fmt(d.only_a or d.only_b)}")
    return DedupDecision(DedupVerdict.DISTINCT, "no comparable content" if found is None else found.reason)


def decide(new_claim: str, existing_claim: str, similarity: float, threshold: float) -> DedupDecision:
    """Decide whether an add duplicates, contradicts or differs from its nearest existing fact."""
    if similarity < threshold:
        return DedupDecision(DedupVerdict.DISTINCT, f"similarity {similarity:.3f} below {threshold:.3f}")
    a, b = analyse(new_claim), analyse(existing_claim)
    d = diff(a, b)
    if first_finding(a, b, d, Same.BLOCK) is None:
        reason = _same_reason(a, b, d)
        if reason is not None:
            return DedupDecision(DedupVerdict.SAME, reason)
    return _classify_difference(a, b, d)
