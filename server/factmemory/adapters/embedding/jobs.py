"""The queue in front of the local embedding engines: a request's texts as jobs (one engine call each), and a
queue that is fair between callers by the engine time they use."""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, deque
from collections.abc import Sequence
from dataclasses import dataclass, field

from factmemory.domain.vectors import Matrix

# Texts per engine call: batching short texts pays (measured: docs/embedding.md); characters bound the call.
MAX_JOB_TEXTS = 8
MAX_JOB_CHARS = 600
# Callers remembered for fairness (the ones served longest ago are forgotten first).
REMEMBERED_CALLERS = 4096


def estimated_tokens(texts: Sequence[str], token_budget: int) -> int:
    """An upper bound of the tokens the engine will process: at most one per character (plus the prefix and the
    special tokens), at most the budget."""
    return sum(min(len(t) + 4, token_budget) for t in texts)


@dataclass(eq=False)
class Job:
    texts: list[str]
    is_query: bool
    caller: str
    deadline: float | None  # time.monotonic()
    future: asyncio.Future[Matrix]
    cost: int = 1  # estimated tokens
    redispatched: int = 0

    def expired(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline


@dataclass
class FairQueue:
    """Per-caller FIFO lanes served by start-time fair queueing on cost (estimated engine tokens): the
    next job is the head of the lane with the smallest start tag max(virtual time, the lane's last finish tag).
    A caller that has used little (a short request now and then) is therefore served before callers with a
    backlog of long texts: it waits only for the engine calls already running."""

    lanes: dict[str, deque[Job]] = field(default_factory=dict)
    finish: OrderedDict[str, float] = field(default_factory=OrderedDict)
    vtime: float = 0.0

    def put(self, job: Job) -> None:
        self.lanes.setdefault(job.caller, deque()).append(job)

    def put_back(self, job: Job) -> None:
        """A job a dead worker never started goes first in its lane."""
        self.lanes.setdefault(job.caller, deque()).appendleft(job)

    def remove(self, job: Job) -> bool:
        lane = self.lanes.get(job.caller)
        if lane is None or job not in lane:
            return False
        lane.remove(job)
        if not lane:
            del self.lanes[job.caller]
        return True

    def _start(self, caller: str) -> float:
        return max(self.vtime, self.finish.get(caller, self.vtime))

    def take(self) -> Job | None:
        if not self.lanes:
            return None
        caller = min(self.lanes, key=self._start)  # ties: the lane that became busy first
        lane = self.lanes[caller]
        job = lane.popleft()
        if not lane:
            del self.lanes[caller]
        self.vtime = self._start(caller)
        self.finish[caller] = self.vtime + job.cost
        self.finish.move_to_end(caller)
        while len(self.finish) > REMEMBERED_CALLERS:
            self.finish.popitem(last=False)
        return job

    def __len__(self) -> int:
        return sum(len(lane) for lane in self.lanes.values())

    def drain(self) -> list[Job]:
        jobs = [job for lane in self.lanes.values() for job in lane]
        self.lanes.clear()
        return jobs


def split_jobs(texts: Sequence[str], parts: int = 1) -> list[list[str]]:
    """Consecutive texts grouped into engine calls of at most MAX_JOB_TEXTS texts and MAX_JOB_CHARS characters
    (a longer text goes alone); into at least `parts` calls when there are enough texts (idle engines: one
    request's texts embedded side by side, since batching short texts saves little)."""
    per_job = min(MAX_JOB_TEXTS, -(-len(texts) // max(1, parts)))
    jobs: list[list[str]] = []
    size = 0
    for text in texts:
        if jobs and len(jobs[-1]) < per_job and size + len(text) <= MAX_JOB_CHARS:
            jobs[-1].append(text)
            size += len(text)
        else:
            jobs.append([text])
            size = len(text)
    return jobs
