"""Scores and selects facts for the provider. Pure.

score = relevance x (1 - m + m x confidence x time_weight), m = `Weights.modifier` (provide_tuning.MODIFIER, 0.3).
Relevance (relevance.py) spans [0, 1], so confidence and age move a fact by at most 30 %: they order facts of
comparable relevance and never lift an irrelevant fact over a clearly relevant one. With m = 1 and raw cosines
this is the original relevance x confidence x time_weight. `Weights` holds the service's selection (SELECTION, its
numbers from domain/provide_tuning.py); other values exist only in the tests of each rule (tests/test_ranking.py).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar
from uuid import UUID

from factmemory.domain.dedup.rule import DedupVerdict, decide
from factmemory.domain.limits import SAME_CLAIM_MEMO
from factmemory.domain.models import Fact, Kind, ScoredFact
from factmemory.domain.provide_tuning import FLOOR, LANE, LANE_MIN, MODIFIER, RELEVANT, SPILL_BELOW
from factmemory.domain.relevance import word_overlap

SECONDS_PER_DAY = 86_400.0


@dataclass(frozen=True)
class Weights:
    """How the fixed sections are filled (select); SELECTION is the service's, other values only measure parts."""

    modifier: float = MODIFIER  # share of the score that confidence x time weight can move
    lane: int = LANE  # slots for the most relevant facts the score or the per-kind quota left out
    lane_min: float = LANE_MIN  # ... if at least this relevant
    spill_below: float = SPILL_BELOW  # beyond the lane, a slot held by a fact less relevant than this is given up


SELECTION = Weights()

SameClaim = Callable[[str, str], bool]
K = TypeVar("K", bound=Hashable)
Section = Callable[[ScoredFact], K]


def time_weight(fact: Fact, now: datetime, decay_days: float) -> float:
    """Durable facts: 1 at any age. Current facts: exp(-age_days / decay_days), age from valid_at; no cutoff."""
    if fact.kind is Kind.DURABLE:
        return 1.0
    began = fact.valid_at or fact.created_at
    # A time after `now` counts as `now` (weight 1, never more). Facts take their times from messages clamped to
    # the server's clock (convert.evaluate_input, migration 0002), so no fact stays new for ever.
    age_days = max(0.0, (now - began).total_seconds() / SECONDS_PER_DAY)
    return math.exp(-age_days / decay_days)


def score(fact: Fact, relevance: float, now: datetime, decay_days: float, modifier: float = 1.0) -> ScoredFact:
    clamped = min(1.0, max(0.0, relevance))
    weight = time_weight(fact, now, decay_days)
    factor = 1.0 - modifier + modifier * fact.confidence * weight
    return ScoredFact(fact=fact, relevance=clamped, time_weight=weight, score=clamped * factor)


# Ties are broken by fact id: UUIDs compare as their 128-bit numbers, which is the order of their canonical text
# (fixed-width lower-case hex, hyphens in the same places), without formatting every id for every sort.
def _by_score(s: ScoredFact) -> tuple[float, UUID]:
    return (-s.score, s.fact.id)


def top(scored: Iterable[ScoredFact], limit: int) -> list[ScoredFact]:
    """Highest score first; ties broken by fact id so equal inputs give identical output."""
    return sorted(scored, key=_by_score)[:limit]


def _repeats(candidate: ScoredFact, chosen: Iterable[ScoredFact], same: SameClaim | None) -> bool:
    return same is not None and any(same(candidate.fact.claim, c.fact.claim) for c in chosen)


def fill(ranked: Sequence[ScoredFact], limit: int, same: SameClaim | None) -> list[ScoredFact]:
    """The first `limit` facts of `ranked`, skipping any the write-time rule calls the same as one taken."""
    chosen: list[ScoredFact] = []
    for candidate in ranked:
        if len(chosen) >= limit:
            break
        if not _repeats(candidate, chosen, same):
            chosen.append(candidate)
    return chosen


