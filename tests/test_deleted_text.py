"""A deleted message's text leaves everywhere (issue 36, item 1): the tombstone's kept excerpt, the review page of a
fact that survived on other evidence, ExportEntity, after retention too; tombstones written before the fix lose
theirs in migration 0053 (and can never hold one again); open tickets that show the message lose their content,
the person's own and a room-mate's; and a recent message the service knows is deleted is left out of the prompts
of Evaluate, EvaluateBatch and PrepareEvaluation. All against the real service, its database and the page."""

from __future__ import annotations

import json
from datetime import timedelta
from uuid import UUID, uuid4

import asyncpg
import pytest

from factmemory.adapters.postgres.deployment.database import migrate
from factmemory.adapters.postgres.erasure.retention import PostgresRetention
from factmemory.app import retention_policy
from factmemory.ports import NullTelemetry
from factmemory.settings import Settings
from factmemory.usecases.retention import sweep
from factmemory.v1 import factmemory_pb2 as pb
from tests import test_sources
from tests.conftest import Service, new_database
from tests.support.fm import NOW, Person, add_durable, facts_reply
from tests.support.llm_stub import Reply, ScriptedLLM
from tests.test_sources import fact_page

VIRAL = "Porto again: my HIV viral load is undetectable, said the doctor"
# The secret is a word no id or time on the page can contain (a bare "4711" can be part of a uuid).
PIN = "Porto still home, and my bank PIN is zebra4711"
# A service on a database of its own (the retention sweep runs over every row of its database), as test_sources'.
own = test_sources.own


async def export_of(svc: Service, person: Person) -> str:
    page = await svc.stub.ExportEntity(pb.ExportEntityRequest(agent_id=person.agent_id, entity_id=person.entity_id))
    return str(page.json)


async def learn(svc: Service, llm: ScriptedLLM, person: Person, text: str, claim: str) -> pb.EvaluateResponse:
    llm.on(text, Reply(facts_reply(add_durable(claim, "identity"))))
    learned: pb.EvaluateResponse = await svc.stub.Evaluate(person.evaluate(text))
    return learned


async def test_a_deleted_messages_text_leaves_the_tombstone_the_page_and_the_export(
    own: Service, llm: ScriptedLLM
) -> None:
    person = Person("Ana")
    first = await learn(own, llm, person, "I live in Porto, by the river", "lives in Porto")
    viral = person.evaluate(VIRAL)
    pin = person.evaluate(PIN)
    for request in (viral, pin):  # both restate the fact: it stands on three messages
        llm.on(request.message.text, Reply(facts_reply(add_durable("lives in Porto", "identity"))))
        await own.stub.Evaluate(request)
    fact_id = first.ops[0].fact.id
    before = await fact_page(own, person, fact_id)
    assert "undetectable" in before and "zebra4711" in before  # the page quoted them while they were not deleted
    assert "zebra4711" in await export_of(own, person)

    await own.stub.ForgetMessages(
        pb.ForgetMessagesRequest(
            agent_id=person.agent_id, entity_id=person.entity_id, message_ids=[viral.message.id, pin.message.id]
        )
    )

    kept = await own.pool.fetch(
        "SELECT message_id, excerpt FROM evaluations WHERE agent_id = $1 AND entity_id = $2",
        UUID(person.agent_id),
        UUID(person.entity_id),
    )
    by_id = {r["message_id"]: r["excerpt"] for r in kept}
    assert by_id[viral.message.id] is None and by_id[pin.message.id] is None
    assert by_id[first.ops[0].fact.evidence_message_ids[0]] is not None  # the message not deleted keeps its own
    page = await fact_page(own, person, fact_id)  # the fact survived on the first message
    assert "lives in Porto" in page and "by the river" in page
    exported = await export_of(own, person)
    for text in ("undetectable", "zebra4711"):
        assert text not in page and text not in exported
    await sweep(PostgresRetention(own.pool), retention_policy(Settings.model_construct()), NOW, NullTelemetry())
    assert await own.pool.fetchval("SELECT count(*) FROM evaluations WHERE excerpt ~ 'zebra4711|undetectable'") == 0
    assert "zebra4711" not in await export_of(own, person)


