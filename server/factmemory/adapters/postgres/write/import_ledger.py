"""The import ledger: a bare hash of every source row imported for an agent (migration 0021)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from uuid import UUID

import asyncpg

KNOWN = """
SELECT source_hash FROM import_ledger WHERE agent_id = $1 AND source_hash = ANY ($2::text[])
"""
# Inside the import's transaction: the rows this call records first are the only ones it may import.
RECORD = """
INSERT INTO import_ledger (agent_id, source_hash)
SELECT $1, h FROM unnest($2::text[]) AS h
ON CONFLICT (agent_id, source_hash) DO NOTHING
RETURNING source_hash
"""


def source_hash(source_id: str) -> str:
    """The ledger's key of a source row: its id's SHA-256, so the ledger holds nothing readable."""
    return hashlib.sha256(source_id.encode()).hexdigest()


async def known(conn: asyncpg.Connection, agent_id: UUID, source_ids: Sequence[str]) -> set[str]:
    """The source ids of these that were imported for the agent before."""
    by_hash = {source_hash(s): s for s in source_ids}
    rows = await conn.fetch(KNOWN, agent_id, list(by_hash))
    return {by_hash[r["source_hash"]] for r in rows}


async def record(conn: asyncpg.Connection, agent_id: UUID, source_ids: Sequence[str]) -> set[str]:
    """Records the source ids; returns those that were not recorded before (the ones to import now)."""
    by_hash = {source_hash(s): s for s in source_ids}
    rows = await conn.fetch(RECORD, agent_id, list(by_hash))
    return {by_hash[r["source_hash"]] for r in rows}
