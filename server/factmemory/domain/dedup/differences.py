"""Typed differences of the dedup rule: the details two claims must agree on (opposites, negation, numbers,
roles, names, tense, qualifiers). Pure."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from factmemory.domain.dedup.claims import ANTONYMS, Claim, Token, loose
from factmemory.domain.dedup.lexicon import (
    NEGATING_PREFIXES,
    QUALIFIERS,
    ROLES,
    STATUS_CHANGE,
    TEMPORAL,
)
from factmemory.domain.limits import CLAIM_ANALYSIS_MEMO


@dataclass(frozen=True)
class Diff:
    only_a: tuple[Token, ...]
    only_b: tuple[Token, ...]
    raw_only_a: tuple[Token, ...]
    raw_only_b: tuple[Token, ...]
    shared: int  # shared content words, numbers excluded


def _minus(tokens: Sequence[Token], other: Sequence[Token], attr: Literal["key", "raw"]) -> tuple[Token, ...]:
    remaining = Counter(getattr(t, attr) for t in other)
    out: list[Token] = []
    for token in tokens:
        value = getattr(token, attr)
        if remaining[value] > 0:
            remaining[value] -= 1
        else:
            out.append(token)
    return tuple(out)


def diff(a: Claim, b: Claim) -> Diff:
    ca, cb = a.content, b.content
    shared = Counter(t.key for t in ca if not t.number) & Counter(t.key for t in cb if not t.number)
    return Diff(
        _minus(ca, cb, "key"), _minus(cb, ca, "key"), _minus(ca, cb, "raw"), _minus(cb, ca, "raw"), sum(shared.values())
    )


@functools.lru_cache(maxsize=CLAIM_ANALYSIS_MEMO)
def _opposite(x: str, y: str) -> bool:
    lx, ly = loose(x), loose(y)
    if (lx, ly) in ANTONYMS:
        return True
    return any(
        len(base) >= 3 and longer == prefix + base
        for prefix in NEGATING_PREFIXES
        for longer, base in ((lx, ly), (ly, lx))
    )


def _pairs(xs: Iterable[Token], ys: Iterable[Token]) -> list[tuple[Token, Token]]:
    ys = list(ys)
    return [(x, y) for x in xs for y in ys]


def fmt(tokens: Iterable[Token]) -> str:
    return ", ".join(t.surface for t in tokens)


# --- the checks: each a named pure function of two claims and their difference, returning why they differ (or None).
# domain/dedup/policy.py lists them in order and says what each finding does; tests/test_dedup_checks.py holds each
# one's labelled examples.


def opposites(a: Claim, b: Claim, d: Diff) -> str | None:
    """A word on one side is the opposite of a word on the other: "loves coffee" / "hates coffee"."""
    for x, y in _pairs(d.only_a + d.raw_only_a, d.only_b + d.raw_only_b):
        if _opposite(x.surface, y.surface):
            return f"opposites: {x.surface} vs {y.surface}"
    return None


def negation(a: Claim, b: Claim, d: Diff) -> str | None:
    """One side negates what the other does not: "eats meat" / "never eats meat"."""
    negations = (a.of_kind("neg") - b.of_kind("neg")) + (b.of_kind("neg") - a.of_kind("neg"))
    return f"negation differs: {', '.join(sorted(negations))}" if negations else None


def _one_sided(d: Diff, label: str, table: frozenset[str]) -> str | None:
    found = [t for t in d.only_a + d.only_b if not t.name and (t.surface in table or loose(t.surface) in table)]
    return f"{label}: {fmt(found)}" if found else None


def time_or_status(a: Claim, b: Claim, d: Diff) -> str | None:
    """A tense or status word on one side only: "was married" / "married", "quit smoking" / "smoking"."""
    return _one_sided(d, "time or status differs", TEMPORAL | STATUS_CHANGE)


def qualifier(a: Claim, b: Claim, d: Diff) -> str | None:
    """A hedge, modal, frequency or quantity on one side only: "sometimes vegetarian" / "vegetarian"."""
    return _one_sided(d, "qualifier differs", QUALIFIERS)


def slot_finding(d: Diff, label: str, member: frozenset[str] | None, number: bool, name: bool) -> str | None:
    def pick(tokens: Sequence[Token]) -> list[Token]:
        return [
            t
            for t in tokens
            if (number and t.number) or (name and t.name) or (member is not None and t.surface in member)
        ]

    xs, ys = pick(d.only_a), pick(d.only_b)
    return f"{label} differ: {fmt(xs)} vs {fmt(ys)}" if xs and ys else None


def numbers(a: Claim, b: Claim, d: Diff) -> str | None:
    """Each side has a number the other lacks: "type 1" / "type 2 diabetes", "$405" / "$935"."""
    return slot_finding(d, "numbers", None, number=True, name=False)


def roles(a: Claim, b: Claim, d: Diff) -> str | None:
    """Each side has a role the other lacks: "CTO of Acme" / "CEO of Acme"."""
    return slot_finding(d, "roles", ROLES, number=False, name=False)


def names(a: Claim, b: Claim, d: Diff) -> str | None:
    """Each side has a name the other lacks: "lives in Berlin" / "lives in Munich"."""
    return slot_finding(d, "names", None, number=False, name=True)


def tense(a: Claim, b: Claim, d: Diff) -> str | None:
    """The same stem in another form on each side: "moved" / "moves", "lovely" / "loves"."""
    for x, y in _pairs(d.only_a, d.only_b):
        if x.surface != y.surface and loose(x.surface) == loose(y.surface):
            what = "tense" if x.raw.endswith("+ed") or y.raw.endswith("+ed") else "word form"
            return f"{what} differs: {x.surface} vs {y.surface}"
    return None
