"""gRPC handlers: protobuf in, use-case, protobuf out. One table maps domain errors to status codes."""

from __future__ import annotations

import functools
import json
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Protocol, TypeVar
from uuid import UUID

import grpc
from google.protobuf.json_format import MessageToDict
from google.protobuf.message import Message

from factmemory.api.grpc import actors, agent_model, chat, convert
from factmemory.api.grpc.convert import parse_uuid
from factmemory.api.grpc.metrics import record_evaluation
from factmemory.domain.agents import AgentSummary
from factmemory.domain.errors import (
    Aborted,
    BadEndpointReply,
    BadModelReply,
    Conflict,
    FactMemoryError,
    InvalidInput,
    NotConfigured,
    NotFound,
    Refused,
    Unavailable,
)
from factmemory.domain.resolutions import encode_position
from factmemory.ports import CALL_SCOPE, CallScope
from factmemory.usecases import agents, browse, edits, evaluate, forget_messages, provide, review
from factmemory.usecases.deps import Deps
from factmemory.v1 import factmemory_pb2 as pb
from factmemory.v1 import factmemory_pb2_grpc as pb_grpc

log = logging.getLogger(__name__)

STATUS_BY_ERROR: tuple[tuple[type[FactMemoryError], grpc.StatusCode], ...] = (
    (InvalidInput, grpc.StatusCode.INVALID_ARGUMENT),
    (NotFound, grpc.StatusCode.NOT_FOUND),
    (NotConfigured, grpc.StatusCode.FAILED_PRECONDITION),
    (Conflict, grpc.StatusCode.FAILED_PRECONDITION),
    (Refused, grpc.StatusCode.FAILED_PRECONDITION),
    (Unavailable, grpc.StatusCode.UNAVAILABLE),
    # The endpoint's body is not a chat completion (a proxy's error page, a cut body): may pass on a retry.
    (BadEndpointReply, grpc.StatusCode.UNAVAILABLE),
    # The model's reply broke the contract: nothing was applied, and a retry would send the same prompt and pay for
    # the same bad reply, so it is not retryable but a condition to fix (docs/operating.md, docs/contract.md).
    (BadModelReply, grpc.StatusCode.FAILED_PRECONDITION),
    # A race the call cannot settle on its own: the caller starts over (the message says from where).
    (Aborted, grpc.StatusCode.ABORTED),
)

Servicer = TypeVar("Servicer")
Req = TypeVar("Req")
Res = TypeVar("Res")
# The context of every RPC: its request and response are protobuf messages.
Context = grpc.aio.ServicerContext[Message, Message]
Handler = Callable[[Servicer, Req, Context], Awaitable[Res]]


class Scoped(Protocol):
    """A request about one entity of one agent."""

    @property
    def agent_id(self) -> str: ...
    @property
    def entity_id(self) -> str: ...


def status_for(error: FactMemoryError) -> grpc.StatusCode:
    for kind, code in STATUS_BY_ERROR:
        if isinstance(error, kind):
            return code
    return grpc.StatusCode.INTERNAL


def call_scope(request: object, context: Context) -> CallScope:
    """Shared engines queue fairly by agent and drop work past the call's deadline."""
    remaining = context.time_remaining()
    deadline = None if remaining is None else time.monotonic() + remaining
    return CallScope(caller=f"agent:{getattr(request, 'agent_id', '')}", deadline=deadline)


def mapped(handler: Handler[Servicer, Req, Res]) -> Handler[Servicer, Req, Res]:
    """Domain errors become their status code; anything else is logged and becomes INTERNAL."""

    @functools.wraps(handler)
    async def wrapper(self: Servicer, request: Req, context: Context) -> Res:
        CALL_SCOPE.set(call_scope(request, context))
        try:
            return await handler(self, request, context)
        except FactMemoryError as exc:
            await context.abort(status_for(exc), str(exc))
        except grpc.aio.AbortError:
            raise
        except Exception:
            log.exception("unexpected error in %s", handler.__name__)
            await context.abort(grpc.StatusCode.INTERNAL, "internal error; see the server log")
        raise AssertionError("unreachable")  # pragma: no cover - abort always raises

    return wrapper


