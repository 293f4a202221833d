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

The statements are also told which facts are held, at which version (`held`: the person's, at most HELD_MAX, or the
ones the copy of a large person proposes), and send only the id, version and per-call columns of a row whose version
is held (`known`): the rest of its columns and its terms come from the facts pinned for that call (so an entry
evicted meanwhile by another call is still there for it).

Bounded: MEMO_BYTES in all (each entry counted by the strings it holds), the least recently used dropped. A person
forgotten by this process has their entries dropped at once, one forgotten by another process within seconds
(forgotten.py); a single fact changed or deleted otherwise leaves its entry to be replaced when its row is read again,
or to age out, never to be used. xmin is 32 bits: an entry could be taken
for a later version only if its row were written again in a transaction with the same 32-bit id, some 4 billion
transactions later, without a Provide of this process reading the row in between (any read of a new version
replaces the entry)."""

from __future__ import annotations

import functools
from collections import Counter, OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from uuid import UUID

import asyncpg

from factmemory.adapters.postgres.rows import row_to_fact
from factmemory.domain.models import Fact

# ~0.5 kB a fact of one sentence held (its strings, times and ids; tracemalloc, 2026-11-27), so some 60,000 such
# facts; a fact with long arrays (many evidence ids, earlier claims) counts for what it holds (Entry.size). A
# judgement: a few hundred active people's candidates, or what a 20,000-fact person's turns bring back; not tuned.
MEMO_BYTES = 32 * 2**20
# What an entry costs besides its strings (the objects, the ids, the times), for MEMO_BYTES.
ENTRY_BYTES = 400
# The most held facts of a person a candidate statement is told of (its parameters grow with them): four pools of
# 60. A judgement, not tuned.
HELD_MAX = 240

Person = tuple[UUID, UUID]


@dataclass(frozen=True)
class Entry:
    version: str
    fact: Fact
    terms: tuple[str, ...]

    @functools.cached_property
    def size(self) -> int:
        """Bytes it holds, roughly: its strings and a fixed cost."""
        f = self.fact
        return (
            ENTRY_BYTES
            + len(f.claim)
            + len(f.category)
            + sum(len(c) for c in f.previous_claims)
            + sum(len(e) for e in f.evidence_message_ids)
            + (len(repr(f.structured_fields)) if f.structured_fields else 0)
            + len(f.disputed_by)
            + sum(len(t) for t in self.terms)
        )


@dataclass(frozen=True)
class Held:
    """The facts a statement is told are held: their ids and versions (its parameters), pinned for its rows."""

    entries: dict[UUID, Entry]

    @property
    def ids(self) -> list[UUID]:
        return list(self.entries)

    @property
    def versions(self) -> list[str]:
        return [e.version for e in self.entries.values()]


class FactMemo:
    """Facts by id, each with the row version it was built from and its terms, least recently used first.
    `counts`: rows whose fact was built, reused from a row sent whole, or taken from the held facts (known)."""

    def __init__(self, budget_bytes: int = MEMO_BYTES) -> None:
        self._budget = budget_bytes
        self._bytes = 0
        self._facts: OrderedDict[UUID, Entry] = OrderedDict()
        self._people: dict[Person, set[UUID]] = {}
        self.counts: Counter[str] = Counter()

    def __len__(self) -> int:
        return len(self._facts)

    def held(self, agent_id: UUID, entity_id: UUID, ids: Iterable[UUID] | None = None) -> Held:
        """The person's facts held (of `ids` when given), at most HELD_MAX."""
        mine = self._people.get((agent_id, entity_id), set())
        chosen = mine if ids is None else (i for i in ids if i in mine)
        entries: dict[UUID, Entry] = {}
        for key in chosen:
            if len(entries) >= HELD_MAX:
                break
            entry = self._facts.get(key)
            if entry is not None:
                entries[key] = entry
        return Held(entries)

    def fact(self, row: asyncpg.Record, held: Held) -> tuple[Fact, tuple[str, ...]]:
        """The row's fact and terms. A `known` row (its version is the one in `held`) has only its id, version and
        disputed_by: its fact is the one held; another row's is the one held if built from this version, else
        built now. Either way it is held (again) as the most recently used."""
        key: UUID = row["id"]
        version: str = row["version"]
        entry = held.entries.get(key) if row["known"] else self._facts.get(key)
        if entry is None or entry.version != version:
            entry = Entry(version, row_to_fact(row), tuple(row["lexemes"]))
            self.counts["built"] += 1
        else:
            self.counts["known" if row["known"] else "reused"] += 1
            disputed = row["disputed_by"] or ""
            if entry.fact.disputed_by != disputed:
                entry = Entry(version, replace(entry.fact, disputed_by=disputed), entry.terms)
        self._put(key, entry)
        return entry.fact, entry.terms

    def _put(self, key: UUID, entry: Entry) -> None:
        if self._facts.get(key) is entry:  # held already: only its place in the order changes
            self._facts.move_to_end(key)
            return
        before = self._facts.pop(key, None)
        if before is not None:
            self._bytes -= before.size
            moved = (before.fact.agent_id, before.fact.entity_id) != (entry.fact.agent_id, entry.fact.entity_id)
            if moved:  # the fact is another person's now
                self._drop_person_key(before.fact.agent_id, before.fact.entity_id, key)
        self._facts[key] = entry
        self._bytes += entry.size
        self._people.setdefault((entry.fact.agent_id, entry.fact.entity_id), set()).add(key)
        while self._bytes > self._budget and self._facts:
            _, old = self._facts.popitem(last=False)
            self._bytes -= old.size
            self._drop_person_key(old.fact.agent_id, old.fact.entity_id, old.fact.id)

    @property
    def nbytes(self) -> int:
        """What the entries hold, as Entry.size counts it."""
        return self._bytes

    def _drop_person_key(self, agent_id: UUID, entity_id: UUID, key: UUID) -> None:
        person = (agent_id, entity_id)
        keys = self._people.get(person)
        if keys is not None:
            keys.discard(key)
            if not keys:
                del self._people[person]

    def holds(self, agent_id: UUID, entity_id: UUID) -> int:
        """How many of the person's facts are held."""
        return len(self._people.get((agent_id, entity_id), ()))

    def forget(self, agent_id: UUID, entity_id: UUID) -> None:
        """Drops the person's facts (ForgetEntity in this process)."""
        for key in self._people.pop((agent_id, entity_id), set()):
            entry = self._facts.pop(key, None)
            if entry is not None:
                self._bytes -= entry.size
