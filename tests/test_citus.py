"""FactMemory on a real Citus cluster (a coordinator and two workers on loopback, `./dev citus`): a database that
already holds data is distributed by person (`factmemory distribute`), then the service's own scenarios run against
the coordinator."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import grpc
import pytest
import pytest_asyncio

from factmemory.adapters.postgres.deployment.citus import DISTRIBUTED, REFERENCE
from factmemory.adapters.postgres.deployment.database import migrate
from factmemory.adapters.postgres.deployment.distribution import distribute
from factmemory.adapters.postgres.deployment.setup_errors import DatabaseSetupError
from factmemory.adapters.postgres.deployment.topology import Topology, topology_of
from factmemory.adapters.postgres.erasure.forget_messages import (
    LINKED_BY,
    PRUNE_DELETED,
    RECORD_DELETED,
    UNLINK_IDENTITIES_OF,
    UNLINK_RELATIONSHIPS_OF,
    VOID_TICKETS_OF_PERSON,
)
from factmemory.adapters.postgres.erasure.forgetting import FORGET_FACTS
from factmemory.adapters.postgres.erasure.retention import RETENTION_ACTOR, PerPersonRetention
from factmemory.adapters.postgres.read.forgotten import ForgetWatch
from factmemory.adapters.postgres.read.provide_store import PostgresProvide
from factmemory.adapters.postgres.read.vector_cache import TRIGGER_PRESENT
from factmemory.adapters.postgres.review.transaction import GET_FACT_FOR_UPDATE, LIST_ENTITIES
from factmemory.adapters.postgres.rows import MARK_IMPORT
from factmemory.adapters.postgres.store import GET_EVALUATIONS_BY_PERSON, LIST_FACTS
from factmemory.adapters.postgres.tickets import (
    GET_TICKET_BY_PERSON,
    ISSUE_TICKET_BY_PERSON,
    USE_TICKET,
    VOID_EXPIRED_BY_PERSON,
    VOID_SHOWING_DELETED,
)
from factmemory.adapters.postgres.write.turn_start import TURN_START_BY_PERSON
from factmemory.domain.tickets import DELETED_IDS_KEPT, LONGEST_TTL
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service, make_settings, new_database, start_service
from tests.support.citus import BEFORE
from tests.support.fm import Person, add_current, add_durable, change, facts_of, facts_reply, new_id
from tests.support.llm_stub import Reply, ScriptedLLM
from tests.test_agent_model import complete

# The service's scenarios, run here against the coordinator (the module's `service` fixture below).
from tests.test_service import (  # noqa: F401
    test_categorization_examples_are_stored_as_such,
    test_entities_are_isolated,
    test_forget_entity_and_export,
    test_moved_to_tokyo_creates_candidate_and_keeps_berlin,
    test_other_agent_sees_nothing,
    test_provider_sections_and_determinism,
    test_rejecting_a_candidate_leaves_the_fact,
    test_replay_of_same_message_applies_nothing,
)

REVIEWER = (("x-factmemory-reviewer", "alice@example.org"),)


@pytest.fixture(scope="session")
def service(citus_service: Service) -> Service:
    """The service's scenarios imported above run against the coordinator."""
    return citus_service


async def test_every_table_is_distributed_by_person_or_a_reference_table(citus_url: str) -> None:
    conn = await asyncpg.connect(citus_url)
    try:
        rows = await conn.fetch("SELECT table_name::text, citus_table_type, distribution_column FROM citus_tables")
        tables = await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE '%\\_1%'"
        )
    finally:
        await conn.close()
    placed = {r["table_name"]: (r["citus_table_type"], r["distribution_column"]) for r in rows}
    assert placed == {
        **{table: ("distributed", column) for table, column in DISTRIBUTED},
        **{table: ("reference", "<none>") for table in REFERENCE},
    }
    assert {r["tablename"] for r in tables} == set(placed), "a table left local on the coordinator"


async def test_facts_learned_before_distribution_are_still_there(service: Service) -> None:
    assert [f.claim for f in await facts_of(service, BEFORE)] == ["lives in Lisbon"]
    provided = await service.stub.Provide(BEFORE.provide("where do I live?"))
    assert "lives in Lisbon" in provided.text


async def test_the_cluster_is_its_own_topology_and_refuses_a_read_replica(service: Service) -> None:
    """Decided once at start-up: reads go to the coordinator, whose database keeps no read positions."""
    assert await topology_of(service.pool, None) is Topology.CITUS
    with pytest.raises(DatabaseSetupError, match="FACTMEMORY_DATABASE_READ_URL is not supported"):
        await topology_of(service.pool, "postgresql://replica.invalid/fm")


