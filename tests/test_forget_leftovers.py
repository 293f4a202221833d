"""ForgetEntity leaves nothing that names the person but what docs/retention.md says it keeps, each row free of
content: every table of the real schema is read after a forget of a person who had facts, a relationship, review
items, an open agent-model ticket, deleted messages, a name and an import."""

from __future__ import annotations

import json
from uuid import UUID

from factmemory.domain.models import LegacyFact
from factmemory.usecases.imports import import_facts
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service
from tests.support.fm import NOW, Person, add_durable, facts_reply, new_id
from tests.support.llm_stub import Reply, ScriptedLLM

REVIEWER = (("x-factmemory-reviewer", "leftovers-test"),)
# What ForgetEntity keeps, by table, and the columns each row of it may hold (ids, counters, times: no content).
KEPT = {
    "forget_epochs": {"agent_id", "entity_id", "epoch", "forgotten_at"},
    "read_positions": {"agent_id", "entity_id", "version"},
    "entity_revisions": {"agent_id", "entity_id", "revision"},
    "evaluation_tickets": {
        "agent_id",
        "token_hash",
        "entity_id",
        "forget_epoch",
        "created_at",
        "expires_at",
        "used_at",
        "body",
    },
}
CONTENT = {"evaluation_tickets": ("body",)}  # columns of kept rows that must be empty
TABLES = """
SELECT table_name FROM information_schema.tables
 WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
 ORDER BY table_name
"""


async def naming(service: Service, entity: str) -> dict[str, list[dict[str, object]]]:
    """Every row of every table whose text form holds the entity id, by table."""
    found: dict[str, list[dict[str, object]]] = {}
    for row in await service.pool.fetch(TABLES):
        table = row["table_name"]
        rows = await service.pool.fetch(f'SELECT * FROM "{table}" t WHERE strpos(t::text, $1) > 0', entity)
        if rows:
            found[table] = [dict(r) for r in rows]
    return found


async def test_a_forgotten_person_is_named_only_where_the_docs_say_and_without_content(
    service: Service, llm: ScriptedLLM
) -> None:
    person, ines = Person("Rosa"), new_id()
    room = [pb.RoomEntity(id=person.entity_id, names=["Rosa"]), pb.RoomEntity(id=ines, names=["Ines"])]
    await service.stub.RegisterAgent(pb.RegisterAgentRequest(agent_id=person.agent_id, name="Eliza"))
    said = "I am Rosa, my sister Ines lives in Faro, I'm @rosa on GitHub and my bank PIN is 4711"
    reply = facts_reply(add_durable("has a sister Ines", "relationship"), add_durable("bank PIN is 4711", "identity"))
    reply["relationships"] = [{"source_entity_id": person.entity_id, "target_entity_id": ines, "tags": ["family"]}]
    reply["identities"] = [{"entity_id": person.entity_id, "platform": "github", "handle": "@rosa", "confidence": 0.9}]
    llm.on(said, Reply(reply))
    await service.stub.Evaluate(person.evaluate(said, room_entities=room))
    deleted = person.evaluate("my passport number is X1234567")
    llm.on("passport", Reply(facts_reply(add_durable("passport number X1234567", "identity"))))
    await service.stub.Evaluate(deleted)
    await service.stub.ForgetMessages(
        pb.ForgetMessagesRequest(
            agent_id=person.agent_id, entity_id=person.entity_id, message_ids=[deleted.message.id, "never-seen"]
        )
    )
    prepared = await service.stub.PrepareEvaluation(
        pb.PrepareEvaluationRequest(single=person.evaluate("I also speak Basque"))
    )
    assert prepared.ticket
    await import_facts(
        service.deps,
        [
            LegacyFact(
                source_id=new_id(),
                agent_id=UUID(person.agent_id),
                entity_id=UUID(person.entity_id),
                text="Collects stamps",
                created_at=NOW,
            )
        ],
        "test",
    )
    await service.stub.Provide(person.provide("what do you know about me?"))
    before = await naming(service, person.entity_id)
    assert {"facts", "evaluations", "fact_history"} <= set(before)  # the probe sees the person before

    await service.stub.ForgetEntity(
        pb.ForgetEntityRequest(agent_id=person.agent_id, entity_id=person.entity_id), metadata=REVIEWER
    )

    after = await naming(service, person.entity_id)
    assert "forget_epochs" in after  # the probe sees what is kept
    assert set(after) <= set(KEPT), {t: after[t] for t in set(after) - set(KEPT)}
    for table, rows in after.items():
        for row in rows:
            assert set(row) == KEPT[table], (table, row)  # no column beyond ids, counters and times
            assert all(row[column] is None for column in CONTENT.get(table, ())), (table, row)
    blob = json.dumps(after, default=str)
    for text in ("Rosa", "PIN is 4711", "X1234567", "Basque", "stamps", "sister"):
        assert text not in blob
    for secret in ("PIN is 4711", "X1234567"):  # and no row of any table, naming the person or not, holds them
        assert not await naming(service, secret)
