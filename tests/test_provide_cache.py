"""Provide of a large person from the in-process copy of their search vectors (adapters/postgres/read/vector_cache.py)
must give exactly what the candidate statement gives without it, after every kind of write, from this service or
from anywhere else: an Evaluate, a claim edit (a new vector), an archive, a hard delete, ForgetMessages,
ForgetEntity and new facts, and writes by SQL on a connection of its own. Each check also asserts that the copy
answered (not the statement it falls back to), so that a check cannot pass by falling back."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
import numpy as np
import pytest
import pytest_asyncio
from pgvector import HalfVector
from pgvector.asyncpg import register_vector

from factmemory.adapters.postgres.deployment.replica import Reads
from factmemory.adapters.postgres.deployment.topology import Topology, topology_of
from factmemory.adapters.postgres.read.cached_provide import CachedProvide
from factmemory.adapters.postgres.read.provide_store import PostgresProvide
from factmemory.adapters.postgres.read.vector_cache import TRIGGER_PRESENT, VectorCopies, halfs
from factmemory.adapters.postgres.rows import claim_terms, vector_array
from factmemory.adapters.postgres.store import PostgresBulk
from factmemory.domain import language
from factmemory.domain.models import ChatMessage, Fact, ProvideInput
from factmemory.domain.provide_tuning import RARE_DF, RARE_FACTS, VECTOR_POOL
from factmemory.domain.vector_cache import TOLERANCE, PersonVectors, VectorCache, certain, pgvector_distances
from factmemory.domain.vectors import centroid
from factmemory.ports import Pool
from factmemory.testing.llm import Reply, ScriptedLLM
from factmemory.usecases.provide import provide
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service, make_settings, plain_provide, start_service
from tests.support.fm import Person, add_durable, facts_reply
from tests.test_provide_exact import AT, INSERT, TOPICS, person_facts

MIN_FACTS = 1_000
DAY = 86_400_000_000  # microseconds
TURNS = (
    ("I went up the hills again", "the view over Porto was great"),
    ("how is the kitchen going?", "and the cat?", "Miso hid all day"),
    ("any concerts soon?", "the cello part is hard"),
)


@pytest_asyncio.fixture(scope="module")
async def cached(
    pg_url: str, llm_server: ScriptedLLM, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Service]:
    """A service that copies the vectors of every person with at least MIN_FACTS live facts."""
    settings = make_settings(
        pg_url, llm_server, tmp_path_factory.mktemp("cached"), provide_cache_min_facts=MIN_FACTS, provide_cache_mb=64
    )
    async for svc in start_service(settings):
        yield svc


def copies_of(service: Service) -> VectorCopies:
    assert isinstance(service.provide, CachedProvide)
    return service.provide.copies


async def store_facts(service: Service, agent: uuid.UUID, entity: uuid.UUID, count: int, seed: int) -> None:
    """`count` noisy copies of the topics' embeddings (tests/test_provide_exact.py), stored by SQL."""
    assert count <= 300 * RARE_DF
    topic_vectors = np.asarray(await service.deps.embedder.passages(list(TOPICS)), np.float32)
    rows = person_facts(count, topic_vectors, seed=seed)
    ids, kinds, categories, claims, vectors = (list(c) for c in zip(*rows, strict=True))
    # Every 300th fact also holds words of the turns that no topic holds (rare: in at most RARE_DF facts), so that
    # the turns' pools take facts in by those words too.
    terms = [" ".join(claim_terms(c)) + (" view hid soon" if i % 300 == 0 else "") for i, c in enumerate(claims)]
    async with service.pool.acquire() as conn:
        await conn.execute(INSERT, agent, entity, AT, ids, kinds, categories, claims, vector_array(vectors), terms)


def request(agent: uuid.UUID, entity: uuid.UUID, lines: tuple[str, ...]) -> ProvideInput:
    messages = tuple(ChatMessage(id=str(i), text=t, created_at=AT) for i, t in enumerate(lines))
    return ProvideInput(agent_id=agent, entity_id=entity, room_id=None, recent_messages=messages, now=AT)


