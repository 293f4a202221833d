"""Provide's nearest facts of a large person from an in-process copy of their search vectors (domain/vector_cache.py;
docs/read-path.md, "A large person's vectors in memory"), exact: the same candidate pool as provide_pool.CANDIDATES,
or no answer (None), and the caller runs CANDIDATES.

Per Provide of a person with a copy: the copy, as of its database snapshot, proposes its nearest k + MARGIN (under
the copy's lock). Then one statement, COPY_CANDIDATES, reads those facts and the person's rows changed since that
snapshot (migration 0092: each row names the transaction that last wrote it), computes the exact distance of the
live ones and keeps CANDIDATES' order and limit; it also says which proposed facts are gone (deleted: a delete
leaves no changed row), the forget epoch, and the snapshot it read in. The copy then applies the changed rows and
moves to that snapshot. No answer when the forget epoch moved, or when a fact neither proposed nor changed could
still be among the nearest k (domain/vector_cache.certain). A copy is built after an answer of CANDIDATES shows the
person has at least `min_facts` live facts: one statement reads their ids and vectors and the snapshot; concurrent
Provides of the person share one build."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

import asyncpg
import numpy as np

from factmemory.adapters.postgres.connection import pooled
from factmemory.adapters.postgres.read.fact_memo import Held
from factmemory.adapters.postgres.read.provide_pool import AT_MICROS, COPY_CANDIDATES
from factmemory.domain.vector_cache import (
    ID_BYTES,
    TIME_BYTES,
    TOLERANCE,
    Halfs,
    Nearest,
    PersonVectors,
    VectorCache,
    certain,
    micros_of,
)
from factmemory.domain.vectors import Vector

log = logging.getLogger(__name__)

# Proposed beyond the k nearest: room for the two sides' rounding and for facts deleted since the copy was read.
MARGIN = 32
# A copy of more products than this is searched in a worker thread (the kernel releases the GIL): ~2 ms of the loop
# (20,000 facts of 384 dimensions: 1.0 ms alone, 1.4 ms inside the service, 2026-11-27 speed7 log), about what the
# rest of a Provide's own work takes on the loop. Below it the hop to the thread and back (0.2-0.6 ms) costs the
# call more than the loop's other callers gain. A judgement, not tuned on a data set.
OFF_LOOP_PRODUCTS = 16_000_000

# $1 agent, $2 person. The live facts' ids, search vectors (as pgvector sends a halfvec, its 4-byte header cut off,
# concatenated in the ids' order) and times (AT_MICROS) in one snapshot, named with it.
LOAD_PERSON = f"""
WITH live AS MATERIALIZED (
    SELECT id, substr(halfvec_send(search_half), 5) AS vector, {AT_MICROS} AS at FROM facts
     WHERE agent_id = $1 AND entity_id = $2 AND archived_at IS NULL)
SELECT pg_current_snapshot()::text AS snapshot,
       coalesce((SELECT epoch FROM forget_epochs WHERE agent_id = $1 AND entity_id = $2), 0) AS epoch,
       l.ids, l.vectors, l.times
  FROM (SELECT array_agg(id) AS ids, string_agg(vector, ''::bytea) AS vectors, array_agg(at) AS times
          FROM live) AS l
"""
# The database's distances of some of the person's facts to a probe vector: the copy computes its own
# (pgvector_distances) only when they equal these to the bit.
CHECK = """
SELECT id, search_half <#> $3::vector::halfvec AS distance FROM facts
 WHERE agent_id = $1 AND entity_id = $2 AND id = ANY ($4::uuid[])
"""
CHECKED_FACTS = 64
# Whether every write of facts names its transaction (migration 0092 does not add the trigger on Citus).
TRIGGER_PRESENT = """
SELECT EXISTS (SELECT 1 FROM pg_trigger
                WHERE tgrelid = 'facts'::regclass AND tgname = 'facts_changed_tx' AND tgenabled <> 'D')
