"""A fact about to be stored, and the one builder of it (learned from a message, added by hand, kept beside a
contradicted fact, or imported)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np

from factmemory.domain.language import content_terms
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
    # What Provide searches the fact by besides its claim (migration 0072): the unit mean of the claim's vector and
    # its source message's (None: the claim's), and the message's content terms the claim lacks.
    search_embedding: Vector | None = None
    source_terms: tuple[str, ...] = ()


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
    search_embedding: Vector | None = None,
    source_terms: tuple[str, ...] = (),
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
        search_embedding=search_embedding,
        source_terms=source_terms,
    )


@dataclass(frozen=True)
class Searched:
    """What Provide searches a fact learned from a message by, besides its claim (migration 0072)."""

    vector: Vector | None  # None: the claim's own; else the mean of two unit vectors (Provide takes its inner product)
    terms: tuple[str, ...]  # the message's content terms the claim lacks

    @classmethod
    def by_claim(cls) -> Searched:
        return cls(None, ())


def searched(claim: str, claim_vector: Vector, source: str, source_vector: Vector | None) -> Searched:
    """A fact is searched by what it says and by what the person said: the mean of the claim's vector and its source
    message's (the message as the turn's read embedded it, a query vector: no embedding of its own), whose inner
    product with a turn's unit vector is the mean of the two cosines, and the content terms of the message's bounded
    excerpt that the claim lacks. The model's claim is a paraphrase; a later question echoes the person's words
    ("What do Melanie's kids like?" against the message "...the kids loved roasting marshmallows", whose claim says
    "went camping with her family").

    Equal weights, tuned on locomo-tune (docs/recall.md, "The person's own words": the claim's cosine weighing 0.3 /
    0.5 / 0.7 gave 0.731 / 0.735 / 0.732 recall@12 with the message's passage vector; the cosine of the two vectors'
    unit mean 0.727; the message's terms alone +2.1 points; its query vector, kept because it costs nothing, 0.734)."""
    if source_vector is None or not source.strip():
        return Searched.by_claim()
    own = set(content_terms(claim))
    terms = tuple(t for t in content_terms(source) if t not in own)
    return Searched(np.asarray((claim_vector + source_vector) / 2.0, dtype=np.float32), terms)
