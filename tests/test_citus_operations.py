"""The operator's commands on a real Citus cluster (`./dev citus`), as an operator runs them: retention
(`factmemory prune` and the service's own sweep) does every step there, each statement that changes rows on one
shard; migrate, import, export and the review command line work against the coordinator."""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg
import pytest

from factmemory.adapters.postgres.erasure.retention import (
    ARCHIVE_CANDIDATES,
    REDUCE_EVALUATIONS,
    SWEEP_EXPIRED_OF,
    VOID_EXPIRED_OF,
    VOID_SHOWING_DELETED_OF,
)
from factmemory.app.runtime import open_runtime, start_retention
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service, make_settings
from tests.support.fm import Person, add_current, add_durable, change, facts_reply
from tests.support.llm_stub import Reply, ScriptedLLM
from tests.test_cli_review import eliza_memory
from tests.test_operations import run_cli
from tests.test_retention import page_text

# Long enough ago for the default policy (a current fact stale after ~2 months, evaluations reduced after 30 days,
# resolved candidates archived after 90) against the machine's clock.
LONG_AGO = datetime.now(UTC) - timedelta(days=200)
SHARD = "SELECT get_shard_id_for_distribution_column('facts', $1::uuid)"


@dataclass(frozen=True)
class OldRows:
    """One person's rows every step of the sweep has something to do with."""

    person: Person
    stale_fact: str
    resolved_candidate: str


async def old_rows(service: Service, llm: ScriptedLLM, name: str) -> OldRows:
    person = Person(name)
    text = f"{name}: I had the flu"
    llm.on(text, Reply(facts_reply(add_current("has the flu", "physical_state"))))
    flu = await service.stub.Evaluate(person.evaluate(text, LONG_AGO))
    llm.on(f"{name}: I live in Berlin", Reply(facts_reply(add_durable("lives in Berlin", "identity"))))
    await service.stub.Evaluate(person.evaluate(f"{name}: I live in Berlin"))
    moved = f"{name}: I moved to Rome"
    llm.on(moved, Reply(facts_reply(change("contradict", "D1", "moved", proposed_claim="lives in Rome"))))
    candidate = (await service.stub.Evaluate(person.evaluate(moved))).ops[0].candidate_id
    await service.stub.ResolveCandidate(
        pb.ResolveCandidateRequest(
            agent_id=person.agent_id,
            entity_id=person.entity_id,
            candidate_id=candidate,
            resolution=pb.RESOLUTION_REJECT,
        )
    )
    prepared = await service.stub.PrepareEvaluation(
        pb.PrepareEvaluationRequest(single=person.evaluate(f"{name}: my locker code is 4411"))
    )
    assert prepared.ticket
    scope = (uuid.UUID(person.agent_id), uuid.UUID(person.entity_id))
    async with service.pool.acquire() as conn:
        await conn.execute(
            "UPDATE evaluations SET created_at = $3 WHERE agent_id = $1 AND entity_id = $2", *scope, LONG_AGO
        )
        await conn.execute(
            "UPDATE fact_candidates SET resolved_at = $3 WHERE agent_id = $1 AND entity_id = $2", *scope, LONG_AGO
        )
        await conn.execute(
            "UPDATE evaluation_tickets SET expires_at = now() - interval '1 minute' "
            "WHERE agent_id = $1 AND entity_id = $2",
            *scope,
        )
    return OldRows(person, flu.ops[0].fact.id, candidate)


async def assert_swept(url: str, rows: OldRows) -> None:
    """Every step did its part for the person: the stale fact archived, the old evaluations reduced, the resolved
    candidate archived, the expired ticket's content gone."""
    scope = (uuid.UUID(rows.person.agent_id), uuid.UUID(rows.person.entity_id))
    conn = await asyncpg.connect(url)
    try:
        archived = await conn.fetchval(
            "SELECT archived_at FROM facts WHERE agent_id = $1 AND entity_id = $2 AND id = $3",
            *scope,
            uuid.UUID(rows.stale_fact),
        )
        unreduced = await conn.fetchval(
            "SELECT count(*) FROM evaluations WHERE agent_id = $1 AND entity_id = $2 AND reduced_at IS NULL", *scope
        )
        candidate = await conn.fetchval(
            "SELECT archived_at FROM fact_candidates WHERE agent_id = $1 AND entity_id = $2 AND id = $3",
            *scope,
            uuid.UUID(rows.resolved_candidate),
        )
        body = await conn.fetchval("SELECT body FROM evaluation_tickets WHERE agent_id = $1 AND entity_id = $2", *scope)
    finally:
        await conn.close()
    assert archived is not None, "the stale current fact was not archived"
    assert unreduced == 0, "old evaluations were not reduced"
    assert candidate is not None, "the old resolved candidate was not archived"
    assert body is None, "the expired ticket kept its content"


