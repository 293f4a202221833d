"""Every question's candidate pool, recorded during a recall run, so rankings can be compared without a replay.

`factmemory-recall --dump-pools pools.json` writes, per variant, the stored facts and, per question, the pool
of Provide's store query (the hybrid query, with every word of the turn looked up, so that rankings using
fewer words can be replayed) with each fact's cosine, plus the cosine top-12 ids. `rerank.py` replays Provide's
ranking over these pools with any `Weights`.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from factmemory.domain.limits import MIN_POOL, PER_TERM, POOL_FACTOR
from factmemory.domain.models import Fact, Kind
from factmemory.domain.relevance import query_terms, tsquery_terms
from factmemory.domain.vectors import centroid
from factmemory.ports import Similar
from factmemory.usecases.deps import Deps

LIMIT = 6
POOL = max(LIMIT * POOL_FACTOR, MIN_POOL)


@dataclass
class Pools:
    """variant -> {"facts": {id: fact json}, "questions": [...]}; decay_days from the service's tuning."""

    variants: dict[str, dict[str, Any]] = field(default_factory=dict)
    decay_days: float = 0.0

    async def record(
        self,
        deps: Deps,
        variant: str,
        entity: str,
        question: dict[str, Any],
        evidence: Sequence[tuple[str, str]],
        cosine_rows: Sequence[Any],
    ) -> None:
        self.decay_days = deps.tuning.current_decay_days
        vector = centroid(await deps.embedder.queries([question["text"]]))
        found = await deps.store.hybrid(
            uuid.UUID(self.variants[variant]["agent_id"]),
            uuid.UUID(entity),
            vector,
            POOL,
            POOL,
            tsquery_terms(query_terms(question["text"])),
            PER_TERM,
            replica_ok=True,
        )
        store = self.variants[variant]
        for similar in found:
            store["facts"].setdefault(str(similar.fact.id), similar.fact.model_dump(mode="json"))
        store["questions"].append(
            {
                "id": question["id"],
                "type": question["type"],
                "text": question["text"],
                "asked_at": question["asked_at"],
                "evidence": [list(e) for e in evidence],
                "cosine": [str(r["id"]) for r in cosine_rows],
                "pool": [[str(s.fact.id), s.similarity] for s in found],
            }
        )

    def start(self, variant: str, agent_id: str) -> None:
        self.variants[variant] = {"agent_id": agent_id, "facts": {}, "questions": []}

    def write(self, path: Path) -> None:
        path.write_text(json.dumps({"decay_days": self.decay_days, "variants": self.variants}), encoding="utf-8")


@dataclass(frozen=True)
class Question:
    """One recorded question, its pool rebuilt as the store returned it."""

    id: str
    type: str
    text: str
    asked_at: str
    evidence: tuple[tuple[str, str], ...]
    cosine: tuple[str, ...]
    pool: tuple[Similar, ...]

    def nearest(self) -> list[Similar]:
        """The vector-only pool (the store's `nearest`): the best POOL of each kind by cosine."""
        out: list[Similar] = []
        for kind in Kind:
            same = [s for s in self.pool if s.fact.kind is kind]
            out += sorted(same, key=lambda s: (-s.similarity, str(s.fact.id)))[:POOL]
        return out


def load(path: Path) -> tuple[float, dict[str, list[Question]]]:
    """decay_days and, per variant, its questions."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    out: dict[str, list[Question]] = {}
    for name, variant in raw["variants"].items():
        facts = {i: Fact.model_validate(f) for i, f in variant["facts"].items()}
        out[name] = [
            Question(
                id=q["id"],
                type=q["type"],
                text=q["text"],
                asked_at=q["asked_at"],
                evidence=tuple((e[0], e[1]) for e in q["evidence"]),
                cosine=tuple(q["cosine"]),
                pool=tuple(Similar(facts[i], float(sim)) for i, sim in q["pool"]),
            )
            for q in variant["questions"]
        ]
    return float(raw["decay_days"]), out
