"""The write path: one message in, facts extracted with one LLM call and applied in one transaction."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from uuid import UUID

from factmemory.domain.contract import ExtractionReply
from factmemory.domain.dedup.planning import (
    MAX_PAIRS_SHOWN,
    PAIR_TTL_TURNS,
    AddPlan,
    Existing,
    Neighbour,
    OpenPair,
    Target,
    known_facts,
    merge_refusal,
    merged_values,
    plan_adds,
)
from factmemory.domain.errors import InvalidInput, NotConfigured, Unavailable
from factmemory.domain.limits import Limits
from factmemory.domain.models import (
    AppliedOp,
    CandidateSource,
    ChatMessage,
    Dropped,
    EvaluateBatchResult,
    EvaluateInput,
    EvaluateResult,
    Fact,
    Item,
    Kind,
    OpType,
    Success,
    Usage,
    Verification,
)
from factmemory.domain.ops import (
    ADD_CONFIDENCE,
    DECAY_STEP,
    DELETE_BELOW,
    STRENGTHEN_STEP,
    Planned,
    PlannedAdd,
    PlannedChange,
    PlannedMerge,
    clean_text,
    dropped,
    message_index,
    plan_identities,
    plan_ops,
    plan_relationships,
)
from factmemory.domain.prompts import build_prompt
from factmemory.domain.protection import decay_needs_review
from factmemory.domain.resolutions import kind_of
from factmemory.ports import Extractor, Matrix, NewFact, Vector, WriteContext, WriteTransaction
from factmemory.usecases.deps import RETRIEVE_PER_KIND, Deps
from factmemory.usecases.provide import centroid
from factmemory.usecases.stopwatch import Stopwatch

log = logging.getLogger(__name__)

# Nearest stored facts of the add's kind compared with each add (the rule within its category, pairs across).
DEDUP_NEIGHBOURS = 8


class _AlreadyEvaluated(Exception):
    """Raised inside the turn to roll it back when another call evaluated one of its messages first."""

    def __init__(self, usage: Usage) -> None:
        super().__init__("a message of this call was evaluated by another call first")
        self.usage = usage


# A batch whose messages other calls keep evaluating first is re-planned with what is left, at most this often.
RETRIES_AFTER_A_LOST_RACE = 2


async def evaluate(deps: Deps, request: EvaluateInput) -> EvaluateResult:
    """Evaluates one message once; a repeat of the same (agent, message id) returns the stored result."""
    return (await evaluate_batch(deps, request)).results[-1]


async def evaluate_batch(deps: Deps, request: EvaluateInput) -> EvaluateBatchResult:
    """Evaluates `request.messages` (a batch, or one message) with one LLM call, each message exactly once.

    Messages evaluated before (by any call) are not sent to the model: their stored results are returned, and
    they join the context of the others. The ops of the reply are applied in one transaction under the
    per-entity lock; each message's result holds the ops whose evidence it is, the last one also the
    relationships, identities, verdict and usage of the call."""
    if deps.extractor is None:
        raise NotConfigured("no LLM is configured: set OPENAI_API_KEY (and OPENAI_BASE_URL for other endpoints)")
    usage = Usage()
    for _ in range(1 + RETRIES_AFTER_A_LOST_RACE):
        watch = Stopwatch()
        # The messages are embedded (for the facts shown to the model) while the store is read.
        query = asyncio.ensure_future(_query(deps, request))
        try:
            with watch.stage("retrieve"):
                # Read before anything is learned: a ForgetEntity that completes meanwhile makes the turn write
                # nothing.
                forget_epoch = await deps.store.forget_epoch(request.agent_id, request.entity_id)
                stored = await _stored(deps, request)
            pending = [m for m in request.messages if m.id not in stored]
            if not pending:
                return _batch(request, stored, usage)
            turn = _pending(request, pending, stored)
            if len(pending) < len(request.messages):  # the query stands for the messages still to learn from
                _discard(query)
                query = asyncio.ensure_future(_query(deps, turn))
            new, spent = await _evaluate_new(deps, deps.extractor, turn, forget_epoch, watch, query)
        except _AlreadyEvaluated as lost:
            usage = _plus(usage, lost.usage)
            continue
        finally:
            _discard(query)
        deps.stages.record("evaluate", watch)
        return _batch(request, stored | new, _plus(usage, spent))
    raise Unavailable("the messages of this call kept being evaluated by concurrent calls; retry it")


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


def _batch(request: EvaluateInput, results: dict[str, EvaluateResult], usage: Usage) -> EvaluateBatchResult:
    ids = tuple(m.id for m in request.messages)
    return EvaluateBatchResult(message_ids=ids, results=tuple(results[i] for i in ids), usage=usage)


def _pending(
    request: EvaluateInput, pending: Sequence[ChatMessage], stored: dict[str, EvaluateResult]
) -> EvaluateInput:
    """The request for the messages not evaluated yet; those that were become context."""
    done = [m for m in request.messages if m.id in stored]
    recent = sorted([*request.recent_messages, *done], key=lambda m: m.created_at)
    return request.model_copy(
        update={"earlier": tuple(pending[:-1]), "message": pending[-1], "recent_messages": tuple(recent)}
    )


def _plus(a: Usage, b: Usage) -> Usage:
    return Usage(
        llm_calls=a.llm_calls + b.llm_calls,
        prompt_tokens=a.prompt_tokens + b.prompt_tokens,
        completion_tokens=a.completion_tokens + b.completion_tokens,
    )


async def _evaluate_new(
    deps: Deps,
    extractor: Extractor,
    request: EvaluateInput,
    forget_epoch: int,
    watch: Stopwatch,
    query: Awaitable[Vector | None],
) -> tuple[dict[str, EvaluateResult], Usage]:
    """One LLM call for the request's messages (none evaluated yet), its ops applied in one transaction."""
    limits = deps.tuning.limits.for_messages(len(request.messages))
    known = await _known(deps, request, watch, query)
    prompt = build_prompt(
        request.message,
        request.recent_messages,
        known.durable,
        known.current,
        request.items,
        request.room_entities,
        request.agent_responses,
        known.pairs,
        limits=limits,
        earlier=request.earlier,
    )
    with watch.stage("llm"):
        reply, usage = await extractor.extract(prompt, request.items)
    plan = await _plan_turn(deps, request, reply, prompt.handles, watch, limits)
    with watch.stage("apply"):
        results = await _write(deps, request, plan, known.pairs, forget_epoch, reply, usage, limits)
    return results, usage


