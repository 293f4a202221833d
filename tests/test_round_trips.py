"""Round trips of one Evaluate (docs/write-path.md, "Round trips of a write"): the real store over a real pool whose
acquisitions and statements are counted (asyncpg's query logger on the real connection; nothing is mocked).

Before the per-entity lock, one Evaluate reads in three acquisitions, one statement each: what the store knows of the
turn (forget epoch, stored evaluations, open pairs), the nearest facts shown to the model, and the write context of
all the adds. Inside the transaction each write is one statement."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, cast

import asyncpg

from factmemory.adapters.postgres.connection import LOCK_ENTITY
from factmemory.adapters.postgres.store import PostgresEvaluate
from factmemory.api.grpc import convert
from factmemory.usecases.evaluate import evaluate
from tests.conftest import Service
from tests.support.fm import LIMITS, NOW, Person, add_current, add_durable, change, facts_reply
from tests.support.llm_stub import Reply, ScriptedLLM


class CountingPool:
    """A real pool; every acquisition records the statements sent on it (one list per acquisition)."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool
        self.acquisitions: list[list[str]] = []

    @asynccontextmanager
    async def acquire(self) -> AsyncIterator[Any]:
        async with self.pool.acquire() as conn:
            sent: list[str] = []
            self.acquisitions.append(sent)

            def record(logged: Any) -> None:
                sent.append(" ".join(str(logged.query).split()))

            conn.add_query_logger(record)
            try:
                yield conn
            finally:
                conn.remove_query_logger(record)


def split_at_lock(acquisitions: list[list[str]]) -> tuple[list[list[str]], list[str]]:
    """The acquisitions before the one that takes the lock, and the statements of the locked one."""
    lock = " ".join(LOCK_ENTITY.split())
    for i, sent in enumerate(acquisitions):
        if any(lock in query for query in sent):
            return acquisitions[:i], sent
    raise AssertionError("no acquisition took the per-entity lock")


async def test_one_evaluate_reads_in_three_round_trips_before_the_lock_and_writes_one_per_write(
    service: Service, llm: ScriptedLLM
) -> None:
    person = Person("Rita")
    seed = person.evaluate("I live in Oslo and I am tired today")
    llm.on(
        "I live in Oslo",
        Reply(facts_reply(add_durable("lives in Oslo", "identity"), add_current("is tired today", "feeling"))),
    )
    await service.stub.Evaluate(seed)

    counting = CountingPool(service.pool)
    deps = dataclasses.replace(service.deps, evaluate_store=PostgresEvaluate(cast(asyncpg.Pool, counting)))
    text = "Oslo is home, I play chess and I keep bees"
    llm.on(
        text,
        Reply(
            facts_reply(
                change("strengthen", "D1"),
                change("contradict", "C1", "rested now", proposed_claim="is rested"),
                add_durable("plays chess on weekends", "preference"),
                add_durable("keeps bees in the garden", "life_event"),
            )
        ),
    )
    result = await evaluate(deps, convert.evaluate_input(person.evaluate(text), NOW, LIMITS))

    assert result.ops[1].candidate_id is not None
    assert [(op.op.value, op.rejected, op.deduplicated) for op in result.ops] == [
        ("strengthen", False, False),
        ("contradict", False, False),
        ("add_durable", False, False),
        ("add_durable", False, False),
    ]
    before, locked = split_at_lock(counting.acquisitions)
    # forget epoch + stored evaluations + open pairs; nearest shown to the model; the write context of both adds
    assert [len(sent) for sent in before] == [1, 1, 1], before
    writes = [q for q in locked if q not in ("BEGIN;", "COMMIT;")]
    # the lock, the forget epoch (a statement of its own: a statement's snapshot is taken before it waits for the
    # lock, so it would miss a ForgetEntity that committed meanwhile), the claim of the message, the name, the
    # strengthen (read, then set what domain.confidence decided), the contradiction (read the fact, then the review
    # candidate with the fact's history entry), two inserts, the expired pairs closed, and the message's result
    assert len(writes) == 12, writes
    assert sum("INSERT INTO facts" in q for q in writes) == 2  # each insert carries its history mark
