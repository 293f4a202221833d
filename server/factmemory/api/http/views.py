"""Shapes use-case results into what the templates show. Pure: no I/O, tested without fixtures."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar
from uuid import UUID

from factmemory.api.http import charts
from factmemory.domain.errors import InvalidInput
from factmemory.domain.models import (
    Candidate,
    CandidateSource,
    CandidateStatus,
    Fact,
    FactEdit,
    Kind,
    Resolution,
    Verification,
)
from factmemory.domain.ranking import SECONDS_PER_DAY, time_weight

E = TypeVar("E", Kind, Verification)


@dataclass(frozen=True)
class FactRow:
    """A fact as the provider sees it today: its time weight and the weight x confidence it ranks by."""

    fact: Fact
    weight: float
    standing: float
    # Pending review items about this fact: (source, the other claim).
    disputes: tuple[tuple[str, str], ...] = ()

    @property
    def evidence_count(self) -> int:
        return len(self.fact.evidence_message_ids)


def fact_rows(
    facts: Iterable[Fact], kind: Kind, now: datetime, decay_days: float, pending: Iterable[Candidate] = ()
) -> list[FactRow]:
    """The facts of one kind, strongest first (confidence x time weight; the provider multiplies in relevance),
    each with the pending review items that concern it."""
    disputes = disputes_by_fact(pending)
    rows = [
        FactRow(f, w, f.confidence * w, disputes.get(f.id, ()))
        for f in facts
        if f.kind is kind
        for w in (time_weight(f, now, decay_days),)
    ]
    return sorted(rows, key=lambda r: (-r.standing, r.fact.category, r.fact.claim, str(r.fact.id)))


def disputes_by_fact(pending: Iterable[Candidate]) -> dict[UUID, tuple[tuple[str, str], ...]]:
    """Fact id -> (source, proposed claim) of each pending candidate about it, oldest first."""
    found: dict[UUID, list[tuple[str, str]]] = {}
    for c in pending:
        if c.fact is not None and c.status is CandidateStatus.PENDING:
            found.setdefault(c.fact.id, []).append((c.source.value, c.proposed_claim))
    return {k: tuple(v) for k, v in found.items()}


def age_days(fact: Fact, now: datetime) -> float:
    began = fact.valid_at or fact.created_at
    return max(0.0, (now - began).total_seconds() / SECONDS_PER_DAY)


def weight_chart(current: Sequence[FactRow], now: datetime, decay_days: float) -> str:
    points = [charts.Point(age_days(r.fact, now), r.weight, r.fact.claim) for r in current]
    return charts.weight_curve(decay_days, points)


def category_chart(facts: Iterable[Fact]) -> str:
    counts = Counter((f.kind.value, f.category) for f in facts)
    return charts.category_bars([(kind, category, n) for (kind, category), n in counts.items()])


def short_actor(actor: str) -> str:
    """'message:<long id>' -> 'message <first 8>'; people and imports are shown as they are."""
    kind, _, ident = actor.partition(":")
    return f"message {ident[:8]}" if kind == "message" and len(ident) > 12 else actor


def queue_label(count: int, more: bool) -> str:
    """The pending count shown in the navigation: exact below the page size, '100+' beyond it."""
    return f"{count}+" if more else str(count)


def edit_from_form(fact: Fact, form: dict[str, str]) -> FactEdit:
    """Only the fields the reviewer changed, so the history shows what was edited; bad numbers are InvalidInput."""
    claim = " ".join(form.get("claim", "").split())
    category = form.get("category", "").strip()
    kind = _enum(Kind, form.get("kind", ""), fact.kind)
    verification = _enum(Verification, form.get("verification", ""), fact.verification_status)
    confidence = parse_confidence(form.get("confidence", ""), fact.confidence)
    return FactEdit(
        claim=claim if claim and claim != fact.claim else None,
        category=category if category and category != fact.category else None,
        kind=kind if kind is not fact.kind else None,
        confidence=confidence if abs(confidence - fact.confidence) > 1e-9 else None,
        verification=verification if verification is not fact.verification_status else None,
    )


def parse_confidence(text: str, default: float) -> float:
    if not text.strip():
        return default
    try:
        value = float(text)
    except ValueError:
        raise InvalidInput(f"confidence must be a number between 0 and 1, not {text[:20]!r}") from None
    if not 0.0 <= value <= 1.0:
        raise InvalidInput("confidence must be between 0 and 1")
    return value


def optional_confidence(text: str) -> float | None:
    """An added fact's confidence: None (the service's default) when the field is left empty."""
    return parse_confidence(text, 0.0) if text.strip() else None


def _enum(cls: type[E], text: str, default: E) -> E:
    try:
        return cls(text) if text else default
    except ValueError:
        raise InvalidInput(f"unknown {cls.__name__.lower()} {text[:30]!r}") from None


NO_EDIT = FactEdit()
# What the queue offers per source (label, resolution): a contradiction can replace the claim, be dropped, or be
# kept as a fact of its own; a conflicting near-duplicate (kept beside the stored fact) can be dropped, replace
# the stored fact, stay as a separate fact, or be merged into the stored fact (its claim and evidence).
RESOLUTIONS: dict[str, tuple[tuple[str, Resolution], ...]] = {
    "contradict": (("Accept", Resolution.ACCEPT), ("Reject", Resolution.REJECT), ("Keep both", Resolution.KEEP_BOTH)),
    "dedup_conflict": (
        ("Merge", Resolution.MERGE),
        ("Reject", Resolution.REJECT),
        ("Keep the new one only", Resolution.KEEP_NEW),
        ("Keep both", Resolution.KEEP_BOTH),
    ),
    "decay_floor": (("Delete the fact", Resolution.ACCEPT), ("Keep the fact", Resolution.REJECT)),
}
# What a redirect after a post may announce (the URL carries only the key).
NOTICES: dict[str, str] = {
    "added": "Fact added.",
    "saved": "Fact saved.",
    "unchanged": "Nothing changed.",
    "deleted": "Fact deleted.",
    "forgotten": "The entity is forgotten: its facts, review items, relationships and identities are erased.",
    Resolution.ACCEPT.value: "Accepted: the fact now says the proposed claim.",
    Resolution.REJECT.value: "Rejected: the stored fact stays as it was.",
    Resolution.KEEP_BOTH.value: "Kept both as separate facts.",
    Resolution.KEEP_NEW.value: "Kept the new fact; the stored one is removed.",
    Resolution.KEEP_OLD.value: "Kept the stored fact; the new one is removed.",
    Resolution.MERGE.value: "Merged: the stored fact takes the new claim and its evidence.",
}


def parse_kind(text: str) -> Kind:
    try:
        return Kind(text)
    except ValueError:
        raise InvalidInput("choose durable or current") from None


def parse_resolution(text: str) -> Resolution:
    try:
        return Resolution(text)
    except ValueError:
        raise InvalidInput(f"unknown resolution {text[:30]!r}") from None


def parse_source(text: str) -> CandidateSource | None:
    """The queue filter: empty or unknown means every source."""
    try:
        return CandidateSource(text) if text else None
    except ValueError:
        return None