@dataclass(frozen=True)
class _Known:
    """The stored facts the model is shown: the nearest of each kind, and the open possible-duplicate pairs."""

    durable: list[Fact]
    current: list[Fact]
    pairs: list[OpenPair]


async def _known(deps: Deps, request: EvaluateInput, watch: Stopwatch, query: Awaitable[Vector | None]) -> _Known:
    if Item.FACTS not in request.items:
        return _Known([], [], [])
    with watch.stage("retrieve"):
        open_pairs = await deps.store.open_pairs(request.agent_id, request.entity_id, MAX_PAIRS_SHOWN, PAIR_TTL_TURNS)
    with watch.stage("embed"):  # what is left of it after the reads above
        vector = await query
    if vector is None:  # pragma: no cover - facts are asked for (checked above)
        return _Known([], [], [])
    with watch.stage("retrieve"):
        similar = await deps.store.nearest(
            request.agent_id, request.entity_id, vector, RETRIEVE_PER_KIND, RETRIEVE_PER_KIND
        )
    durable, current, pairs = known_facts(
        [s.fact for s in similar if s.fact.kind is Kind.DURABLE],
        [s.fact for s in similar if s.fact.kind is Kind.CURRENT],
        open_pairs,
        RETRIEVE_PER_KIND,
    )
    return _Known(durable, current, pairs)


@dataclass
class _TurnPlan:
    """Everything decided before the per-entity lock is taken; sources[i] is the message of planned[i]."""

    planned: list[Planned]
    sources: list[ChatMessage]
    probe: _Probe
    context: WriteContext | None
    add_plans: list[AddPlan]
    relationships: list[tuple[UUID, UUID, tuple[str, ...]]]
    identities: list[tuple[UUID, str, str, float]]


async def _plan_turn(
    deps: Deps,
    request: EvaluateInput,
    reply: ExtractionReply,
    handles: dict[str, Fact],
    watch: Stopwatch,
    limits: Limits,
) -> _TurnPlan:
    """The ops validated, the adds embedded and planned against their neighbours, the edges planned: no lock held."""
    planned, sources = _plan(request, reply, handles, limits)
    adds = [p for p in planned if isinstance(p, PlannedAdd)]
    with watch.stage("embed"):
        vectors = await deps.embedder.passages([a.claim for a in adds])
    probe = _Probe(adds, vectors)
    context, add_plans = None, []
    if adds:
        with watch.stage("dedup"):
            context = await probe.read(partial(deps.store.write_context, request.agent_id, request.entity_id))
            add_plans = probe.plan(context, deps.tuning.dedup_threshold)
    relationships = plan_relationships(
        (reply.relationships or [])[: limits.max_relationships], request.room_entities, limits
    )
    identities = plan_identities(
        (reply.identities or [])[: limits.max_identities], request.room_entities, request.entity_id, limits
    )
    return _TurnPlan(planned, sources, probe, context, add_plans, relationships, identities)


