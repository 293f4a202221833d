"""The read path: the facts that matter for this turn, ranked and formatted in two sections."""

from __future__ import annotations

import logging

from factmemory.domain.errors import Unavailable
from factmemory.domain.limits import HOP_SEEDS, RARE_DF, RARE_TERMS
from factmemory.domain.limits import MIN_POOL as MIN_POOL  # re-exported: the recall tool names them here
from factmemory.domain.limits import PER_TERM as PER_TERM
from factmemory.domain.limits import POOL_FACTOR as POOL_FACTOR
from factmemory.domain.models import Kind, ProvideInput, ProvideResult, ScoredFact
from factmemory.domain.ranking import Weights, same_claim, score, select, top
from factmemory.domain.relevance import (
    Term,
    fuse,
    names,
    query_terms,
    stretched,
    text_relevance,
    tsquery_terms,
)
from factmemory.domain.render import render, render_shared
from factmemory.domain.shared import readable_subjects, withheld
from factmemory.domain.vectors import centroid
from factmemory.ports import Hop, Similar, Vector
from factmemory.usecases.deps import Deps
from factmemory.usecases.stopwatch import Stopwatch

log = logging.getLogger(__name__)

QUERY_MESSAGES = 5


def query_texts(request: ProvideInput) -> list[str]:
    """The last five non-empty messages: what the turn is about."""
    texts = [m.text.strip() for m in request.recent_messages if m.text.strip()]
    return texts[-QUERY_MESSAGES:]


async def provide(deps: Deps, request: ProvideInput) -> ProvideResult:
    """Top durable and current facts by relevance, then confidence and time weight (see ranking.py)."""
    watch = Stopwatch()
    weights = deps.tuning.ranking
    durable_pool = max(request.durable_limit * POOL_FACTOR, MIN_POOL)
    current_pool = max(request.current_limit * POOL_FACTOR, MIN_POOL)
    texts = query_texts(request)
    query = "\n".join(texts)
    terms = query_terms(query)
    degraded_reason = ""
    vector: Vector | None = None
    if not query:
        with watch.stage("db"):
            found = await deps.store.text_search(request.agent_id, request.entity_id, "", durable_pool, current_pool)
        relevances = [1.0] * len(found)  # no query text: every fact is equally relevant
    else:
        try:
            with watch.stage("embed"):
                vector = centroid(await deps.embedder.queries(texts))
        except Unavailable as exc:
            log.warning("embedder unavailable, ranking by full-text match: %s", exc)
            degraded_reason = f"embedder unavailable ({exc}); ranked by full-text match"
            with watch.stage("db"):
                found = await deps.store.text_search(
                    request.agent_id, request.entity_id, " | ".join(tsquery_terms(terms)), durable_pool, current_pool
                )
            relevances = _text_only(found, terms)
        else:
            fused = fused_terms(terms, weights)
            with watch.stage("db"):
                if weights.lexical > 0:
                    found = await deps.store.lexical(
                        request.agent_id,
                        request.entity_id,
                        vector,
                        durable_pool,
                        current_pool,
                        query,
                        RARE_DF,
                        RARE_TERMS,
                        Hop(seeds=HOP_SEEDS if weights.link > 0 else 0),
                        replica_ok=True,
                    )
                elif fused:
                    found = await deps.store.hybrid(
                        request.agent_id,
                        request.entity_id,
                        vector,
                        durable_pool,
                        current_pool,
                        tsquery_terms(fused),
                        PER_TERM,
                        replica_ok=True,
                    )
                else:
                    found = await deps.store.nearest(
                        request.agent_id, request.entity_id, vector, durable_pool, current_pool, replica_ok=True
                    )
            relevances = _fused(found, fused, weights)
    with watch.stage("rank"):
        decay = deps.tuning.current_decay_days
        scored = [
            score(s.fact, r, request.now, decay, weights.modifier) for s, r in zip(found, relevances, strict=True)
        ]
        limits = {Kind.DURABLE: request.durable_limit, Kind.CURRENT: request.current_limit}
        sections = select(scored, limits, weights, same_claim if weights.dedup else None)
        durable, current = sections[Kind.DURABLE], sections[Kind.CURRENT]
    shared = []
    if request.world_id is not None and vector is not None:
        with watch.stage("db"):
            shared = await shared_section(deps, request, vector)
    with watch.stage("render"):
        text = "\n".join(
            t for t in (render(durable, current, request.subject_name, request.now), render_shared(shared)) if t
        )
    deps.stages.record("provide", watch)
    return ProvideResult(
        text=text,
        durable=tuple(durable),
        current=tuple(current),
        degraded=bool(degraded_reason),
        degraded_reason=degraded_reason,
        shared=tuple(shared),
    )


