"""The rules of review, pure: what each resolution does, which edits are valid, page tokens, actors, disputes."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from factmemory.domain.errors import InvalidInput
from factmemory.domain.limits import MAX_ACTOR_CHARS, MAX_DISPUTE_CHARS, MAX_QUERY_CHARS
from factmemory.domain.models import (
    CURRENT_CATEGORIES,
    DURABLE_CATEGORIES,
    UNCATEGORIZED,
    CandidateSource,
    CandidateStatus,
    FactEdit,
    HistoryAction,
    HistoryEntry,
    Kind,
    Resolution,
)
from factmemory.domain.text import one_line


@dataclass(frozen=True)
class ResolutionPlan:
    """What one resolution does to the store, in the order the use-case applies it.

    `old` is the candidate's fact (the one contradicted, or the existing one of a dedup conflict);
    `new` is the fact added beside it by a dedup conflict (absent for contradictions)."""

    resolution: Resolution
    status: CandidateStatus
    action: HistoryAction
    replace_old_claim: bool = False  # old takes the proposed claim (previous claim kept), confirmed
    insert_proposed: bool = False  # a new fact with the proposed claim beside the old one
    fold_new_into_old: bool = False  # new's evidence joins old, then new is deleted
    delete_old: bool = False
    delete_new: bool = False
    keep_pair: bool = False  # never flag old and new against each other again
    share: bool = False  # old (a held shared claim) becomes a shared fact of its world (domain/shared.py)

    @property
    def needs_embedding(self) -> bool:
        """Whether the proposed claim must be embedded first (outside the transaction)."""
        return self.insert_proposed or self.replace_old_claim or self.share


_CONTRADICT = {
    Resolution.ACCEPT: ResolutionPlan(
        Resolution.ACCEPT, CandidateStatus.ACCEPTED, HistoryAction.CANDIDATE_ACCEPTED, replace_old_claim=True
    ),
    Resolution.REJECT: ResolutionPlan(Resolution.REJECT, CandidateStatus.REJECTED, HistoryAction.CANDIDATE_REJECTED),
    Resolution.KEEP_BOTH: ResolutionPlan(
        Resolution.KEEP_BOTH, CandidateStatus.ACCEPTED, HistoryAction.KEPT_BOTH, insert_proposed=True
    ),
}
_DEDUP_CONFLICT = {
    Resolution.KEEP_BOTH: ResolutionPlan(
        Resolution.KEEP_BOTH, CandidateStatus.ACCEPTED, HistoryAction.KEPT_BOTH, keep_pair=True
    ),
    Resolution.KEEP_NEW: ResolutionPlan(
        Resolution.KEEP_NEW, CandidateStatus.ACCEPTED, HistoryAction.CANDIDATE_ACCEPTED, delete_old=True
    ),
    Resolution.KEEP_OLD: ResolutionPlan(
        Resolution.KEEP_OLD, CandidateStatus.REJECTED, HistoryAction.CANDIDATE_REJECTED, delete_new=True
    ),
    Resolution.MERGE: ResolutionPlan(
        Resolution.MERGE, CandidateStatus.ACCEPTED, HistoryAction.MERGED, replace_old_claim=True, fold_new_into_old=True
    ),
}
# A decay that would have deleted a protected fact: accept deletes it, reject keeps it as it is.
_DECAY_FLOOR = {
    Resolution.ACCEPT: ResolutionPlan(
        Resolution.ACCEPT, CandidateStatus.ACCEPTED, HistoryAction.CANDIDATE_ACCEPTED, delete_old=True
    ),
    Resolution.REJECT: ResolutionPlan(Resolution.REJECT, CandidateStatus.REJECTED, HistoryAction.CANDIDATE_REJECTED),
}
# A shared claim of a speaker not trusted to teach: accept shares it in its world, reject deletes it.
_SHARED_CLAIM = {
    Resolution.ACCEPT: ResolutionPlan(
        Resolution.ACCEPT, CandidateStatus.ACCEPTED, HistoryAction.CANDIDATE_ACCEPTED, share=True, delete_old=True
    ),
    Resolution.REJECT: ResolutionPlan(
        Resolution.REJECT, CandidateStatus.REJECTED, HistoryAction.CANDIDATE_REJECTED, delete_old=True
    ),
}
# The two-valued `decision` of the first contract, for dedup conflicts: accept folded the new fact into the
# old one (a merge); reject now removes the new fact, so a rejected conflict stops reaching every prompt.
_LEGACY_DEDUP = {Resolution.ACCEPT: Resolution.MERGE, Resolution.REJECT: Resolution.KEEP_OLD}


def plan_resolution(source: CandidateSource, resolution: Resolution, has_new_fact: bool) -> ResolutionPlan:
    """The plan for a resolution of a candidate of this source; InvalidInput when it does not apply."""
    if source is CandidateSource.CONTRADICT:
        table = _CONTRADICT
    elif source is CandidateSource.DECAY_FLOOR:
        table = _DECAY_FLOOR
    elif source is CandidateSource.SHARED_CLAIM:
        table = _SHARED_CLAIM
    else:
        resolution = _LEGACY_DEDUP.get(resolution, resolution)
        table = _DEDUP_CONFLICT
    plan = table.get(resolution)
    if plan is None:
        allowed = ", ".join(r.value for r in table)
        raise InvalidInput(
            f"resolution {resolution.value} does not apply to a {source.value} candidate (use one of: {allowed})"
        )
    if source is CandidateSource.DEDUP_CONFLICT and not has_new_fact and resolution is not Resolution.KEEP_OLD:
        # The new fact is gone already (decayed or deleted): only closing the candidate makes sense.
        return _DEDUP_CONFLICT[Resolution.KEEP_OLD]
    return plan


def kind_of(category: str) -> Kind | None:
    """The kind a category belongs to (categories of the two kinds are disjoint); None for unknown ones."""
    if category in DURABLE_CATEGORIES:
        return Kind.DURABLE
    if category in CURRENT_CATEGORIES:
        return Kind.CURRENT
    return None


def check_category(kind: Kind, category: str) -> str:
    """A category valid for the kind (reviewers may also file a durable fact as uncategorized)."""
    allowed = (*DURABLE_CATEGORIES, UNCATEGORIZED) if kind is Kind.DURABLE else CURRENT_CATEGORIES
    if category not in allowed:
        raise InvalidInput(f"category {category!r} is not a {kind.value} category (one of: {', '.join(allowed)})")
    return category


def check_claim(claim: str, max_chars: int) -> str:
    """One clean line of bounded length."""
    cleaned = one_line(claim)
    if not cleaned:
        raise InvalidInput("claim is empty")
    if len(cleaned) > max_chars:
        raise InvalidInput(f"claim is longer than {max_chars} characters")
    return cleaned


def check_confidence(value: float) -> float:
    if not 0.0 <= value <= 1.0:
        raise InvalidInput("confidence must be between 0 and 1")
    return round(value, 4)


def check_edit(edit: FactEdit, current_kind: Kind, current_category: str, max_claim_chars: int) -> FactEdit:
    """The edit cleaned and validated against the fact it changes (a new kind needs a category of that kind)."""
    kind = edit.kind or current_kind
    category = edit.category if edit.category is not None else current_category
    if edit.kind is not None or edit.category is not None:
        check_category(kind, category)
    return FactEdit(
        claim=None if edit.claim is None else check_claim(edit.claim, max_claim_chars),
        category=edit.category,
        kind=edit.kind,
        confidence=None if edit.confidence is None else check_confidence(edit.confidence),
        verification=edit.verification,
    )


def reviewer_actor(identity: str) -> str:
    """'reviewer:<identity>' from caller-supplied text, confined to one bounded line."""
    cleaned = one_line(identity)[:MAX_ACTOR_CHARS]
    return f"reviewer:{cleaned or 'anonymous'}"


def chat_actor(entity_id: UUID) -> str:
    """'chat:<entity id>': the person themself, for a change they asked for in a conversation."""
    return f"chat:{entity_id}"


def message_actor(message_id: str) -> str:
    return f"message:{message_id}"


def evidence_ids(history: Iterable[HistoryEntry]) -> list[str]:
    """The message ids the history names as actors ('message:<id>'), in order, once each."""
    return list(dict.fromkeys(h.actor.partition(":")[2] for h in history if h.actor.startswith("message:")))


def import_actor(source: str) -> str:
    return f"import:{one_line(source)[:MAX_ACTOR_CHARS]}"


def dispute_note(proposed_claim: str) -> str:
    """The provider's compact marker for a fact with a pending contradiction; the quoted claim is bounded."""
    claim = one_line(proposed_claim).replace('"', "'")
    if len(claim) > MAX_DISPUTE_CHARS:
        claim = claim[: MAX_DISPUTE_CHARS - 1].rstrip() + "…"
    return f'(may have changed: "{claim}", unconfirmed)'


def search_pattern(query: str) -> str:
    """A LIKE pattern that matches the query literally (its own % and _ escaped)."""
    cleaned = one_line(query)[:MAX_QUERY_CHARS]
    return cleaned.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


# --- page tokens: opaque to callers, a keyset position to us -------------------------------------------------


def encode_position(at: datetime, last_id: UUID) -> str:
    return base64.urlsafe_b64encode(f"{at.isoformat()}|{last_id}".encode()).decode().rstrip("=")


def decode_position(token: str) -> tuple[datetime, UUID] | None:
    """The (time, id) position of a page token; None for "" (the first page); InvalidInput when garbled."""
    if not token:
        return None
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
        at, last_id = raw.split("|", 1)
        parsed = datetime.fromisoformat(at)
        if parsed.tzinfo is None:
            raise ValueError("naive time")
        return parsed, UUID(last_id)
    except (ValueError, UnicodeDecodeError, binascii.Error):
        raise InvalidInput("page_token is not a token this service returned") from None
