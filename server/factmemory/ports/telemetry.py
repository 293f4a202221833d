"""What the service counts and times, and the telemetry that records nothing."""

from __future__ import annotations

from typing import Protocol


class Telemetry(Protocol):
    """What the service counts and times (Prometheus in adapters/metrics.py); labels are short fixed words,
    never caller or model text."""

    def rpc(self, method: str, code: str, seconds: float) -> None: ...

    def llm_call(self, outcome: str, seconds: float) -> None: ...

    def llm_tokens(self, prompt: int, completion: int) -> None: ...

    def llm_retry(self, reason: str) -> None: ...

    def llm_format_fallback(self, rejected_format: str) -> None: ...

    def op(self, op: str, outcome: str, reason: str = "") -> None: ...

    def dedup(self, verdict: str) -> None: ...

    def embedding(self, kind: str, texts: int, seconds: float) -> None: ...

    def read_routed(self, target: str, reason: str) -> None: ...

    def read_fallback(self, reason: str) -> None: ...

    def replica_up(self, up: bool) -> None: ...

    def workers(self, reachable: int, total: int) -> None:
        """The Citus workers the coordinator reaches now, of those active (a database distributed by person)."""
        ...

    def retention(self, what: str, count: int) -> None:
        """Rows retention changed: archived_facts, deleted_facts, reduced_evaluations, archived_candidates,
        expired_tickets."""
        ...

    def auth_failure(self, surface: str, outcome: str) -> None:
        """A wrong token (wrong_token) or an attempt refused untried (throttled_client, throttled_overall), on the
        page (page) or the gRPC bearer check (grpc)."""
        ...


class NullTelemetry:
    """Records nothing (metrics off, tests, tools)."""

    def rpc(self, method: str, code: str, seconds: float) -> None:
        return None

    def llm_call(self, outcome: str, seconds: float) -> None:
        return None

    def llm_tokens(self, prompt: int, completion: int) -> None:
        return None

    def llm_retry(self, reason: str) -> None:
        return None

    def llm_format_fallback(self, rejected_format: str) -> None:
        return None

    def op(self, op: str, outcome: str, reason: str = "") -> None:
        return None

    def dedup(self, verdict: str) -> None:
        return None

    def embedding(self, kind: str, texts: int, seconds: float) -> None:
        return None

    def read_routed(self, target: str, reason: str) -> None:
        return None

    def read_fallback(self, reason: str) -> None:
        return None

    def replica_up(self, up: bool) -> None:
        return None

    def workers(self, reachable: int, total: int) -> None:
        return None

    def retention(self, what: str, count: int) -> None:
        return None

    def auth_failure(self, surface: str, outcome: str) -> None:
        return None
