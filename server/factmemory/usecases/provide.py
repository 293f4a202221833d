"""The read path: the facts that matter for this turn, ranked and formatted in two sections."""

from __future__ import annotations

import logging

import numpy as np

from factmemory.domain.errors import Unavailable
from factmemory.domain.models import Kind, ProvideInput, ProvideResult
from factmemory.domain.ranking import score, top
from factmemory.domain.render import render
from factmemory.ports import Matrix, Similar, Vector
from factmemory.usecases.deps import Deps
from factmemory.usecases.stages import Stopwatch

log = logging.getLogger(__name__)

QUERY_MESSAGES = 5
POOL_FACTOR = 4
MIN_POOL = 24


def query_texts(request: ProvideInput) -> list[str]:
    """The last five non-empty messages: what the turn is about."""
    texts = [m.text.strip() for m in request.recent_messages if m.text.strip()]
    return texts[-QUERY_MESSAGES:]


def centroid(vectors: Matrix) -> Vector:
    """The normalized mean of unit vectors: one query for several messages.

    Each message is embedded on its own (and cached), so a turn embeds only its new message instead of
    re-embedding the five joined; the mean stands for the joined text."""
    mean = vectors.mean(axis=0)
    norm = float(np.linalg.norm(mean))
    return np.asarray(mean / norm if norm > 0 else vectors[-1], dtype=np.float32)


async def provide(deps: Deps, request: ProvideInput) -> ProvideResult:
    """Top durable and current facts by relevance x confidence x time weight."""
    watch = Stopwatch()
    durable_pool = max(request.durable_limit * POOL_FACTOR, MIN_POOL)
    current_pool = max(request.current_limit * POOL_FACTOR, MIN_POOL)
    texts = query_texts(request)
    query = "\n".join(texts)
    degraded_reason = ""
    if not query:
        with watch.stage("db"):
            candidates = _uniform(await deps.store.text_search(
                request.agent_id, request.entity_id, "", durable_pool, current_pool))
    else:
        try:
            with watch.stage("embed"):
                vector = centroid(await deps.embedder.queries(texts))
        except Unavailable as exc:
            log.warning("embedder unavailable, ranking by full-text match: %s", exc)
            degraded_reason = f"embedder unavailable ({exc}); ranked by full-text match"
            with watch.stage("db"):
                candidates = _text_relevance(await deps.store.text_search(
                    request.agent_id, request.entity_id, query, durable_pool, current_pool))
        else:
            with watch.stage("db"):
                candidates = await deps.store.nearest(
                    request.agent_id, request.entity_id, vector, durable_pool, current_pool, replica_ok=True)
    with watch.stage("rank"):
        scored = [score(c.fact, c.similarity, request.now, deps.tuning.current_decay_days) for c in candidates]
        durable = top((s for s in scored if s.fact.kind is Kind.DURABLE), request.durable_limit)
        current = top((s for s in scored if s.fact.kind is Kind.CURRENT), request.current_limit)
        text = render(durable, current, request.subject_name, request.now)
    deps.stages.record("provide", watch)
    return ProvideResult(
        text=text,
        durable=tuple(durable),
        current=tuple(current),
        degraded=bool(degraded_reason),
        degraded_reason=degraded_reason,
    )


def _uniform(found: list[Similar]) -> list[Similar]:
    """No query text: every fact is equally relevant; confidence and time weight decide."""
    return [Similar(s.fact, 1.0) for s in found]


def _text_relevance(found: list[Similar]) -> list[Similar]:
    """Full-text rank mapped onto [0.5, 1]: matching facts first, the others still eligible."""
    best = max((s.similarity for s in found), default=0.0)
    if best <= 0:
        return _uniform(found)
    return [Similar(s.fact, 0.5 + 0.5 * s.similarity / best) for s in found]

