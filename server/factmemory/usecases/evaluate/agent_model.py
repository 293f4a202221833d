"""Evaluate with the caller's model (agent-model mode, docs/agent-model.md). PrepareEvaluation composes the call
exactly as Evaluate does (planning) and keeps what the model is shown under a single-use ticket; CompleteEvaluation
parses the caller's reply with the service's own parser and applies it exactly as Evaluate applies its own
(applying). Between the two, the caller's model runs: the service needs no LLM of its own."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from factmemory.domain.errors import Aborted, BadModelReply, Conflict, InvalidInput, NotConfigured
from factmemory.domain.models import EvaluateBatchResult, EvaluateInput, EvaluateResult, Frozen, Usage
from factmemory.domain.prompts import Prompt
from factmemory.domain.reply import parse_reply
from factmemory.domain.tickets import check_token, new_token, refusal, token_hash
from factmemory.usecases.deps import AgentModel, Deps
from factmemory.usecases.evaluate.applying import AlreadyEvaluated, apply_reply
from factmemory.usecases.evaluate.prompting import Shown, compose, replay
from factmemory.usecases.stopwatch import Stopwatch


class TicketBody(Frozen):
    """What a ticket keeps: the prepared request's message ids in order, and what the model is shown."""

    message_ids: tuple[str, ...]
    shown: Shown


@dataclass(frozen=True)
class Prepared:
    """A call for the caller's model under `ticket`, or (ticket None) the stored results: no call is needed."""

    results: EvaluateBatchResult | None = None
    ticket: str | None = None
    prompt: Prompt | None = None
    schema: dict[str, Any] | None = None
    expires_at: datetime | None = None


def _desk(deps: Deps) -> AgentModel:
    if deps.agent_model is None:
        raise NotConfigured("the agent-model mode is not available on this service")
    return deps.agent_model


async def prepare_evaluation(deps: Deps, request: EvaluateInput, order: Sequence[str] = ()) -> Prepared:
    """The prompt and schema of the call Evaluate / EvaluateBatch would make, under a new ticket; or the stored
    results when every message was evaluated before (no ticket). `order`: the message ids in the caller's order,
    which CompleteEvaluation answers in (default: the request's)."""
    desk = _desk(deps)
    ids = tuple(order or (m.id for m in request.messages))
    stored, call = await compose(deps, request, Stopwatch())
    if call is None:
        return Prepared(results=EvaluateBatchResult(message_ids=ids, results=tuple(stored[i] for i in ids)))
    now = desk.clock()
    token, expires_at = new_token(), now + timedelta(seconds=desk.policy.ttl_s)
    body = TicketBody(message_ids=ids, shown=call.shown.kept())
    await desk.tickets.issue(
        request.agent_id,
        request.entity_id,
        token_hash(token),
        call.shown.forget_epoch,
        body.model_dump_json(),
        now,
        expires_at,
        desk.policy,
    )
    return Prepared(ticket=token, prompt=call.prompt, schema=call.schema(), expires_at=expires_at)


async def complete_evaluation(
    deps: Deps, agent_id: UUID, entity_id: UUID, ticket: str, reply: str, usage: Usage
) -> EvaluateBatchResult:
    """The caller's reply for a ticket applied as Evaluate applies its own model's reply; each refusal (unknown,
    another entity's, used, expired, forgotten since, a reply that breaks the contract) applies nothing."""
    desk = _desk(deps)
    key = token_hash(check_token(ticket))
    if len(reply) > desk.policy.max_reply_chars:
        raise InvalidInput(
            f"reply is longer than {desk.policy.max_reply_chars} characters (FACTMEMORY_MAX_REPLY_CHARS)"
        )
    now = desk.clock()
    row = await desk.tickets.find(agent_id, entity_id, key, now)
    refused = refusal(row, agent_id, entity_id, now)
    if refused is not None:
        raise refused
    assert row is not None and row.body is not None  # refusal() said so
    body = TicketBody.model_validate_json(row.body)
    try:
        parsed = parse_reply(reply, body.shown.turn.items)
    except BadModelReply as exc:
        raise InvalidInput(f"{exc}; nothing was applied and the ticket is still open") from None
    if not await desk.tickets.use(agent_id, entity_id, key, desk.clock()):
        raise Conflict(
            "the ticket was already used by a concurrent CompleteEvaluation, or its entity forgotten or a message it "
            "showed deleted (ForgetMessages) meanwhile; nothing was applied"
        )
    spent = Usage(llm_calls=1, prompt_tokens=usage.prompt_tokens, completion_tokens=usage.completion_tokens)
    try:
        new = await apply_reply(deps, body.shown, parsed, spent, Stopwatch())
    except AlreadyEvaluated:
        return await _lost_race(deps, agent_id, body, spent)
    return _results(body, await _stored(deps, agent_id, body, new.keys()) | new, spent)


async def _lost_race(deps: Deps, agent_id: UUID, body: TicketBody, spent: Usage) -> EvaluateBatchResult:
    """Another call evaluated a message of the ticket meanwhile. With every message evaluated, their stored results
    (as Evaluate answers then); else the reply cannot be attributed without the model: prepare again."""
    stored = await _stored(deps, agent_id, body, ())
    if len(stored) < len(body.message_ids):
        raise Aborted(
            "another call evaluated some of these messages meanwhile; nothing was applied: call PrepareEvaluation "
            "again for the others"
        )
    return _results(body, stored, spent)


async def _stored(deps: Deps, agent_id: UUID, body: TicketBody, skip: Collection[str]) -> dict[str, EvaluateResult]:
    """The stored results of the ticket's messages (those in `skip` aside), as replays."""
    wanted = [i for i in body.message_ids if i not in skip]
    entity_id = body.shown.turn.entity_id
    found = await deps.evaluate_store.get_evaluations(agent_id, wanted, entity_id) if wanted else {}
    return {i: replay(i, stored, entity_id) for i, stored in found.items()}


def _results(body: TicketBody, results: dict[str, EvaluateResult], usage: Usage) -> EvaluateBatchResult:
    return EvaluateBatchResult(
        message_ids=body.message_ids,
        results=tuple(results.get(i, EvaluateResult(replayed=True)) for i in body.message_ids),
        usage=usage,
    )