def facts_and_terms(pool: Pool) -> dict[uuid.UUID, tuple[Fact, tuple[str, ...]]]:
    return {s.fact.id: (s.fact, tuple(t)) for s, t in zip(pool.found, pool.terms, strict=True)}


async def same_as_statement(service: Service, agent: uuid.UUID, entity: uuid.UUID) -> dict[uuid.UUID, float]:
    """Every turn: the pool and the Provide from the copy equal those of the statement alone (the same facts, the
    same similarities; the same facts in the same order with the same scores), and the copy answered. Returns the
    ids of the copy's pools."""
    copies = copies_of(service)
    plain = plain_provide(service.pool)
    seen: list[dict[uuid.UUID, float]] = []
    for lines in TURNS:
        vector = centroid(await service.deps.embedder.queries(list(lines)))
        terms = language.content_terms("\n".join(lines))
        used = copies.counts["used"]
        got = await service.provide.provide_pool(agent, entity, vector, terms, VECTOR_POOL, RARE_DF, RARE_FACTS)
        assert copies.counts["used"] == used + 1, dict(copies.counts)
        want = await plain.provide_pool(agent, entity, vector, terms, VECTOR_POOL, RARE_DF, RARE_FACTS)
        assert {s.fact.id: s.similarity for s in got.found} == {s.fact.id: s.similarity for s in want.found}
        # The same facts and terms, though the service's come from its memo (fact_memo.py) as often as it can.
        assert facts_and_terms(got) == facts_and_terms(want)
        assert got.stats == want.stats
        seen.append({s.fact.id: s.similarity for s in got.found})
        ask = request(agent, entity, lines)
        cached_answer = await provide(service.deps, ask)
        plain_answer = await provide(replace(service.deps, provide_store=plain), ask)
        for section in ("durable", "current"):
            a, b = getattr(cached_answer, section), getattr(plain_answer, section)
            assert [(s.fact.id, s.score) for s in a] == [(s.fact.id, s.score) for s in b]
        assert cached_answer.text == plain_answer.text
    return seen[0]


async def warmed(service: Service, agent: uuid.UUID, entity: uuid.UUID) -> None:
    """The first Provide answers from the statement and builds the copy."""
    copies = copies_of(service)
    built = copies.counts["built"]
    vector = centroid(await service.deps.embedder.queries(list(TURNS[0])))
    await service.provide.provide_pool(agent, entity, vector, [], VECTOR_POOL, RARE_DF, RARE_FACTS)
    assert (agent, entity) in copies.cache and copies.counts["built"] == built + 1
    entry = copies.cache.get((agent, entity))
    assert entry is not None and entry.exact  # the copy computes the database's distances to the bit here


async def nearest_fact(
    service: Service, agent: uuid.UUID, entity: uuid.UUID, but: uuid.UUID | None = None
) -> uuid.UUID:
    vector = centroid(await service.deps.embedder.queries(list(TURNS[0])))
    async with service.pool.acquire() as conn:
        return uuid.UUID(
            str(
                await conn.fetchval(
                    "SELECT id FROM facts WHERE agent_id = $1 AND entity_id = $2 AND archived_at IS NULL "
                    "AND id IS DISTINCT FROM $4 ORDER BY search_half <#> $3::vector::halfvec, id LIMIT 1",
                    agent,
                    entity,
                    vector,
                    but,
                )
            )
        )


