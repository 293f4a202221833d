"""The embedder and the extractor: the two engines a turn calls besides the database."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from factmemory.domain.extraction import ExtractionReply
from factmemory.domain.models import (
    Item,
    Usage,
)
from factmemory.domain.prompts import Prompt
from factmemory.domain.vectors import Matrix


class Embedder(Protocol):
    """Unit-length embeddings; queries and passages may be embedded differently (E5 prefixes)."""

    model_name: str
    dimensions: int

    async def queries(self, texts: Sequence[str]) -> Matrix: ...

    async def passages(self, texts: Sequence[str]) -> Matrix: ...

    def healthy(self) -> bool:
        """False while the embedder cannot embed at all (for example every local engine process is down)."""
        ...

    async def close(self) -> None: ...


class Extractor(Protocol):
    """The one structured LLM call of a turn: the reply validated against the contract, and its token usage."""

    async def extract(self, prompt: Prompt, items: frozenset[Item]) -> tuple[ExtractionReply, Usage]: ...
