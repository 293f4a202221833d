"""The one OpenAI-compatible endpoint both systems use in the comparison: embeddings from the local E5 engine
(optionally answered from a memo of every text embedded before) and chat completions from the scripted LLM, which
answers FactMemory's extraction prompt and mem0's with the same claims after the same latency.

Run: `python -m factmemory_tools.vs_mem0.endpoint --claims claims.json --latency-ms 300 [--memo]`.
"""

from __future__ import annotations

import argparse
import json
import threading
from typing import Any

from factmemory.public import load_engine
from factmemory.testing.llm import Reply, ScriptedLLM, current_message


class Engine:
    """One single-threaded E5 engine (the service's default runtime) behind a lock, remembering every vector it
    made."""

    def __init__(self, memo: bool, runtime: str = "onnx") -> None:
        self._model = load_engine(runtime, "original")
        self._lock = threading.Lock()
        self._memo: dict[str, list[float]] = {}
        self.memo = memo

    def embed(self, texts: list[str]) -> list[list[float]]:
        with self._lock:
            missing = [t for t in dict.fromkeys(texts) if not (self.memo and t in self._memo)]
            if missing:
                vectors = self._model.encode(missing, False)
                for text, vector in zip(missing, vectors.reshape(len(missing), -1), strict=True):
                    self._memo[text] = [float(v) for v in vector]
            return [self._memo[t] for t in texts]


class Endpoint(ScriptedLLM):
    """The scripted LLM, with real embeddings instead of the toy ones."""

    def __init__(self, engine: Engine, claims: dict[str, list[str]], latency_s: float) -> None:
        super().__init__()
        self._engine = engine
        self._claims = claims
        self.latency_s = latency_s
        self.default = self._reply

    def _vectors(self, texts: list[str], dims: int) -> list[list[float]]:
        return self._engine.embed(texts)

    def _reply(self, body: dict[str, Any]) -> Reply:
        ours = current_message(body)
        if ours:
            ops = [{"op": "add_durable", "claim": c, "category": "preference"} for c in self._claims.get(ours, [])]
            return Reply(
                {
                    "facts": {"ops": ops},
                    "relationships": [],
                    "identities": [],
                    "success": {"completed": True, "reason": "scripted"},
                }
            )
        prompt = "\n".join(str(m.get("content", "")) for m in body.get("messages", []))
        found = next((claims for text, claims in self._claims.items() if text in prompt), [])
        return Reply({"memory": [{"text": c} for c in found]})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--claims", required=True, help="JSON object: message text -> the claims it yields")
    parser.add_argument("--latency-ms", type=float, default=0.0)
    parser.add_argument("--memo", action="store_true", help="answer repeated embedding texts from memory")
    args = parser.parse_args()
    with open(args.claims, encoding="utf-8") as handle:
        claims = json.load(handle)
    endpoint = Endpoint(Engine(args.memo), claims, args.latency_ms / 1000)
    endpoint.start()
    print(f"endpoint listening on {endpoint.base_url}", flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()
