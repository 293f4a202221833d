"""The read path: the facts that matter for this turn, ranked and formatted in two sections."""

from __future__ import annotations

import asyncio
import logging
from uuid import UUID

from factmemory.domain import fusion, language, turn
from factmemory.domain.errors import Unavailable
from factmemory.domain.models import Kind, ProvideInput, ProvideResult, ScoredFact
from factmemory.domain.provide_tuning import (
    DATE_SLACK,
    MIN_POOL,
    POOL_FACTOR,
    RARE_DF,
    RARE_FACTS,
    SHARED_MARK,
    TEXT_FLOOR,
    VECTOR_POOL,
)
from factmemory.domain.ranking import SELECTION, fill, same_claim, score, select, share, top
from factmemory.domain.relevance import query_terms, text_relevance, tsquery_terms
from factmemory.domain.render import render, render_shared
from factmemory.domain.shared import readable_subjects, refuse_subject, withheld
from factmemory.domain.vectors import Vector, weighted_centroid
from factmemory.ports import Similar
from factmemory.usecases.deps import Deps
from factmemory.usecases.stopwatch import Stopwatch

log = logging.getLogger(__name__)


async def provide(deps: Deps, request: ProvideInput) -> ProvideResult:
    """The facts most relevant to the turn (its signals fused: domain/fusion.py), ordered by
    relevance, confidence and time weight (ranking.py), in a durable and a current section. The turn's messages are
    weighed by domain/turn.py: the current message leads every signal."""
    refuse_subject(request.entity_id, request.agent_id, request.world_id)
    watch = Stopwatch()
    parts = turn.parts(request.recent_messages, str(request.agent_id))
    shared_ids = [s.subject_id for s in readable_subjects(request.agent_id, request.world_id)]
    # Which ids are recorded shared subjects is asked while the turn is embedded: the round trip costs no wait (the
    # "embed" stage holds both). Its own error (the database down: Unavailable) reaches the caller as it is.
    with watch.stage("embed"):
        asked = asyncio.ensure_future(
            deps.provide_store.shared_among(request.agent_id, [request.entity_id, *shared_ids])
        )
        try:
            got = await _embed(deps, parts) if parts else None
        except BaseException:
            asked.cancel()
            raise
        recorded = await asked
    refuse_subject(request.entity_id, request.agent_id, request.world_id, recorded)
    degraded_reason = ""
    vector: Vector | None = None
    pool = max(request.durable_limit, request.current_limit, request.total_limit) * POOL_FACTOR
    if got is None:  # no message: nothing was embedded
        with watch.stage("db"):
            found = await deps.provide_store.text_search(request.agent_id, request.entity_id, "", pool, pool)
        relevances = [1.0] * len(found)  # no query text: every fact is equally relevant
    else:
        texts = [p.text for p in parts]
        if isinstance(got, Unavailable):
            log.warning("embedder unavailable, ranking by full-text match: %s", got)
            degraded_reason = f"embedder unavailable ({got}); ranked by full-text match"
            terms = query_terms("\n".join(texts))
            with watch.stage("db"):
                found = await deps.provide_store.text_search(
                    request.agent_id, request.entity_id, " | ".join(tsquery_terms(terms)), pool, pool
                )
            relevances = [
                TEXT_FLOOR + (1.0 - TEXT_FLOOR) * t for t in text_relevance([s.fact.claim for s in found], terms)
            ]
        else:
            vector = got
            weights = turn.term_weights(parts)
            terms_of_turn = tuple(weights)
            spans = language.date_spans("\n".join(turn.dated_texts(parts)), request.now, DATE_SLACK)
            with watch.stage("db"):
                candidates = await deps.provide_store.provide_pool(
                    request.agent_id,
                    request.entity_id,
                    vector,
                    terms_of_turn,
                    max(VECTOR_POOL, pool, MIN_POOL),
                    RARE_DF,
                    RARE_FACTS,
                    spans,
                    replica_ok=True,
                )
            found = candidates.found
            relevances = fusion.relevance(
                fusion.Candidates(
                    facts=[s.fact for s in found],
                    similarities=[s.similarity for s in found],
                    terms=candidates.terms,
                    stats=candidates.stats,
                    turn_terms=weights,
                    spans=spans,
                )
            )
    near: list[ScoredFact] = []
    if request.world_id is not None and vector is not None:
        with watch.stage("db"):
            near = await shared_candidates(deps, request, vector, recorded)
    with watch.stage("rank"):
        durable, current, shared = _sections(deps, request, found, relevances, near)
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


async def _embed(deps: Deps, parts: list[turn.Part]) -> Vector | Unavailable:
    """The turn's query vector (the weighted sum of its messages' vectors); the embedder's failure as a value, so
    that the ranking can fall back to the turn's words."""
    try:
        return weighted_centroid(await deps.embedder.queries([p.text for p in parts]), [p.weight for p in parts])
    except Unavailable as exc:
        return exc


async def shared_candidates(
    deps: Deps, request: ProvideInput, vector: Vector, recorded: frozenset[UUID]
) -> list[ScoredFact]:
    """The shared facts of the turn's world and the agent-wide ones (never a held claim) at least
    SharedPolicy.min_similarity near the turn, scored as the person's facts are (ranking.score), best first."""
    pool = max(request.shared_limit * POOL_FACTOR, MIN_POOL)
    found: list[Similar] = []
    for subject in readable_subjects(request.agent_id, request.world_id, recorded):
        found += await deps.provide_store.nearest(
            request.agent_id, subject.subject_id, vector, pool, pool, replica_ok=True
        )
    decay = deps.tuning.current_decay_days
    near = [s for s in found if s.similarity >= deps.tuning.shared.min_similarity]
    # A pending contradiction's proposed claim may come from anyone: it never leaves in a shared fact.
    return top([score(withheld(s.fact), s.similarity, request.now, decay, SELECTION.modifier) for s in near], len(near))


SHARED = "shared"  # the shared section's key in one shared budget (beside Kind.DURABLE and Kind.CURRENT)
Sections = tuple[list[ScoredFact], list[ScoredFact], list[ScoredFact]]


def _sections(
    deps: Deps, request: ProvideInput, found: list[Similar], relevances: list[float], near: list[ScoredFact]
) -> Sections:
    """Durable, current and shared. total_limit > 0: the shared candidates (all past the shared floor, so each
    counts as relevant) compete with the person's facts for the one budget (ranking.share), shared_limit their
    maximum; else the person's sections are filled as before and the shared one on its own."""
    decay = deps.tuning.current_decay_days
    scored = [score(s.fact, r, request.now, decay, SELECTION.modifier) for s, r in zip(found, relevances, strict=True)]
    limits: dict[Kind | str, int] = {Kind.DURABLE: request.durable_limit, Kind.CURRENT: request.current_limit}
    if request.total_limit <= 0:
        fixed = select(scored, {kind: limits[kind] for kind in Kind}, SELECTION, same_claim)
        # The shared section on its own: its best candidates (`near` is best first), restatements taking one slot.
        return fixed[Kind.DURABLE], fixed[Kind.CURRENT], fill(near, request.shared_limit, same_claim)
    shared_ids = {s.fact.id for s in near}

    def section(s: ScoredFact) -> Kind | str:
        return SHARED if s.fact.id in shared_ids else s.fact.kind

    # No world (or no shared candidate): the shared section is empty and the person's sections are as before.
    limits[SHARED] = request.shared_limit
    sections = share([*scored, *near], request.total_limit, limits, same_claim, section, {SHARED: SHARED_MARK})
    return sections[Kind.DURABLE], sections[Kind.CURRENT], sections[SHARED]
