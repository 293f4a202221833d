"""One retry policy for the OpenAI-compatible edges (chat and embeddings): what is transient, how long to wait,
and which domain error a final failure becomes."""

from __future__ import annotations

import random
from dataclasses import dataclass

import openai

from factmemory.domain.errors import FactMemoryError, NotConfigured, Refused, Unavailable

# What an OpenAI-compatible endpoint can raise that is about the endpoint, not about our code.
ENDPOINT_ERRORS = (openai.APIStatusError, openai.APITimeoutError, openai.APIConnectionError)


@dataclass(frozen=True)
class RetryPolicy:
    """Bounded retries of transient failures (429, 5xx, timeouts, connection errors)."""

    max_retries: int = 2
    base_delay_s: float = 0.5
    max_delay_s: float = 8.0
    # A Retry-After longer than this is not waited for: the caller gets UNAVAILABLE at once.
    max_retry_after_s: float = 10.0


def retry_after_s(exc: openai.APIStatusError) -> float | None:
    value: str | None = exc.response.headers.get("retry-after")
    try:
        return None if value is None else max(0.0, float(value))
    except ValueError:
        return None


def backoff_s(policy: RetryPolicy, attempt: int, exc: Exception) -> float | None:
    """Seconds to wait before the next attempt, or None when the failure must not be retried."""
    if attempt >= policy.max_retries:
        return None
    if isinstance(exc, openai.APIStatusError):
        if exc.status_code != 429 and exc.status_code < 500:
            return None
        hinted = retry_after_s(exc)
        if hinted is not None:
            return hinted if hinted <= policy.max_retry_after_s else None
    elif not isinstance(exc, openai.APITimeoutError | openai.APIConnectionError):
        return None
    jitter = 0.75 + 0.25 * random.random()
    return float(min(policy.max_delay_s, policy.base_delay_s * 2.0**attempt) * jitter)


def as_domain_error(exc: Exception, edge: str) -> FactMemoryError:
    """A final endpoint failure by who must act: refused (key, permission, model name) is configuration,
    anything else is the endpoint being unavailable."""
    if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError | openai.NotFoundError):
        return NotConfigured(f"the {edge} endpoint refused the call: {exc.message}")
    if (
        isinstance(exc, openai.APIStatusError)
        and 400 <= exc.status_code < 500
        and exc.status_code not in (408, 409, 429)
    ):
        # Not retryable: the same request is refused again (context_length_exceeded, a bad request).
        return Refused(f"the {edge} endpoint refused the request with HTTP {exc.status_code}: {exc.message}")
    if isinstance(exc, openai.APIStatusError):
        hinted = retry_after_s(exc)
        after = f" (retry after {hinted:.0f} s)" if hinted else ""
        return Unavailable(f"the {edge} endpoint failed with HTTP {exc.status_code}{after}")
    return Unavailable(f"the {edge} endpoint is unreachable: {type(exc).__name__}")


def retry_reason(exc: Exception) -> str:
    """A metric label for a retried failure."""
    if isinstance(exc, openai.APIStatusError):
        return "http_429" if exc.status_code == 429 else "http_5xx"
    return "timeout" if isinstance(exc, openai.APITimeoutError) else "connection"