async def test_tombstones_written_before_the_fix_lose_their_excerpt_in_migration_0053(pg_url: str) -> None:
    async with new_database(pg_url, "tombstones") as url:
        await migrate(url, 384, until=52)
        conn = await asyncpg.connect(url)
        try:
            insert = """
            INSERT INTO evaluations (agent_id, message_id, entity_id, result, created_at, forgotten_at, reduced_at,
                                     excerpt)
            VALUES ($1, $2, $3, '{"forgotten": true, "usage": {}}'::jsonb, now(), $4, now(), $5)
            """
            agent, entity = uuid4(), uuid4()
            await conn.execute(insert, agent, "deleted-before", entity, NOW, "my bank PIN is zebra4711")
            await conn.execute(insert, agent, "live", entity, None, "I live in Porto")
            await migrate(url, 384)
            rows = await conn.fetch("SELECT message_id, excerpt FROM evaluations ORDER BY message_id")
            assert [(r["message_id"], r["excerpt"]) for r in rows] == [
                ("deleted-before", None),
                ("live", "I live in Porto"),
            ]
            with pytest.raises(asyncpg.CheckViolationError):  # and no code can write one again
                await conn.execute(insert, agent, "deleted-after", entity, NOW, "my passport is X1234567")
        finally:
            await conn.close()


async def test_a_deleted_recent_message_is_left_out_of_every_prompt(own: Service, llm: ScriptedLLM) -> None:
    person = Person("Bea")
    told = person.evaluate("my passport number is X1234567")
    llm.on("passport", Reply(facts_reply(add_durable("passport number X1234567", "identity"))))
    await own.stub.Evaluate(told)
    kept = person.message("the weather was lovely in Faro", when=NOW - timedelta(minutes=1))
    await own.stub.ForgetMessages(
        pb.ForgetMessagesRequest(agent_id=person.agent_id, entity_id=person.entity_id, message_ids=[told.message.id])
    )
    # A lagging client history sends the deleted message back as context, beside one that was never deleted.
    context = [told.message, kept]

    llm.on("single:", Reply(facts_reply()))
    await own.stub.Evaluate(person.evaluate("single: what's new", recent_messages=context))
    single = json.dumps(llm.requests[-1])
    llm.on("batched:", Reply(facts_reply()))
    await own.stub.EvaluateBatch(
        person.batch(person.message("batched: one"), person.message("batched: two"), recent_messages=context)
    )
    batched = json.dumps(llm.requests[-1])
    prepared = await own.stub.PrepareEvaluation(
        pb.PrepareEvaluationRequest(single=person.evaluate("prepared: anything", recent_messages=context))
    )
    shown = json.dumps([m.content for m in prepared.prompt])
    body = await own.pool.fetchval(
        "SELECT body FROM evaluation_tickets WHERE agent_id = $1 ORDER BY created_at DESC LIMIT 1",
        UUID(person.agent_id),
    )
    for prompt in (single, batched, shown, body):
        assert "lovely in Faro" in prompt  # the context is there ...
        assert "X1234567" not in prompt  # ... but not the deleted message


async def test_an_open_ticket_showing_a_deleted_message_loses_its_content(own: Service, llm: ScriptedLLM) -> None:
    sam = Person("Sam")
    kim = Person("Kim", agent_id=sam.agent_id)
    secret = kim.evaluate("Kim here: my PIN is 9931")
    llm.on("Kim here", Reply(facts_reply()))
    await own.stub.Evaluate(secret)
    # Sam's turn shows Kim's message as room context; Sam's ticket holds it, as does Kim's own.
    sams = await own.stub.PrepareEvaluation(
        pb.PrepareEvaluationRequest(single=sam.evaluate("Sam: nice to meet you", recent_messages=[secret.message]))
    )
    kims = await own.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=kim.evaluate("Kim: and you")))
    other = await own.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=sam.evaluate("Sam: unrelated")))
    bodies = "SELECT entity_id, body FROM evaluation_tickets WHERE agent_id = $1 ORDER BY created_at"
    held = await own.pool.fetch(bodies, UUID(sam.agent_id))
    assert len(held) == 3 and "9931" in held[0]["body"]

    await own.stub.ForgetMessages(
        pb.ForgetMessagesRequest(agent_id=kim.agent_id, entity_id=kim.entity_id, message_ids=[secret.message.id])
    )

    after = [r["body"] for r in await own.pool.fetch(bodies, UUID(sam.agent_id))]
    assert after[0] is None and after[1] is None  # Sam's (it shows the message) and Kim's (her facts changed)
    assert after[2] is not None  # a ticket that never showed it is untouched
    assert await own.pool.fetchval("SELECT count(*) FROM evaluation_tickets WHERE body LIKE '%9931%'") == 0
    assert sams.ticket and kims.ticket and other.ticket
