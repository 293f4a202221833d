"""Prometheus metrics (prometheus-client) on an optional HTTP address; implements ports.Telemetry.

Each service gets its own registry, so several servers in one process (tests) never share counters. Gauges that
need the database (pending review candidates) are computed when scraped: the scrape runs on the HTTP server's
thread and asks the event loop for the count, waiting at most SCRAPE_QUERY_TIMEOUT_S.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Iterator, Sequence
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import prometheus_client
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, make_wsgi_app
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from factmemory.domain.vectors import Matrix
from factmemory.ports import Embedder

log = logging.getLogger(__name__)

SCRAPE_QUERY_TIMEOUT_S = 2.0
RPC_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
LLM_BUCKETS = (0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0)
EMBED_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
HEALTH_PATHS = ("/healthz", "/readyz")


class PrometheusTelemetry:
    """Every counter, histogram and gauge of the service (names in README, "Metrics and logs")."""

    def __init__(self, created_series: bool = False) -> None:
        # prometheus_client's switch is process-wide: a `_created` series per counter and histogram, or none.
        if created_series:
            prometheus_client.enable_created_metrics()  # type: ignore[no-untyped-call]
        else:
            prometheus_client.disable_created_metrics()  # type: ignore[no-untyped-call]
        self.registry = CollectorRegistry()
        r = self.registry
        self.rpc_calls = Counter(
            "factmemory_rpc_calls", "gRPC calls by method and status code", ["method", "code"], registry=r
        )
        self.rpc_seconds = Histogram(
            "factmemory_rpc_duration_seconds", "gRPC call latency", ["method", "code"], buckets=RPC_BUCKETS, registry=r
        )
        self.llm_calls = Counter("factmemory_llm_calls", "LLM extraction calls by outcome", ["outcome"], registry=r)
        self.llm_seconds = Histogram(
            "factmemory_llm_duration_seconds",
            "LLM extraction call latency (with retries)",
            ["outcome"],
            buckets=LLM_BUCKETS,
            registry=r,
        )
        self.llm_tokens_total = Counter("factmemory_llm_tokens", "LLM tokens by direction", ["direction"], registry=r)
        self.llm_retries = Counter("factmemory_llm_retries", "retried LLM attempts by cause", ["reason"], registry=r)
        self.llm_fallbacks = Counter(
            "factmemory_llm_format_fallbacks",
            "response formats the endpoint rejected (then the next one was used)",
            ["rejected_format"],
            registry=r,
        )
        self.ops = Counter(
            "factmemory_ops",
            "model ops by type and outcome (applied or rejected, with the reason)",
            ["op", "outcome", "reason"],
            registry=r,
        )
        self.dedup_verdicts = Counter(
            "factmemory_dedup_verdicts", "write-time dedup verdicts of added facts", ["verdict"], registry=r
        )
        self.embed_calls = Counter("factmemory_embedding_calls", "embedding calls by kind", ["kind"], registry=r)
        self.embed_texts = Counter("factmemory_embedding_texts", "texts embedded by kind", ["kind"], registry=r)
        self.embed_seconds = Histogram(
            "factmemory_embedding_duration_seconds",
            "embedding call time including the wait in the engine's queue",
            ["kind"],
            buckets=EMBED_BUCKETS,
            registry=r,
        )
        self.reads = Counter(
            "factmemory_reads",
            "reads by the database that answered (replica or primary) and why "
            "the primary (recent_write, replica_down, replica_error)",
            ["target", "reason"],
            registry=r,
        )
        self.read_fallbacks = Counter(
            "factmemory_read_fallbacks",
            "reads meant for the replica answered by the primary (replica_error: the call "
            "that found it failing; replica_down: until it is retried)",
            ["reason"],
            registry=r,
        )
        # Registered with the first replica state: without FACTMEMORY_DATABASE_READ_URL there is no such gauge.
        self.read_replica_up: Gauge | None = None
        self.workers_gauges: tuple[Gauge, Gauge] | None = None
        self.embed_inflight = Gauge(
            "factmemory_embedding_queue_depth", "embedding calls waiting for or running in the engine", registry=r
        )
        self.retention_rows = Counter(
            "factmemory_retention_rows", "rows retention archived, deleted or reduced, by what", ["what"], registry=r
        )
        self.auth_failures = Counter(
            "factmemory_auth_failures",
            "wrong access tokens (wrong_token) and attempts refused untried while guessing is throttled "
            "(throttled_client, throttled_overall), by surface (page, grpc)",
            ["surface", "outcome"],
            registry=r,
        )

    def rpc(self, method: str, code: str, seconds: float) -> None:
        self.rpc_calls.labels(method, code).inc()
        self.rpc_seconds.labels(method, code).observe(seconds)

    def llm_call(self, outcome: str, seconds: float) -> None:
        self.llm_calls.labels(outcome).inc()
        self.llm_seconds.labels(outcome).observe(seconds)

    def llm_tokens(self, prompt: int, completion: int) -> None:
        self.llm_tokens_total.labels("prompt").inc(max(0, prompt))
        self.llm_tokens_total.labels("completion").inc(max(0, completion))

    def llm_retry(self, reason: str) -> None:
        self.llm_retries.labels(reason).inc()

    def llm_format_fallback(self, rejected_format: str) -> None:
        self.llm_fallbacks.labels(rejected_format).inc()

    def op(self, op: str, outcome: str, reason: str = "") -> None:
        self.ops.labels(op, outcome, reason).inc()

    def dedup(self, verdict: str) -> None:
        self.dedup_verdicts.labels(verdict).inc()

    def embedding(self, kind: str, texts: int, seconds: float) -> None:
        self.embed_calls.labels(kind).inc()
        self.embed_texts.labels(kind).inc(texts)
        self.embed_seconds.labels(kind).observe(seconds)

    def read_routed(self, target: str, reason: str) -> None:
        self.reads.labels(target, reason).inc()

    def read_fallback(self, reason: str) -> None:
        self.read_fallbacks.labels(reason).inc()

    def replica_up(self, up: bool) -> None:
        if self.read_replica_up is None:
            self.read_replica_up = Gauge(
                "factmemory_read_replica_up",
                "1 while the read replica answers, 0 while reads fall back to the primary",
                registry=self.registry,
            )
        self.read_replica_up.set(1 if up else 0)

    def workers(self, reachable: int, total: int) -> None:
        if self.workers_gauges is None:
            self.workers_gauges = (
                Gauge(
                    "factmemory_citus_workers_reachable",
                    "Citus workers the coordinator reaches",
                    registry=self.registry,
                ),
                Gauge("factmemory_citus_workers", "active Citus workers", registry=self.registry),
            )
        self.workers_gauges[0].set(reachable)
        self.workers_gauges[1].set(total)

    def retention(self, what: str, count: int) -> None:
        self.retention_rows.labels(what).inc(max(0, count))

    def auth_failure(self, surface: str, outcome: str) -> None:
        self.auth_failures.labels(surface, outcome).inc()


class DatabaseGauges(Collector):
    """Pending review candidates (counted when scraped) and pool connections in use."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        count_pending: Callable[[], Coroutine[Any, Any, int]],
        pool_sizes: Callable[[], tuple[int, int]],
    ) -> None:
        self._loop = loop
        self._count_pending = count_pending
        self._pool_sizes = pool_sizes

    def collect(self) -> Iterator[GaugeMetricFamily]:
        size, idle = self._pool_sizes()
        yield GaugeMetricFamily("factmemory_db_pool_in_use", "database connections in use", value=size - idle)
        yield GaugeMetricFamily("factmemory_db_pool_size", "database connections open", value=size)
        try:
            future = asyncio.run_coroutine_threadsafe(self._count_pending(), self._loop)
            pending = float(future.result(SCRAPE_QUERY_TIMEOUT_S))
        except Exception as exc:  # the database may be down: the gauge is left out, the scrape still works
            log.debug("pending candidates not counted: %s", exc)
            return
        yield GaugeMetricFamily(
            "factmemory_pending_candidates", "review candidates waiting for a decision", value=pending
        )


