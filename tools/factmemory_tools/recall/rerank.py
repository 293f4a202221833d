"""Re-rank recorded pools (pools.py) with Provide's code and any `Weights`, in seconds instead of a replay.

    .venv/bin/factmemory-recall --dump-pools /tmp/pools.json        # once (a full run)
    PYTHONPATH=tools .venv/bin/python -m factmemory_tools.recall.rerank /tmp/pools.json

Provide runs unchanged over a store that answers with the recorded pool: the run records the pool for every
word of the turn, and the store gives Provide the vector candidates plus the recorded facts matching the words
it asks for (exact unless a word is in more than PER_TERM facts, when the run's id-ordered cap would have
chosen). The cosine top-12 column is the one recorded in the run. The pools hold no word statistics of the
person's facts, so the lexical evidence (round two) is switched off here: every ranking runs with `lexical=0`.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import uuid
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from factmemory.domain.limits import Limits
from factmemory.domain.models import ChatMessage, ProvideInput
from factmemory.domain.ranking import Weights
from factmemory.domain.relevance import Term, words
from factmemory.ports import Matrix, Similar
from factmemory.usecases.deps import Deps, Tuning
from factmemory_tools.recall.pools import LIMIT, Question, load
from factmemory_tools.recall.run import ABLATION, Scores


class _PoolStore:
    """Answers Provide's store calls with one question's recorded pool."""

    def __init__(self) -> None:
        self.question: Question | None = None

    def _q(self) -> Question:
        assert self.question is not None
        return self.question

    async def hybrid(self, *args: Any, **kwargs: Any) -> list[Similar]:
        """The vector candidates plus the recorded facts matching the words asked for (args[5])."""
        terms = [Term(t.removesuffix(":*"), prefix=t.endswith(":*")) for t in args[5]]
        nearest = {s.fact.id for s in self._q().nearest()}
        return [s for s in self._q().pool if s.fact.id in nearest or _matches(s.fact.claim, terms)]

    async def nearest(self, *args: Any, **kwargs: Any) -> list[Similar]:
        return self._q().nearest()


def _matches(claim: str, terms: Sequence[Term]) -> bool:
    return any(t.matches(w) for t in terms for w in words(claim))


class _Embedder:
    async def queries(self, texts: Sequence[str]) -> Matrix:
        return np.ones((len(texts), 4), dtype=np.float32)


def _deps(store: _PoolStore, decay_days: float, weights: Weights) -> Deps:
    limits = Limits.__new__(Limits)  # Provide reads no limit
    tuning = Tuning(limits=limits, dedup_threshold=0.0, current_decay_days=decay_days, ranking=weights)
    return Deps(store=store, embedder=_Embedder(), extractor=None, tuning=tuning)  # type: ignore[arg-type]


async def rank(questions: Sequence[Question], decay_days: float, weights: Weights) -> Scores:
    """Provide's 6 + 6 over every recorded pool, scored as in the run."""
    from factmemory.usecases.provide import provide

    store = _PoolStore()
    deps = _deps(store, decay_days, dataclasses.replace(weights, lexical=0.0))
    scores = Scores()
    for q in questions:
        store.question = q
        asked = datetime.fromisoformat(q.asked_at)
        request = ProvideInput(
            agent_id=uuid.uuid4(),
            entity_id=uuid.uuid4(),
            room_id=None,
            now=asked,
            recent_messages=(ChatMessage(id=q.id, text=q.text, created_at=asked),),
            durable_limit=LIMIT,
            current_limit=LIMIT,
        )
        result = await provide(deps, request)
        shown = sorted([*result.durable, *result.current], key=lambda s: (-s.score, str(s.fact.id)))
        scores.add(
            q.type,
            q.evidence,
            [str(s.fact.id) for s in shown],
            {"durable": [str(s.fact.id) for s in result.durable], "current": [str(s.fact.id) for s in result.current]},
        )
    return scores


def cosine(questions: Sequence[Question]) -> Scores:
    scores = Scores()
    for q in questions:
        scores.add(q.type, q.evidence, list(q.cosine), None)
    return scores


def line(label: str, s: Scores) -> str:
    summary = s.summary()
    types = " ".join(f"{t[:8]}={v:.1f}" for t, v in summary["by_type"].items())
    return (
        f"{label:45s} {summary['recall@12']:5.1f} d{summary['durable@6']:5.1f} c{summary['current@6']:5.1f} "
        f"mrr {summary['mrr'] / 100:.3f} | {types}"
    )


async def main_async(path: Path) -> None:
    decay_days, variants = load(path)
    for name, questions in variants.items():
        print(f"== {name}")
        print(line("cosine top-12", cosine(questions)))
        for label, weights in ABLATION:
            print(line(label, await rank(questions, decay_days, weights)))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="factmemory_tools.recall.rerank", description=__doc__)
    parser.add_argument("pools", type=Path)
    args = parser.parse_args(argv)
    asyncio.run(main_async(args.pools))


if __name__ == "__main__":
    main()
