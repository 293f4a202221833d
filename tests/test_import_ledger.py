"""The import ledger: a source row imported once for an agent is never imported again, whatever happened to its
fact since (deleted by a reviewer, archived by decay, removed by retention or a merge), even by parallel imports;
after ForgetEntity a re-import learns nothing of the person again, and the ledger keeps no content."""

from __future__ import annotations

import asyncio
from uuid import UUID

from factmemory.adapters.postgres.write.import_ledger import source_hash
from factmemory.domain.models import LegacyFact
from factmemory.usecases.imports import import_facts
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service
from tests.support.fm import NOW, Person

REVIEWER = (("x-factmemory-reviewer", "ledger-test"),)
TEXTS = ("Works as a nurse", "Speaks Portuguese", "Has a dog named Rex", "Lives in Porto", "Plays chess", "Likes tea")


def legacy(person: Person, prefix: str) -> list[LegacyFact]:
    return [
        LegacyFact(
            source_id=f"{prefix}-{i}",
            agent_id=UUID(person.agent_id),
            entity_id=UUID(person.entity_id),
            text=text,
            created_at=NOW,
        )
        for i, text in enumerate(TEXTS)
    ]


async def stored(service: Service, person: Person) -> dict[str, UUID]:
    rows = await service.pool.fetch(
        "SELECT claim, id FROM facts WHERE agent_id = $1 AND entity_id = $2 AND archived_at IS NULL",
        UUID(person.agent_id),
        UUID(person.entity_id),
    )
    return {r["claim"]: r["id"] for r in rows}


async def test_a_second_import_adds_nothing_whatever_happened_to_the_facts(service: Service) -> None:
    person = Person()
    rows = legacy(person, f"eliza-{person.entity_id}")
    # Parallel imports of the same rows: each row is imported once.
    reports = await asyncio.gather(*(import_facts(service.deps, rows, "test") for _ in range(3)))
    assert sum(r.imported for r in reports) == 6
    facts = await stored(service, person)
    assert set(facts) == set(TEXTS)
    agent, entity = UUID(person.agent_id), UUID(person.entity_id)

    await service.stub.DeleteFact(  # a reviewer deletes one
        pb.DeleteFactRequest(agent_id=person.agent_id, entity_id=person.entity_id, fact_id=str(facts[TEXTS[0]])),
        metadata=REVIEWER,
    )
    # Retention archives one (decayed) and deletes one; a merge removes another (the statements they run).
    await service.pool.execute(
        "UPDATE facts SET archived_at = now() WHERE agent_id = $1 AND id = $2", agent, facts[TEXTS[1]]
    )
    for text in TEXTS[2:4]:
        await service.pool.execute("DELETE FROM facts WHERE agent_id = $1 AND id = $2", agent, facts[text])
    again = await import_facts(service.deps, rows, "test")
    assert (again.imported, again.already_imported) == (0, 6)
    assert set(await stored(service, person)) == set(TEXTS[4:])

    # Forgotten: a re-import (the legacy table still holds the rows) learns nothing of the person again.
    await service.stub.ForgetEntity(
        pb.ForgetEntityRequest(agent_id=person.agent_id, entity_id=person.entity_id), metadata=REVIEWER
    )
    after_forget = await import_facts(service.deps, rows, "test")
    assert after_forget.imported == 0 and await stored(service, person) == {}
    # What the ledger keeps: the agent and a hash per row; no text, no entity id, no source id.
    ledger = await service.pool.fetch("SELECT * FROM import_ledger WHERE agent_id = $1", agent)
    assert {r["source_hash"] for r in ledger} == {source_hash(r.source_id) for r in rows}
    assert set(ledger[0].keys()) == {"agent_id", "source_hash", "imported_at"}
    assert not any(str(entity) in str(dict(r)) or "eliza-" in str(dict(r)) for r in ledger)


async def test_the_ledger_is_per_agent(service: Service) -> None:
    first, second = Person(), Person()
    shared_ids = f"shared-{first.entity_id}"
    assert (await import_facts(service.deps, legacy(first, shared_ids), "test")).imported == 6
    assert (await import_facts(service.deps, legacy(second, shared_ids), "test")).imported == 6
