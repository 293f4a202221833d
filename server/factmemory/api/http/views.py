"""Shapes use-case results into what the templates show. Pure: no I/O, tested without fixtures."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar
from uuid import UUID

from factmemory.api.http import charts, labels
from factmemory.domain.errors import InvalidInput
from factmemory.domain.excerpts import EvidenceSource, best_sentence
from factmemory.domain.limits import MAX_FORM_ECHO_CHARS
from factmemory.domain.models import (
    CURRENT_CATEGORIES,
    DURABLE_CATEGORIES,
    UNCATEGORIZED,
    Candidate,
    CandidateSource,
    CandidateStatus,
    Fact,
    FactEdit,
    HistoryEntry,
    Kind,
    Resolution,
    Verification,
)
from factmemory.domain.ranking import SECONDS_PER_DAY, time_weight
from factmemory.domain.shared import HELD_DECAY

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
    counts = Counter((f.kind.value, labels.category_label(f.category)) for f in facts)
    return charts.category_bars([(kind, category, n) for (kind, category), n in counts.items()])


def edit_from_form(fact: Fact, form: dict[str, str]) -> FactEdit:
    """Only the fields the reviewer changed, so the history shows what was edited; bad numbers are InvalidInput."""
    claim = " ".join(form.get("claim", "").split())
    kind_text, category = kind_category_text(form)
    kind = _enum(Kind, kind_text, fact.kind)
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
LABEL_CLAIM_CHARS = 60


@dataclass(frozen=True)
class Choice:
    """One resolution button: a label and a one-line help that say the result in plain words."""

    resolution: Resolution
    label: str
    help: str
    danger: bool = False  # something stored is removed or replaced
    agent_wide: bool = False  # accept a held shared claim for every world (ResolveCandidateRequest.agent_wide)


def quoted(claim: str, max_chars: int = LABEL_CLAIM_CHARS) -> str:
    """A claim as a label shows it: in quotes, shortened at a word when long."""
    line = " ".join(claim.split())
    if len(line) > max_chars:
        cut = line[: max_chars - 1]
        line = (cut[: cut.rfind(" ")] if " " in cut else cut).rstrip() + "…"
    return f"‘{line}’"


def resolution_choices(item: Candidate, agent_wide: bool = False) -> list[Choice]:
    """What the queue offers for one item, each saying what it does. None is highlighted: for opposites ("loves
    coffee" / "hates coffee") every choice but "keep both" removes or replaces something, and the operator
    decides. A contradiction proposes a claim; a dedup conflict's new claim is already a fact beside the old."""
    old = quoted(item.fact.claim) if item.fact is not None else "the stored fact"
    new = quoted(item.proposed_claim)
    if item.source is CandidateSource.DECAY_FLOOR and item.reason.startswith(HELD_DECAY):
        return [
            Choice(Resolution.REJECT, f"Keep {old}", "the fact stays as it is; the decay is dropped"),
            Choice(
                Resolution.ACCEPT, f"Decay {old}", "its confidence goes down one step, as a trusted teacher's decay"
            ),
        ]
    if item.source is CandidateSource.DECAY_FLOOR:
        return [
            Choice(Resolution.REJECT, f"Keep {old}", "the fact stays as it is; the model's decay is dropped"),
            Choice(Resolution.ACCEPT, f"Delete {old}", "the model's decay takes effect (its history stays)", True),
        ]
    if item.source is CandidateSource.SHARED_CLAIM:  # docs/shared-facts.md: a stranger's claim about the world
        everywhere = Choice(
            Resolution.ACCEPT,
            f"Share {new} with every world",
            "it becomes an agent-wide shared fact, shown to everyone the agent talks with in any world",
            agent_wide=True,
        )
        return [
            Choice(Resolution.ACCEPT, f"Share {new}", "it becomes a shared fact of its world, shown to everyone there"),
            *([everywhere] if agent_wide else []),
            Choice(Resolution.REJECT, f"Delete {new}", "nobody was shown it; it is deleted (its history stays)", True),
        ]
    if item.source is CandidateSource.CONTRADICT:
        return [
            Choice(
                Resolution.ACCEPT,
                f"Replace {old} with {new}",
                "the fact takes the new claim; the old one stays in its history",
                True,
            ),
            Choice(Resolution.REJECT, f"Keep {old}", f"drop the proposal {new}; nothing stored changes"),
            Choice(Resolution.KEEP_BOTH, "Keep both", f"add {new} as a separate fact beside {old}"),
        ]
    return [
        Choice(
            Resolution.MERGE,
            f"Replace {old} with {new}",
            "one fact remains with the new claim, the evidence of both and the old fact's history",
            True,
        ),
        Choice(Resolution.KEEP_NEW, f"Keep only {new}", f"delete {old} (its history stays)", True),
        Choice(Resolution.REJECT, f"Keep only {old}", f"delete the new fact {new}", True),
        Choice(Resolution.KEEP_BOTH, "Keep both", "two separate facts, never flagged against each other again"),
    ]


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
    Resolution.MERGE.value: "Replaced: the stored fact took the new claim and its evidence.",
    # By the item's source, where the resolution alone would say the wrong thing.
    "shared_claim.accept": "Shared: the claim is now a shared fact of its world, shown to everyone there.",
    "shared_claim.accept_agent_wide": "Shared with every world: the claim is now an agent-wide shared fact.",
    "shared_claim.reject": "Deleted: the held claim is gone; nobody was ever shown it.",
    "decay_floor.accept": "Deleted: the model's decay took effect.",
    "decay_floor.reject": "Kept: the fact stays as it was; the decay is dropped.",
    "held_decay.accept": "Decayed: the fact's confidence went down one step.",
    "held_decay.reject": "Kept: the fact stays as it was; the decay is dropped.",
}


