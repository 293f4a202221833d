"""The collaborators of the use-cases, handed over as one typed bundle."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from factmemory.domain.limits import Limits
from factmemory.domain.shared import SharedPolicy
from factmemory.domain.tickets import TicketPolicy
from factmemory.ports import (
    AgentStore,
    BrowseStore,
    BulkStore,
    Embedder,
    EvaluateStore,
    Extractor,
    MessageStore,
    NullTelemetry,
    ProvideStore,
    ReviewStore,
    Telemetry,
    TicketStore,
)
from factmemory.usecases.stopwatch import StageLog


@dataclass(frozen=True)
class Tuning:
    """Model-dependent numbers and every limit, from settings (their one home; no defaults here)."""

    limits: Limits
    dedup_threshold: float
    current_decay_days: float
    # Who may teach shared facts, and where they go (FACTMEMORY_SHARED_*).
    shared: SharedPolicy = field(default_factory=SharedPolicy)


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class AgentModel:
    """The agent-model mode's tickets: where they live, their bounds, and the clock that expires them."""

    tickets: TicketStore
    policy: TicketPolicy
    clock: Callable[[], datetime] = utc_now


@dataclass(frozen=True)
class Deps:
    # The fact store, one port per use-case (the service passes one adapter as all five).
    evaluate_store: EvaluateStore
    provide_store: ProvideStore
    review_store: ReviewStore
    browse_store: BrowseStore
    bulk_store: BulkStore
    embedder: Embedder
    extractor: Extractor | None
    tuning: Tuning
    # Per-call stage timings (embed, retrieve, llm, ...); the benchmark reads them, nothing on the request path.
    stages: StageLog = field(default_factory=StageLog)
    # Counters and timings for the metrics endpoint (NullTelemetry when metrics are off).
    telemetry: Telemetry = field(default_factory=NullTelemetry)
    # PrepareEvaluation / CompleteEvaluation (None: those RPCs answer FAILED_PRECONDITION).
    agent_model: AgentModel | None = None
    # Deleted messages (ForgetMessages) and agents by name; None where a caller builds Deps without them.
    messages: MessageStore | None = None
    agents: AgentStore | None = None