async def test_no_copy_of_large_people_vectors_on_the_cluster(service: Service, citus_url: str) -> None:
    """Provide's in-memory copy (adapters/postgres/read/vector_cache.py) is off on a distributed database, and migration
    0092 put no trigger there (a worker's transaction ids are its own)."""
    assert type(service.provide) is PostgresProvide  # the plain store: no copy in front of it
    conn = await asyncpg.connect(citus_url)
    try:
        assert not await conn.fetchval(TRIGGER_PRESENT)
    finally:
        await conn.close()


async def test_each_process_sees_a_forget_of_another_on_the_cluster(service: Service) -> None:
    """The look for people forgotten elsewhere (forgotten.py) reads forget_epochs of every shard."""
    watch = ForgetWatch(service.store.pool, lambda agent, entity: None)
    assert await watch.look() == []
    person = Person()
    await service.stub.ForgetEntity(pb.ForgetEntityRequest(agent_id=person.agent_id, entity_id=person.entity_id))
    assert (uuid.UUID(person.agent_id), uuid.UUID(person.entity_id)) in await watch.look()


async def test_distribute_again_does_nothing(citus_url: str) -> None:
    assert await distribute(citus_url) == []


async def test_distribute_without_citus_says_so_and_changes_nothing(pg_url: str) -> None:
    async with new_database(pg_url, "nocitus") as url:
        await migrate(url, 384)
        with pytest.raises(DatabaseSetupError, match="no citus extension"):
            await distribute(url)
        conn = await asyncpg.connect(url)
        try:
            key = await conn.fetchval(
                "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'facts_pkey'"
            )
        finally:
            await conn.close()
    assert key == "PRIMARY KEY (agent_id, id)"


# --- one shard per per-turn call ------------------------------------------------------------------------------------

# A session setting of Citus: a statement that would run on more than one shard fails instead (asyncpg passes a URL's
# unknown query parameters as session settings).
ONE_SHARD_ONLY = "citus.multi_task_query_log_level=error"


@pytest_asyncio.fixture(scope="module")
async def one_shard_service(
    citus_url: str, llm_server: ScriptedLLM, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Service]:
    """The service on the coordinator with every multi-shard statement refused: what it answers ran on one shard."""
    settings = make_settings(f"{citus_url}?{ONE_SHARD_ONLY}", llm_server, tmp_path_factory.mktemp("one"))
    async for svc in start_service(settings):
        yield svc


