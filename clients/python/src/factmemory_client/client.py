"""The client: one channel, a bearer token, a deadline per call, and bounded retries of UNAVAILABLE."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Protocol, Self, TypeVar
from urllib.parse import urlsplit

import grpc
from google.protobuf.message import Message

from factmemory_client.v1 import factmemory_pb2 as pb
from factmemory_client.v1 import factmemory_pb2_grpc as pb_grpc

Metadata = tuple[tuple[str, str], ...]
ChannelOptions = Sequence[tuple[str, str | int]]

_Req = TypeVar("_Req", bound=Message)
_Resp = TypeVar("_Resp", bound=Message)
_ReqIn = TypeVar("_ReqIn", bound=Message, contravariant=True)
_RespOut = TypeVar("_RespOut", bound=Message, covariant=True)


@dataclass(frozen=True)
class Retry:
    """Retries of calls that fail with UNAVAILABLE (the service, or a dependency it needs, is down).

    At most `attempts` tries in all. Before the n-th retry the client waits a random time (full jitter) up to
    `initial_backoff_s * multiplier ** (n - 1)`, capped at `max_backoff_s`. The call's deadline bounds the whole
    sequence: no retry starts that could not finish before it. Other codes are never retried.
    """

    attempts: int = 3
    initial_backoff_s: float = 0.2
    max_backoff_s: float = 2.0
    multiplier: float = 2.0

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError("Retry.attempts counts the first try: it must be at least 1")
        if self.initial_backoff_s < 0 or self.max_backoff_s < 0 or self.multiplier < 1:
            raise ValueError("Retry backoffs must be >= 0 and the multiplier >= 1")

    def backoff_s(self, retry: int, draw: Callable[[], float] = random.random) -> float:
        """How long to wait before retry number `retry` (1 for the first retry)."""
        return draw() * min(self.max_backoff_s, self.initial_backoff_s * self.multiplier ** (retry - 1))


NO_RETRY = Retry(attempts=1)


@dataclass(frozen=True)
class Target:
    """Where a channel connects, and whether it speaks TLS."""

    address: str
    tls: bool


def parse_url(url: str) -> Target:
    """`https://host:port` means TLS; `http://host:port` and a bare `host:port` mean plain-text HTTP/2."""
    trimmed = url.strip()
    if "://" not in trimmed:
        return Target(trimmed.rstrip("/"), tls=False)
    parts = urlsplit(trimmed)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path.strip("/") or parts.query:
        raise ValueError(f"not a FactMemory service URL (http://host:port or https://host:port): {url!r}")
    return Target(parts.netloc, tls=parts.scheme == "https")


class _Unary(Protocol[_ReqIn, _RespOut]):
    def __call__(
        self, request: _ReqIn, *, timeout: float | None = ..., metadata: Metadata | None = ...
    ) -> Awaitable[_RespOut]: ...


class _Stub(Protocol):
    """The generated FactMemoryServiceStub, typed (grpcio ships no type information)."""

    Evaluate: _Unary[pb.EvaluateRequest, pb.EvaluateResponse]
    EvaluateBatch: _Unary[pb.EvaluateBatchRequest, pb.EvaluateBatchResponse]
    Provide: _Unary[pb.ProvideRequest, pb.ProvideResponse]
    ListFacts: _Unary[pb.ListFactsRequest, pb.ListFactsResponse]
    ListCandidates: _Unary[pb.ListCandidatesRequest, pb.ListCandidatesResponse]
    ResolveCandidate: _Unary[pb.ResolveCandidateRequest, pb.ResolveCandidateResponse]
    ForgetEntity: _Unary[pb.ForgetEntityRequest, pb.ForgetEntityResponse]
    ExportEntity: _Unary[pb.ExportEntityRequest, pb.ExportEntityResponse]
    AddFact: _Unary[pb.AddFactRequest, pb.AddFactResponse]
    UpdateFact: _Unary[pb.UpdateFactRequest, pb.UpdateFactResponse]
    DeleteFact: _Unary[pb.DeleteFactRequest, pb.DeleteFactResponse]
    GetFact: _Unary[pb.GetFactRequest, pb.GetFactResponse]
    ListEntities: _Unary[pb.ListEntitiesRequest, pb.ListEntitiesResponse]
    ForgetMessages: _Unary[pb.ForgetMessagesRequest, pb.ForgetMessagesResponse]
    RegisterAgent: _Unary[pb.RegisterAgentRequest, pb.RegisterAgentResponse]
    ListAgents: _Unary[pb.ListAgentsRequest, pb.ListAgentsResponse]
    PrepareEvaluation: _Unary[pb.PrepareEvaluationRequest, pb.PrepareEvaluationResponse]
    CompleteEvaluation: _Unary[pb.CompleteEvaluationRequest, pb.CompleteEvaluationResponse]
    GetLimits: _Unary[pb.GetLimitsRequest, pb.GetLimitsResponse]
    FindFacts: _Unary[pb.FindFactsRequest, pb.FindFactsResponse]


class FactMemoryClient:
    """The RPCs of factmemory.v1.FactMemoryService as coroutines.

    Failures raise `grpc.aio.AioRpcError` with the gRPC status code and the service's message. `timeout_s`
    on a call overrides the client's default deadline (both in seconds, sent to the service as the gRPC deadline);
    either covers the call's retries too.
    """

    def __init__(
        self,
        channel: grpc.aio.Channel,
        *,
        token: str | None = None,
        timeout_s: float | None = None,
        retry: Retry = Retry(),
        reviewer: str | None = None,
    ) -> None:
        self._channel = channel
        self._stub: _Stub = pb_grpc.FactMemoryServiceStub(channel)
        # The reviewer is named in the history of the facts this client changes.
        metadata = ((("authorization", f"Bearer {token}"),) if token else ()) + (
            (("x-factmemory-reviewer", reviewer),) if reviewer else ()
        )
        self._metadata: Metadata | None = metadata or None
        self._timeout_s = timeout_s
        self._retry = retry

    async def evaluate(self, request: pb.EvaluateRequest, *, timeout_s: float | None = None) -> pb.EvaluateResponse:
        """Learns from one message; the same message again returns the stored result (`replayed`, with `usage`
        zero since no call was made, and `original_usage` what the first evaluation cost)."""
        return await self._call(self._stub.Evaluate, request, timeout_s)

    async def evaluate_batch(
        self, request: pb.EvaluateBatchRequest, *, timeout_s: float | None = None
    ) -> pb.EvaluateBatchResponse:
        """Learns from several messages of one person with one LLM call; each message is applied exactly once."""
        return await self._call(self._stub.EvaluateBatch, request, timeout_s)

    async def prepare_evaluation(
        self, request: pb.PrepareEvaluationRequest, *, timeout_s: float | None = None
    ) -> pb.PrepareEvaluationResponse:
        """Agent-model mode, step 1: the prompt and JSON schema for your own model, under a short-lived ticket (no
        ticket, and the stored `results`, when every message was evaluated before)."""
        return await self._call(self._stub.PrepareEvaluation, request, timeout_s)

    async def complete_evaluation(
        self, request: pb.CompleteEvaluationRequest, *, timeout_s: float | None = None
    ) -> pb.CompleteEvaluationResponse:
        """Agent-model mode, step 2: your model's raw reply for a ticket, applied as Evaluate applies its own. Safe
        to retry: a ticket is used once, and each message is applied once."""
        return await self._call(self._stub.CompleteEvaluation, request, timeout_s)

    async def provide(self, request: pb.ProvideRequest, *, timeout_s: float | None = None) -> pb.ProvideResponse:
        """What to put in the next prompt about one person."""
        return await self._call(self._stub.Provide, request, timeout_s)

    async def list_facts(self, request: pb.ListFactsRequest, *, timeout_s: float | None = None) -> pb.ListFactsResponse:
        """One page of the facts about one person."""
        return await self._call(self._stub.ListFacts, request, timeout_s)

    async def list_candidates(
        self, request: pb.ListCandidatesRequest, *, timeout_s: float | None = None
    ) -> pb.ListCandidatesResponse:
        """The pending changes that wait for a review."""
        return await self._call(self._stub.ListCandidates, request, timeout_s)

    async def resolve_candidate(
        self, request: pb.ResolveCandidateRequest, *, timeout_s: float | None = None
    ) -> pb.ResolveCandidateResponse:
        """Accepts or rejects one pending change."""
        return await self._call(self._stub.ResolveCandidate, request, timeout_s)

    async def forget_entity(
        self, request: pb.ForgetEntityRequest, *, timeout_s: float | None = None
    ) -> pb.ForgetEntityResponse:
        """Deletes everything stored about one person."""
        return await self._call(self._stub.ForgetEntity, request, timeout_s)

    async def export_entity(
        self, request: pb.ExportEntityRequest, *, timeout_s: float | None = None
    ) -> pb.ExportEntityResponse:
        """Everything stored about one person, as JSON."""
        return await self._call(self._stub.ExportEntity, request, timeout_s)

    async def add_fact(self, request: pb.AddFactRequest, *, timeout_s: float | None = None) -> pb.AddFactResponse:
        """Adds a fact stated by a person (verification confirmed). Not retried: a retry could add it twice."""
        return await self._call(self._stub.AddFact, request, timeout_s, retry=False)

    async def update_fact(
        self, request: pb.UpdateFactRequest, *, timeout_s: float | None = None
    ) -> pb.UpdateFactResponse:
        """Changes a fact's claim, category, kind, confidence or verification."""
        return await self._call(self._stub.UpdateFact, request, timeout_s)

    async def delete_fact(
        self, request: pb.DeleteFactRequest, *, timeout_s: float | None = None
    ) -> pb.DeleteFactResponse:
        """Deletes one fact (its history stays until the person is forgotten)."""
        return await self._call(self._stub.DeleteFact, request, timeout_s)

    async def get_fact(self, request: pb.GetFactRequest, *, timeout_s: float | None = None) -> pb.GetFactResponse:
        """One fact and the history of every change to it."""
        return await self._call(self._stub.GetFact, request, timeout_s)

    async def list_entities(
        self, request: pb.ListEntitiesRequest, *, timeout_s: float | None = None
    ) -> pb.ListEntitiesResponse:
        """An agent's people: name, facts per kind, pending candidates, last activity."""
        return await self._call(self._stub.ListEntities, request, timeout_s)

    async def forget_messages(
        self, request: pb.ForgetMessagesRequest, *, timeout_s: float | None = None
    ) -> pb.ForgetMessagesResponse:
        """Deleted messages (or a cleared room) leave the memory and are never learned again; a repeat reports 0."""
        return await self._call(self._stub.ForgetMessages, request, timeout_s)

    async def register_agent(
        self, request: pb.RegisterAgentRequest, *, timeout_s: float | None = None
    ) -> pb.RegisterAgentResponse:
        """Records the agent's name (the review page and the command line show and accept it)."""
        return await self._call(self._stub.RegisterAgent, request, timeout_s)

    async def list_agents(
        self, request: pb.ListAgentsRequest, *, timeout_s: float | None = None
    ) -> pb.ListAgentsResponse:
        """The agents by name, with their people, facts and pending counts, most recent activity first."""
        return await self._call(self._stub.ListAgents, request, timeout_s)

    async def get_limits(self, *, timeout_s: float | None = None) -> pb.GetLimitsResponse:
        """The service's request limits as configured (text lengths, message counts): cut requests to fit them."""
        return await self._call(self._stub.GetLimits, pb.GetLimitsRequest(), timeout_s)

    async def find_facts(self, request: pb.FindFactsRequest, *, timeout_s: float | None = None) -> pb.FindFactsResponse:
        """A person's own facts that their text names (matches) and the others nearest it, ranked as Provide ranks."""
        return await self._call(self._stub.FindFacts, request, timeout_s)

    async def close(self, grace: float | None = None) -> None:
        """Closes the channel; calls in flight end with CANCELLED (after `grace` seconds, if given)."""
        await self._channel.close(grace)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.close()

    async def _call(
        self, rpc: _Unary[_Req, _Resp], request: _Req, timeout_s: float | None, retry: bool = True
    ) -> _Resp:
        budget = self._timeout_s if timeout_s is None else timeout_s
        loop = asyncio.get_running_loop()
        deadline = None if budget is None else loop.time() + budget
        attempt = 1
        while True:
            remaining = None if deadline is None else max(deadline - loop.time(), 0.0)
            try:
                return await rpc(request, timeout=remaining, metadata=self._metadata)
            except grpc.aio.AioRpcError as error:
                if not retry or error.code() != grpc.StatusCode.UNAVAILABLE or attempt >= self._retry.attempts:
                    raise
                pause = self._retry.backoff_s(attempt)
                if deadline is not None and loop.time() + pause >= deadline:
                    raise
            await asyncio.sleep(pause)
            attempt += 1


def connect(
    url: str,
    *,
    token: str | None = None,
    timeout_s: float | None = None,
    retry: Retry = Retry(),
    root_certificates: bytes | None = None,
    options: ChannelOptions = (),
    reviewer: str | None = None,
) -> FactMemoryClient:
    """A client of the service at `url` (see `parse_url`); the channel connects on the first call.

    Call it from a coroutine (the channel belongs to the running event loop). `token` is sent as
    `authorization: Bearer <token>`; `reviewer` names you in the history of the facts you change. With an https
    URL, `root_certificates` (PEM) replaces the system's trust store, for a private CA; `options` go to the gRPC
    channel as they are.
    """
    target = parse_url(url)
    if target.tls:
        credentials = grpc.ssl_channel_credentials(root_certificates=root_certificates)
        channel = grpc.aio.secure_channel(target.address, credentials, options=list(options))
    elif root_certificates is not None:
        raise ValueError("root_certificates needs an https:// URL")
    else:
        channel = grpc.aio.insecure_channel(target.address, options=list(options))
    return FactMemoryClient(channel, token=token, timeout_s=timeout_s, retry=retry, reviewer=reviewer)
