"""`factmemory distribute` as an operator runs it on a real Citus cluster (`./dev citus`): interrupted part way (it
waits for a lock another session holds, longer than its lock_timeout), it says so and fails; the service refuses
to start on that half-distributed database in one line; run again, it completes what is missing, says what it
did, and the service then writes on the database."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from factmemory.adapters.postgres.deployment.citus import DISTRIBUTED, REFERENCE
from factmemory.adapters.postgres.deployment.database import migrate
from factmemory.adapters.postgres.deployment.setup_errors import DatabaseSetupError
from factmemory.app.runtime import open_runtime
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import make_settings, start_service
from tests.support.citus import cluster_database
from tests.support.fm import Person
from tests.support.llm_stub import ScriptedLLM
from tests.test_operations import run_cli

REVIEWER = (("x-factmemory-reviewer", "alice@example.org"),)
# The ninth table of the plan: the run before it distributes eight and stops at it.
HELD = "entity_revisions"


async def placed(url: str) -> tuple[dict[str, tuple[str, str]], list[str]]:
    """The tables as Citus holds them, and the disabled triggers of the plan's tables."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT table_name::text, citus_table_type, distribution_column FROM citus_tables")
        disabled = await conn.fetch(
            "SELECT c.relname || '.' || t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid"
            " WHERE NOT t.tgisinternal AND t.tgenabled = 'D' AND c.relnamespace = 'public'::regnamespace"
        )
    finally:
        await conn.close()
    return {r["table_name"]: (r["citus_table_type"], r["distribution_column"]) for r in rows}, [r[0] for r in disabled]


async def test_an_interrupted_distribute_is_refused_by_the_service_and_completed_by_the_next_run(
    citus_cluster: Any, llm_server: ScriptedLLM, tmp_path: Path
) -> None:
    async with cluster_database(citus_cluster, "resume") as url:
        await migrate(url, 384)
        holder = await asyncpg.connect(url)
        try:
            async with holder.transaction():
                await holder.execute(f"LOCK TABLE {HELD} IN ACCESS EXCLUSIVE MODE")
                first = await asyncio.to_thread(
                    run_cli, "distribute", FACTMEMORY_DATABASE_URL=f"{url}?lock_timeout=2000"
                )
        finally:
            await holder.close()
        assert first.returncode == 1, first.stdout + first.stderr
        assert "Traceback" not in first.stderr
        [said] = [line for line in first.stderr.splitlines() if line.startswith("factmemory:")]
        assert "distribute stopped: LockNotAvailableError" in said and "run `factmemory distribute` again" in said
        assert "facts: distributed by entity_id" in said  # what it did before it stopped
        tables, disabled = await placed(url)
        assert "facts" in tables and HELD not in tables and disabled, "not interrupted part way"

        settings = make_settings(url, llm_server, tmp_path / "half")
        with pytest.raises(DatabaseSetupError) as refused:
            async with open_runtime(settings):
                pass
        assert "distributed on Citus only in part" in str(refused.value) and HELD in str(refused.value)
        assert "\n" not in str(refused.value)

        second = await asyncio.to_thread(run_cli, "distribute", FACTMEMORY_DATABASE_URL=url)
        assert second.returncode == 0, second.stderr
        assert f"{HELD}: distributed by entity_id" in second.stdout
        assert "facts: triggers enabled" in second.stdout
        assert "facts: distributed by" not in second.stdout  # done by the first run, not again
        assert second.stdout.strip().splitlines()[-1].startswith("distributed: every table placed as planned")
        tables, disabled = await placed(url)
        assert tables == {
            **{table: ("distributed", column) for table, column in DISTRIBUTED},
            **{table: ("reference", "<none>") for table in REFERENCE},
        }
        assert disabled == []

        third = await asyncio.to_thread(run_cli, "distribute", FACTMEMORY_DATABASE_URL=url)
        assert third.returncode == 0, third.stderr
        assert third.stdout.strip().startswith("nothing to do: every table placed as planned"), third.stdout

        person = Person("Resumed")
        async for svc in start_service(make_settings(url, llm_server, tmp_path / "whole")):
            added = await svc.stub.AddFact(
                pb.AddFactRequest(
                    agent_id=person.agent_id,
                    entity_id=person.entity_id,
                    kind=pb.KIND_DURABLE,
                    category="health",
                    claim="allergic to penicillin",
                ),
                metadata=REVIEWER,
            )
            facts = (await svc.stub.ListFacts(person.list_facts())).facts
            provided = await svc.stub.Provide(person.provide("any allergies?"))
        assert [f.id for f in facts] == [added.fact.id]
        assert "allergic to penicillin" in provided.text
        conn = await asyncpg.connect(url)
        try:
            search_half = await conn.fetchval(
                "SELECT search_half IS NOT NULL FROM facts WHERE agent_id = $1 AND entity_id = $2",
                uuid.UUID(person.agent_id),
                uuid.UUID(person.entity_id),
            )
        finally:
            await conn.close()
        assert search_half, "the facts' triggers did not run"