async def _write(
    deps: Deps,
    request: EvaluateInput,
    plan: _TurnPlan,
    pairs: Sequence[OpenPair],
    forget_epoch: int,
    reply: ExtractionReply,
    usage: Usage,
    limits: Limits,
) -> dict[str, EvaluateResult]:
    """One transaction under the per-entity lock: re-plan the adds only if another write landed, then write."""
    last = request.message
    async with deps.store.turn(request.agent_id, request.entity_id, forget_epoch) as turn:
        for message in request.messages:
            if not await turn.claim_evaluation(message.id, request.room_id):
                raise _AlreadyEvaluated(usage)
        names = [m.name.strip() for m in request.messages if m.name.strip()]
        if names:
            await turn.record_name(clean_text(names[-1])[: limits.max_name_chars], last.created_at)
        add_plans = plan.add_plans
        if plan.context is not None and turn.revision != plan.context.revision + 1:  # a write landed since
            add_plans = plan.probe.plan(await plan.probe.read(turn.write_context), deps.tuning.dedup_threshold)
        applied = await _apply_all(
            deps, turn, plan.planned, plan.sources, zip(add_plans, plan.probe.vectors, strict=True)
        )
        for pair in pairs:  # shown once: merged (and gone) or left alone by the model
            await turn.close_pair(pair.first.id, pair.second.id, last.created_at)
        relationships = [
            await turn.upsert_relationship(s, t, tags, last.created_at, limits.max_tags)
            for s, t, tags in plan.relationships
        ]
        identities = [await turn.upsert_identity(e, p, h, c, last.created_at) for e, p, h, c in plan.identities]
        by_message: dict[str, list[AppliedOp]] = {m.id: [] for m in request.messages}
        for source, op in zip(plan.sources, applied, strict=True):
            by_message[source.id].append(op)
        results = {m.id: EvaluateResult(ops=tuple(by_message[m.id])) for m in request.earlier}
        results[last.id] = EvaluateResult(
            ops=tuple(by_message[last.id]),
            relationships=tuple(relationships),
            identities=tuple(identities),
            success=_success(reply),
            usage=usage,
            dropped=_dropped(reply, limits),
        )
        for message_id, result in results.items():
            await turn.finish_evaluation(message_id, stored_form(result, limits))
    return results


ReadContext = Callable[[Sequence[Kind], Sequence[Vector], Sequence[str], int], Awaitable[WriteContext]]


@dataclass(frozen=True)
class _Probe:
    """The adds of one reply with their vectors (adds[i] has vectors[i]), compared with what is stored."""

    adds: list[PlannedAdd]
    vectors: Matrix

    async def read(self, read: ReadContext) -> WriteContext:
        """The neighbours and exact-key matches of every add, from the store (before the lock) or the transaction."""
        return await read(
            [a.kind for a in self.adds], list(self.vectors), [a.claim for a in self.adds], DEDUP_NEIGHBOURS
        )

    def plan(self, context: WriteContext, threshold: float) -> list[AddPlan]:
        neighbours = [[Neighbour(s.fact, s.similarity) for s in near] for near in context.neighbours]
        return plan_adds(self.adds, self.vectors, context.keys, neighbours, context.by_key, threshold)


async def _stored(deps: Deps, request: EvaluateInput) -> dict[str, EvaluateResult]:
    """The stored results of the request's messages evaluated before, as replays."""
    found = await deps.store.get_evaluations(request.agent_id, [m.id for m in request.messages])
    out: dict[str, EvaluateResult] = {}
    for message in request.messages:
        if message.id not in found:
            continue
        entity_id, result = found[message.id]
        if entity_id != request.entity_id:
            raise InvalidInput(f"message {message.id!r} was already evaluated for another entity; ids must be unique")
        out[message.id] = result.model_copy(update={"replayed": True})
    return out