async def test_the_copy_answers_as_the_statement_after_every_kind_of_write(
    cached: Service, llm: ScriptedLLM, pg_url: str
) -> None:
    agent, entity = uuid.uuid4(), uuid.uuid4()
    await store_facts(cached, agent, entity, 1_500, seed=1)
    person = Person(agent_id=str(agent))
    person.entity_id = str(entity)
    await warmed(cached, agent, entity)
    known = cached.provide.fact_memo.counts["known"]
    await same_as_statement(cached, agent, entity)
    assert cached.provide.fact_memo.counts["known"] > known  # the copy's rows sent as ids and versions only

    # Evaluate: a new fact near the first turn.
    text = "I went hiking in the hills near Porto with a new club"
    llm.on(text, Reply(facts_reply(add_durable("goes hiking in the hills near Porto with a club", "preference"))))
    evaluated = person.evaluate(text)
    ops = (await cached.stub.Evaluate(evaluated)).ops
    assert len(ops) == 1 and not ops[0].deduplicated and not ops[0].rejected
    added_id = uuid.UUID(ops[0].fact.id)
    assert added_id in await same_as_statement(cached, agent, entity)

    # A reviewer's claim edit: the nearest fact gets another claim, so another vector.
    edited = await nearest_fact(cached, agent, entity, but=added_id)
    before = (await same_as_statement(cached, agent, entity))[edited]
    await cached.stub.UpdateFact(
        pb.UpdateFactRequest(
            agent_id=str(agent), entity_id=str(entity), fact_id=str(edited), claim="collects stamps from Peru"
        )
    )
    assert abs((await same_as_statement(cached, agent, entity)).get(edited, -1.0) - before) > 0.001  # moved

    # A reviewer's delete (the row goes: nothing tells the copy but the row's absence).
    deleted = await nearest_fact(cached, agent, entity, but=added_id)
    await cached.stub.DeleteFact(pb.DeleteFactRequest(agent_id=str(agent), entity_id=str(entity), fact_id=str(deleted)))
    assert deleted not in await same_as_statement(cached, agent, entity)

    # ForgetMessages: the evaluated message's only fact goes.
    done = await cached.stub.ForgetMessages(
        pb.ForgetMessagesRequest(agent_id=str(agent), entity_id=str(entity), message_ids=[evaluated.message.id])
    )
    assert done.facts_deleted == 1
    assert added_id not in await same_as_statement(cached, agent, entity)

    # Writes by SQL on a connection of its own (another process's pool): an archive, a new nearest fact, a moved
    # vector.
    vector = centroid(await cached.deps.embedder.queries(list(TURNS[1])))
    other, late = await asyncpg.connect(pg_url), await asyncpg.connect(pg_url)
    await register_vector(other)
    await register_vector(late)
    try:
        # A transaction open across the copy's snapshot (named in progress in it, its id below the snapshot's xmax)
        # writes a fact nearest the turn and commits after the copy moved on.
        long = late.transaction()
        await long.start()
        held = uuid.uuid4()
        await late.execute(
            INSERT, agent, entity, AT, [held], ["durable"], ["preference"], ["hikes near Porto"],
            vector_array([centroid(await cached.deps.embedder.queries(list(TURNS[0])))]), ["hike porto"],
        )  # fmt: skip
        # A later transaction (another person's write) completes first: the open one's id is then below the
        # snapshot's xmax, named in progress (xip), not past it.
        await other.execute(
            INSERT, agent, uuid.uuid4(), AT, [uuid.uuid4()], ["durable"], ["preference"], ["likes tea"],
            vector_array([vector]), ["tea"],
        )  # fmt: skip
        assert held not in await same_as_statement(cached, agent, entity)
        await long.commit()  # (no other write of the person could go before: it holds the person's counts)
        assert held in await same_as_statement(cached, agent, entity)
        archived = await nearest_fact(cached, agent, entity)
        await other.execute("UPDATE facts SET archived_at = now() WHERE id = $1", archived)
        assert archived not in await same_as_statement(cached, agent, entity)
        fresh = uuid.uuid4()
        await other.execute(
            INSERT, agent, entity, AT, [fresh], ["durable"], ["preference"], ["renovates a kitchen"],
            vector_array([vector]), ["renovat kitchen"],
        )  # fmt: skip
        assert fresh in await same_as_statement(cached, agent, entity)
        await other.execute(
            "UPDATE facts SET embedding = $2::vector, search_half = $2::vector::halfvec WHERE id = $1",
            fresh,
            -vector,
        )
        assert fresh not in await same_as_statement(cached, agent, entity)
    finally:
        await other.close()
        await late.close()

    # ForgetEntity by another process (another store on the database), then new facts of the person: the copy here
    # goes with the epoch at the next Provide (if the watch for forgets, forgotten.py, has not dropped it before);
    # the new facts get a new copy.
    # Which of the two drops a copy (the epoch at the next Provide, or this process's watch, which looks every 10 s
    # and may see a forget only after the copy was built again) is a race: counted together, as drops.
    copies = copies_of(cached)
    old = copies.cache.get((agent, entity))
    drops = copies.counts["epoch"] + copies.counts["forgotten"] + copies.counts["empty"]
    await PostgresBulk(cached.pool).forget_entity(agent, entity)
    await store_facts(cached, agent, entity, 1_100, seed=3)
    built = copies.counts["built"]
    await cached.provide.provide_pool(agent, entity, vector, [], VECTOR_POOL, RARE_DF, RARE_FACTS)
    # The statement answered, and showed the person large: their copy was built again.
    assert copies.counts["epoch"] + copies.counts["forgotten"] + copies.counts["empty"] > drops
    assert copies.counts["built"] == built + 1 and copies.cache.get((agent, entity)) not in (None, old)
    await same_as_statement(cached, agent, entity)

    # ForgetEntity elsewhere with nothing after: no fact is left to propose, and the copy goes.
    await PostgresBulk(cached.pool).forget_entity(agent, entity)
    empty = await cached.provide.provide_pool(agent, entity, vector, [], VECTOR_POOL, RARE_DF, RARE_FACTS)
    assert not empty.found and (agent, entity) not in copies.cache
    await store_facts(cached, agent, entity, 1_200, seed=2)
    await warmed(cached, agent, entity)
    # ForgetEntity in this process: the copy goes with it, before any Provide.
    assert (agent, entity) in copies.cache
    await cached.stub.ForgetEntity(pb.ForgetEntityRequest(agent_id=str(agent), entity_id=str(entity)))
    assert (agent, entity) not in copies.cache and copies.counts["forgotten"] >= 1
    await store_facts(cached, agent, entity, 1_200, seed=2)
    await warmed(cached, agent, entity)
    await same_as_statement(cached, agent, entity)


