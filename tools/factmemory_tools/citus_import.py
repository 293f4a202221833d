"""The import's writes of one person on a Citus cluster against one PostgreSQL (docs/scaling.md, "Writing many facts
of one person").

    python -m factmemory_tools.citus_import [--facts 5000]

For each target (a fresh embedded PostgreSQL; a fresh local cluster of a coordinator and two workers, distributed
by `factmemory distribute`), the facts of one person are stored as `factmemory import` stores them (the store's
`import_facts`: batches of 256, each one transaction under the person's lock, with the ledger and the forget epoch
checked), timed from the first batch to the last. The vectors are made beforehand (random unit vectors), so the
figure is the database's part alone: the embedding, the same on both targets, is left out. Prints one line per
target and their ratio; wall-clock on this machine, shared with whatever else runs on it.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

from factmemory.public import (
    ADD_CONFIDENCE,
    UNCATEGORIZED,
    Kind,
    NewFact,
    PostgresBulk,
    Verification,
    distribute,
    migrate,
    new_fact,
    open_database,
    open_pool,
)
from factmemory_tools import citus_cluster

DIMENSIONS = 384  # the local embedder's
BATCH = 256  # the import's (usecases/imports.py)
WORDS = (
    "tea coffee Berlin Paris cello piano running cycling dog cat sister brother doctor nurse teacher garden book "
    "film music travel"
).split()


def facts(count: int) -> list[NewFact]:
    """`count` facts of plain claims of four words each, with random unit vectors (the same on every run)."""
    words = random.Random(7)
    vectors = np.random.default_rng(7)
    start = datetime(2025, 1, 1, tzinfo=UTC)
    made = []
    for i in range(count):
        vector = vectors.standard_normal(DIMENSIONS).astype(np.float32)
        made.append(
            new_fact(
                Kind.DURABLE,
                UNCATEGORIZED,
                f"likes {' and '.join(words.sample(WORDS, 4))} ({i})",
                confidence=ADD_CONFIDENCE,
                evidence=f"import:{i}",
                verification=Verification.SELF_REPORTED,
                at=start + timedelta(minutes=i),
                embedding=vector / np.linalg.norm(vector),
                embedding_model="bench",
                import_source_id=f"bench-{i}",
            )
        )
    return made


async def store_all(url: str, batch: list[NewFact]) -> float:
    """Seconds to store `batch` as one person's import, on the migrated database at `url`."""
    async with open_pool(url, 1, 2, 600.0) as pool:
        store = PostgresBulk(pool)
        agent, person = uuid.uuid4(), uuid.uuid4()
        started = time.perf_counter()
        stored = 0
        for first in range(0, len(batch), BATCH):
            stored += await store.import_facts(agent, person, batch[first : first + BATCH], "import:bench", 0) or 0
        took = time.perf_counter() - started
    if stored != len(batch):
        raise SystemExit(f"stored {stored} of {len(batch)} facts")
    return took


async def run(count: int) -> None:
    made = facts(count)
    with tempfile.TemporaryDirectory(prefix="factmemory-import-") as data:
        async with open_database(None, Path(data)) as database:
            await migrate(database.url, DIMENSIONS)
            single = await store_all(database.url, made)
    print(f"one PostgreSQL (embedded): {count} facts of one person in {single:.1f} s", flush=True)
    folder = Path(tempfile.mkdtemp(prefix="factmemory-citus-")) / "cluster"
    try:
        cluster = await asyncio.to_thread(citus_cluster.start, folder)
        await migrate(cluster.url, DIMENSIONS)
        await distribute(cluster.url)
        on_cluster = await store_all(cluster.url, made)
    finally:
        await asyncio.to_thread(citus_cluster.stop, folder)
        shutil.rmtree(folder.parent, ignore_errors=True)
    print(f"Citus (coordinator + 2 workers): {count} facts of one person in {on_cluster:.1f} s")
    print(f"cluster / one PostgreSQL: {on_cluster / single:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="citus_import", description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=5000, help="facts of the one person")
    asyncio.run(run(parser.parse_args().facts))


if __name__ == "__main__":
    main()
