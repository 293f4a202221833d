"""Growing while serving: a third worker joins the cluster holding data, and Citus's own rebalancer moves shards to it
while Evaluate and Provide run. Nothing is lost or doubled, and every error a caller sees is one it may retry."""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

import asyncpg
import grpc

from factmemory_tools import citus_cluster as nodes
from tests.conftest import Service
from tests.support.fm import Person, add_durable, facts_of, facts_reply
from tests.support.llm_stub import Reply, ScriptedLLM

RETRYABLE = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.ABORTED}
PLACEMENTS = "SELECT nodeport, count(*) FROM citus_shards WHERE table_name = 'facts'::regclass GROUP BY 1"
FACTS_OF_AGENT = "SELECT count(*), count(DISTINCT (entity_id, claim)) FROM facts WHERE agent_id = $1"


async def retried(call: Any, seen: list[grpc.StatusCode]) -> Any:
    """The call, retried while it fails with a retryable status (each failure's status kept)."""
    for _ in range(60):
        try:
            return await call()
        except grpc.aio.AioRpcError as exc:
            seen.append(exc.code())
            if exc.code() not in RETRYABLE:
                raise
            await asyncio.sleep(0.5)
    raise AssertionError("still failing after 60 retries")


async def test_rebalance_onto_a_new_worker_while_serving_loses_and_doubles_nothing(
    citus_cluster: Any, citus_url: str, citus_service: Service, llm: ScriptedLLM
) -> None:
    svc, agent = citus_service, str(uuid.uuid4())
    people = [Person(f"R{i}", agent_id=agent) for i in range(16)]
    for i, person in enumerate(people):
        llm.on(f"R{i} likes tea", Reply(facts_reply(add_durable("likes tea", "preference"))))
        llm.on(f"R{i} plays chess", Reply(facts_reply(add_durable("plays chess", "preference"))))
        await svc.stub.Evaluate(person.evaluate(f"R{i} likes tea"))
    grown = nodes.add_worker(citus_cluster)
    seen: list[grpc.StatusCode] = []
    conn = await asyncpg.connect(citus_url)
    try:
        started = time.monotonic()
        await conn.execute("SELECT citus_rebalance_start()")
        # While the shards move: each person learns one more fact (Evaluate) and is provided for, with retries.
        turns = [person.evaluate(f"{person.name} plays chess") for person in people]
        for person, turn in zip(people, turns, strict=True):
            await retried(lambda turn=turn: svc.stub.Evaluate(turn), seen)
            await retried(lambda person=person: svc.stub.Provide(person.provide("what do I like?")), seen)
        await conn.execute("SELECT citus_rebalance_wait()")
        moved_in_s = time.monotonic() - started
        placements: dict[int, int] = {int(r[0]): int(r[1]) for r in await conn.fetch(PLACEMENTS)}
        counted = await conn.fetchrow(FACTS_OF_AGENT, uuid.UUID(agent))
        assert counted is not None
        stored, distinct = counted
    finally:
        await conn.close()
    assert placements.get(grown.ports[-1], 0) > 0, f"no shard moved to the new worker: {placements}"
    assert set(seen) <= RETRYABLE, seen
    assert (stored, distinct) == (2 * len(people), 2 * len(people))
    for person, turn in zip(people, turns, strict=True):
        assert {f.claim for f in await facts_of(svc, person)} == {"likes tea", "plays chess"}
        assert (await svc.stub.Evaluate(turn)).replayed
    print(f"rebalance: {placements} after {moved_in_s:.1f} s; caller errors {seen}")
