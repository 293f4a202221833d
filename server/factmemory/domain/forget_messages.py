"""Deleted messages leave the memory (ForgetMessages): which ids are valid, and what becomes of each fact that
cited one of them. Pure: values in, values out."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from factmemory.domain.confidence import ADD_CONFIDENCE, STRENGTHEN_STEP
from factmemory.domain.errors import InvalidInput
from factmemory.domain.limits import MAX_MESSAGE_IDS

# What the history, the closed candidates and pairs say about why they changed.
REASON = "source message deleted"
ACTOR = "system:message deleted"
# Evidence that is not a message: a person (AddFact) or an import. Never an id a caller can forget.
NOT_MESSAGES = ("reviewer:", "import:")


def support(messages: int) -> float:
    """The confidence the write path gives a fact supported by this many messages: ADD_CONFIDENCE for the first,
    STRENGTHEN_STEP for each further one, at most 1.0 (domain/confidence.py)."""
    if messages <= 0:
        return 0.0
    return min(1.0, ADD_CONFIDENCE + STRENGTHEN_STEP * (messages - 1))


def recounted(confidence: float, before: int, after: int) -> float:
    """The confidence once `before - after` supporting messages are gone: each takes back what its support added,
    so decays and edits since then are kept (a fact decayed once stays that much lower)."""
    return round(min(1.0, max(0.0, confidence - (support(before) - support(after)))), 4)


@dataclass(frozen=True)
class Cited:
    """A stored fact citing a deleted message: its evidence, confidence, and whether a person vouched for it
    (a reviewer's entry in its history: added or edited by hand, a candidate accepted, kept as both true)."""

    evidence: tuple[str, ...]
    confidence: float
    vouched: bool


@dataclass(frozen=True)
class Outcome:
    """What the fact becomes: deleted, or kept with this evidence and confidence."""

    delete: bool
    evidence: tuple[str, ...] = ()
    confidence: float = 0.0


def after_deletion(fact: Cited, deleted: Collection[str]) -> Outcome:
    """A fact left with no evidence is deleted, unless a person vouched for it: then it stands on their word, with
    its confidence as it was. A fact with other evidence keeps its claim; its support is recounted."""
    kept = tuple(m for m in fact.evidence if m not in deleted)
    if not kept and not fact.vouched:
        return Outcome(delete=True)
    if not kept:
        return Outcome(delete=False, evidence=(), confidence=fact.confidence)
    before, after = len(set(fact.evidence)), len(set(kept))
    return Outcome(delete=False, evidence=kept, confidence=recounted(fact.confidence, before, after))


def check_message_ids(ids: Sequence[str], max_chars: int) -> None:
    """At most MAX_MESSAGE_IDS ids, each a non-empty, bounded, one-line message id (never a person or an import)."""
    if len(ids) > MAX_MESSAGE_IDS:
        raise InvalidInput(f"message_ids holds {len(ids)} ids; at most {MAX_MESSAGE_IDS} per call")
    for i, value in enumerate(ids):
        if not value.strip():
            raise InvalidInput(f"message_ids[{i}] is empty")
        if len(value) > max_chars:
            raise InvalidInput(f"message_ids[{i}] is longer than {max_chars} characters ({len(value)})")
        if any(ord(c) < 32 or ord(c) == 127 for c in value):
            raise InvalidInput(f"message_ids[{i}] contains a control character")
        if value.startswith(NOT_MESSAGES):
            raise InvalidInput(f"message_ids[{i}] names a person or an import, not a message: {value[:40]!r}")


@dataclass(frozen=True)
class Erased:
    """What a shared subject lost to deleted messages (their author forgotten, or the messages deleted): the
    messages, the facts deleted, and the texts only they held (claims of deleted facts, proposed claims)."""

    message_ids: frozenset[str]
    fact_ids: frozenset[str]
    texts: frozenset[str]


def scrubbed(value: Any, erased: Erased) -> Any:
    """A stored evaluation result (JSON) of someone else without the erased words: the messages leave every evidence
    list, a deleted fact's snapshot leaves its op, and an erased proposed or earlier claim leaves the facts shown."""
    if isinstance(value, list):
        return [scrubbed(v, erased) for v in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, item in value.items():
        if key == "evidence_message_ids" and isinstance(item, list):
            out[key] = [m for m in item if m not in erased.message_ids]
        elif key == "fact" and isinstance(item, dict) and item.get("id") in erased.fact_ids:
            out[key] = None
        elif key == "disputed_by" and item in erased.texts:
            out[key] = ""
        elif key == "previous_claims" and isinstance(item, list):
            out[key] = [c for c in item if c not in erased.texts]
        else:
            out[key] = scrubbed(item, erased)
    return out