async def test_every_per_turn_call_of_one_person_runs_on_one_shard(
    one_shard_service: Service, llm: ScriptedLLM
) -> None:
    svc, person = one_shard_service, Person("Router")
    llm.on("I live in Oslo", Reply(facts_reply(add_durable("lives in Oslo", "identity"))))
    llm.on("I have a cat", Reply(facts_reply(add_durable("has a cat", "relationship"))))
    llm.on("I moved to Bergen", Reply(facts_reply(change("contradict", "D1", "moved", "lives in Bergen"))))
    scope: dict[str, Any] = {"agent_id": person.agent_id, "entity_id": person.entity_id}
    first = person.evaluate("I live in Oslo")
    evaluated = await svc.stub.Evaluate(first)
    assert [o.rejected for o in evaluated.ops] == [False]
    assert (await svc.stub.Evaluate(first)).replayed
    batch = await svc.stub.EvaluateBatch(person.batch(person.message("I have a cat"), person.message("hello")))
    assert len(batch.results) == 2
    await svc.stub.Evaluate(person.evaluate("I moved to Bergen"))
    provided = await svc.stub.Provide(person.provide("where do I live?"))
    assert "lives in Oslo" in provided.text
    facts = (await svc.stub.ListFacts(person.list_facts())).facts
    assert {f.claim for f in facts} == {"lives in Oslo", "has a cat"}
    oslo = next(f for f in facts if f.claim == "lives in Oslo")
    assert (await svc.stub.GetFact(pb.GetFactRequest(**scope, fact_id=oslo.id))).fact.claim == "lives in Oslo"
    added = await svc.stub.AddFact(
        pb.AddFactRequest(**scope, kind=pb.KIND_DURABLE, category="health", claim="allergic to penicillin"),
        metadata=REVIEWER,
    )
    await svc.stub.UpdateFact(pb.UpdateFactRequest(**scope, fact_id=added.fact.id, claim="allergic to amoxicillin"))
    [candidate] = (await svc.stub.ListCandidates(pb.ListCandidatesRequest(**scope))).candidates
    await svc.stub.ResolveCandidate(
        pb.ResolveCandidateRequest(**scope, candidate_id=candidate.id, resolution=pb.RESOLUTION_ACCEPT)
    )
    await svc.stub.DeleteFact(pb.DeleteFactRequest(**scope, fact_id=added.fact.id))
    # The agent-model mode: a ticket issued, presented and used on the person's shard.
    llm.on("I play the cello", Reply(facts_reply(add_durable("plays the cello", "preference"))))
    turn = person.evaluate("I play the cello")
    prepared = await svc.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=turn))
    assert prepared.ticket
    completed = await svc.stub.CompleteEvaluation(
        pb.CompleteEvaluationRequest(
            **scope, ticket=prepared.ticket, reply=json.dumps(facts_reply(add_durable("plays the cello", "preference")))
        )
    )
    assert [o.rejected for o in completed.results[0].ops] == [False]
    again = await svc.stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=turn))
    assert not again.ticket and again.results[0].replayed
    # A deleted message leaves the person's facts, links and tickets, all on the person's shard.
    forgotten = await svc.stub.ForgetMessages(pb.ForgetMessagesRequest(**scope, message_ids=[turn.message.id]))
    assert (forgotten.messages_forgotten, forgotten.facts_deleted) == (1, 1)
    assert "plays the cello" not in {f.claim for f in (await svc.stub.ListFacts(person.list_facts())).facts}
    # A room-mate's ticket that showed a deleted message (on the room-mate's shard): refused on that shard alone.
    mate = Person("Mate", agent_id=person.agent_id)
    said = person.evaluate("I sing in a choir")
    llm.on("I sing in a choir", Reply(facts_reply()))
    await svc.stub.Evaluate(said)
    shown = await svc.stub.PrepareEvaluation(
        pb.PrepareEvaluationRequest(single=mate.evaluate("Mate: me too", recent_messages=[said.message]))
    )
    await svc.stub.ForgetMessages(pb.ForgetMessagesRequest(**scope, message_ids=[said.message.id]))
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await complete(svc, mate, shown, json.dumps(facts_reply(add_durable("sings in a choir", "preference"))))
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    # Not here (docs/scaling.md, "One shard per call"): ExportEntity and ForgetEntity, whose relationships naming
    # the person as target live on the source's shard.


async def test_agent_wide_reads_fan_out_and_the_one_shard_check_bites(
    citus_url: str, service: Service, one_shard_service: Service, llm: ScriptedLLM
) -> None:
    agent = new_id()
    people = [Person(f"P{i}", agent_id=agent) for i in range(6)]
    for i, person in enumerate(people):
        llm.on(f"my number is {i}", Reply(facts_reply(add_durable(f"number {i}", "identity"))))
        await service.stub.Evaluate(person.evaluate(f"my number is {i}"))
    conn = await asyncpg.connect(citus_url)
    try:
        placed = await conn.fetchval(
            "SELECT count(DISTINCT get_shard_id_for_distribution_column('facts', entity_id)) FROM facts "
            "WHERE agent_id = $1",
            uuid.UUID(agent),
        )
    finally:
        await conn.close()
    assert placed > 1, "one agent's people spread over shards"
    listed = await service.stub.ListEntities(pb.ListEntitiesRequest(agent_id=agent, page_size=50))
    assert {e.entity_id for e in listed.entities} == {p.entity_id for p in people}
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await one_shard_service.stub.ListEntities(pb.ListEntitiesRequest(agent_id=agent, page_size=50))
    assert refused.value.code() != grpc.StatusCode.OK


