"""Provide's candidate statement takes shortcuts (an index-only scan of the search vectors; a person's range or the
terms' GIN index for the rare-term facts, by the person's size): the facts Provide returns must be those of the
plain computation, an exact scan of every live fact of the person.

The reference store below answers `candidates` the plain way (PostgreSQL's exact order over the whole person, the
rare-term facts and their counts from the facts as inserted, in Python); Provide runs over each store, the same use
case, and must return the same facts with the same scores."""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest

from factmemory.adapters.postgres.deployment.replica import Reads
from factmemory.adapters.postgres.read.provide_pool import LEXEME_SCAN_MAX_FACTS
from factmemory.adapters.postgres.read.provide_store import PostgresProvide
from factmemory.adapters.postgres.rows import claim_terms, vector_array
from factmemory.adapters.postgres.store import PostgresEvaluate
from factmemory.domain.bm25 import Stats
from factmemory.domain.models import ChatMessage, Fact, ProvideInput
from factmemory.domain.provide_tuning import RARE_DF, RARE_FACTS
from factmemory.domain.vectors import Vector
from factmemory.ports import Pool, Similar
from factmemory.usecases.provide import provide
from tests.conftest import Service

AT = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
TOPICS = (
    "goes hiking in the hills near Porto every weekend",
    "plays the cello in a small amateur orchestra",
    "works as a nurse on the night shift at the city hospital",
    "is learning Japanese for a trip to Osaka next spring",
    "bakes sourdough bread and gives it to the neighbours",
    "is training for a half marathon in October",
    "has a cat called Miso who hates the vacuum cleaner",
    "is renovating the kitchen of an old flat",
)
CODES = 300  # each code word is in every CODES-th fact: rare for the person (RARE_DF)

INSERT = """
INSERT INTO facts (id, agent_id, entity_id, kind, category, claim, confidence, created_at, last_confirmed_at,
                   embedding, embedding_model, lexemes)
SELECT u.id, $1, $2, u.kind, u.category, u.claim, 0.7, $3, $3, u.embedding, 'test', string_to_array(u.terms, ' ')
  FROM unnest($4::uuid[], $5::text[], $6::text[], $7::text[], $8::vector[], $9::text[])
       AS u(id, kind, category, claim, embedding, terms)
"""
# The plain computation: every live fact of the person by its search vector's similarity (migration 0072; `+ 0`: no
# index order, a full sort).
EXACT = """
SELECT id, -(search_half <#> $3::vector::halfvec) AS similarity FROM facts
 WHERE agent_id = $1 AND entity_id = $2 AND archived_at IS NULL
 ORDER BY (search_half <#> $3::vector::halfvec) + 0, id
"""


class ExactStore(PostgresProvide):
    """Provide's store, with its candidates computed the plain way from the facts of one person."""

    def __init__(
        self, store: PostgresEvaluate, facts: dict[uuid.UUID, Fact], terms: dict[uuid.UUID, tuple[str, ...]]
    ) -> None:
        super().__init__(Reads(store.pool))
        self.facts, self.terms = facts, terms

    async def provide_pool(
        self,
        agent_id: uuid.UUID,
        entity_id: uuid.UUID,
        embedding: Vector,
        terms: Sequence[str],
        pool: int,
        rare_df: int,
        rare_limit: int,
        spans: Sequence[tuple[datetime, datetime]] = (),
        *,
        replica_ok: bool = False,
    ) -> Pool:
        assert not spans  # the turns below name no time
        async with self.reads.pool.acquire() as conn:
            ranked = [
                (r["id"], float(r["similarity"])) for r in await conn.fetch(EXACT, agent_id, entity_id, embedding)
            ]
        similarity = dict(ranked)
        df = Counter(t for held in self.terms.values() for t in set(held))
        rare = {t for t in terms if 0 < df[t] <= rare_df}
        worded = sorted(i for i, held in self.terms.items() if rare & set(held))[:rare_limit]
        ids = dict.fromkeys([i for i, _ in ranked[:pool]] + worded)
        found = [Similar(self.facts[i], similarity[i]) for i in ids]
        stats = Stats(len(self.facts), {t: df[t] for t in terms if df[t]})
        return Pool(found, [self.terms[i] for i in ids], stats)


