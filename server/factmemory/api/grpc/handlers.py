"""The types of a grpc.aio server interceptor and of the method handlers it wraps.

grpc-stubs describe a handler's behaviour with the synchronous API's types (a plain call taking grpc.ServicerContext);
under grpc.aio the behaviour is a coroutine function taking the aio context (or, for a server-streaming method, an
async generator function or a coroutine function that writes with context.write). `unary_of` and `stream_of` say so
in one place, so the interceptors are typed through.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TypeAlias, TypeVar, cast

import grpc

Req = TypeVar("Req")
Res = TypeVar("Res")

# Strings: grpc's classes are generic in the stubs only, not subscriptable at run time.
Context: TypeAlias = "grpc.aio.ServicerContext[Req, Res]"
Handler: TypeAlias = "grpc.RpcMethodHandler[Req, Res]"
Continuation: TypeAlias = "Callable[[grpc.HandlerCallDetails], Awaitable[Handler[Req, Res] | None]]"
AsyncUnary: TypeAlias = "Callable[[Req, Context[Req, Res]], Awaitable[Res]]"
AsyncStream: TypeAlias = "Callable[[Req, Context[Req, Res]], AsyncIterator[Res] | Awaitable[None]]"


def unary_of(handler: Handler[Req, Res]) -> AsyncUnary[Req, Res] | None:
    """The handler's unary-unary behaviour as grpc.aio runs it (None for another kind of method)."""
    return cast("AsyncUnary[Req, Res] | None", handler.unary_unary)


def stream_of(handler: Handler[Req, Res]) -> AsyncStream[Req, Res] | None:
    """The handler's unary-stream behaviour as grpc.aio runs it (None for another kind of method)."""
    return cast("AsyncStream[Req, Res] | None", handler.unary_stream)
