"""The deployment, decided once at start-up: one PostgreSQL, one with a read replica, or a database distributed by
person on Citus (docs/scaling.md). What differs between them is chosen from this value in `app/runtime.py`: where
reads go, whether Provide keeps copies in the process, and which statements name the person (the PerPerson
adapters, `adapters_for`)."""

from __future__ import annotations

import enum

import asyncpg

from factmemory.adapters.postgres.deployment.citus import distributed_by_person
from factmemory.adapters.postgres.deployment.distribution import partial_distribution
from factmemory.adapters.postgres.deployment.setup_errors import DatabaseSetupError


class Topology(enum.Enum):
    ONE = "one PostgreSQL"
    REPLICA = "PostgreSQL with a read replica"
    CITUS = "distributed by person on Citus"

    @property
    def by_person(self) -> bool:
        """Every per-turn statement names the person, so it runs on the person's shard alone."""
        return self is Topology.CITUS

    @property
    def caches_provide(self) -> bool:
        """Provide may keep large people's vectors in the process and plan its candidate statement once per
        connection: not with a replica (those reads go to it) nor on Citus (whose planner decides its own plans)."""
        return self is Topology.ONE


async def topology_of(pool: asyncpg.Pool, read_url: str | None) -> Topology:
    """The deployment of the database behind `pool`, given the configured read URL (None or "": none). A database
    distributed in part is refused here, rather than answering INTERNAL on the first write."""
    partial = await partial_distribution(pool)
    if partial is not None:
        raise DatabaseSetupError(partial)
    if await distributed_by_person(pool):
        if read_url:
            # Replica reads are decided by read positions, which a distributed database does not keep.
            raise DatabaseSetupError(
                "FACTMEMORY_DATABASE_READ_URL is not supported on a database distributed on Citus "
                "(docs/scaling.md): unset it; the coordinator answers every read"
            )
        return Topology.CITUS
    return Topology.REPLICA if read_url else Topology.ONE
