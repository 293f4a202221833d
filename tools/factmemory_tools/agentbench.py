"""Evaluate latency with the agent's own model (PrepareEvaluation, the model call, CompleteEvaluation) against the
service's own model (one Evaluate), at the same scripted model latency, in alternating blocks on one machine.

Both modes call the same scripted OpenAI-compatible endpoint with the same prompt and get the same reply: the
service through its extractor, the agent-model side as an agent would (its own chat completion with the prompt and
JSON schema PrepareEvaluation returned). Each turn is a new message of one of a few people, so every turn learns.

    python -m factmemory_tools.agentbench --turns 60 --latency-ms 300
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import openai
from google.protobuf.timestamp_pb2 import Timestamp

from factmemory.public import ChatMessage, EvaluateInput, Fact, Kind, Shown, TicketBody, open_database
from factmemory.settings import Settings
from factmemory.testing.llm import ScriptedLLM, per_message
from factmemory.testing.service import bench_settings, serve_in_process
from factmemory.v1 import factmemory_pb2 as pb
from factmemory.v1 import factmemory_pb2_grpc as pb_grpc

PEOPLE = 4
TOPICS = ("sailing", "chess", "baking", "running", "painting", "jazz", "gardening", "climbing", "poetry", "tea")
TARGET_MS = 10.0  # issue 28, item 5: within 10 ms of the service-model mode


def _ops(_index: int, text: str) -> list[dict[str, Any]]:
    topic = text.rsplit(" ", 1)[-1]
    return [{"op": "add_durable", "claim": f"enjoys {topic}", "category": "preference", "structured_fields": []}]


def _ts(at: datetime) -> Timestamp:
    out = Timestamp()
    out.FromDatetime(at)
    return out


@dataclass
class Person:
    agent_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    entity_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    room_id: str = field(default_factory=lambda: str(uuid.uuid4()))

    def evaluate(self, turn: int, at: datetime) -> pb.EvaluateRequest:
        text = f"lately I spend my evenings on {TOPICS[turn % len(TOPICS)]}{turn}"
        message = pb.ChatMessage(id=str(uuid.uuid4()), entity_id=self.entity_id, name="Sam", text=text)
        message.created_at.CopyFrom(_ts(at))
        return pb.EvaluateRequest(
            agent_id=self.agent_id, entity_id=self.entity_id, room_id=self.room_id, message=message, did_respond=True
        )


@dataclass
class Timings:
    total: list[float] = field(default_factory=list)
    prepare: list[float] = field(default_factory=list)
    model: list[float] = field(default_factory=list)
    complete: list[float] = field(default_factory=list)


class AgentModel:
    """The agent's side: its own chat completion of the prepared prompt, as `runtime.useModel` would make it."""

    def __init__(self, stub: pb_grpc.FactMemoryServiceStub, base_url: str) -> None:
        self._stub = stub
        self._client = openai.AsyncOpenAI(base_url=base_url, api_key="bench", max_retries=0)

    async def turn(self, request: pb.EvaluateRequest, timings: Timings) -> int:
        started = time.perf_counter()
        prepared = await self._stub.PrepareEvaluation(pb.PrepareEvaluationRequest(single=request))
        prepared_at = time.perf_counter()
        completion = await self._client.chat.completions.create(
            model="agent",
            temperature=0,
            messages=[{"role": m.role, "content": m.content} for m in prepared.prompt],
            response_format={
                "type": "json_schema",
                "json_schema": {
                    "name": prepared.schema_name,
                    "strict": True,
                    "schema": json.loads(prepared.json_schema),
                },
            },
        )
        answered_at = time.perf_counter()
        usage = completion.usage
        completed = await self._stub.CompleteEvaluation(
            pb.CompleteEvaluationRequest(
                agent_id=request.agent_id,
                entity_id=request.entity_id,
                ticket=prepared.ticket,
                reply=completion.choices[0].message.content or "",
                usage=pb.Usage(
                    prompt_tokens=usage.prompt_tokens if usage else 0,
                    completion_tokens=usage.completion_tokens if usage else 0,
                ),
            )
        )
        done = time.perf_counter()
        timings.prepare.append(prepared_at - started)
        timings.model.append(answered_at - prepared_at)
        timings.complete.append(done - answered_at)
        timings.total.append(done - started)
        return len(completed.results[0].ops)

    async def close(self) -> None:
        await self._client.close()


def _ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _row(name: str, values: list[float]) -> str:
    return f"| {name} | {1000 * statistics.median(values):.1f} | {_ms(values, 0.95):.1f} | {len(values)} |"


