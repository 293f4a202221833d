"""Provide's reads on PostgreSQL (ports.ProvideStore): the candidate pool in one statement (provide_pool.py), the
nearest facts (the shared subjects') and the full-text fallback, on the replica when there is one. Candidate facts
already built are kept by row version (fact_memo.py), so a row that has not changed comes back as its id alone."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

import asyncpg

from factmemory.adapters.postgres import shared
from factmemory.adapters.postgres.deployment.replica import Reads
from factmemory.adapters.postgres.read.fact_memo import FactMemo, Held
from factmemory.adapters.postgres.read.nearest import TEXT_SEARCH_BY_KIND, NearestReads
from factmemory.adapters.postgres.read.provide_pool import CANDIDATES, candidate_args, candidates_of
from factmemory.domain.vectors import Vector
from factmemory.ports import Pool, Similar

Spans = Sequence[tuple[datetime, datetime]]


class PostgresProvide(NearestReads, shared.SubjectReads):
    """ProvideStore on any deployment. `candidates`: the pool the candidate statement runs on when the service
    opened one that plans it once per connection (connection.GENERIC_PLANS); else the reads' primary pool."""

    def __init__(self, reads: Reads, candidates: asyncpg.Pool | None = None) -> None:
        self.reads = reads
        self._pool = reads.pool  # the shared subjects' reads (on the primary)
        self.candidates_pool = candidates or reads.pool
        self.fact_memo = FactMemo()

    async def text_search(
        self, agent_id: UUID, entity_id: UUID, query: str, durable_limit: int, current_limit: int
    ) -> list[Similar]:
        args = (query, durable_limit, current_limit)
        return await self.ranked(True, TEXT_SEARCH_BY_KIND, agent_id, entity_id, *args)

    async def provide_pool(
        self,
        agent_id: UUID,
        entity_id: UUID,
        embedding: Vector,
        terms: Sequence[str],
        pool: int,
        rare_df: int,
        rare_limit: int,
        spans: Spans = (),
        *,
        replica_ok: bool = False,
    ) -> Pool:
        """The nearest `pool` facts by vector, the facts holding a rare term of the turn and the nearest facts of
        the times it names (provide_pool.py)."""
        args = candidate_args(embedding, pool, list(terms), rare_df, rare_limit, spans)
        return self.pool_of(*await self.candidate_rows(agent_id, entity_id, args, replica_ok))

    async def candidate_rows(
        self, agent_id: UUID, entity_id: UUID, args: Sequence[object], replica_ok: bool
    ) -> tuple[list[asyncpg.Record], Held]:
        """CANDIDATES' rows (`args`: its $3 to $10, candidate_args) and the held facts sent with it."""
        held = self.fact_memo.held(agent_id, entity_id)
        rows = await self.reads.run(
            agent_id,
            entity_id,
            lambda conn: conn.fetch(CANDIDATES, agent_id, entity_id, *args, held.ids, held.versions),
            replica_ok,
            self.candidates_pool,
        )
        return rows, held

    def pool_of(self, rows: Sequence[asyncpg.Record], held: Held) -> Pool:
        return candidates_of(rows, self.fact_memo, held)

    def drop_held(self, agent_id: UUID, entity_id: UUID) -> None:
        """Drops what this process holds of the person (their candidate facts)."""
        self.fact_memo.forget(agent_id, entity_id)