def notice_key(item: Candidate, resolution: Resolution, agent_wide: bool = False) -> str:
    """The flash after a resolution: what happened to this kind of item."""
    held_decay = item.source is CandidateSource.DECAY_FLOOR and item.reason.startswith(HELD_DECAY)
    key = f"{'held_decay' if held_decay else item.source.value}.{resolution.value}{'_agent_wide' if agent_wide else ''}"
    return key if key in NOTICES else resolution.value


def edited_fields(edit: FactEdit) -> list[str]:
    """The names of the fields an edit changes (for the audit line; never their values)."""
    return [name for name, value in edit.model_dump().items() if value is not None]


KIND_CATEGORY_SEP = ":"


def kind_category_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """The one select of the forms: each kind with only its own categories, so no invalid pair can be chosen."""
    allowed = {Kind.DURABLE: (*DURABLE_CATEGORIES, UNCATEGORIZED), Kind.CURRENT: CURRENT_CATEGORIES}
    return [
        (kind.value, [(f"{kind.value}{KIND_CATEGORY_SEP}{c}", c.replace("_", " ")) for c in names])
        for kind, names in allowed.items()
    ]


def kind_category_text(form: dict[str, str]) -> tuple[str, str]:
    """(kind, category) as posted: the combined `kind_category` field, else the separate ones."""
    combined = form.get("kind_category", "").strip()
    if combined:
        kind, _, category = combined.partition(KIND_CATEGORY_SEP)
        return kind.strip(), category.strip()
    return form.get("kind", "").strip(), form.get("category", "").strip()


def parse_kind_category(form: dict[str, str]) -> tuple[Kind, str]:
    """The kind and category of an added fact; the pair itself is checked by the use-case (check_category)."""
    kind, category = kind_category_text(form)
    return parse_kind(kind), category


@dataclass(frozen=True)
class AddForm:
    """What the Add form shows: empty, or what was typed when adding failed."""

    kind_category: str = ""
    claim: str = ""
    confidence: str = ""

    @staticmethod
    def of(form: dict[str, str]) -> AddForm:
        kind, category = kind_category_text(form)
        chosen = f"{kind}{KIND_CATEGORY_SEP}{category}" if kind else ""
        return AddForm(chosen, form.get("claim", "")[:MAX_FORM_ECHO_CHARS], form.get("confidence", "")[:20])


@dataclass(frozen=True)
class EditForm:
    """What the Edit form shows: the fact, or what was typed when saving failed."""

    kind_category: str
    claim: str
    confidence: str
    verification: str

    @staticmethod
    def of(fact: Fact, form: dict[str, str]) -> EditForm:
        kind, category = kind_category_text(form)
        return EditForm(
            f"{kind}{KIND_CATEGORY_SEP}{category}" if kind else f"{fact.kind.value}{KIND_CATEGORY_SEP}{fact.category}",
            form.get("claim", fact.claim)[:MAX_FORM_ECHO_CHARS],
            form.get("confidence", f"{fact.confidence:.2f}")[:20],
            form.get("verification", fact.verification_status.value)[:40],
        )


@dataclass(frozen=True)
class SourceRow:
    """A message behind a fact: the sentence of it that matches the claim, and the whole kept excerpt."""

    message_id: str
    quote: str
    excerpt: str
    evaluated_at: datetime


def source_rows(
    fact: Fact, sources: dict[str, EvidenceSource], history: Sequence[HistoryEntry] = ()
) -> list[SourceRow]:
    """The kept excerpts, oldest first, each with its sentence that carries the fact: matched against every claim
    the fact has had and the claims this message wrote into its history."""
    ordered = sorted(sources.values(), key=lambda s: (s.evaluated_at, s.message_id))
    every = [fact.claim, *fact.previous_claims]
    return [
        SourceRow(
            s.message_id,
            best_sentence(s.excerpt, [*claims_of(s.message_id, history), *every]),
            s.excerpt,
            s.evaluated_at,
        )
        for s in ordered
    ]


def claims_of(message_id: str, history: Sequence[HistoryEntry]) -> list[str]:
    """The claims a message wrote into the fact's history (what it created, restated or proposed)."""
    actor = f"message:{message_id}"
    sides = [h.after or h.before for h in history if h.actor == actor]
    return [str(side["claim"]) for side in sides if side and side.get("claim")]


def candidate_quotes(candidates: Sequence[Candidate], sources: dict[str, EvidenceSource]) -> dict[UUID, str]:
    """The person's own words behind each review item: the sentence of its message that carries the proposed
    claim (none when the message's words are no longer kept)."""
    quotes: dict[UUID, str] = {}
    for c in candidates:
        source = sources.get(c.evidence_message_id)
        if source is not None and source.excerpt:
            quotes[c.id] = best_sentence(source.excerpt, [c.proposed_claim])
    return quotes


_ENTITY_PATH = re.compile(r"^(/agents/[0-9a-f-]{36}/entities/[0-9a-f-]{36})(/facts/[0-9a-f-]{36})?(?:/|$)")


def back_link(path: str, method: str, status: int) -> tuple[str, str]:
    """Where an error page leads back to: the fact or the person the failed action was about (when it exists)."""
    found = _ENTITY_PATH.match(path)
    if found is None or (status == 404 and method == "GET"):
        return "", ""
    if found.group(2) and not path.endswith("/delete"):
        return found.group(1) + found.group(2), "Back to the fact"
    return found.group(1), "Back to the person"


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
