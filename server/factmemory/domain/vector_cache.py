"""An exact in-process copy of a large person's search vectors, for Provide's nearest facts (docs/read-path.md,
"A large person's vectors in memory"): the ids and half-precision search vectors of their live facts as of one
database snapshot, brought forward by the rows changed since; the nearest `n` by inner product with the turn; and
whether those `n` certainly hold the database's nearest `k`. Pure: the adapter reads the rows and asks the
database for the exact distances (adapters/postgres/read/vector_cache.py).

Exactness. The database orders by halfvec inner product (pgvector: the halfs widened to float32, summed in
float32) of the stored vector and the turn's vector rounded to half. Here the same halfs are widened to float32
exactly and multiplied by the same rounded turn; only the order of summation differs, which moves a product of
dimension d by at most about d * 2^-24 * |q| * |x| (|x| <= 1: a search vector is a unit vector or the mean of two).
TOLERANCE bounds the two sides' difference for d <= 1024 with room to spare. The database recomputes the exact
distance of the proposed facts; `certain` says whether an unproposed fact could still belong to its nearest k."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import numkong
import numpy as np

from factmemory.domain.vectors import Vector

Halfs = np.ndarray[Any, np.dtype[np.float16]]
# Times as microseconds since the Unix epoch (exact, as the database's timestamps are).
Micros = np.ndarray[Any, np.dtype[np.int64]]
Span = tuple[int, int]  # [start, end) in microseconds
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def micros_of(moment: datetime) -> int:
    """A time as the copy keeps it: whole microseconds since the Unix epoch (a time without a zone taken as UTC)."""
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return (aware - EPOCH) // timedelta(microseconds=1)


# Most a product computed here may differ from the database's, per unit of |turn| (see the module's docstring).
TOLERANCE = 2e-4
# Bytes an entry keeps per fact besides its vector: the id, its slot in the index (an estimate, for the budget).
ID_BYTES = 200
# Bytes of a fact's time (microseconds, int64).
TIME_BYTES = 8


def vector_halfs(vector: Vector) -> Halfs:
    """The turn's vector as the database compares it: rounded to half precision (`$3::vector::halfvec`)."""
    return np.asarray(vector, dtype=np.float32).astype(np.float16)


def turn_halfs(vector: Vector) -> np.ndarray[Any, np.dtype[np.float32]]:
    """vector_halfs, widened (exactly) to float32."""
    return vector_halfs(vector).astype(np.float32)


