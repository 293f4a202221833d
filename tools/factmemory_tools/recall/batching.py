"""What batched evaluation saves and costs: the recall data set's conversations replayed per turn (Evaluate) and
in batches (EvaluateBatch of N messages per person), on one service; per batch size the LLM calls, prompt and
completion tokens per message, the facts stored, and the Provide recall of the same questions.

The scripted model answers each message of a call with that message's facts (in a batch, each op names its
message, as the prompt asks), so what is measured is the cost of the calls and what the write path makes of a
batch (dedup within the batch, evidence and times per message), not what a real model would miss in a longer
prompt. Tokens: o200k_base when `bpe-openai` is installed, else characters / 4; the JSON schema sent as
response_format counts as input.

    PYTHONPATH=tools .venv/bin/python -m factmemory_tools.recall.batching [--sizes 1,4,8] [--short] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
import uuid
from collections.abc import Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from factmemory.settings import Settings
from factmemory.testing.llm import Reply, ScriptedLLM, per_message
from factmemory.testing.service import bench_settings, serve_in_process
from factmemory.v1 import factmemory_pb2 as pb
from factmemory.v1 import factmemory_pb2_grpc as pb_grpc
from factmemory_tools.bench.tokens import TokenCounter, token_counter
from factmemory_tools.recall.run import LIMIT, Scores, database, load, reply, ts, variant_messages

DEFAULT_SIZES = (1, 4, 8)


@dataclass
class Run:
    """One batch size: what its calls cost and what Provide finds afterwards."""

    size: int
    agent_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    messages: int = 0
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    stored: dict[str, str] = field(default_factory=dict)  # data fact id -> stored fact id
    kinds: dict[str, str] = field(default_factory=dict)
    provide: Scores = field(default_factory=Scores)
    seconds: float = 0.0


class Replay:
    """Sends the conversations in chunks of `size` messages; the scripted model answers each chunk's facts."""

    def __init__(self, stub: pb_grpc.FactMemoryServiceStub, llm: ScriptedLLM, tokens: TokenCounter) -> None:
        self.stub = stub
        self.llm = llm
        self.tokens = tokens
        self.chunk: list[list[dict[str, Any]]] = []  # the facts of each message of the call in flight
        self.texts: list[str] = []  # ... and their texts
        self.run: Run | None = None
        llm.default = self.answer

    def answer(self, body: dict[str, Any]) -> Reply:
        """Each message of the prompt (M1.., which the service orders by time) answered with its own facts."""
        unused = list(range(len(self.chunk)))

        def ops_for(_index: int, text: str) -> list[dict[str, Any]]:
            found = next((i for i in unused if self.texts[i] == text), None)
            if found is None:
                raise RuntimeError(f"the prompt holds a message the call did not send: {text!r}")
            unused.remove(found)
            ops: list[dict[str, Any]] = reply(self.chunk[found])["facts"]["ops"]
            return ops

        others = {item: value for item, value in reply([]).items() if item != "facts"}
        answered = per_message(ops_for, **others)(body)
        if unused:
            raise RuntimeError(
                f"the prompt holds {len(self.chunk) - len(unused)} messages, the call sent {len(self.chunk)}"
            )
        assert self.run is not None and isinstance(answered.content, dict)
        self.run.calls += 1
        schema = json.dumps((body.get("response_format") or {}).get("json_schema", {}).get("schema", {}))
        self.run.prompt_tokens += self.tokens.chat(body["messages"]) + self.tokens.count(schema)
        self.run.completion_tokens += self.tokens.count(json.dumps(answered.content))
        return answered

    def entity(self, run: Run, item: dict[str, Any]) -> str:
        return str(uuid.uuid5(uuid.UUID(run.agent_id), item["id"]))

    def message(self, run: Run, person: dict[str, Any], message: dict[str, Any]) -> pb.ChatMessage:
        entity = self.entity(run, person)
        return pb.ChatMessage(
            id=self.entity(run, message),
            entity_id=entity,
            name=person["name"],
            text=message["text"],
            created_at=ts(message["at"]),
        )

    async def replay(self, run: Run, data: dict[str, Any]) -> None:
        self.run = run
        facts_of = variant_messages(data, restated=False)
        for person in data["people"]:
            entity = self.entity(run, person)
            messages = person["messages"]
            for start in range(0, len(messages), run.size):
                chunk = messages[start : start + run.size]
                self.chunk = [facts_of[m["id"]] for m in chunk]
                self.texts = [m["text"] for m in chunk]
                sent = [self.message(run, person, m) for m in chunk]
                if run.size == 1:
                    single = await self.stub.Evaluate(
                        pb.EvaluateRequest(
                            agent_id=run.agent_id, entity_id=entity, room_id=entity, did_respond=True, message=sent[0]
                        )
                    )
                    results = [single]
                else:
                    batch = await self.stub.EvaluateBatch(
                        pb.EvaluateBatchRequest(
                            agent_id=run.agent_id, entity_id=entity, room_id=entity, did_respond=True, messages=sent
                        )
                    )
                    results = list(batch.results)
                run.messages += len(chunk)
                for facts, result in zip(self.chunk, results, strict=True):
                    if len(result.ops) != len(facts):
                        raise RuntimeError(f"{len(facts)} facts sent, {len(result.ops)} ops applied")
                    for fact, op in zip(facts, result.ops, strict=True):
                        if op.rejected:
                            raise RuntimeError(f"{fact['id']} rejected: {op.reason}")
                        run.stored.setdefault(fact["id"], op.fact.id)
                        run.kinds[fact["id"]] = fact["kind"]

    async def ask(self, run: Run, data: dict[str, Any]) -> None:
        for person in data["people"]:
            entity = self.entity(run, person)
            for question in person["questions"]:
                response = await self.stub.Provide(
                    pb.ProvideRequest(
                        agent_id=run.agent_id,
                        entity_id=entity,
                        recent_messages=[
                            pb.ChatMessage(
                                id=self.entity(run, question),
                                entity_id=entity,
                                name=person["name"],
                                text=question["text"],
                                created_at=ts(question["asked_at"]),
                            )
                        ],
                        durable_limit=LIMIT,
                        current_limit=LIMIT,
                        now=ts(question["asked_at"]),
                    )
                )
                shown = sorted([*response.durable, *response.current], key=lambda s: (-s.score, s.fact.id))
                run.provide.add(
                    question["type"],
                    [(run.stored[e], run.kinds[e]) for e in question["evidence"]],
                    [s.fact.id for s in shown],
                    {
                        "durable": [s.fact.id for s in response.durable],
                        "current": [s.fact.id for s in response.current],
                    },
                )


