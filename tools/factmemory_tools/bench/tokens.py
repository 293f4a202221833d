"""Token counts of prompts: exact with an offline o200k_base tokenizer when installed, else characters / 4."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

# OpenAI's chat format adds a few tokens per message and to prime the reply.
PER_MESSAGE = 3
REPLY_PRIMING = 3


@dataclass(frozen=True)
class TokenCounter:
    method: str
    exact: bool
    count: Callable[[str], int]

    def chat(self, messages: Sequence[dict[str, Any]]) -> int:
        """Input tokens of chat messages as the chat completions endpoint counts them."""
        return sum(self.count(str(m.get("content", ""))) + PER_MESSAGE for m in messages) + REPLY_PRIMING


def _estimate(text: str) -> int:
    return (len(text) + 3) // 4


def token_counter() -> TokenCounter:
    """o200k_base (the gpt-4o / gpt-4o-mini encoding) via the `bpe-openai` package, which ships its vocabulary."""
    try:
        import bpe_openai

        encoding = bpe_openai.get_encoding("o200k_base")
        encoding.encode("warm up")
    except Exception:
        return TokenCounter(
            "estimate: characters / 4 (install `bpe-openai` for exact o200k_base counts)", False, _estimate
        )

    def exact(text: str) -> int:
        return len(encoding.encode(text))

    return TokenCounter("o200k_base via bpe-openai (exact, offline)", True, exact)