async def test_concurrent_provides_share_one_build(cached: Service) -> None:
    agent, entity = uuid.uuid4(), uuid.uuid4()
    await store_facts(cached, agent, entity, 1_100, seed=3)
    copies = copies_of(cached)
    built = copies.counts["built"]
    vector = centroid(await cached.deps.embedder.queries(list(TURNS[0])))
    calls = [cached.provide.provide_pool(agent, entity, vector, [], VECTOR_POOL, RARE_DF, RARE_FACTS) for _ in range(4)]
    await asyncio.gather(*calls)
    assert copies.counts["built"] == built + 1


async def test_the_budget_evicts_the_least_recently_used_person(cached: Service) -> None:
    people = [(uuid.uuid4(), uuid.uuid4()) for _ in range(2)]
    for n, (agent, entity) in enumerate(people):
        await store_facts(cached, agent, entity, 1_100, seed=10 + n)
    one = 1_100 * (2 * 384 + 200)  # a fact: its halfs and its id
    copies = VectorCopies(VectorCache(one * 3 // 2), MIN_FACTS)
    store = CachedProvide(Reads(cached.pool), copies)
    vector = centroid(await cached.deps.embedder.queries(list(TURNS[0])))
    for agent, entity in people:
        await store.provide_pool(agent, entity, vector, [], VECTOR_POOL, RARE_DF, RARE_FACTS)
    assert people[1] in copies.cache and people[0] not in copies.cache
    assert copies.cache.evictions == 1 and copies.cache.nbytes <= copies.cache.budget_bytes
    # The evicted person is answered by the statement, exactly, and copied again.
    got = await store.provide_pool(*people[0], vector, [], VECTOR_POOL, RARE_DF, RARE_FACTS)
    want = await plain_provide(cached.pool).provide_pool(*people[0], vector, [], VECTOR_POOL, RARE_DF, RARE_FACTS)
    assert {s.fact.id: s.similarity for s in got.found} == {s.fact.id: s.similarity for s in want.found}
    assert people[0] in copies.cache and people[1] not in copies.cache


SPREAD = """
UPDATE facts SET created_at = $3::timestamptz - make_interval(days => abs(hashtext(id::text)) % 100)
 WHERE agent_id = $1 AND entity_id = $2
"""


async def test_the_copy_answers_the_facts_of_named_times_as_the_statement(cached: Service) -> None:
    """A turn that names times: the copy proposes the nearest facts of those times too (for a large person a named
    year put ~10,000 facts through the statement's scan), and the pool is the statement's, whatever the spans hold;
    a fact whose time another writer changes is of its new time at once."""
    agent, entity = uuid.uuid4(), uuid.uuid4()
    await store_facts(cached, agent, entity, 1_100, seed=21)
    async with cached.pool.acquire() as conn:  # the facts spread over the 100 days before AT; two at no time at all
        await conn.execute(SPREAD, agent, entity, AT)
        for when in ("infinity", "-infinity"):
            await conn.execute(
                f"UPDATE facts SET valid_at = '{when}' WHERE agent_id = $1 AND id = "
                "(SELECT id FROM facts WHERE agent_id = $1 AND entity_id = $2 AND valid_at IS NULL LIMIT 1)",
                agent,
                entity,
            )
    await warmed(cached, agent, entity)
    copies, plain = copies_of(cached), plain_provide(cached.pool)

    def days(a: int, b: int) -> tuple[datetime, datetime]:
        return (AT - timedelta(days=a), AT - timedelta(days=b))

    async def same(spans: list[tuple[datetime, datetime]], lines: tuple[str, ...]) -> set[uuid.UUID]:
        vector = centroid(await cached.deps.embedder.queries(list(lines)))
        terms = language.content_terms("\n".join(lines))
        used = copies.counts["used"]
        args = (vector, terms, VECTOR_POOL, RARE_DF, RARE_FACTS, spans)
        got = await cached.provide.provide_pool(agent, entity, *args)
        assert copies.counts["used"] == used + 1, dict(copies.counts)
        want = await plain.provide_pool(agent, entity, *args)
        assert {s.fact.id: s.similarity for s in got.found} == {s.fact.id: s.similarity for s in want.found}
        assert facts_and_terms(got) == facts_and_terms(want)
        return {s.fact.id for s in got.found}

    for spans in ([days(30, 20)], [days(100, -1)], [days(5, 4), days(70, 60)], [days(-10, -20)], []):
        for lines in TURNS:
            await same(spans, lines)
    pooled = await same([], TURNS[0])
    # Another writer moves a fact the turn does not reach into a day alone (one of time created_at: not the two whose
    # valid_at, at no time, outranks created_at).
    held = "SELECT id FROM facts WHERE agent_id = $1 AND entity_id = $2 AND valid_at IS NULL"
    async with cached.pool.acquire() as conn:
        far = next(r["id"] for r in await conn.fetch(held, agent, entity) if r["id"] not in pooled)
        await conn.execute(
            "UPDATE facts SET created_at = $3 WHERE agent_id = $1 AND id = $2", agent, far, AT - timedelta(days=300)
        )
    assert far not in await same([], TURNS[0])
    assert far in await same([days(301, 299)], TURNS[0])  # by its new time alone


# The pure part (domain/vector_cache.py).


def random_halfs(rng: np.random.Generator, n: int, d: int = 16) -> Any:
    x = rng.normal(size=(n, d))
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float16)


def test_changes_put_replace_and_remove_and_nearest_is_exact_in_float32() -> None:
    rng = np.random.default_rng(0)
    ids = [uuid.uuid4() for _ in range(50)]
    vectors = random_halfs(rng, 50)
    entry = PersonVectors.of("s", 0, ids, vectors, [n * DAY for n in range(50)])
    truth = {i: vectors[n] for n, i in enumerate(ids)}
    times = {i: n * DAY for n, i in enumerate(ids)}
    new = [uuid.uuid4() for _ in range(40)]
    changed = [*new, ids[3], ids[7], ids[9]]
    fresh = random_halfs(rng, len(changed))
    fresh_times = [int(t) * DAY for t in rng.integers(0, 100, len(changed))]
    entry.apply(changed, [fresh[n] for n in range(len(changed) - 1)] + [None], fresh_times)
    truth.update({i: fresh[n] for n, i in enumerate(changed[:-1])})
    times.update({i: fresh_times[n] for n, i in enumerate(changed[:-1])})
    del truth[ids[9]]
    entry.remove(ids[0])
    del truth[ids[0]]
    assert len(entry) == len(truth) and set(entry.ids) == set(truth)
    turn = rng.normal(size=16).astype(np.float32)
    got = entry.nearest(turn, 10)
    q = turn.astype(np.float16).astype(np.float32)
    scores = sorted(((float(v.astype(np.float32) @ q), i) for i, v in truth.items()), reverse=True)
    assert got.ids == [i for _, i in scores[:10]]
    assert got.boundary == pytest.approx(scores[10][0], abs=1e-6)
    assert entry.nearest(turn, 500).boundary == float("-inf")
    # The facts of named times: [start, end) of each span, the best first, the boundary the best of the others.
    spans = [(10 * DAY, 20 * DAY), (60 * DAY, 61 * DAY)]
    inside = [(v, i) for v, i in scores if any(a <= times[i] < b for a, b in spans)]
    near, dated = entry.search(turn, 10, spans, 3)
    assert near == got and len(inside) > 4
    assert dated.ids == [i for _, i in inside[:3]]
    assert dated.boundary == pytest.approx(inside[3][0], abs=1e-6)
    assert entry.search(turn, 10, spans, 500)[1].ids == [i for _, i in inside]
    assert entry.search(turn, 10, (), 3)[1].ids == []


def test_the_product_of_the_stored_halfs_is_within_the_tolerance_of_the_database_s_order_of_sums() -> None:
    """The half-precision kernel sums in another order than pgvector's loop (pgvector_distances, checked against the
    database in the service tests): on 384 dimensions the two stay far inside TOLERANCE, for unit vectors and for
    the mean of two (a search vector), and a distance read from the rows is pgvector_distances of that row."""
    rng = np.random.default_rng(3)
    vectors = random_halfs(rng, 2_000, 384)
    vectors[1_000:] = ((vectors[1_000:].astype(np.float32) + vectors[:1_000].astype(np.float32)) / 2).astype(np.float16)
    entry = PersonVectors.of("s", 0, [uuid.uuid4() for _ in range(2_000)], vectors, [0] * 2_000)
    for _ in range(5):
        turn = rng.normal(size=384).astype(np.float32)
        turn /= np.linalg.norm(turn)
        database = -np.array(pgvector_distances(np.ascontiguousarray(vectors.astype(np.float32).T), turn))
        products = entry.products(turn)
        assert np.abs(products - database).max() < TOLERANCE / 20
        some = entry.ids[::97]
        assert entry.distances(some, turn) == [-float(database[entry.rows[i]]) for i in some]


async def test_halfs_read_the_vectors_as_pgvector_sends_them(cached: Service) -> None:
    """The database's own bytes (halfvec_send, header cut as the statements do) read as pgvector-python's codec reads
    each vector with its header."""
    values = [[0.5, -1.25, 3.0], [65504.0, -0.0001, 1.0 / 3]]
    async with cached.pool.acquire() as conn:
        rows = await conn.fetch(
            "SELECT halfvec_send(v::halfvec) AS whole FROM unnest($1::text[]) AS v", [str(v) for v in values]
        )
        joined = await conn.fetchval(
            "SELECT string_agg(substr(halfvec_send(v::halfvec), 5), ''::bytea) FROM unnest($1::text[]) AS v",
            [str(v) for v in values],
        )
    assert halfs(joined, 3).tolist() == [HalfVector.from_binary(r["whole"]).to_list() for r in rows]


def test_certain_needs_the_kth_beyond_the_boundary_by_the_tolerance() -> None:
    turn = np.full(4, 0.5, dtype=np.float32)
    assert certain(float("-inf"), 0.0, turn)
    assert certain(0.5, 0.501, turn) and not certain(0.5, 0.50001, turn) and not certain(0.5, 0.5, turn)


def test_the_cache_evicts_least_recently_used_whole_entries() -> None:
    rng = np.random.default_rng(1)

    def entry() -> PersonVectors:
        return PersonVectors.of("s", 0, [uuid.uuid4() for _ in range(10)], random_halfs(rng, 10), [0] * 10)

    size = entry().nbytes
    cache = VectorCache(size * 2)
    cache.put("a", entry())
    cache.put("b", entry())
    assert cache.get("a") is not None  # a is now the most recent
    cache.put("c", entry())
    assert "b" not in cache and "a" in cache and "c" in cache and cache.evictions == 1
    cache.put("big", PersonVectors.of("s", 0, [uuid.uuid4() for _ in range(40)], random_halfs(rng, 40), [0] * 40))
    assert len(cache) == 0 and cache.evictions == 4  # larger than the budget: not kept, and it evicted the rest


async def test_the_copy_is_on_by_default_for_people_of_ten_thousand_facts(cached: Service, tmp_path: Path) -> None:
    """What a service started without FACTMEMORY_PROVIDE_CACHE_* gets, and that 0 turns the copy off."""
    from factmemory.app.runtime import vector_copies
    from factmemory.settings import Settings

    default = await vector_copies(Settings(data_dir=tmp_path), cached.pool)
    assert default is not None and default.min_facts == 10_000 and default.cache.budget_bytes == 256 * 2**20
    assert await vector_copies(Settings(data_dir=tmp_path, provide_cache_mb=0), cached.pool) is None


async def test_no_copy_with_a_read_replica_or_on_citus(cached: Service, pg_url: str, tmp_path: Path) -> None:
    """The copy is checked against the primary's snapshots, and a Citus worker has transaction ids of its own: the
    app composes Provide's store with the copy on one PostgreSQL only, and the statement's own pool with it."""
    from factmemory.app.runtime import open_provide
    from factmemory.settings import Settings

    settings = Settings(data_dir=tmp_path, provide_cache_min_facts=MIN_FACTS, provide_cache_mb=1)
    async with AsyncExitStack() as stack:
        built = {t: await open_provide(stack, settings, pg_url, Reads(cached.pool), t) for t in Topology}
    assert isinstance(built[Topology.ONE], CachedProvide) and built[Topology.ONE].candidates_pool is not cached.pool
    for plain in (built[Topology.REPLICA], built[Topology.CITUS]):
        assert type(plain) is PostgresProvide and plain.candidates_pool is cached.pool
    assert isinstance(cached.provide, CachedProvide) and cached.provide.copies.min_facts == MIN_FACTS
    assert await topology_of(cached.pool, None) is Topology.ONE
    assert await topology_of(cached.pool, "postgresql://replica.invalid/fm") is Topology.REPLICA  # not connected here
    async with cached.pool.acquire() as conn:
        assert await conn.fetchval(TRIGGER_PRESENT)


async def test_a_copy_whose_distances_are_not_the_database_s_is_not_used(cached: Service) -> None:
    agent, entity = uuid.uuid4(), uuid.uuid4()
    await store_facts(cached, agent, entity, 1_050, seed=20)
    await warmed(cached, agent, entity)
    copies = copies_of(cached)
    entry = copies.cache.get((agent, entity))
    assert entry is not None
    entry.exact = False  # as when the check at build time finds another pgvector's sums
    vector = centroid(await cached.deps.embedder.queries(list(TURNS[0])))
    used, inexact = copies.counts["used"], copies.counts["inexact"]
    got = await cached.provide.provide_pool(agent, entity, vector, [], VECTOR_POOL, RARE_DF, RARE_FACTS)
    want = await plain_provide(cached.pool).provide_pool(agent, entity, vector, [], VECTOR_POOL, RARE_DF, RARE_FACTS)
    assert copies.counts["used"] == used and copies.counts["inexact"] == inexact + 1
    assert [(s.fact.id, s.similarity) for s in got.found] == [(s.fact.id, s.similarity) for s in want.found]
