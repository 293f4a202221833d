"""The LLM edge: one structured chat completion per turn, with response-format fallback and validation."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

import openai

from factmemory.adapters.llm.completion import read_completion
from factmemory.adapters.retry import RetryPolicy, as_domain_error, backoff_s, retry_reason
from factmemory.domain.errors import BadModelReply, NotConfigured, Refused, Unavailable
from factmemory.domain.extraction import ExtractionReply, strict_schema
from factmemory.domain.models import Item, Usage
from factmemory.domain.prompts import Prompt
from factmemory.domain.reply import parse_reply
from factmemory.ports import NullTelemetry, Telemetry

log = logging.getLogger(__name__)

# Tried in this order; an endpoint that rejects one is not asked for it again by this process.
FORMATS = ("json_schema", "json_object", "text")


def response_format(
    mode: str, items: frozenset[Item], batched: bool = False, shared: bool = False
) -> dict[str, Any] | None:
    if mode == "json_schema":
        return {
            "type": "json_schema",
            "json_schema": {"name": "extraction", "strict": True, "schema": strict_schema(items, batched, shared)},
        }
    if mode == "json_object":
        return {"type": "json_object"}
    return None


def _rejects_format(exc: openai.BadRequestError) -> bool:
    text = str(exc).lower()
    return "response_format" in text or "json_schema" in text or "json_object" in text


class Extractor:
    """Calls the chat endpoint at temperature 0; transient failures are retried here, bounded."""

    def __init__(
        self,
        client: openai.AsyncOpenAI,
        model: str,
        retry: RetryPolicy | None = None,
        telemetry: Telemetry | None = None,
    ) -> None:
        self._client = client
        self._model = model
        self._retry = retry or RetryPolicy()
        self._format_index = 0
        self._telemetry = telemetry or NullTelemetry()

    async def extract(self, prompt: Prompt, items: frozenset[Item]) -> tuple[ExtractionReply, Usage]:
        """The validated reply and its usage; timed and counted by outcome."""
        started = time.perf_counter()
        outcome = "error"
        try:
            reply, usage = await self._extract(prompt, items)
            outcome = "ok"
            self._telemetry.llm_tokens(usage.prompt_tokens, usage.completion_tokens)
            return reply, usage
        except BadModelReply as exc:
            outcome = "bad_reply"
            log.warning("the model's reply broke the contract (nothing applied): %s", exc)
            raise
        except NotConfigured as exc:
            outcome = "refused"
            log.warning("the LLM endpoint refused the credentials or the model: %s", exc)
            raise
        except Unavailable:
            outcome = "unavailable"
            raise
        finally:
            self._telemetry.llm_call(outcome, time.perf_counter() - started)

    async def _extract(self, prompt: Prompt, items: frozenset[Item]) -> tuple[ExtractionReply, Usage]:
        attempt = 0
        while True:
            mode = FORMATS[self._format_index]
            try:
                content, usage = await self._complete(prompt, items, mode)
            except (openai.APIStatusError, openai.APITimeoutError, openai.APIConnectionError) as exc:
                if isinstance(exc, openai.BadRequestError):
                    if _rejects_format(exc) and self._format_index < len(FORMATS) - 1:
                        log.warning("LLM endpoint rejects response_format %s; falling back", mode)
                        self._telemetry.llm_format_fallback(mode)
                        self._format_index += 1
                        continue
                    # Not retryable: the same prompt is refused again (context_length_exceeded, a bad model name).
                    raise Refused(f"the LLM endpoint rejected the request: {exc.message}") from exc
                delay = backoff_s(self._retry, attempt, exc)
                if delay is None:
                    raise as_domain_error(exc, "LLM") from exc
                log.warning("LLM call failed (%s); retry %d in %.2f s", type(exc).__name__, attempt + 1, delay)
                self._telemetry.llm_retry(retry_reason(exc))
                attempt += 1
                await asyncio.sleep(delay)
                continue
            return parse_reply(content, items), usage

    async def _complete(self, prompt: Prompt, items: frozenset[Item], mode: str) -> tuple[str, Usage]:
        system = prompt.system
        if mode == "text":
            schema = strict_schema(items, prompt.messages > 1, prompt.shared)
            system += "\nAnswer with the JSON object only. Its JSON schema:\n" + json.dumps(schema)
        kwargs: dict[str, Any] = {}
        fmt = response_format(mode, items, prompt.messages > 1, prompt.shared)
        if fmt is not None:
            kwargs["response_format"] = fmt
        # The raw body: the endpoint may answer 200 with anything (HTML, null, a list, wrong types).
        raw = await self._client.chat.completions.with_raw_response.create(
            model=self._model,
            temperature=0,
            messages=[{"role": "system", "content": system}, {"role": "user", "content": prompt.user}],
            **kwargs,
        )
        return read_completion(raw.http_response.content)
