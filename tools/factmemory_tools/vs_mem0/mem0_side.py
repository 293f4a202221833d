"""mem0's side of the comparison. Runs under mem0's own Python (its virtual environment), reads one JSON command
per line on stdin and answers one JSON line on stdout; times are measured around mem0's own calls, in its process.

Commands: {"cmd": "open", "config": {...}} | {"cmd": "load", "rows": [[id, user_id, text, created_at], ...],
"vectors": [[...], ...]} | {"cmd": "search", "user_id": ..., "query": ..., "limit": 12} |
{"cmd": "add", "user_id": ..., "text": ...} | {"cmd": "quit"}
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
                answer = load(memory, request["rows"], request["vectors"])
            elif command == "search":
                start = time.perf_counter()
                found = memory.search(
                    request["query"], filters={"user_id": request["user_id"]}, top_k=request.get("limit", 12)
                )
                answer = {"ms": (time.perf_counter() - start) * 1000, "n": len(found.get("results", []))}
            elif command == "add":
                start = time.perf_counter()
                added = memory.add([{"role": "user", "content": request["text"]}], user_id=request["user_id"])
                answer = {"ms": (time.perf_counter() - start) * 1000, "n": len(added.get("results", []))}
            else:
                answer = {"error": f"unknown command {command}"}
        except Exception as exc:  # report, keep serving: the driver decides
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        print(json.dumps(answer), flush=True)


def load(memory: Any, rows: list[list[str]], vectors: list[list[float]]) -> dict[str, Any]:
    """The same facts as FactMemory's, with the same vectors, written the way mem0's add() writes a memory."""
    payloads = []
    for _, user_id, text, created_at in rows:
        payloads.append(
            {
                "data": text,
                "hash": hashlib.md5(text.encode()).hexdigest(),
                "text_lemmatized": text,
                "user_id": user_id,
                "created_at": created_at,
                "updated_at": created_at,
            }
        )
    memory.vector_store.insert(vectors=vectors, ids=[r[0] for r in rows], payloads=payloads)
    return {"ok": True, "rows": len(rows)}


if __name__ == "__main__":
    main()