def select(
    scored: Sequence[ScoredFact], limits: dict[Kind, int], weights: Weights, same: SameClaim | None
) -> dict[Kind, list[ScoredFact]]:
    """Top facts per kind by score; then the facts that score, age or the per-kind quota left out, most relevant
    first (at least `lane_min`): the first `lane` of them take the place of the lowest-scored less relevant
    fact shown, any further one only the place of a fact below `spill_below` (unrelated to the turn). Each
    joins its own kind's section; the total never exceeds the limits."""
    ranked = sorted(scored, key=_by_score)
    sections = {kind: fill([s for s in ranked if s.fact.kind is kind], limits[kind], same) for kind in Kind}
    shown = [s for section in sections.values() for s in section]
    room = sum(limits.values()) - len(shown)
    lane = weights.lane
    picked: set[str] = set()
    for pick in sorted(scored, key=lambda s: (-s.relevance, s.fact.id)):
        if pick.relevance < weights.lane_min:
            break
        if limits[pick.fact.kind] == 0 or any(s.fact.id == pick.fact.id for s in shown):
            continue
        dropped = None
        if room <= 0:
            # Candidates come in falling relevance, so once nothing shown can give way, nothing later can either.
            ceiling = pick.relevance if lane > 0 else min(pick.relevance, weights.spill_below)
            movable = [s for s in shown if s.relevance < ceiling and str(s.fact.id) not in picked]
            if not movable:
                break
            dropped = min(movable, key=_by_lowest_score)
        if _repeats(pick, shown, same):
            continue
        if dropped is None:
            room -= 1
        else:
            lane = max(0, lane - 1)
            shown.remove(dropped)
            sections[dropped.fact.kind].remove(dropped)
        picked.add(str(pick.fact.id))
        shown.append(pick)
        sections[pick.fact.kind].append(pick)
    return {kind: sorted(section, key=_by_score) for kind, section in sections.items()}


def _by_lowest_score(s: ScoredFact) -> tuple[float, UUID]:
    return (s.score, s.fact.id)


def share(
    scored: Sequence[ScoredFact],
    budget: int,
    maxima: Mapping[K, int],
    same: SameClaim | None,
    section: Section[K],
    marks: Mapping[K, float] | None = None,
) -> dict[K, list[ScoredFact]]:
    """One budget the sections share: first each section's best fact if it is relevant to the turn (its mark in
    `marks`, else RELEVANT; its FLOOR best), then the highest-scored facts whichever section holds them, each section
    at most its maximum and the whole at most `budget`; a fact the write-time rule calls the same as one taken is
    skipped. Any number of sections (`section` says which one a fact is in); each comes back ranked within itself."""
    ranked = sorted(scored, key=_by_score)
    chosen: dict[K, list[ScoredFact]] = {key: [] for key in maxima}
    mark = {key: RELEVANT for key in maxima} | dict(marks or {})
    floors = [s for key in maxima for s in [r for r in ranked if section(r) == key][:FLOOR] if s.relevance >= mark[key]]
    taken: list[ScoredFact] = []
    ids: set[UUID] = set()
    for candidate in [*floors, *ranked]:
        if len(taken) >= budget:
            break
        key, fact_id = section(candidate), candidate.fact.id
        bucket = chosen.get(key)
        if bucket is None or len(bucket) >= maxima[key] or fact_id in ids:
            continue
        if _repeats(candidate, taken, same):
            continue
        bucket.append(candidate)
        taken.append(candidate)
        ids.add(fact_id)
    return {key: sorted(bucket, key=_by_score) for key, bucket in chosen.items()}


def by_kind(s: ScoredFact) -> Kind:
    """The section of a fact in the two-section block."""
    return s.fact.kind


@functools.lru_cache(maxsize=SAME_CLAIM_MEMO)
def same_claim(a: str, b: str) -> bool:
    """The write-time dedup rule's SAME, on the words alone (its similarity pre-filter taken as passed).

    The rule costs ~1 ms per pair of different claims, so it runs only for pairs sharing at least half of
    their words (by 5-letter prefix); pairs the rule would merge share their content words."""
    return word_overlap(a, b) >= 0.5 and decide(a, b, 1.0, 0.0).verdict is DedupVerdict.SAME
