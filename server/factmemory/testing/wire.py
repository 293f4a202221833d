"""The OpenAI API's shapes the scripted model (llm.py) speaks: a chat completion, a Responses API reply, and a
Responses API request read as a chat request."""

from __future__ import annotations

import time
from typing import Any


def chat_completion(body: dict[str, Any], content: str, prompt_tokens: int, completion_tokens: int) -> dict[str, Any]:
    return {
        "id": "chatcmpl-stub",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "stub"),
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def responses_reply(body: dict[str, Any], content: str, prompt_tokens: int, completion_tokens: int) -> dict[str, Any]:
    """The same answer in the Responses API's shape."""
    return {
        "id": "resp-stub",
        "object": "response",
        "created_at": int(time.time()),
        "status": "completed",
        "model": body.get("model", "stub"),
        "incomplete_details": None,
        "output": [
            {
                "type": "message",
                "id": "msg-stub",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": content, "annotations": []}],
            }
        ],
        "usage": {
            "input_tokens": prompt_tokens,
            "output_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def as_chat(body: dict[str, Any]) -> dict[str, Any]:
    """A Responses API request seen as a chat request (messages with string content, response_format), so that
    rules, recording and counting treat both APIs alike; the original fields stay, `api` says which it was."""
    messages: list[dict[str, Any]] = []
    if isinstance(body.get("instructions"), str):
        messages.append({"role": "system", "content": body["instructions"]})
    items = body.get("input")
    for item in [{"role": "user", "content": items}] if isinstance(items, str) else items or []:
        content = item.get("content")
        if isinstance(content, list):
            content = "\n".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
        if isinstance(content, str):
            messages.append({"role": item.get("role", "user"), "content": content})
    fmt = ((body.get("text") or {}).get("format") or {}).get("type")
    return body | {"api": "responses", "messages": messages} | ({"response_format": {"type": fmt}} if fmt else {})
