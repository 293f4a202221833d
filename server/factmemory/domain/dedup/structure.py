"""Structure checks of the dedup rule: same words are not enough when who-did-what-to-whom changes. Pure.

Each check is a function of two claims (their difference unused: they compare claims with the same words); the
policy (policy.py) runs them in order."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from factmemory.domain.dedup.claims import Claim
from factmemory.domain.dedup.differences import Diff

_NO_OBJECT: Final = "(pronoun)"


def _attachments(claim: Claim) -> list[tuple[str, str]]:
    """(preposition or negation, the content word it governs); a dropped pronoun counts as an object."""
    pairs: list[tuple[str, str]] = []
    pending: list[str] = []
    for token in claim.tokens:
        if token.kind in ("prep", "neg"):
            pending.append(token.key)
        elif token.kind == "content":
            pairs.extend((marker, token.key) for marker in pending)
            pending = []
    return pairs + [(marker, _NO_OBJECT) for marker in pending]


def _grouped(pairs: Iterable[tuple[str, str]]) -> dict[str, set[str]]:
    result: dict[str, set[str]] = {}
    for key, value in pairs:
        result.setdefault(key, set()).add(value)
    return result


def _crossed(left: dict[str, set[str]], right: dict[str, set[str]]) -> str | None:
    """A key both sides fill, with values neither of which contains the other."""
    for key in sorted(left.keys() & right.keys()):
        if not (left[key] <= right[key] or right[key] <= left[key]):
            return f"{key}: {'/'.join(sorted(left[key]))} vs {'/'.join(sorted(right[key]))}"
    return None


def relation(a: Claim, b: Claim, d: Diff | None = None) -> str | None:
    """Same words, different relations: 'moved to Berlin' vs 'from Berlin', 'X to Y' vs 'Y to X'."""
    att_a, att_b = _attachments(a), _attachments(b)
    by_object = _crossed(_grouped((o, m) for m, o in att_a), _grouped((o, m) for m, o in att_b))
    by_marker = _crossed(_grouped(att_a), _grouped(att_b))
    found = by_object or by_marker
    return None if found is None else f"relation differs: {found}"


def _content_order(claim: Claim) -> list[str]:
    """Content keys in order, with passive agents fronted ('confirmed by lab' -> 'lab confirmed')."""
    keys: list[str] = []
    after_by = False
    for token in claim.tokens:
        if token.kind == "content":
            if after_by and keys:
                keys.insert(len(keys) - 1, token.key)
            else:
                keys.append(token.key)
        after_by = token.kind == "prep" and token.key == "by"
    return keys


def _one_block_move(x: Sequence[str], y: Sequence[str]) -> bool:
    """True if y is x with at most one contiguous block moved ('penicillin allergy')."""
    if list(x) == list(y):
        return True
    n = len(x)
    for i in range(n):
        for j in range(i + 1, n + 1):
            rest = [*x[:i], *x[j:]]
            block = list(x[i:j])
            if any([*rest[:k], *block, *rest[k:]] == list(y) for k in range(len(rest) + 1)):
                return True
    return False


def word_order(a: Claim, b: Claim, d: Diff | None = None) -> str | None:
    """The same words in another order, beyond one moved block: 'Ana hired Leo' vs 'Leo hired Ana'."""
    return None if _one_block_move(_content_order(a), _content_order(b)) else "word order differs"


def light_verb(a: Claim, b: Claim, d: Diff | None = None) -> str | None:
    """'is a nurse' vs 'has a nurse'; one side without a light verb is fine."""
    light_a, light_b = set(a.of_kind("light")), set(b.of_kind("light"))
    return "is/has differs" if light_a and light_b and light_a.isdisjoint(light_b) else None
