"""What the use-cases need from the edges: protocols for the fact store and its write transaction, the extractor
and the embedder, and the plain values that cross them. Adapters implement these; use-cases import only these.

One module per port family (values, engines, facts, stores, telemetry); this package re-exports them all, so
`from factmemory.ports import EvaluateStore` is the one way to name a port. The domain's values they carry
(Vector, Matrix, NewFact) have one door too: their domain module."""

from factmemory.ports.engines import Embedder, Extractor
from factmemory.ports.facts import (
    BrowseStore,
    BulkStore,
    EvaluateStore,
    ProvideStore,
    ReviewStore,
    ReviewTransaction,
    WriteTransaction,
)
from factmemory.ports.stores import AgentStore, ForgetTransaction, MessageStore, RetentionStore, TicketStore
from factmemory.ports.telemetry import NullTelemetry, Telemetry
from factmemory.ports.values import (
    CALL_SCOPE,
    CallScope,
    FactChange,
    Pool,
    Position,
    Similar,
    TurnStart,
    WriteContext,
)

__all__ = [
    "CALL_SCOPE",
    "AgentStore",
    "BrowseStore",
    "BulkStore",
    "CallScope",
    "Embedder",
    "EvaluateStore",
    "Extractor",
    "FactChange",
    "ForgetTransaction",
    "MessageStore",
    "NullTelemetry",
    "Pool",
    "Position",
    "ProvideStore",
    "RetentionStore",
    "ReviewStore",
    "ReviewTransaction",
    "Similar",
    "Telemetry",
    "TicketStore",
    "TurnStart",
    "WriteContext",
    "WriteTransaction",
]
