"""mem0's side of the comparison. Runs under mem0's own Python (its virtual environment), reads one JSON command
per line on stdin and answers one JSON line on stdout; times are measured around mem0's own calls, in its process.

Commands: {"cmd": "open", "config": {...}} | {"cmd": "load", "rows": [[id, user_id, text, created_at], ...],
"vectors": [[...], ...]} | {"cmd": "search", "user_id": ..., "query": ..., "limit": 12} |
{"cmd": "vector_search", "user_id": ..., "query": ..., "limit": 12} (mem0's vector store search alone: its one
pgvector top-k query, timed after the query is embedded) | {"cmd": "add", "user_id": ..., "text": ...} |
{"cmd": "quit"}
Recall mode (recall.py): {"cmd": "nlp", "model": spaCy package} loads the model mem0's lemmatizer and entity
extraction use | "load" with "link": true lemmatizes each memory and links its entities as add() does |
{"cmd": "recall", "user_id", "query", "vector", "limit", "boost"} is search() with the caller's query vector
(E5 wants a "query: " prefix that an OpenAI-style embedder cannot ask for), the entity boost on or off.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from typing import Any


def main() -> None:
    memory: Any = None
    for line in sys.stdin:
        request = json.loads(line)
        command = request["cmd"]
        if command == "quit":
            break
        try:
            if command == "open":
                from mem0 import Memory

                memory = Memory.from_config(request["config"])
                answer: dict[str, Any] = {"ok": True}
            elif command == "load":
                answer = load(memory, request["rows"], request["vectors"], request.get("link", False))
            elif command == "search":
                start = time.perf_counter()
                found = memory.search(
                    request["query"], filters={"user_id": request["user_id"]}, top_k=request.get("limit", 12)
                )
                answer = {"ms": (time.perf_counter() - start) * 1000, "n": len(found.get("results", []))}
            elif command == "vector_search":
                answer = vector_search(memory, request)
            elif command == "nlp":
                answer = nlp(request["model"])
            elif command == "recall":
                answer = recall(memory, request)
            elif command == "add":
                start = time.perf_counter()
                added = memory.add([{"role": "user", "content": request["text"]}], user_id=request["user_id"])
                answer = {"ms": (time.perf_counter() - start) * 1000, "n": len(added.get("results", []))}
            else:
                answer = {"error": f"unknown command {command}"}
        except Exception as exc:  # report, keep serving: the driver decides
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        print(json.dumps(answer), flush=True)


def vector_search(memory: Any, request: dict[str, Any]) -> dict[str, Any]:
    """mem0 searching by vector only (no lemmas, no BM25, no entities): the query embedded first, untimed (from
    the endpoint's memo), then the vector store's search, one pgvector top-k query filtered by the user, timed."""
    vector = memory.embedding_model.embed(request["query"], "search")
    start = time.perf_counter()
    found = memory.vector_store.search(
        query=request["query"], vectors=vector, top_k=request.get("limit", 12), filters={"user_id": request["user_id"]}
    )
    return {"ms": (time.perf_counter() - start) * 1000, "n": len(found)}


def nlp(model: str) -> dict[str, Any]:
    """mem0's spaCy pipelines from `model` (mem0 asks for en_core_web_sm, which `spacy download` fetches from
    outside the package registry; a registry copy installs under another name)."""
    import spacy
    from mem0.utils import spacy_models

    spacy_models._nlp_full = spacy.load(model)
    spacy_models._nlp_lemma = spacy.load(model, disable=["ner", "parser"])
    return {"ok": True}


def recall(memory: Any, request: dict[str, Any]) -> dict[str, Any]:
    """search() as designed, with the query's vector given, and the entity boost on or off."""
    vector = request["vector"]
    memory.embedding_model.embed = lambda text, action=None: vector
    if not request["boost"]:
        memory._compute_entity_boosts = lambda entities, filters: {}
    else:
        memory.__dict__.pop("_compute_entity_boosts", None)
    found = memory.search(request["query"], filters={"user_id": request["user_id"]}, top_k=request["limit"])
    return {"ids": [str(r["id"]) for r in found.get("results", [])]}


def load(memory: Any, rows: list[list[str]], vectors: list[list[float]], link: bool = False) -> dict[str, Any]:
    """The same facts as FactMemory's, with the same vectors, written the way mem0's add() writes a memory (with
    `link`: its lemmas for BM25 and its entity links, as add() makes them)."""
    from mem0.utils.lemmatization import lemmatize_for_bm25

    payloads = []
    for _, user_id, text, created_at in rows:
        payloads.append(
            {
                "data": text,
                "hash": hashlib.md5(text.encode()).hexdigest(),
                "text_lemmatized": lemmatize_for_bm25(text) if link else text,
                "user_id": user_id,
                "created_at": created_at,
                "updated_at": created_at,
            }
        )
    memory.vector_store.insert(vectors=vectors, ids=[r[0] for r in rows], payloads=payloads)
    if link:
        for memory_id, user_id, text, _ in rows:
            memory._link_entities_for_memory(memory_id, text, {"user_id": user_id})
    return {"ok": True, "rows": len(rows)}


if __name__ == "__main__":
    main()
