"""What the write path does with adds that may repeat a fact, and how a merge folds two facts. Pure.

Three layers keep duplicates from piling up (docs/dedup.md):
1. the model is shown the nearest facts and asked to strengthen instead of adding;
2. at write time an add with the same exact-duplicate key (the normalised claim, computed by the database) or the
   same claim by the lexical rule (`rule.decide` says SAME) becomes a strengthen; an add kept next to a fact passing
   the similarity pre-filter records a *possible duplicate* pair when the rule finds a conflict or the fact stands
   out from the person's other facts (`prefilter.stand_out`, stored as the pair's likelihood);
3. the next Evaluates of that person show the likeliest open pairs, marked, and the model may `merge` one
   (`merged_values`); a pair not shown within PAIR_TTL_REVISIONS turns of the person expires.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

import numpy as np

from factmemory.domain.confidence import raised
from factmemory.domain.dedup.claims import analyse
from factmemory.domain.dedup.policy import refusal
from factmemory.domain.dedup.prefilter import stand_out, stands_out
from factmemory.domain.dedup.rule import DedupVerdict, decide
from factmemory.domain.limits import MAX_PAIRS_SHOWN
from factmemory.domain.models import UNCATEGORIZED, Fact, Kind, Verification
from factmemory.domain.ops import PlannedAdd

# Possible-duplicate pairs recorded per kept add: the first neighbour above the pre-filter that the rule finds in
# conflict or that stands out from the person's other facts (prefilter.py); more would add pairs faster than turns
# show them.
PAIRS_PER_ADD = 1


@dataclass(frozen=True)
class Neighbour:
    """A stored fact of the same kind near an add, with its cosine similarity."""

    fact: Fact
    similarity: float


@dataclass(frozen=True)
class Existing:
    """A target that is a stored fact."""

    fact: Fact


@dataclass(frozen=True)
class EarlierAdd:
    """A target that is an earlier add of the same reply (by its position among the adds)."""

    index: int


Target = Existing | EarlierAdd


@dataclass(frozen=True)
class PairPlan:
    """A possible duplicate to record once the add is stored."""

    other: Target
    similarity: float
    reason: str
    likelihood: float  # the neighbour's stand-out (prefilter.stand_out): open pairs are shown highest first


@dataclass(frozen=True)
class AddPlan:
    """What to do with one add: strengthen `same_as`, or insert it (with a review candidate and pairs)."""

    add: PlannedAdd
    key: str | None
    same_as: Target | None = None
    reason: str = ""
    conflict: tuple[Fact, str] | None = None
    pairs: tuple[PairPlan, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class _Option:
    target: Target
    claim: str
    category: str
    similarity: float


def plan_adds(
    adds: Sequence[PlannedAdd],
    vectors: Any,
    keys: Sequence[str | None],
    neighbours: Sequence[Sequence[Neighbour]],
    by_key: dict[tuple[Kind, str, str], Fact],
    threshold: float,
) -> list[AddPlan]:
    """One plan per add, in order: adds[i] has vectors[i] (unit length), its exact-duplicate key keys[i] and
    neighbours[i] (same kind, nearest first).

    by_key maps (kind, category, key) to the stored fact with that key. Earlier adds of the same reply count as
    neighbours too, so two paraphrases of one message become one fact (SAME) or an open pair.
    """
    plans: list[AddPlan] = []
    for index, (add, key) in enumerate(zip(adds, keys, strict=True)):
        exact = _exact(add, key, plans, by_key)
        if exact is not None:
            plans.append(AddPlan(add, key, same_as=exact, reason=_exact_reason(add, exact, plans)))
            continue
        options = [_Option(Existing(n.fact), n.fact.claim, n.fact.category, n.similarity) for n in neighbours[index]]
        options += [
            _Option(EarlierAdd(i), earlier.add.claim, earlier.add.category, float(np.dot(vectors[i], vectors[index])))
            for i, earlier in enumerate(plans)
            if earlier.add.kind is add.kind and earlier.same_as is None
        ]
        options.sort(key=lambda o: -o.similarity)
        plans.append(_plan_one(add, key, options, threshold))
    return plans


def _exact(
    add: PlannedAdd, key: str | None, plans: Sequence[AddPlan], by_key: dict[tuple[Kind, str, str], Fact]
) -> Target | None:
    """The stored fact (or earlier add) with the add's exact-duplicate key: of its category first, else of another
    category of its kind. The same words of one person and kind are one fact whatever category a model gives them
    (small models pick the wrong category within the right kind), so that add strengthens the stored fact."""
    if key is None:
        return None
    same_kind = sorted((category, fact) for (kind, category, k), fact in by_key.items() if (kind, k) == (add.kind, key))
    stored = by_key.get((add.kind, add.category, key)) or next((fact for _, fact in same_kind), None)
    if stored is not None:
        return Existing(stored)
    earlier_adds = [i for i, earlier in enumerate(plans) if (earlier.add.kind, earlier.key) == (add.kind, key)]
    in_category = [i for i in earlier_adds if plans[i].add.category == add.category]
    first = next(iter(in_category or earlier_adds), None)
    return None if first is None else plans[first].same_as or EarlierAdd(first)


def _exact_reason(add: PlannedAdd, target: Target, plans: Sequence[AddPlan]) -> str:
    category = target.fact.category if isinstance(target, Existing) else plans[target.index].add.category
    where = "" if category == add.category else f" (category {category}, kept)"
    return f"exactly the same claim as an existing fact{where}"


def _plan_one(add: PlannedAdd, key: str | None, options: Sequence[_Option], threshold: float) -> AddPlan:
    conflict: tuple[Fact, str] | None = None
    pairs: list[PairPlan] = []
    similarities = [o.similarity for o in options]
    for index, option in enumerate(options):
        if option.similarity < threshold:
            break
        if option.category in (add.category, UNCATEGORIZED):  # the rule compares within a category
            decision = decide(add.claim, option.claim, option.similarity, threshold)
            if decision.verdict is DedupVerdict.SAME:
                return AddPlan(
                    add, key, same_as=option.target, reason=f"same claim as an existing fact: {decision.reason}"
                )
            if decision.verdict is DedupVerdict.CONFLICT and conflict is None and isinstance(option.target, Existing):
                conflict = (option.target.fact, decision.reason)
            why = decision.reason
        else:
            why = f"similar claim in {option.category}"
        likelihood = stand_out(similarities, index, threshold)
        if len(pairs) < PAIRS_PER_ADD and stands_out(likelihood) and offerable(add.claim, option.claim):
            pairs.append(PairPlan(option.target, option.similarity, why, round(likelihood, 4)))
    return AddPlan(add, key, conflict=conflict, pairs=tuple(pairs))


@dataclass(frozen=True)
class MergedFact:
    """The kept fact's new values after a duplicate is folded into it."""

    confidence: float
    evidence_message_ids: tuple[str, ...]
    previous_claims: tuple[str, ...]
    last_confirmed_at: datetime
    verification: Verification
    structured_fields: dict[str, Any]