async def test_explain_shows_the_router_plan_of_per_person_statements_and_the_fan_out_of_agent_wide_ones(
    citus_url: str,
) -> None:
    agent, entity, now = uuid.uuid4(), uuid.uuid4(), datetime.now(UTC)
    per_person = {
        "turn_start.TURN_START_BY_PERSON": (TURN_START_BY_PERSON, (agent, entity, ["m"], 5, 20, [entity])),
        "store.LIST_FACTS": (LIST_FACTS, (agent, entity, None, None, 50)),
        "review_tx.GET_FACT_FOR_UPDATE": (GET_FACT_FOR_UPDATE, (agent, entity, uuid.uuid4())),
        "forgetting.FORGET_FACTS": (FORGET_FACTS, (agent, entity)),
        "rows.MARK_IMPORT": (MARK_IMPORT, ("imported", "importer", "", agent, entity)),
        "tickets.ISSUE_TICKET_BY_PERSON": (
            ISSUE_TICKET_BY_PERSON,
            (agent, b"h", entity, 0, now, now + timedelta(minutes=2), "{}", now - timedelta(minutes=15), 7),
        ),
        "tickets.GET_TICKET_BY_PERSON": (GET_TICKET_BY_PERSON, (agent, b"h", entity, now)),
        "tickets.USE_TICKET": (USE_TICKET, (agent, b"h", now, entity)),
        "tickets.VOID_EXPIRED_BY_PERSON": (VOID_EXPIRED_BY_PERSON, (agent, now, entity)),
        "tickets.VOID_SHOWING_DELETED": (VOID_SHOWING_DELETED, (agent, b"h", entity)),
        "store.GET_EVALUATIONS_BY_PERSON": (GET_EVALUATIONS_BY_PERSON, (agent, ["m"], entity)),
        "messages.LINKED_BY": (LINKED_BY, (agent, entity, ["m"])),
        "messages.UNLINK_RELATIONSHIPS_OF": (UNLINK_RELATIONSHIPS_OF, (agent, ["m"], entity)),
        "messages.UNLINK_IDENTITIES_OF": (UNLINK_IDENTITIES_OF, (agent, ["m"], entity)),
        "messages.VOID_TICKETS_OF_PERSON": (VOID_TICKETS_OF_PERSON, (agent, entity)),
        "messages.PRUNE_DELETED": (PRUNE_DELETED, (agent, now)),
        "messages.RECORD_DELETED": (RECORD_DELETED, (agent, "m", now)),
    }
    conn = await asyncpg.connect(citus_url)
    try:
        plans = {
            name: "\n".join(r[0] for r in await conn.fetch("EXPLAIN " + sql, *args))
            for name, (sql, args) in per_person.items()
        }
        wide = "\n".join(r[0] for r in await conn.fetch("EXPLAIN " + LIST_ENTITIES, agent, "", None, None, 50))
    finally:
        await conn.close()
    for name, plan in plans.items():
        assert "Task Count: 1\n" in plan + "\n", f"{name} is not a router plan:\n{plan}"
    assert "Task Count: 32" in wide


async def test_links_of_a_message_evaluated_before_their_people_were_recorded_are_looked_for_everywhere(
    citus_url: str, service: Service, one_shard_service: Service, llm: ScriptedLLM
) -> None:
    """A message evaluated before migration 0062 has no record of the people its turn linked: ForgetMessages then
    looks at every link of the agent (every shard: the one-shard service refuses it) and still takes them all."""
    sam = Person("Sam")
    kim = Person("Kim", agent_id=sam.agent_id)
    room = [pb.RoomEntity(id=sam.entity_id, names=["Sam"]), pb.RoomEntity(id=kim.entity_id, names=["Kim"])]
    reply = facts_reply()
    reply["relationships"] = [{"source_entity_id": kim.entity_id, "target_entity_id": sam.entity_id, "tags": ["aunt"]}]
    llm.on("old turn: Kim is my aunt", Reply(reply))
    turn = sam.evaluate("old turn: Kim is my aunt", room_entities=room)
    await service.stub.Evaluate(turn)
    conn = await asyncpg.connect(citus_url)
    try:
        recorded = await conn.fetchval(
            "UPDATE evaluations SET linked_entities = NULL WHERE agent_id = $1 AND entity_id = $2 "
            "AND message_id = $3 RETURNING 1",
            uuid.UUID(sam.agent_id),
            uuid.UUID(sam.entity_id),
            turn.message.id,
        )
        assert recorded == 1
        request = pb.ForgetMessagesRequest(
            agent_id=sam.agent_id, entity_id=sam.entity_id, message_ids=[turn.message.id]
        )
        with pytest.raises(grpc.aio.AioRpcError):
            await one_shard_service.stub.ForgetMessages(request)
        await service.stub.ForgetMessages(request)
        left = await conn.fetchval(
            "SELECT count(*) FROM relationships WHERE agent_id = $1 AND source_entity_id = $2",
            uuid.UUID(sam.agent_id),
            uuid.UUID(kim.entity_id),
        )
    finally:
        await conn.close()
    assert left == 0