def pgvector_distances(columns: np.ndarray[Any, np.dtype[np.float32]], turn: Vector) -> list[float]:
    """`search_half <#> turn::halfvec` of each column (a vector per column), to the bit, as pgvector 0.8.5's F16C loop
    computes it here: 8 float32 lanes, lane j summing the products of dimensions j, j + 8, ... in order (fused
    multiply-add: the product of two halfs is exact in float32, so an add rounds once as the FMA does), then the
    lanes summed pairwise (j and j + 4, then j and j + 2, then the two: what the compiled horizontal sum does; a
    left-to-right sum matched 75 of 200 facts, this 200 of 200), then the dimensions past a multiple of 8. The adapter
    uses these only after checking them against the database's for the person's facts."""
    q = turn_halfs(turn)
    dimensions = columns.shape[0]
    count = dimensions // 8 * 8
    # Blocks of 8 dimensions (rows of `blocks`: lane by fact, flattened), added block after block: a reduction over
    # the first axis of a C-ordered array adds its rows in order (pairwise summation applies only along the last,
    # contiguous axis), as the loop did block by block with a few numpy calls instead of one per block.
    blocks = (columns[:count] * q[:count, None]).reshape(count // 8, -1)
    lanes = np.add.reduce(blocks, axis=0).reshape(8, -1) if count else np.zeros((8, columns.shape[1]), np.float32)
    half = lanes[:4] + lanes[4:]
    quarter = half[:2] + half[2:]
    total = quarter[0] + quarter[1]
    for i in range(count, dimensions):
        total += columns[i] * q[i]
    return [-float(t) for t in total]


@dataclass
class Nearest:
    """The `n` facts nearest the turn here, best first, and `boundary`: the best product of any fact not among
    them (-inf when every fact is)."""

    ids: list[UUID]
    boundary: float


@dataclass
class PersonVectors:
    """One person's live facts as of `snapshot` (the database's, as text), under forget epoch `epoch`. May also hold
    facts deleted since (a delete leaves no changed row): the adapter drops them when it finds them gone."""

    snapshot: str
    epoch: int
    dimensions: int
    ids: list[UUID] = field(default_factory=list)
    rows: dict[UUID, int] = field(default_factory=dict)
    # The stored halfs themselves, a row per fact (room x dimensions, fact i in row i; a fact added takes the next
    # free row): half the bytes of float32, and a fact's vector is one contiguous read when its distance is asked.
    # The product with the turn is NumKong's half-precision dot product (SimSIMD's successor), each product widened
    # to float32 and summed in float32 (0.8 ms for 20,000 x 384 here, against 1.35 ms for numpy's float32 product of
    # the widened copy, which also needs twice the memory: 2026-11-27 speed7 log).
    matrix: Halfs = field(default_factory=lambda: np.zeros((0, 0), np.float16))
    # Each fact's time (valid_at, else created_at: what the turn's named times are compared with), by row.
    times: Micros = field(default_factory=lambda: np.zeros(0, np.int64))
    # pgvector_distances equals the database's distances here, and the product agrees with them within TOLERANCE
    # (both checked when the copy was built).
    exact: bool = False

    @classmethod
    def of(cls, snapshot: str, epoch: int, ids: Sequence[UUID], vectors: Halfs, times: Sequence[int]) -> PersonVectors:
        entry = cls(snapshot, epoch, int(vectors.shape[1]) if vectors.ndim == 2 else 0)
        entry.ids = list(ids)
        entry.rows = {fact_id: row for row, fact_id in enumerate(entry.ids)}
        entry.matrix = np.ascontiguousarray(vectors, dtype=np.float16)
        entry.times = np.asarray(times, dtype=np.int64)
        return entry

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def nbytes(self) -> int:
        return int(self.matrix.nbytes) + int(self.times.nbytes) + ID_BYTES * len(self.ids)

    def apply(self, ids: Sequence[UUID], vectors: Sequence[Halfs | None], times: Sequence[int]) -> None:
        """The changed rows: a vector puts or replaces the fact (with its time), None (archived, or another person's
        now) removes it."""
        for fact_id, vector, time in zip(ids, vectors, times, strict=True):
            if vector is None:
                self.remove(fact_id)
            else:
                self._put(fact_id, vector, time)

    def _put(self, fact_id: UUID, vector: Halfs, time: int) -> None:
        row = self.rows.get(fact_id)
        if row is None:
            row = len(self.ids)
            self.ids.append(fact_id)
            self.rows[fact_id] = row
            room = self.matrix.shape[0]
            if row >= room:
                # A quarter more room: a conversation adds a fact or two per turn, and the budget counts the room.
                grown = np.zeros((max(64, room * 5 // 4), self.dimensions), np.float16)
                grown[:room] = self.matrix
                self.matrix = grown
                times = np.zeros(len(grown), np.int64)
                times[:room] = self.times[:room]
                self.times = times
        self.matrix[row] = vector
        self.times[row] = time

    def remove(self, fact_id: UUID) -> None:
        """Drops the fact (if held): the last fact moves into its row."""
        row = self.rows.pop(fact_id, None)
        if row is None:
            return
        last = len(self.ids) - 1
        if row != last:
            moved = self.ids[last]
            self.ids[row] = moved
            self.rows[moved] = row
            self.matrix[row] = self.matrix[last]
            self.times[row] = self.times[last]
        self.ids.pop()

    def distances(self, ids: Sequence[UUID], turn: Vector) -> list[float]:
        """pgvector_distances of the facts held (every id must be held)."""
        rows = self.matrix[[self.rows[i] for i in ids]]
        return pgvector_distances(np.ascontiguousarray(rows.astype(np.float32).T), turn)

    def products(self, turn: Vector) -> np.ndarray[Any, np.dtype[np.float64]]:
        """The inner product of every fact held with the turn rounded as the database rounds it, in the order of
        `ids`: within TOLERANCE of the database's (the summation order differs)."""
        count = len(self.ids)
        if count == 0:
            return np.zeros(0, np.float64)
        # The kernel widens each half to float32 and sums in float32 or wider (its serial fallback too); the adapter
        # checks the agreement with the database's distances on the person's own facts before the copy is used. It
        # releases the GIL: the adapter runs a large product in a worker thread.
        query = vector_halfs(turn).reshape(1, -1)
        return np.asarray(numkong.cdist(query, self.matrix[:count], metric="dot"), dtype=np.float64).reshape(-1)

    def nearest(self, turn: Vector, n: int) -> Nearest:
        """The `n` facts with the largest inner product with the turn (rounded as the database rounds it)."""
        return self.search(turn, n, (), 0)[0]

    def search(self, turn: Vector, n: int, spans: Sequence[Span], n_dated: int) -> tuple[Nearest, Nearest]:
        """`nearest`, and the `n_dated` facts with the largest product among those whose time falls in one of
        `spans` (none when no span is given), from one product with the turn."""
        scores = self.products(turn)
        near = self._top(scores, n)
        if not spans:
            return near, Nearest([], float("-inf"))
        times = self.times[: len(scores)]
        dated = np.zeros(len(scores), dtype=bool)
        for start, end in spans:
            dated |= (times >= start) & (times < end)
        rows = np.flatnonzero(dated)
        return near, self._top(scores[rows], n_dated, rows)

    def _top(self, scores: np.ndarray[Any, Any], n: int, rows: np.ndarray[Any, Any] | None = None) -> Nearest:
        """The `n` largest `scores`, best first, as facts (score i is row i's, or row rows[i]'s), and the best of
        the others."""
        if len(scores) <= n:
            picked, boundary = np.argsort(-scores, kind="stable"), float("-inf")
        else:
            part = np.argpartition(-scores, n)
            picked = part[:n][np.argsort(-scores[part[:n]], kind="stable")]
            boundary = float(scores[part[n]])  # the best of the others
        return Nearest([self.ids[i] for i in (picked if rows is None else rows[picked])], boundary)


def certain(boundary: float, kth_similarity: float, turn: Vector) -> bool:
    """Whether no fact outside the proposed ones can be among the database's nearest k, when the k-th nearest of
    the proposed has `kth_similarity` (computed by the database) and the best fact not proposed scored `boundary`
    here: its database value is then at most boundary + TOLERANCE |turn|, strictly below the k-th."""
    if boundary == float("-inf"):
        return True
    return boundary + TOLERANCE * max(1.0, float(np.linalg.norm(turn))) < kth_similarity


class VectorCache:
    """The entries of the large people, least recently used first, within a budget of bytes: an entry that would
    pass it evicts the least recently used whole (an entry larger than the budget is not kept)."""

    def __init__(self, budget_bytes: int) -> None:
        self.budget_bytes = budget_bytes
        self._entries: OrderedDict[Hashable, PersonVectors] = OrderedDict()
        self.evictions = 0

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._entries

    @property
    def nbytes(self) -> int:
        return sum(e.nbytes for e in self._entries.values())

    def get(self, key: Hashable) -> PersonVectors | None:
        entry = self._entries.get(key)
        if entry is not None:
            self._entries.move_to_end(key)
        return entry

    def put(self, key: Hashable, entry: PersonVectors) -> None:
        self._entries[key] = entry
        self._entries.move_to_end(key)
        self.fit()

    def drop(self, key: Hashable) -> None:
        self._entries.pop(key, None)

    def fit(self) -> None:
        """Evicts the least recently used entries until the rest fit the budget (after an entry grew)."""
        total = self.nbytes
        while self._entries and total > self.budget_bytes:
            _, evicted = self._entries.popitem(last=False)
            total -= evicted.nbytes
            self.evictions += 1
