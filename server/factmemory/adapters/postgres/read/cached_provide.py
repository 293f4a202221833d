"""Provide on one PostgreSQL without a replica: a large person's candidates from the in-process copy of their
vectors (vector_cache.py) when it answers exactly, else the plain statement (provide_store.py), after which the copy
learns of the person. Wired by the app only where it applies (Topology.caches_provide)."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

import asyncpg

from factmemory.adapters.postgres.connection import connection
from factmemory.adapters.postgres.deployment.replica import Reads
from factmemory.adapters.postgres.read.provide_pool import candidate_args
from factmemory.adapters.postgres.read.provide_store import PostgresProvide, Spans
from factmemory.adapters.postgres.read.vector_cache import VectorCopies
from factmemory.domain.vectors import Vector
from factmemory.ports import Pool


class CachedProvide(PostgresProvide):
    """ProvideStore: the plain one with the copies of large people's vectors in front of its candidate statement."""

    def __init__(self, reads: Reads, copies: VectorCopies, candidates: asyncpg.Pool | None = None) -> None:
        super().__init__(reads, candidates)
        self.copies = copies

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
        """The plain pool, a large person's nearest from the copy of their vectors when it answers exactly."""
        args = candidate_args(embedding, pool, list(terms), rare_df, rare_limit, spans)
        answer = None
        if self.copies.holds(agent_id, entity_id):  # no connection taken otherwise
            async with connection(self.candidates_pool) as conn:
                answer = await self.copies.candidates(
                    conn,
                    agent_id,
                    entity_id,
                    embedding,
                    pool,
                    args,
                    lambda ids: self.fact_memo.held(agent_id, entity_id, ids),
                    spans,
                    rare_limit,
                )
        if answer is None:
            answer = await self.candidate_rows(agent_id, entity_id, args, replica_ok)
            if rows := answer[0]:
                facts = int(rows[0]["person_facts"])
                await self.copies.learn(self.reads.pool, agent_id, entity_id, facts, len(embedding))
        return self.pool_of(*answer)

    def drop_held(self, agent_id: UUID, entity_id: UUID) -> None:
        """Drops what this process holds of the person: their candidate facts and their vectors' copy."""
        super().drop_held(agent_id, entity_id)
        self.copies.forget(agent_id, entity_id)
