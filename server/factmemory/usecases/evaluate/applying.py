"""Evaluate, phase 2: apply the model's reply. Each op validated against what the model was shown (handles confine
it to those facts), the adds embedded and planned against their neighbours with no lock held, then one transaction
under the per-entity lock: each message claimed once, the adds re-planned when another write landed meanwhile,
every op written (writes.py), the shown pairs closed, the edges and the results stored."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from uuid import UUID

from factmemory.domain.attribution import screen_adds
from factmemory.domain.dedup.planning import PAIR_TTL_REVISIONS, AddPlan, Neighbour, plan_adds
from factmemory.domain.excerpts import excerpt
from factmemory.domain.extraction import ExtractionReply
from factmemory.domain.forgetting import check_not_forgotten
from factmemory.domain.limits import DEDUP_NEIGHBOURS, Limits
from factmemory.domain.models import AppliedOp, ChatMessage, EvaluateResult, Kind, Usage
from factmemory.domain.new_fact import Searched, searched
from factmemory.domain.ops import (
    Planned,
    PlannedAdd,
    clean_text,
    message_index,
    plan_identities,
    plan_ops,
    plan_relationships,
)
from factmemory.domain.shared import SharedSubject, ops_subjects, readable_subjects, scope_ops, subject_order
from factmemory.domain.vectors import Matrix, Vector
from factmemory.ports import WriteContext, WriteTransaction
from factmemory.usecases.deps import Deps
from factmemory.usecases.evaluate.prompting import Shown
from factmemory.usecases.evaluate.results import dropped_of, stored_form, success_of
from factmemory.usecases.evaluate.writes import apply_all
from factmemory.usecases.stopwatch import Stopwatch


class AlreadyEvaluated(Exception):
    """Raised inside the turn to roll it back when another call evaluated one of its messages first."""

    def __init__(self, usage: Usage) -> None:
        super().__init__("a message of this call was evaluated by another call first")
        self.usage = usage


async def apply_reply(
    deps: Deps, shown: Shown, reply: ExtractionReply, usage: Usage, watch: Stopwatch
) -> dict[str, EvaluateResult]:
    """The reply applied for the shown turn's messages, each exactly once; their results by message id."""
    limits = deps.tuning.limits.for_messages(len(shown.turn.messages))
    plan = await _plan_turn(deps, shown, reply, watch, limits)
    with watch.stage("apply"):
        return await _write(deps, shown, plan, reply, usage, limits)


@dataclass
class _Part:
    """The ops of the reply that write one subject (the speaker, or a shared subject), planned before the lock:
    indexes[i] is the position in the reply of planned[i], sources[i] its message."""

    subject: SharedSubject | None  # None: the speaker
    indexes: list[int]
    planned: list[Planned]
    sources: list[ChatMessage]
    probe: _Probe
    context: WriteContext | None = None
    add_plans: list[AddPlan] = field(default_factory=list)


@dataclass
class _TurnPlan:
    """Everything decided before the per-entity lock is taken, one part per subject written (speaker first)."""

    parts: list[_Part]
    sources: list[ChatMessage]  # the message of each op of the reply, in its order
    relationships: list[tuple[UUID, UUID, tuple[str, ...]]]
    identities: list[tuple[UUID, str, str, float]]


