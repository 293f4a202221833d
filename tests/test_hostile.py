"""Hostile requests and hostile model replies (issue 10): each must end in a clear status, nothing poisoned."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime

import grpc
import pytest
from google.protobuf.timestamp_pb2 import Timestamp

from factmemory.adapters.postgres.database import migration_files
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service
from tests.support.fm import NOW, Person, add_current, add_durable, facts_reply
from tests.support.llm_stub import Reply, ScriptedLLM


async def learn(service: Service, llm: ScriptedLLM, person: Person, text: str, *ops: dict[str, object],
                **kw: object) -> pb.EvaluateResponse:
    llm.on(text, Reply(facts_reply(*ops)))
    response: pb.EvaluateResponse = await service.stub.Evaluate(person.evaluate(text, **kw))  # type: ignore[arg-type]
    return response


# --- one timestamp must not break an entity ---------------------------------------------------------------

EDGE_TIMES = {
    "zero time (0001-01-01T00:00:00Z)": Timestamp(seconds=-62135596800),
    "9999-12-31T23:59:59.999999Z": Timestamp(seconds=253402300799, nanos=999_999_000),
}


@pytest.mark.parametrize("edge", list(EDGE_TIMES))
async def test_edge_request_times_are_rejected_and_the_entity_keeps_working(service: Service, llm: ScriptedLLM,
                                                                            edge: str) -> None:
    person = Person()
    await learn(service, llm, person, "seed fact", add_current("tired today", "physical_state"))
    request = person.evaluate(f"edge time {edge}")
    request.message.created_at.CopyFrom(EDGE_TIMES[edge])
    llm.on("edge time", Reply(facts_reply(add_current("stressed at work", "feeling"))))
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await service.stub.Evaluate(request)
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "message.created_at" in (error.value.details() or "")
    provide = person.provide("how are you")
    provide.recent_messages[0].created_at.CopyFrom(EDGE_TIMES[edge])
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await service.stub.Provide(provide)
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    response = await service.stub.Provide(person.provide("how are you"))
    assert [s.fact.claim for s in response.current] == ["tired today"]


async def test_edge_model_valid_at_falls_back_to_the_message_time(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    response = await learn(service, llm, person, "since forever", add_current("on a long trip", "going_through",
                                                                               valid_at="0001-01-01"))
    assert response.ops[0].fact.valid_at.ToDatetime(tzinfo=UTC) == NOW
    provided = await service.stub.Provide(person.provide("trip"))
    assert [s.fact.claim for s in provided.current] == ["on a long trip"]


async def test_rows_with_infinite_times_are_read_and_repaired(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await learn(service, llm, person, "infinite seed", add_current("moving house", "going_through"),
                add_durable("lives in Oslo", "identity"))
    agent, entity = uuid.UUID(person.agent_id), uuid.UUID(person.entity_id)
    async with service.pool.acquire() as conn:
        # What versions before 0002 stored for the edge times.
        await conn.execute("UPDATE facts SET created_at = '-infinity', last_confirmed_at = 'infinity', "
                           "valid_at = CASE WHEN kind = 'current' THEN '-infinity'::timestamptz END "
                           "WHERE agent_id = $1 AND entity_id = $2", agent, entity)
    provided = await service.stub.Provide(person.provide("house"))
    assert {s.fact.claim for s in [*provided.durable, *provided.current]} == {"moving house", "lives in Oslo"}
    listed = await service.stub.ListFacts(person.list_facts())
    assert len(listed.facts) == 2
    repair = next(sql for _, name, sql in migration_files() if name.startswith("0002_"))
    async with service.pool.acquire() as conn:
        await conn.execute(repair)
        rows = await conn.fetch("SELECT created_at, last_confirmed_at, valid_at FROM facts "
                                "WHERE agent_id = $1 AND entity_id = $2", agent, entity)
    now = datetime.now(UTC)
    for row in rows:
        assert row["valid_at"] is None
        for column in ("created_at", "last_confirmed_at"):
            assert row[column].tzinfo is not None and abs((row[column] - now).total_seconds()) < 600


# --- item 1: a message id is one key however it is spelled -------------------------------------------------


def spellings(message_id: str) -> list[str]:
    return [message_id, message_id.upper(), "{" + message_id + "}", "urn:uuid:" + message_id,
            message_id.replace("-", "")]


async def count_rows(service: Service, person: Person) -> dict[str, int]:
    agent = uuid.UUID(person.agent_id)
    async with service.pool.acquire() as conn:
        return {table: await conn.fetchval(f"SELECT count(*) FROM {table} WHERE agent_id = $1", agent)
                for table in ("facts", "evaluations")}


async def test_five_spellings_of_one_message_id_apply_once(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    message_id = str(uuid.uuid4())
    llm.on("spelled", Reply(facts_reply(add_durable("plays the cello", "preference"))))
    results = [await service.stub.Evaluate(person.evaluate("spelled five ways", message_id=spelling))
               for spelling in spellings(message_id)]
    assert [r.replayed for r in results] == [False, True, True, True, True]
    assert len(llm.calls_for("spelled")) == 1
    facts = (await service.stub.ListFacts(person.list_facts())).facts
    assert [(f.claim, f.confidence, list(f.evidence_message_ids)) for f in facts] == [
        ("plays the cello", pytest.approx(0.7), [message_id])]
    assert await count_rows(service, person) == {"facts": 1, "evaluations": 1}


async def test_concurrent_spellings_of_one_message_id_apply_once(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    message_id = str(uuid.uuid4())
    llm.on("concurrently spelled", Reply(facts_reply(add_durable("plays the oboe", "preference")), delay_s=0.2))
    results = await asyncio.gather(*(service.stub.Evaluate(person.evaluate("concurrently spelled", message_id=s))
                                     for s in spellings(message_id)))
    assert sum(not r.replayed for r in results) == 1
    assert await count_rows(service, person) == {"facts": 1, "evaluations": 1}


async def test_migration_gives_stored_message_ids_their_canonical_spelling(service: Service,
                                                                          llm: ScriptedLLM) -> None:
    person = Person()
    message_id = str(uuid.uuid4())
    await learn(service, llm, person, "stored upper", add_durable("plays the harp", "preference"),
                message_id=message_id)
    async with service.pool.acquire() as conn:  # as versions before 0002 stored it
        await conn.execute("UPDATE evaluations SET message_id = $3 WHERE agent_id = $1 AND message_id = $2",
                           uuid.UUID(person.agent_id), message_id, "{" + message_id.upper() + "}")
        await conn.execute(next(sql for _, name, sql in migration_files() if name.startswith("0002_")))
    again = await service.stub.Evaluate(person.evaluate("stored upper", message_id=message_id))
    assert again.replayed
    assert await count_rows(service, person) == {"facts": 1, "evaluations": 1}
