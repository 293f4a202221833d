"""Provide's candidate facts as already built, by row version: a candidate whose row has not changed since an
earlier Provide of this process is not built from its row again (docs/read-path.md, "What it costs").

A Provide reads some 60 candidate rows and builds a domain Fact of each (rows.row_to_fact, ~7 us a row alone and
about twice that inside the service; most are not shown). The candidate statements (provide_pool.py) return each
row's version: its xmin, the transaction that wrote that version of the row. Every change of a row (an UPDATE of any
column, a delete and a new insert) writes a new version with a new xmin, so a fact whose version is the one held
was built from the same column values. An entry is used only for a row the statement has just read, with that
version: the database still decides which facts are candidates and what they say; the memo only saves building
them again. What the row does not hold is read at each call and set on the fact held when it differs: the pending
contradiction (`disputed_by`).

Bounded: MEMO_FACTS facts in all, the least recently used dropped. A person forgotten by this process has their
entries dropped at once; a fact changed or deleted otherwise leaves its entry to be replaced when its row is read
again, or to age out, never to be used. xmin is 32 bits: an entry could be taken for a later version only if its
row were written again in a transaction with the same 32-bit id, some 4 billion transactions later, without a
Provide of this process reading the row in between (any read of a new version replaces the entry)."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace
from uuid import UUID

import asyncpg

from factmemory.adapters.postgres.rows import row_to_fact
from factmemory.domain.models import Fact

# ~0.5 kB a fact held (its strings, times and ids; tracemalloc, 2026-11-27): ~10 MB at most. A judgement: a few
# hundred active people's candidates, or most of what a 20,000-fact person's turns bring back; not tuned.
MEMO_FACTS = 20_000


class FactMemo:
    """Facts by id, each with the row version it was built from, least recently used first."""

    def __init__(self, capacity: int = MEMO_FACTS) -> None:
        self._capacity = capacity
        self._facts: OrderedDict[UUID, tuple[str, Fact]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._facts)

    def fact(self, row: asyncpg.Record) -> Fact:
        """The row's fact: the one held when it was built from this version of the row, else built now (and held).
        The row has the fact's columns, `version` (its xmin as text) and `disputed_by`."""
        key: UUID = row["id"]
        version: str = row["version"]
        held = self._facts.get(key)
        if held is None or held[0] != version:
            fact = row_to_fact(row)
        else:
            fact = held[1]
            disputed = row["disputed_by"] or ""
            if fact.disputed_by != disputed:
                fact = replace(fact, disputed_by=disputed)
        self._facts[key] = (version, fact)
        self._facts.move_to_end(key)
        if len(self._facts) > self._capacity:
            self._facts.popitem(last=False)
        return fact

    def holds(self, agent_id: UUID, entity_id: UUID) -> int:
        """How many of the person's facts are held."""
        return sum(1 for _, f in self._facts.values() if f.entity_id == entity_id and f.agent_id == agent_id)

    def forget(self, agent_id: UUID, entity_id: UUID) -> None:
        """Drops the person's facts (ForgetEntity in this process): a scan of at most MEMO_FACTS entries."""
        gone = [k for k, (_, f) in self._facts.items() if f.entity_id == entity_id and f.agent_id == agent_id]
        for key in gone:
            del self._facts[key]
