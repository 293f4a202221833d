"""The benchmark's moving parts: the scripted LLM process, request builders, call loops, memory sampling."""

from __future__ import annotations

import asyncio
import ctypes
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any

from google.protobuf.timestamp_pb2 import Timestamp

from factmemory.v1 import factmemory_pb2 as pb
from factmemory_tools.bench.data import NOW, Claim
from factmemory_tools.plugin_call import PLUGIN_TOTAL


def latency_tag(latency_ms: int) -> str:
    return f"#llm{latency_ms}ms"


def topic_tag(topic: int) -> str:
    return f"#t{topic}#"


def _reply(durable: Claim, current: Claim) -> dict[str, Any]:
    """A typical extraction: one durable and one current fact added, the closest known fact strengthened."""
    return {
        "facts": {
            "ops": [
                {
                    "op": "add_durable",
                    "claim": durable.text,
                    "category": durable.category,
                    "structured_fields": [],
                    "verification_status": None,
                },
                {
                    "op": "add_current",
                    "claim": current.text,
                    "category": current.category,
                    "structured_fields": [],
                    "valid_at": None,
                },
                {"op": "strengthen", "fact": "D1", "reason": "mentioned again"},
            ]
        },
        "relationships": [],
        "identities": [],
        "success": {"completed": True, "reason": "answered the question"},
    }


def llm_script(pool: Sequence[Claim], latencies_ms: Sequence[int], topics: int) -> dict[str, Any]:
    """Replies chosen by tags in the message: its latency and its topic (which claims the model extracts)."""
    durable = [c for c in pool if c.kind == "durable"]
    current = [c for c in pool if c.kind == "current"]
    replies = [
        {
            "match": latency_tag(ms) + topic_tag(t),
            "content": _reply(durable[t % len(durable)], current[(t * 7) % len(current)]),
            "delay_s": ms / 1000.0,
        }
        for ms in latencies_ms
        for t in range(topics)
    ]
    return {
        "replies": replies,
        "default": {
            "facts": {"ops": []},
            "relationships": [],
            "identities": [],
            "success": {"completed": True, "reason": "default"},
        },
    }


def _die_with_parent() -> None:
    """Linux: the child gets SIGTERM when the benchmark dies, however it dies."""
    with suppress(Exception):
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class LLMProcess:
    """factmemory.testing.llm in a child process, so its JSON work and sleeping threads do not share our GIL."""

    def __init__(self, script: dict[str, Any], workdir: Path) -> None:
        self._script_path = workdir / "llm-script.json"
        self._script_path.write_text(json.dumps(script), encoding="utf-8")
        self._proc: subprocess.Popen[str] | None = None
        self.base_url = ""

    def start(self) -> str:
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "factmemory.testing.llm", "--port", "0", "--script", str(self._script_path)],
            stdout=subprocess.PIPE,
            text=True,
            env=os.environ.copy(),
            preexec_fn=_die_with_parent,
        )
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if "listening on" not in line:
            raise RuntimeError(f"the scripted LLM did not start: {line!r}")
        self.base_url = line.rsplit(" ", 1)[-1].strip()
        return self.base_url

    def requests(self) -> list[dict[str, Any]]:
        """Every chat request the LLM received (fetch it while there are few)."""
        root = self.base_url.removesuffix("/v1")
        with urllib.request.urlopen(f"{root}/_requests", timeout=30) as reply:
            data: list[dict[str, Any]] = json.loads(reply.read())
        return data

    def stop(self) -> None:
        if self._proc is not None:
            self._proc.terminate()
            with suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=5)
            if self._proc.poll() is None:
                self._proc.kill()


def ts(seconds_ago: float) -> Timestamp:
    out = Timestamp()
    out.FromSeconds(int(NOW.timestamp() - seconds_ago))
    return out


def chat(entity_id: uuid.UUID, name: str, text: str, seconds_ago: float) -> pb.ChatMessage:
    return pb.ChatMessage(
        id=str(uuid.uuid4()), entity_id=str(entity_id), name=name, text=text, created_at=ts(seconds_ago)
    )


def provide_request(agent_id: uuid.UUID, entity_id: uuid.UUID, lines: Sequence[str]) -> pb.ProvideRequest:
    """A turn's provider call as the elizaOS plugin makes it (client_ts/src/request.ts): the last messages of the
    room, the current one last, and one budget of 12 facts both sections share."""
    messages = [chat(entity_id, "Sam", text, 60.0 * (len(lines) - i)) for i, text in enumerate(lines)]
    return pb.ProvideRequest(
        agent_id=str(agent_id),
        entity_id=str(entity_id),
        recent_messages=messages,
        total_limit=PLUGIN_TOTAL,
        subject_name="Sam",
        now=ts(0),
    )


def evaluate_request(
    agent_id: uuid.UUID, entity_id: uuid.UUID, text: str, recent: Sequence[str], agent_id_entity: uuid.UUID
) -> pb.EvaluateRequest:
    """A turn's evaluation: the message, the recent conversation, two room entities, the agent's reply."""
    history = [chat(entity_id, "Sam", line, 60.0 * (len(recent) - i + 1)) for i, line in enumerate(recent)]
    room = [pb.RoomEntity(id=str(entity_id), names=["Sam"]), pb.RoomEntity(id=str(agent_id_entity), names=["Ada"])]
    answer = chat(agent_id_entity, "Ada", "Happy to help with that. Here is what I would do next.", 1.0)
    return pb.EvaluateRequest(
        agent_id=str(agent_id),
        entity_id=str(entity_id),
        room_id=str(uuid.uuid4()),
        message=chat(entity_id, "Sam", text, 0.0),
        recent_messages=history,
        room_entities=room,
        agent_responses=[answer],
        did_respond=True,
    )


async def run_calls(
    call: Callable[[int], Awaitable[Any]],
    calls: int,
    concurrency: int,
) -> tuple[list[float], float, list[Any]]:
    """Runs `calls` calls with `concurrency` workers; worker w makes calls call(w). Latencies, wall time, replies."""
    latencies: list[float] = []
    replies: list[Any] = []
    remaining = [calls]

    async def worker(w: int) -> None:
        while remaining[0] > 0:
            remaining[0] -= 1
            started = time.perf_counter()
            replies.append(await call(w))
            latencies.append(time.perf_counter() - started)

    started = time.perf_counter()
    async with asyncio.TaskGroup() as group:
        for w in range(concurrency):
            group.create_task(worker(w))
    return latencies, time.perf_counter() - started, replies


def rss_bytes() -> int:
    """Resident set size of this process."""
    try:
        import psutil

        return int(psutil.Process().memory_info().rss)
    except ImportError:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def postgres_pss_bytes(pgdata: Path | None) -> int | None:
    """Proportional set size of the embedded PostgreSQL (postmaster and its children), shared memory split fairly."""
    if pgdata is None:
        return None
    try:
        import psutil

        pid = int((pgdata / "postmaster.pid").read_text(encoding="ascii").split()[0])
        root = psutil.Process(pid)
        return sum(int(p.memory_full_info().pss) for p in [root, *root.children(recursive=True)])
    except Exception:
        return None


class RssSampler:
    """Samples this process's RSS every `period_s` while active; keeps the peak."""

    def __init__(self, period_s: float = 0.1) -> None:
        self.peak = 0
        self.active = False
        self._period = period_s
        self._task: asyncio.Task[None] | None = None

    async def _loop(self) -> None:
        while True:
            if self.active:
                self.peak = max(self.peak, rss_bytes())
            await asyncio.sleep(self._period)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with suppress(asyncio.CancelledError):
                await self._task
