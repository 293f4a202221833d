"""Evaluate, phase 1: compose the one model call of a turn. Which messages are still to learn from, the stored facts
and possible-duplicate pairs the model is shown (with their handles), and the prompt; no model is called here."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, replace
from typing import Any
from uuid import UUID

from pydantic import Field

from factmemory.domain.dedup.planning import PAIR_TTL_REVISIONS, OpenPair, known_facts
from factmemory.domain.errors import InvalidInput
from factmemory.domain.extraction import strict_schema
from factmemory.domain.limits import MAX_PAIRS_SHOWN, RETRIEVE_PER_KIND
from factmemory.domain.models import ChatMessage, EvaluateInput, EvaluateResult, Fact, Frozen, Item, Kind
from factmemory.domain.prompts import Prompt, build_prompt
from factmemory.domain.shared import RETRIEVE_SHARED_PER_KIND, readable_subjects, refuse_subject
from factmemory.domain.vectors import Vector, centroid
from factmemory.ports import TurnStart
from factmemory.usecases.deps import Deps
from factmemory.usecases.stopwatch import Stopwatch


class Shown(Frozen):
    """What the model is shown for the messages still to learn from: everything the applying phase needs besides
    the reply. It is what an agent-model ticket keeps, so it is plain data."""

    turn: EvaluateInput  # the messages to learn from (earlier + message); those evaluated before are context
    handles: dict[str, Fact] = Field(default_factory=dict)  # D1, C2, ... -> the fact shown under it
    pairs: tuple[tuple[UUID, UUID], ...] = ()  # open possible-duplicate pairs shown, closed once the reply applied
    forget_epoch: int = 0  # read before anything was learned: a ForgetEntity since makes the turn write nothing
    # Open pairs of shared facts shown (subject, first, second): closed in their subject once the reply applied.
    shared_pairs: tuple[tuple[UUID, UUID, UUID], ...] = ()

    @property
    def batched(self) -> bool:
        return len(self.turn.messages) > 1

    def kept(self) -> Shown:
        """What a ticket keeps: the facts behind the handles without what applying never reads of them (their
        evidence ids, previous claims and fields: applying reads a fact's id, kind and category and re-reads the
        rest under the lock), so a ticket stays small and holds no more than it needs."""
        light: dict[str, Any] = {"evidence_message_ids": (), "previous_claims": (), "structured_fields": {}}
        return self.model_copy(update={"handles": {h: replace(f, **light) for h, f in self.handles.items()}})


@dataclass(frozen=True)
class Composed:
    """A model call ready to make: the prompt, and what applying its reply needs."""

    prompt: Prompt
    shown: Shown

    def schema(self) -> dict[str, Any]:
        """The JSON schema the reply must follow (strict structured output)."""
        return strict_schema(self.shown.turn.items, self.shown.batched, self.prompt.shared)


async def compose(
    deps: Deps, request: EvaluateInput, watch: Stopwatch
) -> tuple[dict[str, EvaluateResult], Composed | None]:
    """The stored results of the request's messages evaluated before (as replays), and the call for the others
    (None when every message was evaluated before)."""
    # The messages are embedded (for the facts shown to the model) while the store is read.
    refuse_subject(request.entity_id, request.agent_id, request.world_id)
    query = asyncio.ensure_future(_query(deps, request))
    try:
        with watch.stage("retrieve"):
            # Read before anything is learned: a ForgetEntity that completes meanwhile makes the turn write nothing.
            start = await deps.evaluate_store.turn_start(
                request.agent_id,
                request.entity_id,
                [*(m.id for m in request.messages), *context_ids(request)],
                MAX_PAIRS_SHOWN if Item.FACTS in request.items else 0,
                PAIR_TTL_REVISIONS,
                [request.entity_id, *(s.subject_id for s in readable_subjects(request.agent_id, request.world_id))],
            )
            refuse_subject(request.entity_id, request.agent_id, request.world_id, start.subjects)
            stored = replays(request, start.evaluations)
        pending = [m for m in request.messages if m.id not in stored]
        if not pending:
            return stored, None
        turn = _pending(request, pending, stored, deleted_ids(start.evaluations) | start.deleted)
        if len(pending) < len(request.messages):  # the query stands for the messages still to learn from
            _discard(query)
            query = asyncio.ensure_future(_query(deps, turn))
        durable, current, pairs, shared = await _known(deps, turn, start, watch, query)
    finally:
        _discard(query)
    limits = deps.tuning.limits.for_messages(len(turn.messages))
    prompt = build_prompt(
        turn.message,
        turn.recent_messages,
        durable,
        current,
        turn.items,
        turn.room_entities,
        turn.agent_responses,
        pairs,
        limits=limits,
        earlier=turn.earlier,
        shared=None if shared is None else shared[:2],
        shared_pairs=() if shared is None else shared[2],
    )
    shown = Shown(
        turn=turn,
        handles=prompt.handles,
        pairs=tuple((p.first.id, p.second.id) for p in pairs),
        shared_pairs=() if shared is None else tuple((p.first.entity_id, p.first.id, p.second.id) for p in shared[2]),
        forget_epoch=start.forget_epoch,
    )
    return stored, Composed(prompt, shown)


async def _query(deps: Deps, request: EvaluateInput) -> Vector | None:
    """The relevance query of the messages to learn from, embedded as the provider embeds a message (each on its
    own, so its cache serves both); several by their centroid. None when facts are not asked for."""
    if Item.FACTS not in request.items:
        return None
    vectors = await deps.embedder.queries([m.text.strip() for m in request.messages])
    return vectors[0] if len(vectors) == 1 else centroid(vectors)


def _discard(task: asyncio.Future[Vector | None]) -> None:
    """Cancels the task if it still runs; a failure it ended with is dropped (the call did not need it)."""
    if not task.done():
        task.cancel()
    elif not task.cancelled():
        task.exception()


def context_ids(request: EvaluateInput) -> list[str]:
    """The ids of the context messages a caller sent (recent messages, the agent's responses), to find those the
    service knows were deleted."""
    return [m.id for m in (*request.recent_messages, *request.agent_responses) if m.id]


def deleted_ids(evaluations: dict[str, tuple[UUID, EvaluateResult]]) -> set[str]:
    """The message ids, of those read, that are tombstones (ForgetMessages)."""
    return {message_id for message_id, (_, result) in evaluations.items() if result.forgotten}


def _pending(
    request: EvaluateInput, pending: Sequence[ChatMessage], stored: dict[str, EvaluateResult], deleted: set[str]
) -> EvaluateInput:
    """The request for the messages not evaluated yet; those that were become context. A message known deleted
    is never context, however it came back (a lagging client history, a cache, another process)."""
    done = [m for m in request.messages if m.id in stored and not stored[m.id].forgotten]
    recent = sorted([*request.recent_messages, *done], key=lambda m: m.created_at)
    return request.model_copy(
        update={
            "earlier": tuple(pending[:-1]),
            "message": pending[-1],
            "recent_messages": tuple(m for m in recent if m.id not in deleted),
            "agent_responses": tuple(m for m in request.agent_responses if m.id not in deleted),
        }
    )


async def _known(
    deps: Deps,
    request: EvaluateInput,
    start: TurnStart,
    watch: Stopwatch,
    query: Awaitable[Vector | None],
) -> tuple[list[Fact], list[Fact], list[OpenPair], SharedShown]:
    """The stored facts the model is shown: the nearest of each kind, the open possible-duplicate pairs, and the
    world's shared facts nearest the message (None when the message has no world)."""
    shared: SharedShown = None if request.world_id is None else ([], [], [])
    if Item.FACTS not in request.items:
        return [], [], [], None
    with watch.stage("embed"):  # what is left of it after the first read
        vector = await query
    if vector is None:  # pragma: no cover - facts are asked for (checked above)
        return [], [], [], None
    with watch.stage("retrieve"):
        similar = await deps.evaluate_store.nearest(
            request.agent_id, request.entity_id, vector, RETRIEVE_PER_KIND, RETRIEVE_PER_KIND
        )
        if shared is not None:
            shared = await _shared_known(deps, request, vector, start.subjects)
    return (
        *known_facts(
            [s.fact for s in similar if s.fact.kind is Kind.DURABLE],
            [s.fact for s in similar if s.fact.kind is Kind.CURRENT],
            start.open_pairs,
            RETRIEVE_PER_KIND,
        ),
        shared,
    )


SharedShown = tuple[list[Fact], list[Fact], list[OpenPair]] | None


async def _shared_known(
    deps: Deps, request: EvaluateInput, vector: Vector, recorded: frozenset[UUID]
) -> tuple[list[Fact], list[Fact], list[OpenPair]]:
    """The shared facts nearest the message, of its world and agent-wide, per kind (nearest first), and their open
    possible-duplicate pairs for a speaker trusted to merge them (a pair is shown once: nobody else's turn closes
    it). Held claims (domain/shared.py) are never read here: nobody's prompt shows them."""
    found, pairs = [], []
    trusted = deps.tuning.shared.trusts(request.speaker_roles)
    for subject in readable_subjects(request.agent_id, request.world_id, recorded):
        found += await deps.evaluate_store.nearest(
            request.agent_id, subject.subject_id, vector, RETRIEVE_SHARED_PER_KIND, RETRIEVE_SHARED_PER_KIND
        )
        if trusted:
            pairs += await deps.evaluate_store.open_pairs(
                request.agent_id, subject.subject_id, MAX_PAIRS_SHOWN, PAIR_TTL_REVISIONS
            )
    found.sort(key=lambda s: (-s.similarity, str(s.fact.id)))
    return known_facts(
        [s.fact for s in found if s.fact.kind is Kind.DURABLE],
        [s.fact for s in found if s.fact.kind is Kind.CURRENT],
        pairs,
        RETRIEVE_SHARED_PER_KIND,
    )


def replays(request: EvaluateInput, found: dict[str, tuple[UUID, EvaluateResult]]) -> dict[str, EvaluateResult]:
    """The stored results of the request's messages evaluated before (by any call), as replays."""
    return {m.id: replay(m.id, found[m.id], request.entity_id) for m in request.messages if m.id in found}


def replay(message_id: str, stored: tuple[UUID, EvaluateResult], entity_id: UUID) -> EvaluateResult:
    """A message's stored result as a replay for `entity_id`; one evaluated for another person is refused, never
    shown (message ids are unique per agent on one PostgreSQL: the id is someone else's message)."""
    evaluated_for, result = stored
    if evaluated_for != entity_id:
        raise InvalidInput(f"message {message_id!r} was already evaluated for another entity; ids must be unique")
    return result.as_replay()
