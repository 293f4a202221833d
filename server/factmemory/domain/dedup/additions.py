"""Harmless additions for the dedup rule: "works as a nurse" vs "works as a nurse at a hospital". Pure."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from factmemory.domain.dedup.claims import ANTONYMS, Claim, Token, loose
from factmemory.domain.dedup.differences import Diff, fmt
from factmemory.domain.dedup.lexicon import (
    ADDITION_PREPOSITIONS,
    QUALIFIERS,
    ROLES,
    STATUS_CHANGE,
    TEMPORAL,
    TIME_ADDITIONS,
)
from factmemory.domain.dedup.policy import structure_problem

_MAX_ADDED_WORDS: Final = 2


def _plain(token: Token) -> bool:
    """A word whose addition cannot flip or retarget the statement."""
    risky = TEMPORAL | STATUS_CHANGE | QUALIFIERS | ROLES
    return not (
        token.name
        or token.number
        or token.surface in risky
        or loose(token.surface) in risky
        or any(loose(token.surface) in pair for pair in ANTONYMS)
    )


def _without(claim: Claim, extra: Sequence[Token]) -> Claim:
    """The claim minus the extra content words and the markers that only governed them."""
    drop = {id(t) for t in extra}
    tokens = [t for t in claim.tokens if id(t) not in drop]
    while tokens and tokens[-1].kind == "prep":  # a dangling preposition whose object was the addition
        tokens.pop()
    return Claim(tuple(tokens))


def _trailing_attachment(longer: Claim, extra: Sequence[Token]) -> bool:
    """The extra words form the claim's last phrase and are introduced by a preposition."""
    tokens = list(longer.tokens)
    start = tokens.index(extra[0])
    tail = tokens[start:]
    return (
        all(t.kind == "content" for t in tail)
        and [id(t) for t in tail] == [id(t) for t in extra]
        and start > 0
        and tokens[start - 1].key in ADDITION_PREPOSITIONS
    )


def _trailing_time(longer: Claim, extra: Sequence[Token]) -> bool:
    """'anxious' vs 'anxious this morning': time words closing the claim."""
    return all(t.surface in TIME_ADDITIONS for t in extra) and list(longer.content[-len(extra) :]) == list(extra)


def safe_addition(a: Claim, b: Claim, d: Diff) -> str | None:
    """A reason if one side only adds a time word or a short trailing prepositional phrase."""
    if d.only_a and d.only_b:
        return None
    longer, shorter, extra = (a, b, d.only_a) if d.only_a else (b, a, d.only_b)
    if not extra or not shorter.content or not all(_plain(t) for t in extra):
        return None
    if longer.of_kind("conj") != shorter.of_kind("conj"):
        return None
    core = _without(longer, extra)
    if structure_problem(core, shorter) is not None:
        return None
    if _trailing_time(longer, extra):
        return f"adds only a time word: {fmt(extra)}"
    small = len(extra) <= min(_MAX_ADDED_WORDS, len(shorter.content))
    if small and _trailing_attachment(longer, extra):
        return f"adds only a trailing detail: {fmt(extra)}"
    return None
