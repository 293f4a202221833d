"""The collaborators of the use-cases, handed over as one typed bundle."""

from __future__ import annotations

from dataclasses import dataclass, field

from factmemory.embedder import Embedder
from factmemory.extractor import Extractor
from factmemory.ops import Limits
from factmemory.store import Store

RETRIEVE_PER_KIND = 15


@dataclass(frozen=True)
class Tuning:
    """Model-dependent numbers, from settings."""

    dedup_threshold: float = 0.85
    current_decay_days: float = 14.0
    limits: Limits = field(default_factory=Limits)


@dataclass(frozen=True)
class Deps:
    store: Store
    embedder: Embedder
    extractor: Extractor | None
    tuning: Tuning = field(default_factory=Tuning)
