"""Load with an integrity check (factmemory_tools.loadtest): a short run always, the long one with `pytest --long`."""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

import asyncpg
import pytest

from factmemory_tools.loadtest import LoadConfig, Report, Run, run_load

SHORT = LoadConfig(seconds=8, clients=8)
LONG = LoadConfig(seconds=60, clients=32)

# Wall clock: a run of a few seconds must acknowledge enough evaluations to exercise twins and repeats.
pytestmark = pytest.mark.timing

LOWER_ONE_CONFIDENCE = """
UPDATE facts SET confidence = confidence - 0.05
 WHERE id = (SELECT id FROM facts WHERE agent_id = $1 ORDER BY id LIMIT 1)
"""
DROP_ONE_EVALUATION = "DELETE FROM evaluations WHERE agent_id = $1 AND message_id = $2"
DUPLICATE_ONE_FACT = """
INSERT INTO facts (id, agent_id, entity_id, kind, category, claim, structured_fields, confidence,
                   evidence_message_ids, verification_status, created_at, last_confirmed_at, valid_at, embedding,
                   embedding_model)
SELECT gen_random_uuid(), agent_id, entity_id, kind, category, claim, structured_fields, confidence,
       evidence_message_ids, verification_status, created_at, last_confirmed_at, valid_at, embedding, embedding_model
  FROM facts WHERE agent_id = $1 ORDER BY id DESC LIMIT 1
"""


def assert_clean(report: Report) -> None:
    print(report.text())
    assert report.error_count() == 0, report.summary()["errors"]
    assert report.violations == []
    assert report.server_errors_logged == 0
    # The run did what it claims: many evaluations, concurrent twins and later repeats of the same message.
    assert report.acknowledged >= 20 and report.twins > 0 and report.repeats > 0
    assert report.requests["Provide"] > report.requests["Evaluate"] > 0


async def test_short_load_has_no_errors_and_keeps_integrity(pg_url: str, tmp_path: Path) -> None:
    assert_clean(await run_load(SHORT, pg_url, tmp_path))


@pytest.mark.slow
async def test_long_load_has_no_errors_and_keeps_integrity(
    pg_url: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if not request.config.getoption("--long"):
        pytest.skip("the long load test runs with --long")
    assert_clean(await run_load(LONG, pg_url, tmp_path))


async def test_integrity_check_sees_a_lost_update_a_lost_evaluation_and_a_duplicate(
    pg_url: str, tmp_path: Path
) -> None:
    async def corrupt(conn: asyncpg.Connection, run: Run) -> None:
        agent = UUID(run.agent_id)
        await conn.execute(LOWER_ONE_CONFIDENCE, agent)
        await conn.execute(DROP_ONE_EVALUATION, agent, run.acknowledged[0])
        await conn.execute(DUPLICATE_ONE_FACT, agent)

    report = await run_load(LoadConfig(seconds=3, clients=4, llm_latency_ms=20), pg_url, tmp_path, corrupt)
    print(report.text())
    assert report.error_count() == 0
    assert any(v.startswith("evaluations:") and "missing 1" in v for v in report.violations)
    assert any("confidence" in v for v in report.violations)
    assert any(v.startswith("duplicate fact") for v in report.violations)
    assert any("replay" in v for v in report.violations)
