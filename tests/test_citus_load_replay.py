"""The load test's last integrity check on the cluster: after a load whose people's shards then moved to another
worker, the facts still equal a sequential replay of the acknowledged messages, in the order the facts' evidence
gives (the commit order, read from xmin on one PostgreSQL, is gone once rows are copied to another worker). And the
order itself: read from evidence lists, refused when they contradict each other."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

import asyncpg

from factmemory_tools.loadtest import LoadConfig, Run, evidence_order, run_load

# The worker holding a person's shard, and where else it could go.
SHARD_OF = "SELECT get_shard_id_for_distribution_column('facts', $1::uuid)"
PLACEMENT = "SELECT nodename, nodeport FROM citus_shards WHERE shardid = $1"
OTHER_WORKERS = """
SELECT nodename, nodeport FROM pg_dist_node
 WHERE noderole = 'primary' AND isactive AND shouldhaveshards AND groupid <> 0 AND (nodename, nodeport) <> ($1, $2)
 ORDER BY nodeport
"""
MOVE = """
SELECT citus_move_shard_placement($1, $2, $3, $4, $5, shard_transfer_mode := 'block_writes')
"""
# The moved person's evaluations: copied to the new worker in one transaction, so one xmin for all of them.
XMINS_OF = "SELECT count(DISTINCT xmin::text) FROM evaluations WHERE agent_id = $1 AND entity_id = $2"


async def test_after_a_load_and_a_shard_move_the_facts_equal_a_replay_in_the_evidence_order(
    citus_url: str, tmp_path: Path
) -> None:
    moved: list[tuple[Any, ...]] = []

    async def move_a_person(conn: asyncpg.Connection, run: Run) -> None:
        entity = uuid.UUID(run.sent[run.acknowledged[0]].entity_id)
        shard = await conn.fetchval(SHARD_OF, entity)
        source = await placement(conn, shard)
        target = tuple((await conn.fetch(OTHER_WORKERS, *source))[0])
        await conn.execute(MOVE, shard, *source, *target)
        moved.append((uuid.UUID(run.agent_id), entity, shard, source, target))

    config = LoadConfig(
        seconds=6,
        clients=6,
        entities=4,
        llm_latency_ms=20,
        retry_codes=("UNAVAILABLE", "ABORTED"),
        replay="evidence",
    )
    report = await run_load(config, citus_url, tmp_path, move_a_person)
    print(report.text())
    assert report.error_count() == 0, report.summary()["errors"]
    assert report.violations == []
    assert report.server_errors_logged == 0
    assert report.acknowledged >= 5 and report.replay_seconds > 0
    ((agent, entity, shard, source, target),) = moved
    conn = await asyncpg.connect(citus_url)
    try:
        assert await placement(conn, shard) == target
        # The case this replay exists for: the moved person's evaluations no longer tell their commit order.
        assert await conn.fetchval(XMINS_OF, agent, entity) == 1
        await move_back(conn, shard, target, source)
    finally:
        await conn.close()


async def move_back(conn: asyncpg.Connection, shard: int, target: tuple[Any, ...], source: tuple[Any, ...]) -> None:
    """The shard where it was, for the next tests. Moving it back first drops what the first move left on the
    source, which Citus cannot do while a connection of the load's just-stopped servers still holds that copy: it
    refuses the move ("could not be cleaned up") until the connection is gone, so the move is tried again."""
    for _ in range(40):
        try:
            await conn.execute(MOVE, shard, *target, *source)
            return
        except asyncpg.InternalServerError as exc:
            if "could not be cleaned up" not in str(exc):
                raise
            await asyncio.sleep(0.5)
    raise AssertionError(f"shard {shard} could not be moved back: its old copy is still held after 20 s")


async def placement(conn: asyncpg.Connection, shard: int) -> tuple[Any, ...]:
    row = await conn.fetchrow(PLACEMENT, shard)
    assert row is not None
    return tuple(row)


def fact(entity: str, *evidence: str) -> tuple[str, list[str]]:
    return entity, list(evidence)


def test_the_evidence_order_agrees_with_every_facts_evidence() -> None:
    entity_of = {m: "e1" for m in "abcd"} | {"x": "e2", "y": "e2"}
    order, problems = evidence_order(
        [fact("e1", "c", "a"), fact("e1", "a", "b"), fact("e1", "c", "b"), fact("e2", "y", "x")], entity_of
    )
    assert problems == []
    assert set(order["e1"]) == set("abcd") and order["e2"] == ["y", "x"]
    position = {m: i for i, m in enumerate(order["e1"])}
    assert position["c"] < position["a"] < position["b"]


def test_evidence_orders_that_contradict_each_other_are_a_violation() -> None:
    entity_of = {"a": "e1", "b": "e1", "c": "e1"}
    order, problems = evidence_order([fact("e1", "a", "b"), fact("e1", "b", "c"), fact("e1", "c", "a")], entity_of)
    assert "e1" not in order
    assert len(problems) == 1 and problems[0].startswith("e1: the facts' evidence orders contradict each other")


def test_evidence_naming_an_unacknowledged_message_is_left_to_the_store_check() -> None:
    order, problems = evidence_order([fact("e1", "a", "ghost", "b")], {"a": "e1", "b": "e1"})
    assert problems == [] and order == {"e1": ["a", "b"]}