class ObservedEmbedder:
    """An Embedder that records calls, texts, time and queue depth, then delegates (everything else forwarded)."""

    def __init__(self, inner: Embedder, telemetry: PrometheusTelemetry) -> None:
        self._inner = inner
        self._telemetry = telemetry
        self.model_name = inner.model_name
        self.dimensions = inner.dimensions

    async def _timed(
        self, kind: str, texts: Sequence[str], call: Callable[[Sequence[str]], Awaitable[Matrix]]
    ) -> Matrix:
        self._telemetry.embed_inflight.inc()
        started = time.perf_counter()
        try:
            return await call(texts)
        finally:
            self._telemetry.embed_inflight.dec()
            self._telemetry.embedding(kind, len(texts), time.perf_counter() - started)

    async def queries(self, texts: Sequence[str]) -> Matrix:
        return await self._timed("query", texts, self._inner.queries)

    async def passages(self, texts: Sequence[str]) -> Matrix:
        return await self._timed("passage", texts, self._inner.passages)

    def healthy(self) -> bool:
        return self._inner.healthy()

    async def close(self) -> None:
        await self._inner.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


Health = Callable[[], tuple[bool, dict[str, Any]]]


def _health_app(metrics: Callable[..., Iterable[bytes]], health: Health | None) -> Callable[..., Iterable[bytes]]:
    """/healthz and /readyz answer from the service's health state (200 SERVING, else 503); the rest is metrics."""

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("PATH_INFO") in HEALTH_PATHS and health is not None:
            ok, body = health()
            status = "200 OK" if ok else "503 Service Unavailable"
            start_response(status, [("Content-Type", "application/json"), ("Cache-Control", "no-store")])
            return [json.dumps(body, sort_keys=True).encode()]
        return metrics(environ, start_response)

    return app


class _Quiet(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


class _Threading(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _Threading6(_Threading):
    address_family = socket.AF_INET6


class MetricsServer:
    """The HTTP endpoint serving /metrics from one registry, and /healthz, /readyz from `health`, on its own thread."""

    def __init__(self, registry: CollectorRegistry, address: str, health: Health | None = None) -> None:
        host, _, port = address.rpartition(":")
        host = host.strip("[]") or "127.0.0.1"
        server_class = _Threading6 if ":" in host else _Threading
        app = _health_app(make_wsgi_app(registry), health)
        self._server: WSGIServer = make_server(host, int(port), app, server_class, handler_class=_Quiet)
        self._thread = threading.Thread(target=self._server.serve_forever, name="metrics", daemon=True)
        self._thread.start()

    @property
    def address(self) -> str:
        host, port = self._server.server_address[:2]
        name = host.decode() if isinstance(host, bytes) else str(host)
        return f"[{name}]:{port}" if ":" in name else f"{name}:{port}"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