async def test_prune_on_the_cluster_runs_every_step_and_exits_0(
    citus_service: Service, citus_url: str, llm: ScriptedLLM, tmp_path: Path
) -> None:
    rows = await old_rows(citus_service, llm, "Pruned")
    result = await asyncio.to_thread(
        run_cli, "prune", FACTMEMORY_DATABASE_URL=citus_url, FACTMEMORY_DATA_DIR=str(tmp_path)
    )
    assert result.returncode == 0, result.stderr
    assert "failed" not in result.stderr and "failed" not in result.stdout, result.stderr
    line = result.stdout.strip().splitlines()[-1]
    assert line.startswith("pruned: archived facts "), line
    counts = dict(part.rsplit(" ", 1) for part in line.removeprefix("pruned: ").split(", "))
    for step in ("archived facts", "reduced evaluations", "archived candidates", "expired tickets"):
        assert int(counts[step]) >= 1, line
    await assert_swept(citus_url, rows)


async def test_the_services_start_sweep_on_the_cluster_runs_every_step(
    citus_service: Service,
    citus_url: str,
    llm: ScriptedLLM,
    llm_server: ScriptedLLM,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    rows = await old_rows(citus_service, llm, "Swept")
    caplog.set_level(logging.INFO, logger="factmemory.usecases.retention")
    settings = make_settings(citus_url, llm_server, tmp_path, retention_interval_s=3600.0)
    async with open_runtime(settings) as runtime:
        task = start_retention(runtime, settings)  # what `factmemory serve` starts: the first sweep right away
        assert task is not None
        try:
            for _ in range(600):
                if any(r.getMessage().startswith("retention") for r in caplog.records):
                    break
                await asyncio.sleep(0.05)
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
    lines = [r.getMessage() for r in caplog.records if r.name == "factmemory.usecases.retention"]
    assert lines and lines[0].startswith("retention: archived facts"), lines
    assert not [line for line in lines if "failed" in line or "\n" in line], lines
    await assert_swept(citus_url, rows)


async def test_migrate_import_export_the_review_command_line_and_page_on_the_cluster(
    citus_service: Service, citus_url: str, tmp_path: Path
) -> None:
    """The other commands an operator runs against the coordinator, and the review page: each works there."""
    kim = Person("Kim")
    env = {"FACTMEMORY_DATABASE_URL": citus_url, "FACTMEMORY_DATA_DIR": str(tmp_path)}
    migrated = await asyncio.to_thread(run_cli, "migrate", **env)
    assert migrated.returncode == 0, migrated.stderr
    assert migrated.stdout.strip() == "applied: nothing (up to date)", migrated.stdout

    export = tmp_path / "eliza.json"
    export.write_text(json.dumps([eliza_memory(kim.agent_id, kim.entity_id, "Lives in Oslo")]))
    imported = await asyncio.to_thread(run_cli, "import", "--file", str(export), "--json", **env)
    assert imported.returncode == 0, imported.stderr
    assert json.loads(imported.stdout.strip().splitlines()[-1])["imported"] == 1
    again = await asyncio.to_thread(run_cli, "import", "--file", str(export), "--json", **env)
    assert json.loads(again.stdout.strip().splitlines()[-1])["already_imported"] == 1  # the ledger, on the cluster

    exported = await asyncio.to_thread(run_cli, "export", kim.agent_id, kim.entity_id, "--direct", **env)
    assert exported.returncode == 0, exported.stderr
    assert [f["claim"] for f in json.loads(exported.stdout)["facts"]] == ["Lives in Oslo"]

    address = f"127.0.0.1:{citus_service.port}"
    listed = await asyncio.to_thread(run_cli, "facts", "list", kim.agent_id, kim.entity_id, "--address", address)
    assert listed.returncode == 0, listed.stderr
    assert "Lives in Oslo" in listed.stdout
    page = await page_text(citus_service, f"/agents/{kim.agent_id}/entities/{kim.entity_id}")  # the review page
    assert "Lives in Oslo" in page
    people = await page_text(citus_service, f"/agents/{kim.agent_id}/entities")  # agent-wide: every shard
    assert kim.entity_id in people


async def test_each_change_of_the_sweep_runs_on_one_shard_for_the_people_of_that_shard(citus_url: str) -> None:
    """The statements that change rows, given two people of one shard (as the sweep groups them): Citus's plan is
    a router plan, one task."""
    conn = await asyncpg.connect(citus_url)
    try:
        first = uuid.uuid4()
        shard = await conn.fetchval(SHARD, first)
        second = uuid.uuid4()
        while await conn.fetchval(SHARD, second) != shard:  # one in 32 is on the same shard
            second = uuid.uuid4()
        people, agents, now = [first, second], [uuid.uuid4()], datetime.now(UTC)
        statements = {
            "REDUCE_EVALUATIONS": (REDUCE_EVALUATIONS, (now, now, people, agents, ["m1", "m2"])),
            "ARCHIVE_CANDIDATES": (ARCHIVE_CANDIDATES, (now, now, people, agents, [uuid.uuid4()])),
            "VOID_EXPIRED_OF": (VOID_EXPIRED_OF, (now, people, agents, [b"h"])),
            "SWEEP_EXPIRED_OF": (SWEEP_EXPIRED_OF, (now, people, agents, [b"h"])),
            "VOID_SHOWING_DELETED_OF": (VOID_SHOWING_DELETED_OF, (people, agents, [b"h"])),
        }
        plans = {
            name: "\n".join(r[0] for r in await conn.fetch("EXPLAIN " + sql, *args))
            for name, (sql, args) in statements.items()
        }
    finally:
        await conn.close()
    for name, plan in plans.items():
        assert "Task Count: 1\n" in plan + "\n", f"{name} is not a router plan:\n{plan}"