"""

Key = tuple[UUID, UUID]


async def copies_possible(pool: asyncpg.Pool) -> bool:
    """Whether the database stamps each write of facts with its transaction (read once at start-up)."""
    async with pool.acquire() as conn:
        return bool(await conn.fetchval(TRIGGER_PRESENT))


class VectorCopies:
    """The copies of the large people's vectors in this process, and how Provide uses them. `counts`: answers by
    reason (used, uncertain, epoch, empty, inexact), builds and drops, for tests and the benchmark."""

    def __init__(self, cache: VectorCache, min_facts: int, margin: int = MARGIN) -> None:
        self.cache = cache
        self.min_facts = min_facts
        self.margin = margin
        self.counts: Counter[str] = Counter()
        self._locks: dict[Key, asyncio.Lock] = {}
        self._builds: dict[Key, asyncio.Future[None]] = {}

    async def candidates(
        self,
        conn: asyncpg.Connection,
        agent_id: UUID,
        entity_id: UUID,
        embedding: Vector,
        k: int,
        args: Sequence[object],
        held_of: Callable[[Sequence[UUID]], Held],
        spans: Sequence[tuple[datetime, datetime]] = (),
        dated: int = 0,
    ) -> tuple[list[asyncpg.Record], Held] | None:
        """CANDIDATES' rows from the copy (`args`: $3 to $10 of CANDIDATES, whose named times are `spans` and whose
        limit of facts of those times is `dated`) and the held facts of those it proposed (`held_of`,
        fact_memo.py), or None: no copy, or no exact answer."""
        key = (agent_id, entity_id)
        entry = self.cache.get(key)
        if entry is None:
            return None
        if not entry.exact:  # its distances are not the database's to the bit: the statement answers
            self.counts["inexact"] += 1
            return None
        lock = self._locks.setdefault(key, asyncio.Lock())
        clock = _Phases(self.counts)
        async with lock:
            clock.lap("us_lock")
            if self.cache.get(key) is not entry:
                return None
            snapshot = entry.snapshot
            near, of_times = await self._search(entry, embedding, k + self.margin, spans, dated + self.margin)
            clock.lap("us_nearest")
            known = entry.distances(near.ids, embedding)
            known_of_times = entry.distances(of_times.ids, embedding)
            clock.lap("us_distances")
        held = held_of([*near.ids, *of_times.ids])
        rows = await conn.fetch(
            COPY_CANDIDATES,
            agent_id,
            entity_id,
            *args,
            held.ids,
            held.versions,
            near.ids,
            snapshot,
            known,
            of_times.ids,
            known_of_times,
        )
        clock.lap("us_statement")
        if not rows or rows[0]["changed_ids"] is None:
            # Nothing proposed is live and nothing changed: the person's facts are all gone (ForgetEntity), or every
            # fact the copy proposes was deleted. It is built again when CANDIDATES shows the person large.
            self._drop(key, "empty")
            return None
        first = rows[0]
        if first["epoch"] != entry.epoch:
            self._drop(key, "epoch")
            return None
        vanished = set(first["vanished"])
        async with lock:
            if self.cache.get(key) is entry and entry.snapshot == snapshot:  # not brought forward by another call
                vectors = [_halfs(v, entry.dimensions) for v in first["changed_vectors"]]
                entry.apply(first["changed_ids"], vectors, first["changed_times"])
                for fact_id in vanished:
                    entry.remove(fact_id)
                entry.snapshot = first["snapshot"]
                self.cache.fit()
        ghosts = len(entry) - int(first["person_facts"])
        if int(first["person_facts"]) < self.min_facts or ghosts > self.margin:
            self._drop(key, "dropped")  # too small now, or too many deleted facts held: rebuilt when large
        if not _exact(near, rows, k, embedding) or (spans and not _exact_of_times(of_times, first, dated, embedding)):
            self.counts["uncertain"] += 1
            return None
        self.counts["used"] += 1
        return rows, held

    def holds(self, agent_id: UUID, entity_id: UUID) -> bool:
        """Whether the person has a copy now (without touching its place in the least-recently-used order)."""
        return (agent_id, entity_id) in self.cache

    async def learn(self, pool: asyncpg.Pool, agent_id: UUID, entity_id: UUID, person_facts: int, dims: int) -> None:
        """After an answer of CANDIDATES: builds the person's copy when they have at least min_facts live facts
        and it fits the budget. Concurrent callers share one build; a failed build is logged, never raised."""
        key = (agent_id, entity_id)
        if person_facts < self.min_facts or key in self.cache:
            return
        if person_facts * (2 * dims + TIME_BYTES + ID_BYTES) > self.cache.budget_bytes:
            return
        build = self._builds.get(key)
        if build is None:
            build = asyncio.ensure_future(self._build(pool, key))
            self._builds[key] = build
            build.add_done_callback(lambda _: self._builds.pop(key, None))
        await asyncio.shield(build)

    async def _build(self, pool: asyncpg.Pool, key: Key) -> None:
        try:
            async with pool.acquire() as conn:
                row = await conn.fetchrow(LOAD_PERSON, *key)
                entry = await asyncio.to_thread(_entry, row)
                if entry is not None:
                    entry.exact = await _checked(pooled(conn), key, entry)
        except Exception as exc:  # the Provide that asked has its answer: the copy is tried again by the next
            log.warning("copy of a person's vectors not built: %s: %s", type(exc).__name__, exc)
            return
        if entry is not None and entry.exact:  # else it could not answer exactly: the statement does (logged)
            self.cache.put(key, entry)
            self.counts["built"] += 1

    async def _search(
        self, entry: PersonVectors, embedding: Vector, n: int, spans: Sequence[tuple[datetime, datetime]], dated: int
    ) -> tuple[Nearest, Nearest]:
        micros = [(micros_of(start), micros_of(end)) for start, end in spans]
        if len(entry) * entry.dimensions >= OFF_LOOP_PRODUCTS:
            return await asyncio.to_thread(entry.search, embedding, n, micros, dated)
        return entry.search(embedding, n, micros, dated)

    def forget(self, agent_id: UUID, entity_id: UUID) -> None:
        """Drops the person's copy (ForgetEntity)."""
        if (agent_id, entity_id) in self.cache:
            self._drop((agent_id, entity_id), "forgotten")

    def _drop(self, key: Key, reason: str) -> None:
        self.cache.drop(key)
        self.counts[reason] += 1


