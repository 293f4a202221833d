"""Relevance on [0, 1] for Provide's candidate pool: a list of signals, each fused by its weight. Pure.

A signal is a name, a weight (domain/provide_tuning.py) and a function from the candidate pool (`Candidates`) to one
value on [0, 1] per fact, in the pool's order. A fact's relevance is the weighted mean of its signals' values. A
signal marked `optional` counts only for a turn where it gives some fact a value above 0: a turn naming no time is
ranked by the other signals alone, averaged alike.

Adding a computed signal: write its function here, add it to SIGNALS, and its weight to provide_tuning.py
(docs/read-path.md, "Adding a ranking signal").
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from factmemory.domain import bm25
from factmemory.domain.models import Fact
from factmemory.domain.provide_tuning import DATED_WEIGHT, LEXICAL_WEIGHT, VECTOR_WEIGHT

Span = tuple[datetime, datetime]


@dataclass(frozen=True)
class Candidates:
    """Provide's candidate pool as the signals read it: each fact with its cosine to the turn and its content terms
    (in the same order); the person's term statistics; the turn's content terms, each with its weight
    (domain/turn.py); and the times the turn names (language.date_spans)."""

    facts: Sequence[Fact]
    similarities: Sequence[float]
    terms: Sequence[Sequence[str]]
    stats: bm25.Stats
    turn_terms: Mapping[str, float]
    spans: Sequence[Span]


@dataclass(frozen=True)
class Signal:
    """One ranking signal: its name, its weight in the mean, and each fact's value on [0, 1]."""

    name: str
    weight: float
    values: Callable[[Candidates], Sequence[float]]
    optional: bool = False  # counted only when it gives some fact a value above 0


def vector(pool: Candidates) -> list[float]:
    """The cosine stretched between the pool's median (0: "unrelated to this turn") and its best (1): the local
    embedder squeezes unrelated and related pairs into 0.75-0.95."""
    best, floor = max(pool.similarities), statistics.median(pool.similarities)
    spread = best - floor
    return [min(1.0, max(0.0, (s - floor) / spread)) if spread > 1e-9 else 1.0 for s in pool.similarities]


def lexical(pool: Candidates) -> list[float]:
    """BM25 over the person's facts (domain/bm25.py), each term weighed as the turn weighs it, over the pool's best."""
    scores = bm25.scores(tuple(pool.turn_terms), pool.terms, pool.stats, pool.turn_terms)
    top = max(scores, default=0.0)
    return [x / top if top > 0 else 0.0 for x in scores]


def dated(pool: Candidates) -> list[float]:
    """1 for a fact of a time the turn names (its valid_at, else created_at, within a span), else 0."""
    if not pool.spans:
        return [0.0] * len(pool.facts)
    return [1.0 if _within(fact, pool.spans) else 0.0 for fact in pool.facts]


def _within(fact: Fact, spans: Sequence[Span]) -> bool:
    at = fact.valid_at or fact.created_at
    return any(start <= at < end for start, end in spans)


SIGNALS: tuple[Signal, ...] = (
    Signal("vector", VECTOR_WEIGHT, vector),
    Signal("lexical", LEXICAL_WEIGHT, lexical),
    Signal("dated", DATED_WEIGHT, dated, optional=True),
)


def relevance(pool: Candidates, signals: Sequence[Signal] = SIGNALS) -> list[float]:
    """Each fact's relevance on [0, 1]: the weighted mean of the signals that count for this turn."""
    if not pool.facts:
        return []
    counted = []
    for signal in signals:
        values = signal.values(pool)
        if not signal.optional or any(v > 0.0 for v in values):
            counted.append((signal.weight, values))
    total = sum(weight for weight, _ in counted)
    columns = [values for _, values in counted]
    weights = [weight for weight, _ in counted]
    return [sum(w * v for w, v in zip(weights, row, strict=True)) / total for row in zip(*columns, strict=True)]