def _plan(
    request: EvaluateInput, reply: ExtractionReply, handles: dict[str, Fact], limits: Limits
) -> tuple[list[Planned], list[ChatMessage]]:
    """The ops planned, each with the message it comes from (in a batch, the one the model named; else the last)."""
    if reply.facts is None:
        return [], []
    messages = request.messages
    ops = reply.facts.ops[: limits.max_ops]
    sources = [messages[message_index(raw, len(messages))] for raw in ops]
    planned = plan_ops(ops, handles, request.message.created_at, limits, [m.created_at for m in sources])
    return planned, sources


def _dropped(reply: ExtractionReply, limits: Limits) -> Dropped:
    return Dropped(
        ops=dropped(len(reply.facts.ops) if reply.facts is not None else 0, limits.max_ops),
        relationships=dropped(len(reply.relationships or []), limits.max_relationships),
        identities=dropped(len(reply.identities or []), limits.max_identities),
    )


def stored_form(result: EvaluateResult, limits: Limits) -> EvaluateResult:
    """What is kept for replays: each fact with the evidence its response showed (the latest ids and their count),
    so a fact strengthened n times is not stored with its whole evidence list n times over."""
    return result.model_copy(
        update={
            "ops": tuple(
                op
                if op.fact is None
                else op.model_copy(update={"fact": bounded_evidence(op.fact, limits.max_evidence_ids)})
                for op in result.ops
            )
        }
    )


def bounded_evidence(fact: Fact, keep: int) -> Fact:
    ids = fact.evidence_message_ids
    return fact.model_copy(
        update={
            "evidence_message_ids": ids[-keep:] if keep else (),
            "evidence_count": max(fact.evidence_count, len(ids)),
        }
    )


def _success(reply: ExtractionReply) -> Success | None:
    verdict = reply.success
    return None if verdict is None else Success(completed=verdict.completed, reason=clean_text(verdict.reason)[:500])


async def _apply_all(
    deps: Deps,
    turn: WriteTransaction,
    planned: Sequence[Planned],
    sources: Sequence[ChatMessage],
    add_plans: Iterable[tuple[AddPlan, Vector]],
) -> list[AppliedOp]:
    """Every op in the model's order, with its message as evidence; the adds take their plans and vectors by
    position, earlier adds by index."""
    applied: list[AppliedOp] = []
    added: list[Fact | None] = []
    plans = iter(add_plans)
    for item, message in zip(planned, sources, strict=True):
        if isinstance(item, PlannedAdd):
            op = await _apply_add(deps, turn, message, *next(plans), added)
            added.append(op.fact)
        elif isinstance(item, PlannedMerge):
            op = await _apply_merge(turn, message, item)
        elif isinstance(item, PlannedChange):
            op = await _apply_change(turn, message, item)
        else:
            op = AppliedOp(op=item.op, rejected=True, reason=item.reason, handle=item.handle)
        applied.append(op)
    return applied


def _target_id(target: Target, added: Sequence[Fact | None]) -> UUID | None:
    """The stored fact's id, or the fact an earlier add of this reply became."""
    if isinstance(target, Existing):
        return target.fact.id
    earlier = added[target.index]
    return None if earlier is None else earlier.id


async def _apply_add(
    deps: Deps,
    turn: WriteTransaction,
    message: ChatMessage,
    plan: AddPlan,
    vector: Vector,
    added: Sequence[Fact | None],
) -> AppliedOp:
    """Strengthen the same claim, or insert (with a review candidate for a conflict and the possible duplicates)."""
    add = plan.add
    if plan.same_as is not None:
        target = _target_id(plan.same_as, added)
        fact = (
            None
            if target is None
            else await turn.strengthen(
                target, STRENGTHEN_STEP, message.created_at, message.id, add.category, add.verification.value
            )
        )
        if fact is not None:
            return AppliedOp(op=OpType.STRENGTHEN, fact=fact, deduplicated=True, reason=plan.reason)
    fact = await turn.insert_fact(
        NewFact(
            kind=add.kind,
            category=add.category,
            claim=add.claim,
            structured_fields=add.structured_fields,
            confidence=ADD_CONFIDENCE,
            message_id=message.id,
            verification=add.verification,
            at=message.created_at,
            valid_at=add.valid_at if add.kind is Kind.CURRENT else None,
            embedding=vector,
            embedding_model=deps.embedder.model_name,
        )
    )
    for pair in plan.pairs:
        other = _target_id(pair.other, added)
        if other is not None and other != fact.id:
            await turn.insert_pair(
                other, fact.id, pair.similarity, pair.reason, message.id, message.created_at, pair.likelihood
            )
    if plan.conflict is None:
        return AppliedOp(op=add.op, fact=fact)
    existing, why = plan.conflict
    candidate = await turn.insert_candidate(
        existing.id,
        add.claim,
        f"conflicts with {existing.claim!r}: {why}",
        CandidateSource.DEDUP_CONFLICT,
        message.id,
        message.created_at,
        fact.id,
    )
    if candidate is None:  # a reviewer said these two are both true
        return AppliedOp(op=add.op, fact=fact)
    return AppliedOp(
        op=add.op,
        fact=fact,
        candidate_id=candidate,
        reason=f"kept beside a conflicting fact; review candidate created: {why}",
    )


