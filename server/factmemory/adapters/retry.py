"""One retry policy for the OpenAI-compatible edges (chat and embeddings): what is transient, how long to wait,
and which domain error a final failure becomes."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import httpx2
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


# The client library's error for each HTTP status (openai's own mapping), for calls made without its machinery.
_STATUS_ERRORS: dict[int, type[openai.APIStatusError]] = {
    400: openai.BadRequestError,
    401: openai.AuthenticationError,
    403: openai.PermissionDeniedError,
    404: openai.NotFoundError,
    409: openai.ConflictError,
    422: openai.UnprocessableEntityError,
    429: openai.RateLimitError,
}


def status_error(response: httpx2.Response) -> openai.APIStatusError:
    """The error the openai client raises for a failed reply: the same class, message and body, so retries and the
    domain errors above treat a call made directly over HTTP as they treat the client's."""
    message = f"Error code: {response.status_code}"
    text = response.text.strip()
    body: Any
    try:
        body = json.loads(text)
    except ValueError:
        body = text
    error = body.get("error", body) if isinstance(body, dict) else body
    detail = error.get("message") if isinstance(error, dict) else None
    if isinstance(detail, str) and detail:
        message += f" - {detail}"
    kind = _STATUS_ERRORS.get(response.status_code)
    if kind is None:
        kind = openai.InternalServerError if response.status_code >= 500 else openai.APIStatusError
    return kind(message, response=response, body=error)


def transport_error(exc: httpx2.TransportError) -> openai.APIConnectionError:
    """A timeout or a connection failure as the openai client raises it."""
    if isinstance(exc, httpx2.TimeoutException):
        return openai.APITimeoutError(request=exc.request)
    return openai.APIConnectionError(request=exc.request)


def retry_reason(exc: Exception) -> str:
    """A metric label for a retried failure."""
    if isinstance(exc, openai.APIStatusError):
        return "http_429" if exc.status_code == 429 else "http_5xx"
    return "timeout" if isinstance(exc, openai.APITimeoutError) else "connection"
