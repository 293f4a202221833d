"""Server interceptors: bearer-token authentication and request decoding with a clear status."""

from __future__ import annotations

import hmac

import grpc
from google.protobuf.message import DecodeError

from factmemory.api.grpc.handlers import Context, Continuation, Handler, Req, Res, unary_of
from factmemory.api.grpc.metrics import note_request
from factmemory.api.guessing import MISSING_TOKEN, GuessLimiter, client_of_peer, throttled


class BearerAuth(grpc.aio.ServerInterceptor):
    """Requires `authorization: Bearer <token>` on every RPC but health checks (reflection included: it lists what
    the service offers, which is for callers holding the token; docs/operating.md). A call without a
    token is UNAUTHENTICATED with a message saying what to set (not a guess); guessing is limited per client and
    overall (api/guessing.py): a throttled client is refused (RESOURCE_EXHAUSTED) untried, except on a connection
    that already presented the right token."""

    OPEN_PREFIXES = ("/grpc.health.v1.Health/",)

    def __init__(self, token: str, limiter: GuessLimiter) -> None:
        self._expected = f"Bearer {token}".encode()
        self._limiter = limiter

    async def intercept_service(
        self, continuation: Continuation[Req, Res], details: grpc.HandlerCallDetails
    ) -> Handler[Req, Res] | None:
        if details.method.startswith(self.OPEN_PREFIXES):
            return await continuation(details)
        given = next((v for k, v in details.invocation_metadata or () if k == "authorization"), "")
        given_bytes = given.encode() if isinstance(given, str) else bytes(given)
        missing = given_bytes.strip().lower() in (b"", b"bearer")
        matches = hmac.compare_digest(given_bytes, self._expected)
        handler = await continuation(details) if matches else None
        behaviour = None if handler is None else unary_of(handler)
        if matches and behaviour is None:
            return handler
        limiter = self._limiter

        async def checked(request: Req, context: Context[Req, Res]) -> Res:
            # The peer is known only here; no await between the check and the record (parallel-safe).
            peer = context.peer()
            client = client_of_peer(peer)
            if missing:
                limiter.missing(client)
                await context.abort(grpc.StatusCode.UNAUTHENTICATED, MISSING_TOKEN)
            if limiter.refused(client, peer):
                await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, throttled(limiter.wait_s(client)))
            if behaviour is None:  # not matches
                limiter.failed(client)
                await context.abort(grpc.StatusCode.UNAUTHENTICATED, "wrong bearer token")
            limiter.proved(peer)
            return await behaviour(request, context)

        if handler is None:
            return grpc.unary_unary_rpc_method_handler(checked)
        return grpc.unary_unary_rpc_method_handler(
            checked, request_deserializer=handler.request_deserializer, response_serializer=handler.response_serializer
        )


class DecodeGuard(grpc.aio.ServerInterceptor):
    """Decodes FactMemoryService requests itself, so bytes that are not valid protobuf get INVALID_ARGUMENT
    (grpc would answer UNKNOWN with its internal parser error)."""

    PREFIX = "/factmemory.v1.FactMemoryService/"

    async def intercept_service(
        self, continuation: Continuation[Req, Res], details: grpc.HandlerCallDetails
    ) -> Handler[Req, Res] | None:
        handler = await continuation(details)
        if handler is None or not details.method.startswith(self.PREFIX):
            return handler
        decode, behaviour = handler.request_deserializer, unary_of(handler)
        if decode is None or behaviour is None:
            return handler

        async def guarded(raw: bytes, context: Context[Req, Res]) -> Res:
            try:
                request = decode(raw)
            except DecodeError:
                await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "the request is not a valid protobuf message")
            note_request(request)
            return await behaviour(request, context)

        return grpc.unary_unary_rpc_method_handler(
            guarded, request_deserializer=None, response_serializer=handler.response_serializer
        )