async def _apply_merge(turn: WriteTransaction, message: ChatMessage, merge: PlannedMerge) -> AppliedOp:
    keep, duplicate = await turn.get_fact(merge.fact.id), await turn.get_fact(merge.duplicate.id)
    fact = None
    refusal = None if keep is None or duplicate is None else merge_refusal(keep, duplicate)
    if refusal is not None:
        return AppliedOp(
            op=merge.op, rejected=True, handle=merge.handle, duplicate_handle=merge.duplicate_handle, reason=refusal
        )
    if keep is not None and duplicate is not None:
        fact = await turn.merge_facts(
            keep.id,
            duplicate.id,
            merged_values(keep, duplicate, STRENGTHEN_STEP),
            message.created_at,
            merge.reason,
        )
    if fact is None:
        gone = merge.handle if keep is None else merge.duplicate_handle
        return AppliedOp(
            op=merge.op,
            rejected=True,
            handle=merge.handle,
            duplicate_handle=merge.duplicate_handle,
            reason=f"{gone} no longer exists",
        )
    return AppliedOp(
        op=merge.op,
        fact=fact,
        handle=merge.handle,
        duplicate_handle=merge.duplicate_handle,
        duplicate_fact_id=merge.duplicate.id,
        reason=merge.reason,
    )


async def _apply_change(turn: WriteTransaction, message: ChatMessage, change: PlannedChange) -> AppliedOp:
    gone = AppliedOp(op=change.op, rejected=True, handle=change.handle, reason=f"{change.handle} no longer exists")
    if change.reclassify_to is not None:
        kind = kind_of(change.reclassify_to)
        if kind is not None and await turn.reclassify(change.fact.id, kind, change.reclassify_to) is None:
            return gone
    if change.op is OpType.STRENGTHEN:
        verification = Verification.SELF_REPORTED.value
        fact = await turn.strengthen(
            change.fact.id,
            STRENGTHEN_STEP,
            message.created_at,
            message.id,
            change.reclassify_to or change.fact.category,
            verification,
        )
        return gone if fact is None else AppliedOp(op=change.op, fact=fact, handle=change.handle, reason=change.reason)
    if change.op is OpType.DECAY:
        guarded = await _guard_decay(turn, message, change)
        if guarded is not None:
            return guarded
        fact, deleted = await turn.decay(change.fact.id, DECAY_STEP, DELETE_BELOW)
        return (
            gone
            if fact is None
            else AppliedOp(op=change.op, fact=fact, deleted=deleted, handle=change.handle, reason=change.reason)
        )
    current = await turn.get_fact(change.fact.id)
    if current is None:
        return gone
    candidate = await turn.insert_candidate(
        current.id, change.proposed_claim, change.reason, CandidateSource.CONTRADICT, message.id, message.created_at
    )
    return AppliedOp(op=change.op, fact=current, candidate_id=candidate, handle=change.handle, reason=change.reason)


async def _guard_decay(turn: WriteTransaction, message: ChatMessage, change: PlannedChange) -> AppliedOp | None:
    """A decay that would delete a confirmed or health fact: the fact stays, a review candidate is created."""
    current = await turn.get_fact(change.fact.id)
    why = None if current is None else decay_needs_review(current, DECAY_STEP, DELETE_BELOW)
    if current is None or why is None:
        return None
    candidate = await turn.insert_candidate(
        current.id,
        current.claim,
        f"a decay would delete this {why}: {change.reason}"[:500],
        CandidateSource.DECAY_FLOOR,
        message.id,
        message.created_at,
    )
    return AppliedOp(
        op=change.op,
        fact=current,
        candidate_id=candidate,
        handle=change.handle,
        reason=f"not decayed below the deletion floor ({why}); review candidate created",
    )
