"""An asyncio client of the FactMemory gRPC service (factmemory.v1).

`connect(url, token=..., timeout_s=...)` gives a `FactMemoryClient` whose coroutines take and return the generated
messages of `factmemory_client.pb` (the module `factmemory_client.v1.factmemory_pb2`).
"""

from factmemory_client.client import NO_RETRY, FactMemoryClient, Retry, Target, connect, parse_url
from factmemory_client.v1 import factmemory_pb2 as pb

__all__ = ["NO_RETRY", "FactMemoryClient", "Retry", "Target", "connect", "parse_url", "pb"]
