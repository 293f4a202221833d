"""A fact about to be stored, and the one builder of it (learned from a message, added by hand, kept beside a
contradicted fact, or imported)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from factmemory.domain.models import Kind, Verification
from factmemory.domain.vectors import Vector


@dataclass(frozen=True)
class NewFact:
    """Everything needed to insert one fact."""

    kind: Kind
    category: str
    claim: str
    structured_fields: dict[str, Any]
    confidence: float
    message_id: str
    verification: Verification
    at: datetime
    valid_at: datetime | None
    embedding: Vector
    embedding_model: str
    # Set for facts imported from elsewhere: a second import of the same source id adds nothing.
    import_source_id: str | None = None


def new_fact(
    kind: Kind,
    category: str,
    claim: str,
    *,
    confidence: float,
    evidence: str,
    verification: Verification,
    at: datetime,
    embedding: Vector,
    embedding_model: str,
    structured_fields: dict[str, Any] | None = None,
    valid_at: datetime | None = None,
    import_source_id: str | None = None,
) -> NewFact:
    """A new fact first seen `at`, with `evidence` (a message id, or who added it) as its first support.

    Only a current fact has a validity time: the given one, else `at`; a durable fact never has one."""
    return NewFact(
        kind=kind,
        category=category,
        claim=claim,
        structured_fields=dict(structured_fields or {}),
        confidence=confidence,
        message_id=evidence,
        verification=verification,
        at=at,
        valid_at=(valid_at or at) if kind is Kind.CURRENT else None,
        embedding=embedding,
        embedding_model=embedding_model,
        import_source_id=import_source_id,
    )
