"""What leaves the store, and when (issue 16, items 1-3): stale current facts archived then deleted, dated plans
shown as past, evaluations reduced after the idempotency window, old resolved candidates archived. Fixed clocks;
a database of its own, because a sweep covers every agent."""

from __future__ import annotations

import asyncio
import json
import logging
import urllib.request
import uuid
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg
import pytest

from factmemory.adapters.metrics import PrometheusTelemetry
from factmemory.adapters.postgres.connection import SESSION_SETTINGS, open_pool
from factmemory.adapters.postgres.erasure.retention import PostgresRetention
from factmemory.api.http.pages import PageConfig
from factmemory.api.http.server import PageListener
from factmemory.app import retention_policy
from factmemory.domain.models import ChatMessage, Fact, HistoryAction, Item, Kind, ScoredFact
from factmemory.domain.prompts import build_prompt
from factmemory.domain.render import render
from factmemory.domain.retention import (
    fell_below_at,
    plan_is_past,
    scheduled_until,
    should_archive,
)
from factmemory.ports import NullTelemetry
from factmemory.settings import Settings
from factmemory.usecases.retention import run_periodically, sweep
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service, make_settings, new_database, start_service
from tests.support.fm import LIMITS, NOW, Person, add_current, add_durable, change, days_ago, facts_reply
from tests.support.llm_stub import Reply, ScriptedLLM
from tests.test_operations import run_cli

# The defaults (Settings): floor 0.02, 7 stale days, 14-day decay, no deletion.
POLICY = retention_policy(Settings.model_construct())


def fact(
    kind: Kind = Kind.CURRENT, confidence: float = 0.7, at: datetime = NOW, category: str = "feeling", **fields: str
) -> Fact:
    return Fact(
        id=uuid.uuid4(),
        agent_id=uuid.uuid4(),
        entity_id=uuid.uuid4(),
        kind=kind,
        category=category,
        claim="a claim",
        structured_fields=dict(fields),
        confidence=confidence,
        created_at=at,
        last_confirmed_at=at,
        valid_at=at if kind is Kind.CURRENT else None,
    )


# --- pure decisions ------------------------------------------------------------------------------------------


def test_a_new_current_fact_is_archived_a_week_after_its_weight_fell_below_the_floor() -> None:
    new = fact(confidence=0.7)
    # 0.7 x exp(-t / 14) = 0.02 at t = 14 ln 35 = 49.8 days; then 7 days below the floor.
    assert not should_archive(new, NOW + timedelta(days=56.5), POLICY)
    assert should_archive(new, NOW + timedelta(days=57), POLICY)
    # A fact of confidence 1 reaches the floor at 14 ln 50 = 54.8 days: the documented "about 55 days".
    fell = fell_below_at(fact(confidence=1.0), POLICY)
    assert fell is not None and abs((fell - NOW).total_seconds() / 86_400 - 54.77) < 0.01


def test_durable_facts_never_leave_by_age_and_a_floor_of_zero_turns_archiving_off() -> None:
    assert not should_archive(fact(kind=Kind.DURABLE, confidence=0.01), NOW + timedelta(days=10_000), POLICY)
    off = replace(POLICY, floor=0.0)
    assert not should_archive(fact(confidence=0.01), NOW + timedelta(days=10_000), off)


def test_a_confirmation_restarts_the_clock() -> None:
    confirmed = replace(fact(), last_confirmed_at=NOW + timedelta(days=50))
    assert not should_archive(confirmed, NOW + timedelta(days=60), POLICY)
    assert should_archive(confirmed, NOW + timedelta(days=107), POLICY)