def summary(run: Run) -> dict[str, Any]:
    per = max(run.messages, 1)
    return {
        "batch": run.size,
        "messages": run.messages,
        "llm_calls": run.calls,
        "llm_calls_per_message": run.calls / per,
        "prompt_tokens_per_message": run.prompt_tokens / per,
        "completion_tokens_per_message": run.completion_tokens / per,
        "facts_stored": len(set(run.stored.values())),
        "replay_seconds": run.seconds,
        "provide": run.provide.summary(),
    }


async def measure(sizes: Sequence[int], short: bool, url: str | None) -> dict[str, Any]:
    data = load(short)
    tokens = token_counter()
    async with AsyncExitStack() as stack:
        database_url: str = url if url else await stack.enter_async_context(database())
        llm = stack.enter_context(ScriptedLLM())
        _deps, stub = await serve_in_process(stack, bench_settings(Settings(), database_url, llm.base_url))
        replay = Replay(stub, llm, tokens)
        runs = []
        for size in sizes:
            run = Run(size)
            started = time.perf_counter()
            await replay.replay(run, data)
            run.seconds = time.perf_counter() - started
            print(f"batch {size}: replayed in {run.seconds:.0f} s", file=sys.stderr, flush=True)
            await replay.ask(run, data)
            runs.append(run)
    return {
        "people": len(data["people"]),
        "questions": sum(len(p["questions"]) for p in data["people"]),
        "tokenizer": tokens.method,
        "runs": [summary(r) for r in runs],
    }


def table(result: dict[str, Any]) -> str:
    lines = [
        f"{result['people']} people, {result['runs'][0]['messages']} messages, {result['questions']} questions; "
        f"tokens: {result['tokenizer']}",
        "",
        "| evaluation | LLM calls | calls / message | prompt tokens / message | completion tokens / message "
        "| facts stored | recall@12 | durable@6 | current@6 | MRR |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for run in result["runs"]:
        p = run["provide"]
        label = "per turn (Evaluate)" if run["batch"] == 1 else f"batches of {run['batch']} (EvaluateBatch)"
        lines.append(
            f"| {label} | {run['llm_calls']} | {run['llm_calls_per_message']:.3f} | "
            f"{run['prompt_tokens_per_message']:.0f} | {run['completion_tokens_per_message']:.0f} | "
            f"{run['facts_stored']} | {p['recall@12']:.1f} | {p['durable@6']:.1f} | {p['current@6']:.1f} | "
            f"{p['mrr'] / 100:.3f} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="factmemory_tools.recall.batching",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)), help="batch sizes (1 = per turn)")
    parser.add_argument("--short", action="store_true", help="3 people, 8 questions each (the test suite's run)")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON here")
    parser.add_argument("--database-url", help="use this PostgreSQL (pgvector) instead of a fresh embedded one")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    if not sizes or any(s < 1 or s > 16 for s in sizes):
        parser.error("--sizes: batch sizes between 1 and 16 (the service's default FACTMEMORY_MAX_BATCH_MESSAGES)")
    result = asyncio.run(measure(sizes, args.short, args.database_url))
    print(table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
