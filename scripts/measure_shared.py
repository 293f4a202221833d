"""Measure the shared section's relevance gate (SHARED_MIN_SIMILARITY, domain/shared.py) with the local embedder.

Run:  .venv/bin/python scripts/measure_shared.py [tests/data/shared_relevance.json]
For each threshold: how many labelled relevant (turn, fact) pairs pass, how many unrelated ones do, and on how
many off-topic turns (no relevant fact) a shared section would appear at all.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from factmemory.adapters.embedding.embedders import LocalEmbedder

THRESHOLDS = (0.78, 0.79, 0.80, 0.81, 0.82, 0.83, 0.84)


async def main(data: dict[str, Any]) -> None:
    embedder = await LocalEmbedder.start("multilingual-e5-small", 1)
    try:
        facts = np.asarray(await embedder.passages(data["facts"]))
        facts /= np.linalg.norm(facts, axis=1, keepdims=True)
        rows = []
        for turn in data["turns"]:
            query = np.asarray((await embedder.queries([turn["text"]]))[0])
            rows.append((set(turn["relevant"]), facts @ (query / np.linalg.norm(query))))
    finally:
        await embedder.close()
    relevant = sum(len(r) for r, _ in rows)
    unrelated = sum(len(c) - len(r) for r, c in rows)
    off_topic = sum(1 for r, _ in rows if not r)
    for t in THRESHOLDS:
        kept = sum(1 for r, c in rows for i in r if c[i] >= t)
        wrong = sum(1 for r, c in rows for i, v in enumerate(c) if i not in r and v >= t)
        shown = sum(1 for r, c in rows if not r and c.max() >= t)
        print(
            f"{t:.2f}: relevant {kept}/{relevant}, unrelated {wrong}/{unrelated}, off-topic turns {shown}/{off_topic}"
        )


if __name__ == "__main__":
    path = Path(sys.argv[1] if len(sys.argv) > 1 else "tests/data/shared_relevance.json")
    asyncio.run(main(json.loads(path.read_text())))