async def run(turns: int, block: int, latency_ms: float, warmup: int) -> dict[str, Timings]:
    service, agent = Timings(), Timings()
    people = [Person() for _ in range(PEOPLE)]
    start = datetime.now(UTC) - timedelta(days=1)
    with tempfile.TemporaryDirectory(prefix="factmemory-agentbench-") as tmp, ScriptedLLM() as llm:
        llm.default = per_message(_ops, relationships=[], identities=[], success={"completed": True, "reason": "ok"})
        async with AsyncExitStack() as stack:
            database = await stack.enter_async_context(open_database(None, Path(tmp)))
            base = Settings(data_dir=Path(tmp), retention_interval_s=0)
            _, stub = await serve_in_process(stack, bench_settings(base, database.url, llm.base_url))
            caller = AgentModel(stub, llm.base_url)
            stack.push_async_callback(caller.close)

            async def service_turn(request: pb.EvaluateRequest, timings: Timings) -> int:
                started = time.perf_counter()
                response = await stub.Evaluate(request)
                timings.total.append(time.perf_counter() - started)
                return len(response.ops)

            modes: list[tuple[Callable[[pb.EvaluateRequest, Timings], Awaitable[int]], Timings]] = [
                (service_turn, service),
                (caller.turn, agent),
            ]
            for i in range(warmup):  # the embedder's and the database's first calls
                for mode, _ in modes:
                    await mode(people[i % PEOPLE].evaluate(i, start), Timings())
            llm.latency_s = latency_ms / 1000
            turn = warmup
            while len(agent.total) < turns:
                for mode, timings in modes:  # alternating blocks
                    for _ in range(block):
                        turn += 1
                        at = start + timedelta(seconds=turn)
                        learned = await mode(people[turn % PEOPLE].evaluate(turn, at), timings)
                        assert learned == 1, "every turn learns one fact"
    return {"service model (Evaluate)": service, "agent model (Prepare + model + Complete)": agent}


def report(results: dict[str, Timings], latency_ms: float) -> str:
    service, agent = results.values()
    lines = ["| mode | p50 ms | p95 ms | turns |", "|---|---:|---:|---:|"]
    for name, timings in results.items():
        lines.append(_row(name, timings.total))
    lines.append(_row("  agent: PrepareEvaluation", agent.prepare))
    lines.append(_row("  agent: its model call", agent.model))
    lines.append(_row("  agent: CompleteEvaluation", agent.complete))
    extra = 1000 * (statistics.median(agent.total) - statistics.median(service.total))
    verdict = "PASS" if extra <= TARGET_MS else "MISS"
    lines.append("")
    lines.append(
        f"agent-model mode adds {extra:.1f} ms at p50 (scripted model latency {latency_ms:.0f} ms; "
        f"target <= {TARGET_MS:.0f} ms): {verdict}"
    )
    return "\n".join(lines)


def ticket_cost(repeats: int = 200) -> str:
    """What a ticket's content costs to write and read: 30 facts shown and 10 recent messages (pydantic JSON)."""
    now = datetime.now(UTC)
    agent, entity = uuid.uuid4(), uuid.uuid4()
    facts = {
        f"{'D' if i < 15 else 'C'}{i % 15 + 1}": Fact(
            id=uuid.uuid4(),
            agent_id=agent,
            entity_id=entity,
            kind=Kind.DURABLE if i < 15 else Kind.CURRENT,
            category="identity",
            claim=f"claim number {i} about something fairly ordinary",
            confidence=0.7,
            evidence_message_ids=tuple(str(uuid.uuid4()) for _ in range(5)),
            created_at=now,
            last_confirmed_at=now,
        )
        for i in range(30)
    }
    messages = tuple(
        ChatMessage(
            id=str(uuid.uuid4()), entity_id=str(entity), name="Sam", text="a message about the day " * 4, created_at=now
        )
        for _ in range(10)
    )
    turn = EvaluateInput(
        agent_id=agent, entity_id=entity, room_id=None, message=messages[-1], recent_messages=messages[:-1]
    )
    body = TicketBody(message_ids=(messages[-1].id,), shown=Shown(turn=turn, handles=facts).kept())
    started = time.perf_counter()
    for _ in range(repeats):
        text = body.model_dump_json()
    written = time.perf_counter()
    for _ in range(repeats):
        TicketBody.model_validate_json(text)
    read = time.perf_counter()
    return (
        f"ticket content: {len(text)} bytes; {1000 * (written - started) / repeats:.2f} ms to write, "
        f"{1000 * (read - written) / repeats:.2f} ms to read (30 facts shown, 10 recent messages)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=60, help="turns per mode")
    parser.add_argument("--block", type=int, default=5, help="turns per mode before switching")
    parser.add_argument("--latency-ms", type=float, default=300.0, help="the scripted model's latency")
    parser.add_argument("--warmup", type=int, default=4)
    parser.add_argument("--json", type=Path, help="write the raw timings here")
    parser.add_argument("--ticket-cost", action="store_true", help="only time a ticket's content (no service)")
    args = parser.parse_args(argv)
    if args.ticket_cost:
        print(ticket_cost())
        return
    results = asyncio.run(run(args.turns, args.block, args.latency_ms, args.warmup))
    print(report(results, args.latency_ms))
    if args.json:
        args.json.write_text(json.dumps({k: vars(v) for k, v in results.items()}, indent=1))


if __name__ == "__main__":
    main()
