"""Composition root: open the database, embedder and LLM client once, serve, close in reverse order.

config: settings -> limits, policies, start-up checks; runtime: open and close the resources; lifecycle: the
servers and serve(). The names below are the ones the command line, the tests and the tools use."""

from factmemory.app.config import (
    InsecureBind,
    WeakToken,
    check_bind,
    check_token,
    embedding_dimensions,
    limits,
    page_config,
    retention_policy,
    startup_line,
    ticket_policy,
    tuning,
)
from factmemory.app.lifecycle import DependencyLost, ListenError, create_server, health_probes, serve
from factmemory.app.runtime import (
    CLUSTER_HEALTH,
    READ_REPLICA_HEALTH,
    Runtime,
    open_deps,
    open_runtime,
    start_cluster_watch,
    start_replica_watch,
)

__all__ = [
    "CLUSTER_HEALTH",
    "READ_REPLICA_HEALTH",
    "DependencyLost",
    "InsecureBind",
    "ListenError",
    "Runtime",
    "WeakToken",
    "check_bind",
    "check_token",
    "create_server",
    "embedding_dimensions",
    "health_probes",
    "limits",
    "open_deps",
    "open_runtime",
    "page_config",
    "retention_policy",
    "serve",
    "start_cluster_watch",
    "start_replica_watch",
    "startup_line",
    "ticket_policy",
    "tuning",
]
