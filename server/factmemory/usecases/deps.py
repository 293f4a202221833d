"""The collaborators of the use-cases, handed over as one typed bundle."""

from __future__ import annotations

from dataclasses import dataclass, field

from factmemory.domain.limits import Limits
from factmemory.domain.ranking import Weights
from factmemory.ports import Embedder, Extractor, FactStore, NullTelemetry, Telemetry
from factmemory.usecases.stopwatch import StageLog

RETRIEVE_PER_KIND = 15


@dataclass(frozen=True)
class Tuning:
    """Model-dependent numbers and every limit, from settings (their one home; no defaults here)."""

    limits: Limits
    dedup_threshold: float
    current_decay_days: float
    # The provider's ranking is code, not configuration (docs/recall.md); replaced only to measure its parts.
    ranking: Weights = field(default_factory=Weights)


@dataclass(frozen=True)
class Deps:
    store: FactStore
    embedder: Embedder
    extractor: Extractor | None
    tuning: Tuning
    # Per-call stage timings (embed, retrieve, llm, ...); the benchmark reads them, nothing on the request path.
    stages: StageLog = field(default_factory=StageLog)
    # Counters and timings for the metrics endpoint (NullTelemetry when metrics are off).
    telemetry: Telemetry = field(default_factory=NullTelemetry)
