"""The demo model (`factmemory serve --demo`): a first try of Evaluate without a model key. Not a language model: a
few English sentence patterns ("I moved to Berlin", "I'm allergic to penicillin", "I feel anxious today") read as
the one extraction call would, answered through the same reply contract (domain/extraction.py) as any model.

A claim already known is strengthened; a new place to live contradicts the one known (a review item, as a model's
contradiction is); everything else is an add. Nothing else is understood: a sentence no pattern fits learns
nothing."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from factmemory.domain.extraction import ExtractionReply, validate_reply
from factmemory.domain.models import Item, Usage
from factmemory.domain.prompts import Prompt, read_messages

_END = r"(?:\s+(?:today|now|right now|at the moment|this (?:morning|week|evening)))?\s*(?:[.!,;]|$)"


@dataclass(frozen=True)
class Pattern:
    """One sentence pattern: what it finds, the fact it makes of the match, and the fact's kind and category."""

    found: re.Pattern[str]
    claim: Callable[[str], str]
    kind: str
    category: str


def _p(pattern: str, claim: Callable[[str], str], kind: str, category: str) -> Pattern:
    return Pattern(re.compile(pattern, re.I), claim, kind, category)


_THING = r"([\w' -]{2,60}?)"
PATTERNS = (
    _p(rf"\bI (?:moved|relocated) to {_THING}(?:\s+(?:last|in|this)\b[^.!,;]*)?{_END}", lambda m: f"lives in {m}",
       "durable", "identity"),
    _p(rf"\bI live in {_THING}{_END}", lambda m: f"lives in {m}", "durable", "identity"),
    _p(rf"\bI(?:'m| am) allergic to {_THING}{_END}", lambda m: f"allergic to {m}", "durable", "health"),
    _p(rf"\bI work (?:as an?|as) {_THING}{_END}", lambda m: f"works as {m}", "durable", "business_role"),
    _p(rf"\bI (?:love|like|enjoy) {_THING}{_END}", lambda m: f"likes {m}", "durable", "preference"),
    _p(rf"\bI want to {_THING}{_END}", lambda m: f"wants to {m}", "durable", "goal"),
    _p(rf"\bI(?:'m| am)? (?:feel|feeling) {_THING}{_END}", lambda m: f"feels {m}", "current", "feeling"),
    _p(rf"\bI(?:'m| am) working on {_THING}{_END}", lambda m: f"working on {m}", "current", "working_on"),
)  # fmt: skip
# Facts that hold one value at a time: a new one contradicts the known one.
ONE_AT_A_TIME = ("lives in ",)


def ops_for(text: str, prompt: Prompt) -> list[dict[str, Any]]:
    """The ops the patterns read in one message, against the facts the prompt shows (by handle)."""
    ops: list[dict[str, Any]] = []
    for pattern in PATTERNS:
        for match in pattern.found.finditer(text):
            claim = pattern.claim(" ".join(match.group(1).split()).rstrip(" -'"))
            ops.append(_op(claim, pattern, prompt))
    return ops


def _op(claim: str, pattern: Pattern, prompt: Prompt) -> dict[str, Any]:
    for handle, fact in prompt.handles.items():
        if fact.claim.casefold() == claim.casefold():
            return {"op": "strengthen", "fact": handle, "reason": "said again"}
    for handle, fact in prompt.handles.items():
        one = next((p for p in ONE_AT_A_TIME if claim.startswith(p)), None)
        if one is not None and fact.claim.startswith(one):
            return {"op": "contradict", "fact": handle, "reason": "says otherwise now", "proposed_claim": claim}
    return {
        "op": f"add_{pattern.kind}",
        "claim": claim,
        "category": pattern.category,
        "structured_fields": [],
        "verification_status": "self_reported",
    }


class DemoExtractor:
    """The Extractor port, answered by PATTERNS instead of a model (no network, no key)."""

    async def extract(self, prompt: Prompt, items: frozenset[Item]) -> tuple[ExtractionReply, Usage]:
        texts = read_messages(prompt.user)
        batched = prompt.messages > 1
        ops = [
            op | ({"message": f"M{i}"} if batched else {})
            for i, text in enumerate(texts, start=1)
            for op in ops_for(text, prompt)
        ]
        if prompt.shared:
            ops = [op | {"scope": "speaker"} for op in ops]
        reply: dict[str, Any] = {
            "facts": {"ops": ops},
            "relationships": [],
            "identities": [],
            "success": {"completed": True, "reason": "the demo model answers every message"},
        }
        return validate_reply({k: v for k, v in reply.items() if Item(k) in items}, items), Usage(llm_calls=1)