async def test_expired_tickets_of_people_who_never_come_back_lose_their_content_in_the_retention_sweep(
    service: Service,
) -> None:
    """Distributed by person, an issue makes room among the person's own tickets only: the retention sweep drops
    the content of every other expired ticket (what every issue does on one PostgreSQL)."""
    person = Person("Gone")
    prepared = await service.stub.PrepareEvaluation(
        pb.PrepareEvaluationRequest(single=person.evaluate("my passport number is X7654321"))
    )
    assert prepared.ticket
    body = "SELECT body FROM evaluation_tickets WHERE agent_id = $1 AND entity_id = $2"
    scope = (uuid.UUID(person.agent_id), uuid.UUID(person.entity_id))
    assert "X7654321" in await service.pool.fetchval(body, *scope)
    assert await PerPersonRetention(service.pool).expire_tickets(datetime.now(UTC)) >= 0  # not expired yet: kept
    assert "X7654321" in await service.pool.fetchval(body, *scope)
    assert await PerPersonRetention(service.pool).expire_tickets(datetime.now(UTC) + timedelta(minutes=10)) >= 1
    assert await service.pool.fetchval(body, *scope) is None


async def test_retention_history_names_its_action_and_actor_on_the_cluster(service: Service, llm: ScriptedLLM) -> None:
    """Retention's changes carry their history mark in the statement (rows.mark_cte), so the trigger on the person's
    worker records `archived`, then `deleted`, by the sweep (marked on the coordinator, they said edited/deleted)."""
    person = Person("Stale")
    llm.on("I am tired today", Reply(facts_reply(add_current("is tired today", "feeling"))))
    await service.stub.Evaluate(person.evaluate("I am tired today"))
    agent, entity = uuid.UUID(person.agent_id), uuid.UUID(person.entity_id)
    [fact] = await service.browse.list_facts(agent, entity, None, None, 10)
    retention, later = PerPersonRetention(service.pool), datetime.now(UTC) + timedelta(days=1)
    assert await retention.archive_facts(agent, entity, [fact], later, "stale") == 1
    assert await retention.delete_archived(agent, entity, [fact.id], later + timedelta(days=1), "old") == 1
    history = await service.browse.fact_history(agent, entity, fact.id)
    assert [(h.action.value, h.actor) for h in history[1:]] == [
        ("archived", RETENTION_ACTOR),
        ("deleted", RETENTION_ACTOR),
    ]
    assert history[0].action.value == "created"


async def test_a_room_mates_ticket_showing_a_deleted_message_loses_it_in_the_sweep_and_the_ids_go_later(
    service: Service, llm: ScriptedLLM
) -> None:
    """Distributed by person, Kim's ForgetMessages stays on Kim's shard: Sam's open ticket that showed Kim's message
    keeps its text until it is presented (refused: tests/test_forget_messages.py) or the retention sweep drops it.
    The deleted ids are kept DELETED_IDS_KEPT (the prompts leave such a message out meanwhile), then the sweep (or
    the agent's next deletion) prunes them."""
    sam = Person("Sam")
    kim = Person("Kim", agent_id=sam.agent_id)
    secret = kim.evaluate("Kim here: my locker code is 5521")
    llm.on("Kim here: my locker", Reply(facts_reply()))
    await service.stub.Evaluate(secret)
    await service.stub.PrepareEvaluation(
        pb.PrepareEvaluationRequest(single=sam.evaluate("Sam: hello", recent_messages=[secret.message]))
    )
    await service.stub.ForgetMessages(
        pb.ForgetMessagesRequest(agent_id=kim.agent_id, entity_id=kim.entity_id, message_ids=[secret.message.id])
    )
    body = "SELECT body FROM evaluation_tickets WHERE agent_id = $1 AND entity_id = $2"
    sams = (uuid.UUID(sam.agent_id), uuid.UUID(sam.entity_id))
    kept = "SELECT count(*) FROM deleted_messages WHERE agent_id = $1 AND message_id = $2"
    ids = (uuid.UUID(kim.agent_id), secret.message.id)
    assert "5521" in await service.pool.fetchval(body, *sams)
    assert await service.pool.fetchval(kept, *ids) == 1
    now = datetime.now(UTC)
    assert await PerPersonRetention(service.pool).expire_tickets(now) >= 1
    assert await service.pool.fetchval(body, *sams) is None
    assert await service.pool.fetchval(kept, *ids) == 1  # a ticket issued before the deletion may still be open
    await PerPersonRetention(service.pool).expire_tickets(now + LONGEST_TTL + timedelta(minutes=1))
    assert await service.pool.fetchval(kept, *ids) == 1  # kept for the prompts
    await PerPersonRetention(service.pool).expire_tickets(now + DELETED_IDS_KEPT + timedelta(minutes=1))
    assert await service.pool.fetchval(kept, *ids) == 0