def person_facts(count: int, topic_vectors: np.ndarray[Any, Any], seed: int) -> list[tuple[Any, ...]]:
    """Noisy copies of the topics' real embeddings (as the benchmark's facts are), each claim with a code word."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(count):
        topic = int(rng.integers(0, len(TOPICS)))
        vector = topic_vectors[topic] + rng.normal(0.0, 0.025, topic_vectors.shape[1])
        claim = f"{TOPICS[topic]}, noted as zq{i % CODES}"
        kind, category = ("durable", "preference") if i % 2 else ("current", "working_on")
        rows.append((uuid.uuid4(), kind, category, claim, np.asarray(vector / np.linalg.norm(vector), np.float32)))
    return rows


async def stored_person(
    service: Service, count: int, seed: int, spread: bool = False
) -> tuple[PostgresEvaluate, uuid.UUID, uuid.UUID, dict[uuid.UUID, tuple[str, ...]]]:
    """A new person of `count` facts (real embeddings plus noise) stored by SQL, their times spread over 100 days if
    `spread`; the store, the agent, the person and each fact's terms."""
    store = service.store
    assert isinstance(store, PostgresEvaluate)
    agent, entity = uuid.uuid4(), uuid.uuid4()
    topic_vectors = np.asarray(await service.deps.embedder.passages(list(TOPICS)), np.float32)
    rows = person_facts(count, topic_vectors, seed=seed)
    terms = {row[0]: tuple(claim_terms(row[3])) for row in rows}
    ids, kinds, categories, claims, vectors = (list(c) for c in zip(*rows, strict=True))
    async with store.pool.acquire() as conn:
        await conn.execute(
            INSERT,
            agent,
            entity,
            AT,
            ids,
            kinds,
            categories,
            claims,
            vector_array(vectors),
            [" ".join(terms[i]) for i in ids],
        )
        if spread:
            await conn.execute(SPREAD_TIMES, agent, entity, AT)
        await conn.execute("ANALYZE facts")
    return store, agent, entity, terms


@pytest.mark.parametrize("count", [LEXEME_SCAN_MAX_FACTS - 200, 2_400])
async def test_provide_returns_the_facts_of_an_exact_scan_of_the_person(service: Service, count: int) -> None:
    store, agent, entity, terms = await stored_person(service, count, seed=count)
    facts = {f.id: f for f in await service.browse.list_facts(agent, entity, None, None, count)}
    exact = replace(service.deps, provide_store=ExactStore(store, facts, terms))
    turns = [
        ["I went up the hills again", "the view over Porto was great", "my legs hurt", f"zq{n} came up"]
        for n in range(0, CODES, 37)
    ] + [["how is the kitchen going?", "and the cat?", "Miso hid all day"], ["any concerts soon?"]]
    worded = 0
    for lines in turns:
        request = ProvideInput(
            agent_id=agent,
            entity_id=entity,
            room_id=None,
            recent_messages=tuple(ChatMessage(id=str(i), text=t, created_at=AT) for i, t in enumerate(lines)),
            now=AT,
        )
        got, want = await provide(service.deps, request), await provide(exact, request)
        assert len(want.durable) + len(want.current) == 12
        assert [(s.fact.id, s.score) for s in got.durable] == [(s.fact.id, s.score) for s in want.durable]
        assert [(s.fact.id, s.score) for s in got.current] == [(s.fact.id, s.score) for s in want.current]
        assert got.text == want.text
        coded = [w for w in lines if w.startswith("zq")]
        worded += any(coded[0].split()[0] in terms[s.fact.id] for s in got.durable + got.current) if coded else 0
    assert worded  # a rare word's facts reached the returned facts (the rare-term part of the statement)


TIMES = "SELECT id, valid_at FROM facts WHERE agent_id = $1 AND entity_id = $2"
# Each fact's time: AT less (its rank by id mod 100) days, so a span of a few days holds facts nearest and not.
SPREAD_TIMES = """
UPDATE facts f SET valid_at = $3::timestamptz - make_interval(days => s.n)
  FROM (SELECT id, (row_number() OVER (ORDER BY id) % 100)::int AS n FROM facts
         WHERE agent_id = $1 AND entity_id = $2) AS s
 WHERE f.agent_id = $1 AND f.entity_id = $2 AND f.id = s.id
"""


async def test_the_pool_carries_the_exact_similarity_of_every_candidate(service: Service) -> None:
    """The nearest facts' similarities come from their index scan, the others' (rare-term and dated facts beyond
    the nearest) from their rows: every one must be the exact similarity, and the dated facts those of the exact
    order within the times the turn names."""
    store, agent, entity, terms = await stored_person(service, 600, seed=11, spread=True)
    query = await service.deps.embedder.queries(["how is the kitchen going?"])
    spans = [(AT - timedelta(days=12), AT - timedelta(days=9))]
    got = await service.provide.provide_pool(
        agent, entity, query[0], ["zq7", "kitchen"], 60, RARE_DF, RARE_FACTS, spans
    )
    async with store.pool.acquire() as conn:
        ranked = [(r["id"], float(r["similarity"])) for r in await conn.fetch(EXACT, agent, entity, query[0])]
        times = {r["id"]: r["valid_at"] for r in await conn.fetch(TIMES, agent, entity)}
    exact = dict(ranked)
    nearest = [i for i, _ in ranked[:60]]
    dated = [i for i, _ in ranked if spans[0][0] <= times[i] < spans[0][1]][:RARE_FACTS]
    worded = sorted(i for i in exact if "zq7" in terms[i])[:RARE_FACTS]
    assert {s.fact.id for s in got.found} == set(nearest) | set(dated) | set(worded)
    assert all(s.similarity == exact[s.fact.id] for s in got.found)
    assert set(dated) - set(nearest) and set(worded) - set(nearest)  # both kinds of row-computed similarity
