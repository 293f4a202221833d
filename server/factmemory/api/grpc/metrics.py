"""Per-call observation: status and latency to the metrics, one access-log line per call, the request id.

The request id comes from the caller's `x-request-id` metadata (generated when absent or unusable), is returned
to the caller as `x-request-id` initial metadata and tags every log line written during the call. The access log
carries the method, status, duration, agent id and request id: never message text, claims or tokens.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
import uuid
from collections.abc import AsyncIterator, Iterable, Iterator
from contextvars import ContextVar

import grpc

from factmemory.api.grpc.handlers import Context, Continuation, Handler, Req, Res, stream_of, unary_of
from factmemory.api.logs import REQUEST_ID
from factmemory.domain.models import EvaluateResult, OpType
from factmemory.ports import Telemetry
from factmemory.v1 import factmemory_pb2

access_log = logging.getLogger("factmemory.access")

REQUEST_ID_KEY = "x-request-id"
_USABLE_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
_AGENT_ID = re.compile(r"^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$|^$")
# The agent id of the call being handled, noted once the request is decoded (see note_request).
CALL_AGENT: ContextVar[str] = ContextVar("factmemory_call_agent", default="")
QUIET_PREFIXES = ("/grpc.health.v1.Health/", "/grpc.reflection.")
# The methods this server has, each its own metric label and access-log name; any other path a caller sends (made
# up, with or without a token) is the one label UNKNOWN_METHOD, so callers cannot add label values or write text
# into the access log.
UNKNOWN_METHOD = "unknown"
_SERVICE = factmemory_pb2.DESCRIPTOR.services_by_name["FactMemoryService"]
KNOWN_METHODS: dict[str, str] = {f"/{_SERVICE.full_name}/{m.name}": m.name for m in _SERVICE.methods} | {
    "/grpc.health.v1.Health/Check": "Check",
    "/grpc.health.v1.Health/Watch": "Watch",
    "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo": "ServerReflectionInfo",
    "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo": "ServerReflectionInfo",
}

# Rejection reasons (free text from domain/ops.py) as a bounded set of metric labels.
REJECTION_LABELS: tuple[tuple[str, str], ...] = (
    ("unknown handle", "unknown_handle"),
    ("already changed", "handle_reused"),
    ("no longer exists", "fact_gone"),
    ("empty claim", "empty_claim"),
    ("claim longer", "claim_too_long"),
    ("contradict needs", "bad_proposed_claim"),
    ("invalid op", "invalid_op"),
    ("not an object", "invalid_op"),
)


def method_label(path: str) -> str:
    """The label of a called method: its name when this server has it, else UNKNOWN_METHOD."""
    return KNOWN_METHODS.get(path, UNKNOWN_METHOD)


def request_id_of(metadata: Iterable[tuple[str, str | bytes]] | None) -> str:
    """The caller's x-request-id when it is a short token, else a new one."""
    for key, value in metadata or ():
        if key == REQUEST_ID_KEY:
            text = value if isinstance(value, str) else bytes(value).decode("ascii", "replace")
            if _USABLE_ID.match(text):
                return text
    return uuid.uuid4().hex


def rejection_label(reason: str) -> str:
    lowered = reason.lower()
    return next((label for needle, label in REJECTION_LABELS if needle in lowered), "other")


def note_request(request: object) -> None:
    """Remembers the agent id of a decoded request for the access log (called by the decoding interceptor)."""
    agent_id = getattr(request, "agent_id", "")
    if isinstance(agent_id, str):
        CALL_AGENT.set(agent_id if _AGENT_ID.match(agent_id) else "invalid")  # a UUID, never other caller text


def record_evaluation(telemetry: Telemetry, result: EvaluateResult) -> None:
    """Counts a fresh evaluation's ops by type and outcome, and the dedup verdict of each add (replays not)."""
    if result.replayed:
        return
    for applied in result.ops:
        if applied.rejected:
            telemetry.op(applied.op.value, "rejected", rejection_label(applied.reason))
            continue
        telemetry.op(applied.op.value, "applied")
        if applied.deduplicated:
            telemetry.dedup("same")
        elif applied.op in (OpType.ADD_DURABLE, OpType.ADD_CURRENT):
            telemetry.dedup("conflict" if applied.candidate_id is not None else "distinct")


class Observe(grpc.aio.ServerInterceptor):
    """The outermost interceptor: times every unary (and server-streaming) call and records its status code."""

    def __init__(self, telemetry: Telemetry) -> None:
        self._telemetry = telemetry

    async def intercept_service(
        self, continuation: Continuation[Req, Res], details: grpc.HandlerCallDetails
    ) -> Handler[Req, Res] | None:
        handler = await continuation(details)
        if handler is None:
            return handler
        call = _Call(self._telemetry, details)
        behaviour = unary_of(handler)
        if behaviour is not None:

            async def unary(request: Req, context: Context[Req, Res]) -> Res:
                with call.observing(context):
                    await call.start(context)
                    return await behaviour(request, context)

            return grpc.unary_unary_rpc_method_handler(
                unary,
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        streaming = stream_of(handler)
        if streaming is not None:

            async def stream(request: Req, context: Context[Req, Res]) -> AsyncIterator[Res]:
                with call.observing(context):
                    await call.start(context)
                    result = streaming(request, context)
                    if isinstance(result, AsyncIterator):
                        async for item in result:
                            yield item
                    else:  # a handler that writes with context.write
                        await result

            return grpc.unary_stream_rpc_method_handler(
                stream,
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        return handler


class _Call:
    """One call's request id, timing and status, recorded when it ends."""

    def __init__(self, telemetry: Telemetry, details: grpc.HandlerCallDetails) -> None:
        self._telemetry = telemetry
        self.name = method_label(details.method)
        self._quiet = details.method.startswith(QUIET_PREFIXES)
        self.request_id = request_id_of(details.invocation_metadata)

    async def start(self, context: Context[Req, Res]) -> None:
        await context.send_initial_metadata(((REQUEST_ID_KEY, self.request_id),))

    @contextlib.contextmanager
    def observing(self, context: Context[Req, Res]) -> Iterator[None]:
        REQUEST_ID.set(self.request_id)
        CALL_AGENT.set("")
        started = time.perf_counter()
        code = "UNKNOWN"
        try:
            yield
            code = _code_name(context.code())
        except grpc.aio.AbortError:
            code = _code_name(context.code())
            raise
        except asyncio.CancelledError:  # the caller went away or its deadline passed
            code = "CANCELLED"
            raise
        finally:
            self._record(code, time.perf_counter() - started)

    def _record(self, code: str, seconds: float) -> None:
        self._telemetry.rpc(self.name, code, seconds)
        if not self._quiet:
            access_log.info(
                "%s %s %.1f ms",
                self.name,
                code,
                seconds * 1000,
                extra={
                    "rpc": self.name,
                    "status": code,
                    "duration_ms": round(seconds * 1000, 2),
                    "agent_id": CALL_AGENT.get(),
                    "request_id": self.request_id,
                },
            )


def _code_name(code: grpc.StatusCode | None) -> str:
    return "OK" if code is None else str(code.name)