def test_a_plan_is_not_stale_before_its_date_and_is_past_after_its_last_day() -> None:
    trip = fact(category="schedule_context", date="2027-03-01", until="2027-03-05")
    assert scheduled_until(trip) == datetime(2027, 3, 5).date()  # until wins over date
    assert not should_archive(trip, NOW + timedelta(days=100), POLICY)  # the trip is still ahead
    assert should_archive(trip, datetime(2027, 3, 6, tzinfo=UTC) + timedelta(days=57), POLICY)
    assert not plan_is_past(trip, datetime(2027, 3, 5, 23, 59, tzinfo=UTC))
    assert plan_is_past(trip, datetime(2027, 3, 6, tzinfo=UTC))


@pytest.mark.parametrize(
    "value, day",
    [
        ("2026-11-27", "2026-11-27"),
        ("2026-11-27T10:00:00Z", "2026-11-27"),
        ("2026-11-27/2026-11-29", "2026-11-29"),
        ("next Friday", None),
        ("", None),
        ("2026-02-30", None),
    ],
)
def test_a_plan_date_is_read_only_when_it_is_an_iso_date(value: str, day: str | None) -> None:
    until = scheduled_until(fact(category="schedule_context", date=value))
    assert (None if until is None else until.isoformat()) == day
    assert scheduled_until(fact(category="feeling", date="2026-11-27")) is None  # only plans are dated


def test_the_provider_says_a_plan_is_upcoming_then_past() -> None:
    trip = replace(fact(category="schedule_context", date="2026-11-27"), claim="travels to Tokyo")
    scored = [ScoredFact(fact=trip, relevance=1.0, time_weight=1.0, score=0.7)]
    assert "travels to Tokyo (planned for 2026-11-27)" in render([], scored, now=NOW)
    assert "travels to Tokyo (was planned for 2026-11-27)" in render([], scored, now=NOW + timedelta(days=8))


def test_the_prompt_asks_for_the_resolved_date_of_a_plan() -> None:
    message = ChatMessage(id="m1", name="Sam", text="traveling to Tokyo next week", created_at=NOW)
    prompt = build_prompt(message, [], [], [], frozenset(Item), limits=LIMITS)
    assert (
        "schedule_context (near-term plans; field date, or until for a range: ISO date resolved from the message time)"
    ) in prompt.system + prompt.user