async def _checked(conn: asyncpg.Connection, key: Key, entry: PersonVectors) -> bool:
    """Whether the copy's distances equal the database's, to the bit, for some facts and a probe vector, and its
    products (what proposes the nearest facts) are within half the tolerance of them."""
    probe = np.random.default_rng(len(entry)).normal(size=entry.dimensions).astype(np.float32)
    probe /= np.linalg.norm(probe)
    ids = entry.ids[:: max(1, len(entry) // CHECKED_FACTS)][:CHECKED_FACTS]
    rows = await conn.fetch(CHECK, *key, probe, ids)
    database = {r["id"]: float(r["distance"]) for r in rows}
    mine = dict(zip(ids, entry.distances(ids, probe), strict=True))
    if database != {i: mine[i] for i in database} or len(database) != len(ids):
        log.warning("a person's copy computes other distances than the database: it is not used")
        return False
    products = entry.products(probe)
    if any(abs(products[entry.rows[i]] + mine[i]) > TOLERANCE / 2 for i in ids):
        log.warning("a person's copy computes products further from the database's than allowed: it is not used")
        return False
    return True


class _Phases:
    """Microseconds spent per phase of a Provide from the copy, summed into `counts` (the benchmark's figure)."""

    def __init__(self, counts: Counter[str]) -> None:
        self._counts = counts
        self._last = time.perf_counter()

    def lap(self, phase: str) -> None:
        now = time.perf_counter()
        self._counts[phase] += int((now - self._last) * 1e6)
        self._last = now


# halfvec's binary form (pgvector's halfvec_send, what pgvector-python's HalfVector.from_binary reads): a 4-byte
# header (dimensions, unused), then the values as big-endian float16. The statements cut the header in SQL and
# concatenate a person's vectors into one bytea, read here in one numpy call: the codec registered on every
# connection builds one object per vector (20,000 for a large person).
def halfs(data: bytes, dimensions: int) -> Halfs:
    """Vectors as pgvector sends halfvec values, concatenated without their 4-byte headers: a row each."""
    return np.frombuffer(data, dtype=">f2").reshape(-1, dimensions).astype(np.float16)


def _halfs(data: bytes | None, dimensions: int) -> Halfs | None:
    return None if data is None else halfs(data, dimensions)[0]


def _entry(row: Any) -> PersonVectors | None:
    ids = row["ids"] or []
    if not ids:
        return None
    vectors = row["vectors"]
    dimensions = len(vectors) // (2 * len(ids))
    return PersonVectors.of(row["snapshot"], row["epoch"], ids, halfs(vectors, dimensions), row["times"])


def _exact(near: Nearest, rows: Sequence[asyncpg.Record], k: int, embedding: Vector) -> bool:
    """Whether the statement's nearest facts (`near` rows: the proposed ones still live and the ones changed since
    the copy's snapshot, by the database's distances) are certainly the database's nearest k: every fact was
    proposed, or k of them are there and the k-th is nearer than any fact neither proposed nor changed can be (such a
    fact's vector is the copy's, which scored it at most `near.boundary`)."""
    if near.boundary == float("-inf"):
        return True
    similarities = sorted((float(r["similarity"]) for r in rows if r["near"]), reverse=True)
    return len(similarities) >= k and certain(near.boundary, similarities[k - 1], embedding)


def _exact_of_times(of_times: Nearest, first: asyncpg.Record, limit: int, embedding: Vector) -> bool:
    """Whether the statement's facts of the named times (the proposed ones still live and of those times, and the
    changed ones of those times) are certainly the database's nearest `limit` of them: the copy proposed every fact
    of those times it holds, or `limit` were found and the last is nearer than any fact not proposed can be."""
    if of_times.boundary == float("-inf"):
        return True
    found, last = int(first["dated_count"]), first["dated_last"]
    return found >= limit and last is not None and certain(of_times.boundary, -float(last), embedding)
