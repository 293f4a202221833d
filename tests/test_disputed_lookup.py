"""Provide marks a fact disputed by the newest pending contradiction of it (rows.DISPUTED_BY), once per fact it
returns. Migration 0093's index answers that with one probe per fact, however long the agent's pending queue is:
before it, the planner walked the agent's whole queue backwards for each fact."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import numpy as np

from factmemory.adapters.postgres.connection import pooled
from factmemory.adapters.postgres.read.provide_pool import CANDIDATES, candidate_args
from factmemory.domain.provide_tuning import RARE_DF, RARE_FACTS, VECTOR_POOL
from tests.conftest import Service
from tests.support.big_person import claims, load

FACTS = 200
QUEUE = 3_000  # pending review items of the agent about other people

OTHERS_PENDING = """
INSERT INTO fact_candidates (id, agent_id, entity_id, proposed_claim, source, evidence_message_id, created_at)
SELECT gen_random_uuid(), $1, gen_random_uuid(), 'another claim', 'dedup_conflict', 'm1', now() + $2 * interval '1 s'
  FROM generate_series(1, $3::integer) AS i
"""
NEWER_CONTRADICTION = """
INSERT INTO fact_candidates (id, agent_id, entity_id, fact_id, proposed_claim, source, evidence_message_id,
                             created_at)
SELECT gen_random_uuid(), agent_id, entity_id, id, 'moved to Lisbon', 'contradict', 'm2', now() + $4::interval
  FROM facts WHERE agent_id = $1 AND entity_id = $2 AND claim = $3
"""


async def test_each_fact_s_dispute_is_one_index_probe_whatever_the_queue(service: Service) -> None:
    agent, person = uuid.uuid4(), uuid.uuid4()
    dims = service.deps.embedder.dimensions
    disputed = claims(range(1, 2))[0]
    async with service.pool.acquire() as proxy:
        conn = pooled(proxy)
        await load(conn, agent, person, FACTS, dims, uuid.uuid4())
        await conn.execute(OTHERS_PENDING, agent, 1.0, QUEUE)
        await conn.execute(NEWER_CONTRADICTION, agent, person, disputed, timedelta(hours=1))
        await conn.execute("ANALYZE fact_candidates")
        turn = np.zeros(dims)
        turn[-1] = 1.0  # every stored vector is this one: the pool holds the person's first VECTOR_POOL facts
        args = (*candidate_args(turn.tolist(), VECTOR_POOL, [], RARE_DF, RARE_FACTS), [], [])  # no facts held
        explained = await conn.fetch("EXPLAIN (ANALYZE, BUFFERS) " + CANDIDATES, agent, person, *args)
        plan = "\n".join(r[0] for r in explained)
        rows = await conn.fetch(CANDIDATES, agent, person, *args)
    assert len(rows) == VECTOR_POOL
    subplan = plan[plan.index("SubPlan") :]
    assert "Index Scan using fact_candidates_disputed_idx" in subplan, plan
    # One probe per returned fact: the index's root and leaf pages, never the queue's thousands of rows.
    buffers = int(re.search(r"Buffers: shared hit=(\d+)", subplan).group(1))  # type: ignore[union-attr]
    assert buffers <= 3 * VECTOR_POOL, plan
    async with service.pool.acquire() as again:
        everyone = await again.fetch(
            CANDIDATES, agent, person, *candidate_args(turn.tolist(), FACTS, [], RARE_DF, 0), [], []
        )
    by_claim = {r["claim"]: r["disputed_by"] for r in everyone}
    assert by_claim[disputed] == "moved to Lisbon"  # the newest of its two pending contradictions
    assert by_claim[claims(range(2, 3))[0]] == "moved away"
    assert by_claim[claims(range(FACTS, FACTS + 1))[0]] is None