async def shared_section(deps: Deps, request: ProvideInput, vector: Vector) -> list[ScoredFact]:
    """The third section: the shared facts of the turn's world and the agent-wide ones (never a held claim), those
    at least SharedPolicy.min_similarity near the turn, scored as the person's facts are (ranking.score) and the
    best shared_limit kept, restatements taking one slot. Empty when nothing shared is near the turn."""
    pool = max(request.shared_limit * POOL_FACTOR, MIN_POOL)
    found: list[Similar] = []
    for subject in readable_subjects(request.agent_id, request.world_id):
        found += await deps.store.nearest(request.agent_id, subject.subject_id, vector, pool, pool, replica_ok=True)
    weights, decay = deps.tuning.ranking, deps.tuning.current_decay_days
    near = [s for s in found if s.similarity >= deps.tuning.shared.min_similarity]
    # A pending contradiction's proposed claim may come from anyone: it never leaves in a shared fact.
    scored = [score(withheld(s.fact), s.similarity, request.now, decay, weights.modifier) for s in near]
    chosen: list[ScoredFact] = []
    for candidate in top(scored, len(scored)):
        if len(chosen) < request.shared_limit and not any(
            same_claim(candidate.fact.claim, c.fact.claim) for c in chosen
        ):
            chosen.append(candidate)
    return chosen


def fused_terms(terms: tuple[Term, ...], weights: Weights) -> tuple[Term, ...]:
    """The words looked up and fused with the vector search: the names and numbers (relevance.py), or none."""
    if weights.text_weight <= 0:
        return ()
    return names(terms) if weights.text_names_only else terms


def _fused(found: list[Similar], terms: tuple[Term, ...], weights: Weights) -> list[float]:
    cosines = [s.similarity for s in found]
    vector = stretched(cosines) if weights.stretch else cosines
    if weights.lexical > 0:
        fused = [fuse(v, s.lexical, weights.lexical) for v, s in zip(vector, found, strict=True)]
        return hopped(found, fused, weights.link)
    if not terms:
        return vector
    text = text_relevance([s.fact.claim for s in found], terms)
    return [fuse(v, t, weights.text_weight) for v, t in zip(vector, text, strict=True)]


def hopped(found: list[Similar], relevances: list[float], link: float) -> list[float]:
    """A fact reached through a seed (Similar.via) is at least `link` x the seed's relevance: "my aunt" finds
    "has an aunt called Radomir", whose rare word "Radomir" brings "Radomir is training for an ironman"."""
    if link <= 0:
        return relevances
    by_id = {s.fact.id: r for s, r in zip(found, relevances, strict=True)}
    return [
        max(r, link * by_id.get(s.via, 0.0)) if s.via is not None else r for s, r in zip(found, relevances, strict=True)
    ]


def _text_only(found: list[Similar], terms: tuple[Term, ...]) -> list[float]:
    """Embedder down: relevance from the words alone, on [0.5, 1] so unmatched facts stay eligible."""
    return [0.5 + 0.5 * t for t in text_relevance([s.fact.claim for s in found], terms)]
