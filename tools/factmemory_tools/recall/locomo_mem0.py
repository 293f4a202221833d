"""mem0 2.2.1 over the LoCoMo replay's stored facts (recall/locomo.py): the same claims, vectors and times loaded
into mem0's pgvector store in the same PostgreSQL (exact search), each memory lemmatised by mem0's spaCy lemmatizer
and linked to its entities as its add() does; every question to search(limit=12) for the person it is about, with
the question's E5 query vector, the entity boost on and off. Runs mem0 in its own interpreter, set up as
`vs_mem0 --recall` sets it up (vs_mem0/__main__.py: mem0ai[nlp]==2.2.1 and the registry's en_core_web_sm)."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

from factmemory_tools.vs_mem0.recall import SPACY_MODEL, mem0_config
from factmemory_tools.vs_mem0.run import Mem0, _process

if TYPE_CHECKING:
    from factmemory_tools.recall.locomo import Question

BATCH = 200
VARIANTS = (("mem0 as designed", True), ("mem0 entity boost off", False))


def mem0_rankings(
    python: Path, url: str, keep: Path | None, rows: Sequence[Any], asked: Sequence[Question]
) -> dict[str, list[list[str]]]:
    """Per variant, the ids mem0 returns for each question, in `asked` order."""
    if not python.exists():
        raise RuntimeError(f"no mem0 interpreter at {python}: run `python -m factmemory_tools.vs_mem0 --recall` once")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FACTMEMORY_", "OPENAI_"))}
    with ExitStack() as stack:
        workdir = keep or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="locomo-mem0-")))
        claims = workdir / "claims.json"
        claims.write_text("{}", encoding="utf-8")
        argv = [sys.executable, "-m", "factmemory_tools.vs_mem0.endpoint", "--claims", str(claims), "--memo"]
        endpoint = stack.enter_context(_process(argv, env, "endpoint listening on "))
        mem0 = Mem0(python, env | {"MEM0_TELEMETRY": "False"})
        stack.callback(mem0.close)
        config = mem0_config(url, endpoint, workdir)
        config["vector_store"]["config"]["collection_name"] = "mem0_locomo"
        _drop(url)
        mem0.call(cmd="open", config=config)
        mem0.call(cmd="nlp", model=SPACY_MODEL)
        for start in range(0, len(rows), BATCH):
            batch = rows[start : start + BATCH]
            mem0.call(
                cmd="load",
                rows=[[str(r["id"]), str(r["entity_id"]), r["claim"], r["created_at"].isoformat()] for r in batch],
                vectors=[[float(v) for v in r["embedding"].to_list()] for r in batch],
                link=True,
            )
        out: dict[str, list[list[str]]] = {name: [] for name, _ in VARIANTS}
        for q in asked:
            for name, boost in VARIANTS:
                found = mem0.call(
                    cmd="recall", user_id=str(q.entity), query=q.text, vector=q.vector, limit=12, boost=boost
                )
                out[name].append(found["ids"])
        return out


def _drop(url: str) -> None:
    """A fresh mem0 collection on every run (a kept database keeps the last run's)."""
    import asyncio

    import asyncpg

    async def drop() -> None:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute("DROP TABLE IF EXISTS mem0_locomo, mem0_locomo_entities")
        finally:
            await conn.close()

    asyncio.run(drop())