def merged_values(keep: Fact, duplicate: Fact, strengthen_step: float) -> MergedFact:
    """As if each message that supported only the duplicate had strengthened the kept fact (capped at 1.0)."""
    extra = tuple(m for m in dict.fromkeys(duplicate.evidence_message_ids) if m not in keep.evidence_message_ids)
    confirmed = Verification.CONFIRMED in (keep.verification_status, duplicate.verification_status)
    return MergedFact(
        confidence=raised(keep.confidence, strengthen_step * len(extra)),
        evidence_message_ids=keep.evidence_message_ids + extra,
        previous_claims=keep.previous_claims + duplicate.previous_claims + (duplicate.claim,),
        last_confirmed_at=max(keep.last_confirmed_at, duplicate.last_confirmed_at),
        verification=Verification.CONFIRMED if confirmed else keep.verification_status,
        structured_fields=duplicate.structured_fields | keep.structured_fields,
    )


def merge_refusal(keep: Fact, duplicate: Fact) -> str | None:
    """Why a model's merge of these two facts is refused (they name different things), or None to apply it.

    A weak model merges some pairs that differ; the findings whose policy row refuses a merge (policy.py: a name or
    a number on each side, a shared frame governing different words ("about the family visit" / "about the
    neighbours' renovation"), a number in one only) are caught here (the rule's other conflicts, such as tense or
    negation, also split true paraphrases, so the model decides those)."""
    return refusal(analyse(keep.claim), analyse(duplicate.claim), "merge")


def offerable(claim: str, other: str) -> bool:
    """A pair worth offering: no finding whose policy row refuses the pair (today the rows that refuse a merge: two
    facts that name different things are never one fact, so offering them would only spend prompt tokens and invite
    a wrong merge); the rule's review candidate (a conflict) still goes to a person."""
    return refusal(analyse(claim), analyse(other), "pair") is None


@dataclass(frozen=True)
class OpenPair:
    """Two stored facts of one kind recorded as possible duplicates and not shown to the model yet."""

    first: Fact
    second: Fact


# A pair not shown within this many revisions of the person (writes under the per-entity lock, counted by
# entity_revisions) is no longer offered,
# so an import or a long history of pairs cannot keep newer pairs out of the prompt. Changing it needs no migration:
# the read and the turn's expiry take it as a parameter. Migration 0050's one-time clean-up wrote 20 (this value
# when it was written) as a literal on purpose: it closed what the read of that release no longer offered; a
# database that runs it later is closed at 20 once, and its next revisions follow this value (docs/dedup.md).
PAIR_TTL_REVISIONS = 20


def known_facts(
    durable: Sequence[Fact], current: Sequence[Fact], pairs: Sequence[OpenPair], per_kind: int
) -> tuple[list[Fact], list[Fact], list[OpenPair]]:
    """The facts to show per kind: open pairs first (both facts or neither), then the nearest, at most per_kind."""
    shown: dict[Kind, dict[UUID, Fact]] = {Kind.DURABLE: {}, Kind.CURRENT: {}}
    kept: list[OpenPair] = []
    for pair in pairs[:MAX_PAIRS_SHOWN]:
        facts = shown[pair.first.kind]
        new = {f.id: f for f in (pair.first, pair.second) if f.id not in facts}
        if pair.first.kind is pair.second.kind and len(facts) + len(new) <= per_kind:
            facts.update(new)
            kept.append(pair)
    for kind, similar in ((Kind.DURABLE, durable), (Kind.CURRENT, current)):
        for fact in similar:
            if len(shown[kind]) < per_kind:
                shown[kind].setdefault(fact.id, fact)
    return list(shown[Kind.DURABLE].values()), list(shown[Kind.CURRENT].values()), kept