async def _plan_turn(deps: Deps, shown: Shown, reply: ExtractionReply, watch: Stopwatch, limits: Limits) -> _TurnPlan:
    """The ops validated, the adds embedded and planned against their neighbours, the edges planned: no lock held."""
    request = shown.turn
    policy = deps.tuning.shared
    planned, sources, shared = _plan(shown, reply, limits, policy.trusts(request.speaker_roles))
    planned, subjects = ops_subjects(policy, request.agent_id, request.world_id, request.speaker_roles, planned, shared)
    adds = [p for p in planned if isinstance(p, PlannedAdd)]
    said = [m.text.strip() for p, m in zip(planned, sources, strict=True) if isinstance(p, PlannedAdd)]
    spoken = list(dict.fromkeys(t for t in said if t))
    with watch.stage("embed"):  # the messages as the turn's read embedded them (cached: no new embedding)
        vectors = await deps.embedder.passages([a.claim for a in adds])
        heard = dict(zip(spoken, await deps.embedder.queries(spoken), strict=True)) if spoken else {}
    searches = [
        searched(a.claim, v, excerpt(text), heard.get(text)) for a, v, text in zip(adds, vectors, said, strict=True)
    ]
    add_rows = {i: row for row, i in enumerate(i for i, p in enumerate(planned) if isinstance(p, PlannedAdd))}
    parts = []
    readable = {s.subject_id: s for s in readable_subjects(request.agent_id, request.world_id)}
    closing = {readable[s] for s, _, _ in shown.shared_pairs if s in readable}  # entered to close their pairs
    for subject in sorted(set(subjects) | closing, key=subject_order):
        indexes = [i for i, s in enumerate(subjects) if s == subject]
        mine = [planned[i] for i in indexes]
        rows = [add_rows[i] for i in indexes if i in add_rows]
        probe = _Probe([p for p in mine if isinstance(p, PlannedAdd)], vectors[rows], [searches[r] for r in rows])
        part = _Part(subject, indexes, mine, [sources[i] for i in indexes], probe)
        if probe.adds:
            entity = request.entity_id if subject is None else subject.subject_id
            with watch.stage("dedup"):
                part.context = await probe.read(partial(deps.evaluate_store.write_context, request.agent_id, entity))
                part.add_plans = probe.plan(part.context, deps.tuning.dedup_threshold)
        parts.append(part)
    relationships = plan_relationships(
        (reply.relationships or [])[: limits.max_relationships], request.room_entities, limits
    )
    identities = plan_identities(
        (reply.identities or [])[: limits.max_identities], request.room_entities, request.entity_id, limits
    )
    return _TurnPlan(parts, sources, relationships, identities)


def _plan(
    shown: Shown, reply: ExtractionReply, limits: Limits, trusted: bool
) -> tuple[list[Planned], list[ChatMessage], list[bool]]:
    """The ops planned, each with the message it comes from (in a batch, the one the model named; else the last),
    and whether it is shared (domain/shared.py); the speaker's adds are screened for another person's facts."""
    if reply.facts is None:
        return [], [], []
    messages = shown.turn.messages
    ops = reply.facts.ops[: limits.max_ops]
    sources = [messages[message_index(raw, len(messages))] for raw in ops]
    planned = plan_ops(ops, shown.handles, shown.turn.message.created_at, limits, [m.created_at for m in sources])
    planned, shared = scope_ops(ops, planned, shown.turn.world_id is not None, trusted)
    screened = screen_adds(planned, [m.text for m in sources])
    return [p if s else c for p, c, s in zip(planned, screened, shared, strict=True)], sources, shared