def _now() -> datetime:
    return datetime.now(UTC)


def _scope(request: Scoped) -> tuple[UUID, UUID]:
    return parse_uuid(request.agent_id, "agent_id"), parse_uuid(request.entity_id, "entity_id")


class FactMemoryServicer(pb_grpc.FactMemoryServiceServicer):  # type: ignore[misc]
    """The FactMemoryService RPCs."""

    def __init__(self, deps: Deps) -> None:
        self._deps = deps
        self._limits = deps.tuning.limits

    @mapped
    async def Evaluate(self, request: pb.EvaluateRequest, context: Context) -> pb.EvaluateResponse:
        result = await evaluate.evaluate(self._deps, convert.evaluate_input(request, _now(), self._limits))
        record_evaluation(self._deps.telemetry, result)
        return convert.evaluate_response(result, self._limits)

    @mapped
    async def EvaluateBatch(self, request: pb.EvaluateBatchRequest, context: Context) -> pb.EvaluateBatchResponse:
        batch = await evaluate.evaluate_batch(self._deps, convert.evaluate_batch_input(request, _now(), self._limits))
        for result in batch.results:
            record_evaluation(self._deps.telemetry, result)
        return convert.evaluate_batch_response(request, batch, self._limits)

    @mapped
    async def PrepareEvaluation(
        self, request: pb.PrepareEvaluationRequest, context: Context
    ) -> pb.PrepareEvaluationResponse:
        evaluation, order = agent_model.prepare_input(request, _now(), self._limits)
        prepared = await evaluate.prepare_evaluation(self._deps, evaluation, order)
        return agent_model.prepare_response(prepared, self._limits)

    @mapped
    async def CompleteEvaluation(
        self, request: pb.CompleteEvaluationRequest, context: Context
    ) -> pb.CompleteEvaluationResponse:
        agent_id, entity_id = _scope(request)
        usage = agent_model.usage_in(request.usage)
        batch = await evaluate.complete_evaluation(
            self._deps, agent_id, entity_id, request.ticket, request.reply, usage
        )
        for result in batch.results:
            record_evaluation(self._deps.telemetry, result)
        return agent_model.complete_response(batch, self._limits)

    @mapped
    async def Provide(self, request: pb.ProvideRequest, context: Context) -> pb.ProvideResponse:
        result = await provide.provide(self._deps, convert.provide_input(request, _now(), self._limits))
        return convert.provide_response(result, self._limits)

    @mapped
    async def ListFacts(self, request: pb.ListFactsRequest, context: Context) -> pb.ListFactsResponse:
        after = convert.optional_uuid(request.page_token, "page_token")
        facts, next_after = await browse.list_facts(
            self._deps,
            parse_uuid(request.agent_id, "agent_id"),
            parse_uuid(request.entity_id, "entity_id"),
            convert.kind_filter(request.kind),
            after,
            convert.page_size(request.page_size, self._limits),
        )
        out = [convert.fact_pb(f, self._limits) for f in facts]
        kept = convert.within_bytes(out, self._limits.max_response_bytes)
        if kept < len(out):  # the page ends early rather than outgrow the client's message limit
            next_after = facts[kept - 1].id
        return pb.ListFactsResponse(facts=out[:kept], next_page_token="" if next_after is None else str(next_after))

    @mapped
    async def ListCandidates(self, request: pb.ListCandidatesRequest, context: Context) -> pb.ListCandidatesResponse:
        candidates, token = await browse.list_candidates(
            self._deps,
            parse_uuid(request.agent_id, "agent_id"),
            convert.optional_uuid(request.entity_id, "entity_id"),
            convert.status_filter(request.status, request.any_status),
            convert.source_filter(request.source),
            request.page_token,
            convert.page_size(request.page_size, self._limits),
        )
        out = [convert.candidate_pb(c, self._limits) for c in candidates]
        kept = convert.within_bytes(out, self._limits.max_response_bytes)
        if kept < len(out):  # the page ends early rather than outgrow the client's message limit
            token = encode_position(candidates[kept - 1].created_at, candidates[kept - 1].id)
        return pb.ListCandidatesResponse(candidates=out[:kept], next_page_token=token)

    @mapped
    async def ResolveCandidate(
        self, request: pb.ResolveCandidateRequest, context: Context
    ) -> pb.ResolveCandidateResponse:
        with actors.audit("resolve_candidate", request, context) as entry:
            agent_id, entity_id = _scope(request)
            resolution = convert.resolution(request.resolution, request.decision)
            entry.note(resolution=resolution.value)
            candidate, fact = await review.resolve_candidate(
                self._deps,
                agent_id,
                entity_id,
                parse_uuid(request.candidate_id, "candidate_id"),
                resolution,
                actors.actor(request, entity_id, context),
                _now(),
                asked_in=request.chat.message_id if chat.chat_of(request) else None,
                agent_wide=request.agent_wide,
            )
            entry.note(fact_id=None if fact is None else fact.id)
        return pb.ResolveCandidateResponse(
            candidate=convert.candidate_pb(candidate, self._limits),
            fact=None if fact is None else convert.fact_pb(fact, self._limits),
        )

    @mapped
    async def AddFact(self, request: pb.AddFactRequest, context: Context) -> pb.AddFactResponse:
        with actors.audit("add_fact", request, context) as entry:
            agent_id, entity_id = _scope(request)
            fact = await edits.add_fact(
                self._deps,
                agent_id,
                entity_id,
                convert.required_kind(request.kind),
                request.category,
                request.claim,
                actors.reviewer(context),
                request.confidence if request.HasField("confidence") else None,
                MessageToDict(request.structured_fields),
            )
            entry.note(fact_id=fact.id)
        return pb.AddFactResponse(fact=convert.fact_pb(fact, self._limits))

    @mapped
    async def UpdateFact(self, request: pb.UpdateFactRequest, context: Context) -> pb.UpdateFactResponse:
        with actors.audit("update_fact", request, context) as entry:
            agent_id, entity_id = _scope(request)
            edit = convert.fact_edit(request, self._limits.max_claim_chars * 4, self._limits.max_name_chars)
            entry.note(fields=",".join(k for k, v in edit.model_dump().items() if v is not None))
            fact = await edits.update_fact(
                self._deps,
                agent_id,
                entity_id,
                parse_uuid(request.fact_id, "fact_id"),
                edit,
                actors.actor(request, entity_id, context),
                edits.CORRECTED_IN_CHAT if chat.chat_of(request) else edits.EDITED_BY_HAND,
            )
        return pb.UpdateFactResponse(fact=convert.fact_pb(fact, self._limits))

    @mapped
    async def DeleteFact(self, request: pb.DeleteFactRequest, context: Context) -> pb.DeleteFactResponse:
        with actors.audit("delete_fact", request, context):
            agent_id, entity_id = _scope(request)
            fact_id = parse_uuid(request.fact_id, "fact_id")
            origin = chat.chat_of(request)
            if origin is not None:
                await edits.delete_fact_asked(self._deps, agent_id, entity_id, fact_id, origin.confirmed)
            else:
                await edits.delete_fact(self._deps, agent_id, entity_id, fact_id, actors.reviewer(context))
        return pb.DeleteFactResponse()

    @mapped
    async def GetFact(self, request: pb.GetFactRequest, context: Context) -> pb.GetFactResponse:
        agent_id, entity_id = _scope(request)
        fact_id = parse_uuid(request.fact_id, "fact_id")
        try:
            fact, history = await browse.get_fact(self._deps, agent_id, entity_id, fact_id)
        except NotFound:
            # A deleted fact: its history is still there (NotFound again when there is none).
            return pb.GetFactResponse(
                history=[
                    convert.history_pb(h) for h in await browse.fact_history(self._deps, agent_id, entity_id, fact_id)
                ]
            )
        return pb.GetFactResponse(
            fact=convert.fact_pb(fact, self._limits), history=[convert.history_pb(h) for h in history]
        )

    @mapped
    async def ListEntities(self, request: pb.ListEntitiesRequest, context: Context) -> pb.ListEntitiesResponse:
        entities, token = await browse.list_entities(
            self._deps,
            parse_uuid(request.agent_id, "agent_id"),
            convert.query(request.query, self._limits),
            request.page_token,
            convert.page_size(request.page_size, self._limits),
        )
        return pb.ListEntitiesResponse(entities=[convert.entity_pb(e) for e in entities], next_page_token=token)

    @mapped
    async def ForgetEntity(self, request: pb.ForgetEntityRequest, context: Context) -> pb.ForgetEntityResponse:
        with actors.audit("forget_entity", request, context) as entry:
            counts = await browse.forget_entity(
                self._deps, parse_uuid(request.agent_id, "agent_id"), parse_uuid(request.entity_id, "entity_id")
            )
            entry.note(facts_deleted=counts.facts, evaluations_deleted=counts.evaluations)
        return pb.ForgetEntityResponse(
            facts_deleted=counts.facts,
            candidates_deleted=counts.candidates,
            relationships_deleted=counts.relationships,
            identities_deleted=counts.identities,
            evaluations_deleted=counts.evaluations,
        )

    @mapped
    async def ExportEntity(self, request: pb.ExportEntityRequest, context: Context) -> pb.ExportEntityResponse:
        data, position = await browse.export_page(
            self._deps,
            parse_uuid(request.agent_id, "agent_id"),
            parse_uuid(request.entity_id, "entity_id"),
            convert.export_position(request.page_token),
            self._limits.max_response_bytes,
        )
        return pb.ExportEntityResponse(
            json=json.dumps(data, sort_keys=True, ensure_ascii=False), next_page_token=convert.export_token(position)
        )

    @mapped
    async def ForgetMessages(self, request: pb.ForgetMessagesRequest, context: Context) -> pb.ForgetMessagesResponse:
        with actors.audit("forget_messages", request, context) as entry:
            entry.note(room_id=request.room_id, message_ids=len(request.message_ids))
            counts = await forget_messages.forget_messages(
                self._deps,
                parse_uuid(request.agent_id, "agent_id"),
                convert.optional_uuid(request.entity_id, "entity_id"),
                [convert.canonical_id(m) for m in request.message_ids],
                convert.optional_uuid(request.room_id, "room_id"),
                _now(),
                self._limits.max_id_chars,
            )
            entry.note(
                messages_forgotten=counts.messages,
                facts_deleted=counts.facts_deleted,
                relationships_deleted=counts.relationships_deleted,
                identities_deleted=counts.identities_deleted,
            )
        return pb.ForgetMessagesResponse(
            messages_forgotten=counts.messages,
            facts_deleted=counts.facts_deleted,
            facts_updated=counts.facts_updated,
            candidates_closed=counts.candidates_closed,
        )

    @mapped
    async def RegisterAgent(self, request: pb.RegisterAgentRequest, context: Context) -> pb.RegisterAgentResponse:
        await agents.register_agent(self._deps, parse_uuid(request.agent_id, "agent_id"), request.name, _now())
        return pb.RegisterAgentResponse()

    @mapped
    async def ListAgents(self, request: pb.ListAgentsRequest, context: Context) -> pb.ListAgentsResponse:
        found, token = await agents.list_agents(
            self._deps,
            convert.query(request.query, self._limits),
            request.page_token,
            convert.page_size(request.page_size, self._limits),
        )
        return pb.ListAgentsResponse(agents=[_agent_pb(a) for a in found], next_page_token=token)

    @mapped
    async def GetLimits(self, request: pb.GetLimitsRequest, context: Context) -> pb.GetLimitsResponse:
        return convert.limits_pb(self._limits)

    @mapped
    async def FindFacts(self, request: pb.FindFactsRequest, context: Context) -> pb.FindFactsResponse:
        return await chat.find_facts(self._deps, request, _now(), self._limits)


def _agent_pb(agent: AgentSummary) -> pb.AgentSummary:
    return pb.AgentSummary(
        agent_id=str(agent.agent_id),
        name=agent.name,
        entities=agent.entities,
        facts=agent.facts,
        pending_candidates=agent.pending_candidates,
        last_activity=convert.to_timestamp(agent.last_activity),
        communities=agent.communities,
    )
