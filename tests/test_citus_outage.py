"""A worker of the Citus cluster down: the calls about people whose shards it holds answer UNAVAILABLE (never
INTERNAL) and leave nothing half-written; the other people are served; once it is back, a retry applies once."""

from __future__ import annotations

import uuid
from typing import Any

import asyncpg
import grpc

from factmemory_tools import citus_cluster as nodes
from tests.conftest import Service
from tests.support.fm import Person, add_durable, facts_of, facts_reply
from tests.support.llm_stub import Reply, ScriptedLLM

# Which node holds a person's shard of `facts`.
NODE_OF = """
SELECT s.nodeport FROM citus_shards s
 WHERE s.table_name = 'facts'::regclass AND s.shardid = get_shard_id_for_distribution_column('facts', $1::uuid)
"""


async def node_port(url: str, person: Person) -> int:
    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval(NODE_OF, uuid.UUID(person.entity_id)))
    finally:
        await conn.close()


async def code_of(call: Any) -> grpc.StatusCode:
    try:
        await call
    except grpc.aio.AioRpcError as exc:
        return exc.code()
    return grpc.StatusCode.OK


async def test_a_worker_down_is_unavailable_for_its_people_and_nothing_is_half_written(
    citus_cluster: Any, citus_url: str, citus_service: Service, llm: ScriptedLLM
) -> None:
    svc, cluster = citus_service, citus_cluster
    workers = cluster.ports[1:3]
    agent = str(uuid.uuid4())
    people = [Person(f"P{i}", agent_id=agent) for i in range(12)]
    ports = {p.entity_id: await node_port(citus_url, p) for p in people}
    down_port = workers[0]
    on_down = next(p for p in people if ports[p.entity_id] == down_port)
    elsewhere = next(p for p in people if ports[p.entity_id] != down_port)
    for person in (on_down, elsewhere):
        llm.on(f"{person.name} lives in Rome", Reply(facts_reply(add_durable("lives in Rome", "identity"))))
        await svc.stub.Evaluate(person.evaluate(f"{person.name} lives in Rome"))
    llm.on(f"{on_down.name} has a dog", Reply(facts_reply(add_durable("has a dog", "relationship"))))
    retried = on_down.evaluate(f"{on_down.name} has a dog")

    data = cluster.folder / f"n{cluster.ports.index(down_port)}"
    nodes.stop_node(data)
    try:
        assert await code_of(svc.stub.Evaluate(retried)) == grpc.StatusCode.UNAVAILABLE
        assert await code_of(svc.stub.Provide(on_down.provide("where do I live?"))) == grpc.StatusCode.UNAVAILABLE
        assert await code_of(svc.stub.ListFacts(on_down.list_facts())) == grpc.StatusCode.UNAVAILABLE
        provided = await svc.stub.Provide(elsewhere.provide("where do I live?"))
        assert "lives in Rome" in provided.text
    finally:
        nodes.start_node(nodes.build(), data, down_port)
    assert {f.claim for f in await facts_of(svc, on_down)} == {"lives in Rome"}
    first = await svc.stub.Evaluate(retried)
    assert not first.replayed and [o.rejected for o in first.ops] == [False]
    assert (await svc.stub.Evaluate(retried)).replayed
    assert {f.claim for f in await facts_of(svc, on_down)} == {"lives in Rome", "has a dog"}
