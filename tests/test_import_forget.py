"""An import never brings back a person forgotten while it ran (issue 36, item 6): the real `factmemory import`
console script, in a process of its own, imports 900 facts of one person in batches; a real ForgetEntity over gRPC
lands once the first batch is stored. Every later batch checks the person's forget counter under the lock, as
Evaluate does: nothing of the person is left, the ledger does not record the rows it did not store, and the command
says how many it did not store and why."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from uuid import UUID

from factmemory.adapters.postgres.write.import_ledger import source_hash
from factmemory.usecases.imports import BATCH
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service
from tests.support.fm import Person
from tests.support.serve import REPO

FACTS = 900
SCRIPT = Path(sys.executable).with_name("factmemory")


def legacy_file(person: Person, path: Path) -> list[str]:
    """An elizaOS memories export of FACTS facts of the person; returns their source ids."""
    ids = [f"{person.entity_id}-{n:04d}" for n in range(FACTS)]
    memories = [
        {
            "id": source,
            "type": "facts",
            "agentId": person.agent_id,
            "entityId": person.entity_id,
            "content": {"text": f"Collected postcard number {n} from a trip to town {n % 37}"},
        }
        for n, source in enumerate(ids)
    ]
    path.write_text(json.dumps(memories))
    return ids


async def test_an_import_racing_forget_entity_stores_nothing_of_the_person(
    service: Service, pg_url: str, tmp_path: Path
) -> None:
    person = Person("Lena")
    ids = legacy_file(person, tmp_path / "memories.json")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FACTMEMORY_", "OPENAI_"))}
    env.update(FACTMEMORY_DATABASE_URL=pg_url, FACTMEMORY_DATA_DIR=str(tmp_path), FACTMEMORY_EMBEDDING_WORKERS="1")
    proc = await asyncio.create_subprocess_exec(
        str(SCRIPT),
        "--log-level",
        "INFO",  # the audit line (a terminal's default is the outcome alone)
        "import",
        "--json",
        "--file",
        str(tmp_path / "memories.json"),
        env=env,
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    count = "SELECT count(*) FROM facts WHERE agent_id = $1 AND entity_id = $2"
    agent, entity = UUID(person.agent_id), UUID(person.entity_id)
    stored_before = 0
    while proc.returncode is None and not stored_before:  # the first batch is in: forget the person now
        stored_before = await service.pool.fetchval(count, agent, entity)
        await asyncio.sleep(0.02)
    forgotten = await service.stub.ForgetEntity(
        pb.ForgetEntityRequest(agent_id=person.agent_id, entity_id=person.entity_id),
        metadata=(("x-factmemory-reviewer", "import-race"),),
    )
    out, err = await asyncio.wait_for(proc.communicate(), 600)
    assert proc.returncode == 0, err.decode()[-2000:]
    report = json.loads(out.decode().strip().splitlines()[-1])

    assert stored_before >= BATCH and forgotten.facts_deleted >= stored_before  # the forget met a stored batch
    assert report["forgotten"] > 0 and report["imported"] + report["forgotten"] == FACTS
    assert report["imported"] == forgotten.facts_deleted  # what was stored, the forget erased
    assert await service.pool.fetchval(count, agent, entity) == 0  # nothing of the person came back
    ledger = await service.pool.fetchval(
        "SELECT count(*) FROM import_ledger WHERE agent_id = $1 AND source_hash = ANY ($2::text[])",
        agent,
        [source_hash(s) for s in ids],
    )
    assert ledger == report["imported"]  # the rows not stored are not recorded as imported
    assert f"forgotten={report['forgotten']}" in err.decode()  # and the audit line says it