# --- on the database -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
async def own(
    pg_url: str, llm_server: ScriptedLLM, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[tuple[Service, str]]:
    """A service on a database of its own: a sweep covers every agent of its database."""
    async with new_database(pg_url, "retention") as url:
        async for svc in start_service(make_settings(url, llm_server, tmp_path_factory.mktemp("retention"))):
            yield svc, url


async def learn(
    svc: Service, llm: ScriptedLLM, person: Person, text: str, *ops: dict[str, object], when: datetime = NOW
) -> pb.EvaluateResponse:
    llm.on(text, Reply(facts_reply(*ops)))
    response: pb.EvaluateResponse = await svc.stub.Evaluate(person.evaluate(text, when))
    return response


async def page_text(svc: Service, path: str) -> str:
    """A page of the review site (no token: open), fetched over real HTTP."""
    listener = PageListener(svc.deps, PageConfig(clock=lambda: NOW), "127.0.0.1:0")
    await listener.start()
    try:
        url = f"http://127.0.0.1:{listener.port}{path}"
        return await asyncio.to_thread(lambda: urllib.request.urlopen(url, timeout=10).read().decode())
    finally:
        await listener.stop()


def claims(response: pb.ProvideResponse) -> list[str]:
    return [s.fact.claim for s in (*response.durable, *response.current)]


async def test_a_stale_current_fact_leaves_ranking_and_the_prompt_then_is_deleted_with_its_history_kept(
    own: tuple[Service, str], llm: ScriptedLLM
) -> None:
    svc, _ = own
    person = Person()
    await learn(
        svc, llm, person, "stale: I had a headache", add_current("has a headache", "physical_state"), when=days_ago(80)
    )
    await learn(
        svc, llm, person, "durable: I live in Lisbon", add_durable("lives in Lisbon", "identity"), when=days_ago(400)
    )
    await learn(svc, llm, person, "fresh: I am tired", add_current("is tired today", "physical_state"))
    before = await svc.stub.Provide(person.provide("how are you"))
    assert set(claims(before)) == {"has a headache", "lives in Lisbon", "is tired today"}

    metrics = PrometheusTelemetry()
    store = PostgresRetention(svc.pool)
    counts = await sweep(store, POLICY, NOW, metrics)
    assert counts.archived_facts == 1 and counts.deleted_facts == 0
    assert metrics.registry.get_sample_value("factmemory_retention_rows_total", {"what": "archived_facts"}) == 1

    after = await svc.stub.Provide(person.provide("how are you"))
    assert set(claims(after)) == {"lives in Lisbon", "is tired today"}  # durable stays, however old
    await learn(svc, llm, person, "later: my head is fine")
    sent = json.dumps(llm.calls_for("later: my head is fine"))
    assert "has a headache" not in sent and "is tired today" in sent  # out of the known facts of the prompt

    agent, entity = uuid.UUID(person.agent_id), uuid.UUID(person.entity_id)
    exported = await svc.bulk.export_rows(agent, entity, "facts", None, 100)
    stale = next(item for item, _ in exported if item["claim"] == "has a headache")  # still exported
    history = await svc.browse.fact_history(agent, entity, uuid.UUID(stale["id"]))
    archived = history[-1]
    assert archived.action is HistoryAction.ARCHIVED and archived.actor == "system:retention"
    assert archived.after == {**(archived.before or {}), "archived": True}
    assert (await sweep(store, POLICY, NOW, NullTelemetry())).archived_facts == 0  # once
    page = await page_text(svc, f"/agents/{agent}/entities/{entity}")
    rows = {r.split('"', 1)[0]: r.split("</tr>", 1)[0] for r in page.split('data-fact="')[1:]}
    assert "has a headache" in rows[stale["id"]] and ">archived</span>" in rows[stale["id"]]
    assert sum(">archived</span>" in r for r in rows.values()) == 1  # only the archived one

    keep = await sweep(store, POLICY, NOW + timedelta(days=365), NullTelemetry())
    assert keep.deleted_facts == 0  # deletion is off by default
    deleting = replace(POLICY, delete_after_days=30)
    assert (await sweep(store, deleting, NOW + timedelta(days=29), NullTelemetry())).deleted_facts == 0
    metrics = PrometheusTelemetry()
    assert (await sweep(store, deleting, NOW + timedelta(days=31), metrics)).deleted_facts >= 1
    assert (metrics.registry.get_sample_value("factmemory_retention_rows_total", {"what": "deleted_facts"}) or 0) >= 1
    assert await svc.browse.get_fact(agent, entity, uuid.UUID(stale["id"])) is None
    history = await svc.browse.fact_history(agent, entity, uuid.UUID(stale["id"]))
    assert [h.action for h in history][-2:] == [HistoryAction.ARCHIVED, HistoryAction.DELETED]
    assert await svc.browse.list_facts(agent, entity, Kind.DURABLE, None, 10)  # durable untouched


async def test_the_same_claim_said_again_after_its_archive_is_a_new_live_fact(
    own: tuple[Service, str], llm: ScriptedLLM
) -> None:
    svc, _ = own
    person = Person()
    await learn(
        svc,
        llm,
        person,
        "again: back pain in spring",
        add_current("has back pain", "physical_state"),
        when=days_ago(100),
    )
    assert (await sweep(PostgresRetention(svc.pool), POLICY, NOW, NullTelemetry())).archived_facts >= 1
    assert "has back pain" not in claims(await svc.stub.Provide(person.provide("how is your back")))
    again = await learn(svc, llm, person, "again: back pain today", add_current("has back pain", "physical_state"))
    assert again.ops[0].op == pb.OP_TYPE_ADD_CURRENT  # not a strengthen of the archived fact
    assert claims(await svc.stub.Provide(person.provide("how is your back"))) == ["has back pain"]
    listed = (await svc.stub.ListFacts(person.list_facts())).facts
    assert len(listed) == 2  # the archived one is still listed


async def test_archiving_closes_the_open_possible_duplicate_pairs_of_the_fact(
    own: tuple[Service, str], llm: ScriptedLLM
) -> None:
    svc, _ = own
    person = Person()
    old = await learn(
        svc,
        llm,
        person,
        "pair: nervous in May",
        add_current("is nervous about the move", "feeling"),
        when=days_ago(120),
    )
    new = await learn(svc, llm, person, "pair: nervous now", add_current("is anxious about moving", "feeling"))
    agent, entity = uuid.UUID(person.agent_id), uuid.UUID(person.entity_id)
    first, second = sorted([uuid.UUID(old.ops[0].fact.id), uuid.UUID(new.ops[0].fact.id)])
    async with svc.pool.acquire() as conn:
        await conn.execute(
            "INSERT INTO possible_duplicates (agent_id, entity_id, fact_id, other_fact_id, similarity, "
            "evidence_message_id, created_at) VALUES ($1, $2, $3, $4, 0.9, 'm', $5) "
            "ON CONFLICT DO NOTHING",
            agent,
            entity,
            first,
            second,
            NOW,
        )
    assert (await sweep(PostgresRetention(svc.pool), POLICY, NOW, NullTelemetry())).archived_facts >= 1
    async with svc.pool.acquire() as conn:
        status = await conn.fetchval(
            "SELECT status FROM possible_duplicates WHERE fact_id = $1 AND other_fact_id = $2", first, second
        )
    assert status == "closed"  # the model is no longer asked about a fact it cannot see


async def test_a_fact_confirmed_after_the_scan_is_not_archived(own: tuple[Service, str], llm: ScriptedLLM) -> None:
    svc, _ = own
    person = Person()
    await learn(
        svc,
        llm,
        person,
        "race: stressed about work",
        add_current("is stressed about work", "feeling"),
        when=days_ago(90),
    )
    store = PostgresRetention(svc.pool)
    scanned = [f for f in await store.stale_candidates(NOW, None, 10_000) if str(f.entity_id) == person.entity_id]
    assert len(scanned) == 1
    await learn(svc, llm, person, "race: still stressed", change("strengthen", "C1"))  # a message confirms it
    archived = await store.archive_facts(scanned[0].agent_id, scanned[0].entity_id, scanned, NOW, "test")
    assert archived == 0


async def test_a_past_plan_is_presented_as_past(own: tuple[Service, str], llm: ScriptedLLM) -> None:
    svc, _ = own
    person = Person()
    await learn(
        svc,
        llm,
        person,
        "plan: traveling to Tokyo next week",
        add_current("is traveling to Tokyo", "schedule_context", date="2026-11-27"),
    )
    upcoming = await svc.stub.Provide(person.provide("any plans?", now=NOW + timedelta(days=2)))
    assert "is traveling to Tokyo (planned for 2026-11-27)" in upcoming.text
    past = await svc.stub.Provide(person.provide("any plans?", now=NOW + timedelta(days=8)))
    assert "is traveling to Tokyo (was planned for 2026-11-27)" in past.text
    assert "(planned for" not in past.text


async def test_evaluations_past_the_window_keep_only_what_idempotency_needs(
    own: tuple[Service, str], llm: ScriptedLLM
) -> None:
    svc, _ = own
    person = Person()
    old = person.evaluate("window: I like green tea", NOW)
    llm.on("window: I like green tea", Reply(facts_reply(add_durable("likes green tea", "preference"))))
    first = await svc.stub.Evaluate(old)
    recent_request = person.evaluate("window: I like coffee", NOW)
    llm.on("window: I like coffee", Reply(facts_reply(add_durable("likes coffee", "preference"))))
    recent = await svc.stub.Evaluate(recent_request)
    assert len(first.ops) == 1 and len(recent.ops) == 1
    async with svc.pool.acquire() as conn:
        await conn.execute(
            "UPDATE evaluations SET created_at = $2 WHERE message_id = $1", old.message.id, NOW - timedelta(days=31)
        )
    metrics = PrometheusTelemetry()
    counts = await sweep(PostgresRetention(svc.pool), POLICY, NOW, metrics)
    assert counts.reduced_evaluations == 1
    assert metrics.registry.get_sample_value("factmemory_retention_rows_total", {"what": "reduced_evaluations"}) == 1
    async with svc.pool.acquire() as conn:
        row = await conn.fetchrow(
            "SELECT entity_id, result, prompt_tokens FROM evaluations WHERE message_id = $1", old.message.id
        )
    assert row is not None
    assert str(row["entity_id"]) == person.entity_id and row["prompt_tokens"] > 0
    assert "ops" not in row["result"] and len(json.dumps(row["result"])) < 100

    calls = len(llm.requests)
    replay = await svc.stub.Evaluate(old)  # a client retry long after: applied once, never again
    assert replay.replayed and len(replay.ops) == 0 and replay.usage == pb.Usage()
    assert replay.original_usage.prompt_tokens == row["prompt_tokens"]  # what the first evaluation cost
    assert len(llm.requests) == calls
    again = await svc.stub.Evaluate(recent_request)
    assert again.replayed and len(again.ops) == 1  # inside the window: the stored result


async def test_old_resolved_candidates_leave_the_any_status_queue_but_are_kept(
    own: tuple[Service, str], llm: ScriptedLLM
) -> None:
    svc, _ = own
    person = Person()
    await learn(svc, llm, person, "queue: I live in Berlin", add_durable("lives in Berlin", "identity"))
    first = await learn(
        svc, llm, person, "queue: I moved to Rome", change("contradict", "D1", "moved", proposed_claim="lives in Rome")
    )
    second = await learn(
        svc, llm, person, "queue: actually Paris", change("contradict", "D1", "moved", proposed_claim="lives in Paris")
    )
    resolved, pending = first.ops[0].candidate_id, second.ops[0].candidate_id
    await svc.stub.ResolveCandidate(
        pb.ResolveCandidateRequest(
            agent_id=person.agent_id, entity_id=person.entity_id, candidate_id=resolved, resolution=pb.RESOLUTION_REJECT
        )
    )
    async with svc.pool.acquire() as conn:
        await conn.execute(
            "UPDATE fact_candidates SET resolved_at = $2 WHERE id = $1", uuid.UUID(resolved), NOW - timedelta(days=91)
        )

    def listed(
        status: pb.CandidateStatus = pb.CANDIDATE_STATUS_UNSPECIFIED, any_status: bool = False
    ) -> pb.ListCandidatesRequest:
        return pb.ListCandidatesRequest(
            agent_id=person.agent_id, entity_id=person.entity_id, status=status, any_status=any_status
        )

    assert {c.id for c in (await svc.stub.ListCandidates(listed(any_status=True))).candidates} == {resolved, pending}
    counts = await sweep(PostgresRetention(svc.pool), POLICY, NOW, NullTelemetry())
    assert counts.archived_candidates == 1
    assert {c.id for c in (await svc.stub.ListCandidates(listed(any_status=True))).candidates} == {pending}
    assert {c.id for c in (await svc.stub.ListCandidates(listed())).candidates} == {pending}
    kept = await svc.stub.ListCandidates(listed(status=pb.CANDIDATE_STATUS_REJECTED))
    assert [c.id for c in kept.candidates] == [resolved]  # asked for by status, it is still there


async def test_the_background_sweep_runs_every_interval_until_cancelled(
    own: tuple[Service, str], llm: ScriptedLLM
) -> None:
    svc, _ = own
    person = Person()
    await learn(svc, llm, person, "background: I feel sad", add_current("feels sad", "feeling"), when=days_ago(70))
    metrics = PrometheusTelemetry()
    task = asyncio.create_task(run_periodically(PostgresRetention(svc.pool), POLICY, 0.05, lambda: NOW, metrics))
    try:
        for _ in range(200):
            if metrics.registry.get_sample_value("factmemory_retention_rows_total", {"what": "archived_facts"}):
                break
            await asyncio.sleep(0.05)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert task.cancelled()
    assert (metrics.registry.get_sample_value("factmemory_retention_rows_total", {"what": "archived_facts"}) or 0) >= 1
    provided = await svc.stub.Provide(person.provide("how do you feel"))
    assert "feels sad" not in claims(provided)


async def test_prune_runs_once_and_prints_the_counts(
    own: tuple[Service, str], llm: ScriptedLLM, tmp_path: Path
) -> None:
    svc, url = own
    person = Person()
    # Far enough back that the machine's clock (not the fixed one) finds it stale too.
    await learn(
        svc,
        llm,
        person,
        "prune: I had the flu",
        add_current("has the flu", "physical_state"),
        when=datetime(2026, 1, 5, tzinfo=UTC),
    )
    result = await asyncio.to_thread(run_cli, "prune", FACTMEMORY_DATABASE_URL=url, FACTMEMORY_DATA_DIR=str(tmp_path))
    assert result.returncode == 0, result.stderr
    line = result.stdout.strip().splitlines()[-1]
    assert line.startswith("pruned: archived facts ") and "reduced evaluations" in line, line
    assert int(line.split("archived facts ")[1].split(",")[0]) >= 1
    assert "has the flu" not in claims(await svc.stub.Provide(person.provide("flu?")))


async def test_a_failed_step_is_logged_in_one_line_and_the_later_steps_still_run(
    own: tuple[Service, str], llm: ScriptedLLM, caplog: pytest.LogCaptureFixture
) -> None:
    """Reducing old evaluations fails for real (another session holds the table, the sweep's sessions wait 0.3 s);
    the resolved candidate is archived all the same, and the failure is one line naming its step."""
    svc, url = own
    person = Person()
    await learn(svc, llm, person, "failing: I live in Oslo", add_durable("lives in Oslo", "identity"))
    moved = await learn(
        svc, llm, person, "failing: I moved to Bergen", change("contradict", "D1", "moved", "lives in Bergen")
    )
    candidate = moved.ops[0].candidate_id
    await svc.stub.ResolveCandidate(
        pb.ResolveCandidateRequest(
            agent_id=person.agent_id,
            entity_id=person.entity_id,
            candidate_id=candidate,
            resolution=pb.RESOLUTION_REJECT,
        )
    )
    async with svc.pool.acquire() as conn:
        await conn.execute(
            "UPDATE fact_candidates SET resolved_at = $2 WHERE id = $1", uuid.UUID(candidate), NOW - timedelta(days=91)
        )
    caplog.set_level(logging.INFO, logger="factmemory.usecases.retention")
    holder = await asyncpg.connect(url)
    try:
        async with holder.transaction():
            await holder.execute("LOCK TABLE evaluations IN ACCESS EXCLUSIVE MODE")
            async with open_pool(url, 1, 2, 10.0, (*SESSION_SETTINGS, "SET lock_timeout = 300")) as pool:
                counts = await sweep(PostgresRetention(pool), POLICY, NOW, NullTelemetry())
    finally:
        await holder.close()
    assert counts.failed == ("reduced_evaluations",)
    assert counts.archived_candidates == 1
    assert counts.line().endswith("; failed: reduced evaluations"), counts.line()
    [line] = [r.getMessage() for r in caplog.records if "failed" in r.getMessage()]
    assert line.startswith("retention: reduced evaluations failed: LockNotAvailableError: "), line
    assert "\n" not in line
