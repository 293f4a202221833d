"""The review page's listener: uvicorn serving the Starlette app inside the service's own event loop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Generator

import uvicorn

from factmemory.api.http.pages import PageConfig, create_app
from factmemory.usecases.deps import Deps

log = logging.getLogger(__name__)


class _Server(uvicorn.Server):
    """Leaves SIGINT/SIGTERM to the service, which stops this listener together with gRPC."""

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        yield


def split_address(address: str) -> tuple[str, int]:
    """'127.0.0.1:8080' or '[::1]:8080' -> (host, port)."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"expected host:port, got {address!r}")
    return host.strip("[]"), int(port)


class PageListener:
    """Binds the socket itself (port 0 works in tests), serves until stop()."""

    def __init__(self, deps: Deps, config: PageConfig, address: str) -> None:
        host, port = split_address(address)
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self._socket = socket.socket(family, socket.SOCK_STREAM)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._socket.bind((host, port))
        self.port: int = self._socket.getsockname()[1]
        self.host = host
        uv_config = uvicorn.Config(
            create_app(deps, config),
            lifespan="off",
            log_level="warning",
            access_log=False,
            server_header=False,
            proxy_headers=False,
        )
        self._server = _Server(uv_config)
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._server.serve(sockets=[self._socket]))
        while not self._server.started:
            if self._task.done():
                await self._task
                raise RuntimeError("the review page's HTTP listener did not start")
            await asyncio.sleep(0.01)

    async def stop(self) -> None:
        self._server.should_exit = True
        if self._task is not None:
            await self._task
        self._socket.close()