async def _write(
    deps: Deps, shown: Shown, plan: _TurnPlan, reply: ExtractionReply, usage: Usage, limits: Limits
) -> dict[str, EvaluateResult]:
    """One transaction under the per-entity lock: re-plan the adds only if another write landed, then write."""
    request, last = shown.turn, shown.turn.message
    async with deps.evaluate_store.writing(request.agent_id, request.entity_id) as tx:
        check_not_forgotten(shown.forget_epoch, tx.forget_epoch)
        for message in request.messages:
            if not await tx.claim_evaluation(message.id, request.room_id, excerpt(message.text)):
                raise AlreadyEvaluated(usage)
        names = [m.name.strip() for m in request.messages if m.name.strip()]
        if names:
            await tx.record_name(clean_text(names[-1])[: limits.max_name_chars], last.created_at)
        applied = await _apply_parts(deps, tx, shown, plan, last.created_at)
        if request.world_id is not None and request.world_name:  # after the parts: a subject entered now is named
            await tx.name_world(request.world_id, request.world_name, last.created_at)
        for first, second in shown.pairs:  # shown once: merged (and gone) or left alone by the model
            await tx.close_pair(first, second, last.created_at)
        await tx.expire_pairs(PAIR_TTL_REVISIONS, last.created_at)  # the next read would not offer them
        relationships = [
            await tx.upsert_relationship(s, t, tags, last.created_at, limits.max_tags)
            for s, t, tags in plan.relationships
        ]
        identities = [await tx.upsert_identity(e, p, h, c, last.created_at) for e, p, h, c in plan.identities]
        by_message: dict[str, list[AppliedOp]] = {m.id: [] for m in request.messages}
        for source, op in zip(plan.sources, applied, strict=True):
            by_message[source.id].append(op)
        results = {m.id: EvaluateResult(ops=tuple(by_message[m.id])) for m in request.earlier}
        results[last.id] = EvaluateResult(
            ops=tuple(by_message[last.id]),
            relationships=tuple(relationships),
            identities=tuple(identities),
            success=success_of(reply),
            usage=usage,
            dropped=dropped_of(reply, limits),
        )
        for message_id, result in results.items():
            await tx.finish_evaluation(message_id, stored_form(result, limits))
    return results


async def _apply_parts(
    deps: Deps, own: WriteTransaction, shown: Shown, plan: _TurnPlan, at: datetime
) -> list[AppliedOp]:
    """Each subject's ops in its own part of the transaction (the speaker's, then the shared subjects' under
    their locks), the adds re-planned where another write landed; the applied ops back in the reply's order."""
    applied: list[AppliedOp | None] = [None] * len(plan.sources)
    for part in plan.parts:
        tx = own if part.subject is None else await own.elsewhere(part.subject, at)
        add_plans = part.add_plans
        if part.context is not None and tx.revision != part.context.revision + 1:  # a write landed since
            add_plans = part.probe.plan(await part.probe.read(tx.write_context), deps.tuning.dedup_threshold)
        policy, turn = deps.tuning.shared, shown.turn
        held = part.subject is not None and not policy.vouches(part.subject, turn.world_id, turn.speaker_roles)
        done = await apply_all(
            deps,
            tx,
            part.planned,
            part.sources,
            zip(add_plans, part.probe.vectors, part.probe.searches, strict=True),
            held=policy.held_reason(turn.speaker_roles) if held else "",
        )
        for index, op in zip(part.indexes, done, strict=True):
            applied[index] = op
        if part.subject is not None:  # the shared pairs shown: closed once, in their subject
            closed = [(a, b) for s, a, b in shown.shared_pairs if s == part.subject.subject_id]
            for first, second in closed:
                await tx.close_pair(first, second, at)
            if closed:
                await tx.expire_pairs(PAIR_TTL_REVISIONS, at)
    return [op for op in applied if op is not None]


ReadContext = Callable[[Sequence[Kind], Sequence[Vector], Sequence[str], int], Awaitable[WriteContext]]


@dataclass(frozen=True)
class _Probe:
    """The adds of one reply with their vectors (adds[i] has vectors[i]), compared with what is stored."""

    adds: list[PlannedAdd]
    vectors: Matrix
    searches: list[Searched]  # what Provide will search each add by (domain/new_fact.py)

    async def read(self, read: ReadContext) -> WriteContext:
        """The neighbours and exact-key matches of every add, from the store (before the lock) or the transaction."""
        return await read(
            [a.kind for a in self.adds], list(self.vectors), [a.claim for a in self.adds], DEDUP_NEIGHBOURS
        )

    def plan(self, context: WriteContext, threshold: float) -> list[AddPlan]:
        neighbours = [[Neighbour(s.fact, s.similarity) for s in near] for near in context.neighbours]
        return plan_adds(self.adds, self.vectors, context.keys, neighbours, context.by_key, threshold)
