"""Supervised local embedding engines: one single-threaded engine per worker process, restarted when it dies,
fed from a queue that is fair between callers.

- A request's texts are split into jobs (one engine call each, a few short texts at most); a worker takes one
  job at a time, so a crash fails the job it was running (its request answers Unavailable) and nothing else.
- Jobs are taken fairly between callers (agents), by cost: a caller with a backlog does not delay another
  caller's short request by more than the engine calls already running.
- A cancelled caller's queued jobs are removed; a job whose deadline passed, or would pass before the engine
  could answer (judging by recent calls), is dropped before it is sent.
- One text sent while no other engine call runs or waits (a turn's new message on an otherwise idle service) may
  use `threads` engine threads: its latency, not the throughput under load, is what a caller waits for then.
- Closing kills the workers at once: by then the server has drained for its grace period.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sys
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from factmemory.adapters.embedding.jobs import FairQueue, Job, estimated_tokens, split_jobs
from factmemory.adapters.embedding.worker import ERROR, HEADER, READY, TIMINGS
from factmemory.domain.errors import Unavailable
from factmemory.domain.vectors import Matrix
from factmemory.ports import CALL_SCOPE

log = logging.getLogger(__name__)

# An engine call that takes longer than this is hung: the worker is killed and the request fails.
CALL_TIMEOUT_S = 30.0
START_TIMEOUT_S = 60.0
RESTART_DELAY_S = (0.0, 0.1, 0.5, 2.0, 5.0)  # after consecutive failed or short-lived workers
RATE_WEIGHT = 0.2  # of the latest engine call in the moving average of seconds per token
DROP_DECAY = 0.9
KEEP_TIMINGS = 1024  # engine calls whose costs PoolStats keeps


@dataclass
class PoolStats:
    """Counters since start, for the load test's report and tests."""

    calls: int = 0  # engine calls made
    texts: int = 0  # texts sent to an engine
    dropped: int = 0  # jobs dropped before reaching an engine: caller cancelled or deadline passed
    deaths: int = 0  # workers that died during a call
    restarts: int = 0
    wide: int = 0  # engine calls made with more than one thread (a lone text on an idle pool)
    # The last calls' costs, seconds each: what the worker spent fitting texts to the budget and in the engine,
    # and the hop (the round trip seen here minus the worker's own time: queue, pipes, process switches).
    fit_s: deque[float] = field(default_factory=lambda: deque(maxlen=KEEP_TIMINGS))
    engine_s: deque[float] = field(default_factory=lambda: deque(maxlen=KEEP_TIMINGS))
    hop_s: deque[float] = field(default_factory=lambda: deque(maxlen=KEEP_TIMINGS))


class WorkerDied(Exception):
    """The worker process ended (or hung) during a call."""

    def __init__(self, reason: str, started: bool = True) -> None:
        super().__init__(reason)
        self.started = started  # False: the engine never saw the job, so it can go to another worker


class Worker:
    """One engine process and its pipes; one call at a time."""

    def __init__(self, process: asyncio.subprocess.Process, dimensions: int) -> None:
        self.process = process
        self.dimensions = dimensions
        self.started = time.monotonic()

    @classmethod
    async def start(cls, variant: str, token_budget: int, runtime: str = "onnx", threads: int = 1) -> Worker:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "factmemory.adapters.embedding.worker",
            "--parent",
            str(os.getpid()),
            "--variant",
            variant,
            "--token-budget",
            str(token_budget),
            "--runtime",
            runtime,
            "--threads",
            str(threads),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            # PASSIVE: an engine thread waiting for the other at a barrier sleeps instead of spinning. Spinning, a
            # two-thread call on a machine whose other core is busy took 0.5-2.3 s instead of 0.05 (docs/embedding.md).
            env={**os.environ, "OMP_NUM_THREADS": "1", "OMP_WAIT_POLICY": "PASSIVE"},
        )
        try:
            kind, payload = await asyncio.wait_for(cls._read(process), START_TIMEOUT_S)
            if kind != READY:
                raise WorkerDied(f"unexpected first frame {kind!r}")
        except (WorkerDied, TimeoutError, asyncio.CancelledError):
            await cls._kill(process)
            raise
        return cls(process, int(json.loads(payload)["dimensions"]))

    @property
    def alive(self) -> bool:
        assert self.process.stdout is not None
        return self.process.returncode is None and not self.process.stdout.at_eof()

    async def embed(self, texts: list[str], is_query: bool, threads: int = 1) -> tuple[Matrix, float, float]:
        """The vectors of `texts` (the engine using `threads` threads) and the worker's own seconds (fitting,
        engine); Unavailable when the engine reports an error, WorkerDied when it dies."""
        assert self.process.stdin is not None
        frame = json.dumps({"query": is_query, "texts": texts, "threads": threads}).encode()
        # A worker that is gone before the call takes no part of it: its pipe refuses the frame (or its exit is
        # known), and the job can go to another worker. Once the frame is in the pipe, the engine may have read
        # it: a death from then on ends the call (a text that crashes the engine must not go round every worker).
        # No frame says "started": that acknowledgement cost a pipe write and a wake-up of both processes a call.
        try:
            if not self.alive:
                raise WorkerDied("already gone")
            self.process.stdin.write(HEADER.pack(len(frame)) + frame)
            await self.process.stdin.drain()
        except (ConnectionError, WorkerDied) as exc:
            await self.kill()
            raise WorkerDied(f"before the call started: {exc or type(exc).__name__}", started=False) from exc
        try:
            async with asyncio.timeout(CALL_TIMEOUT_S):
                kind, payload = await self._read(self.process)
        except TimeoutError as exc:
            await self.kill()
            raise WorkerDied(f"no answer within {CALL_TIMEOUT_S:.0f} s") from exc
        if kind == ERROR:
            raise Unavailable(f"the local embedding engine failed: {payload.decode(errors='replace')}")
        fit_s, engine_s = TIMINGS.unpack_from(payload)
        vectors = np.frombuffer(payload, dtype="<f4", offset=TIMINGS.size).astype(np.float32)
        return vectors.reshape(len(texts), self.dimensions), fit_s, engine_s

    @staticmethod
    async def _read(process: asyncio.subprocess.Process) -> tuple[bytes, bytes]:
        assert process.stdout is not None
        try:
            header = await process.stdout.readexactly(HEADER.size)
            payload = await process.stdout.readexactly(HEADER.unpack(header)[0])
        except asyncio.IncompleteReadError:
            await process.wait()
            raise WorkerDied(f"exit status {process.returncode}") from None
        return payload[:1], payload[1:]

    async def kill(self) -> None:
        await self._kill(self.process)

    @staticmethod
    async def _kill(process: asyncio.subprocess.Process) -> None:
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
        await process.wait()


class EnginePool:
    """`workers` supervised engine processes sharing one fair queue."""

    def __init__(self, workers: int, variant: str, token_budget: int, threads: int = 1, runtime: str = "onnx") -> None:
        self.variant = variant
        self.runtime = runtime
        self.token_budget = token_budget
        self._size = workers
        self._threads = max(1, threads)  # for one text while nothing else runs or waits
        self._queue = FairQueue()
        self._wakeup = asyncio.Event()
        self._workers: list[Worker | None] = [None] * workers
        self._slots: list[asyncio.Task[None]] = []
        self._closing = False
        self._start_failed = False  # the last attempt to start a worker failed
        self._seconds_per_token: float | None = None  # moving average of recent engine calls
        self._running = 0  # engine calls in progress
        self.stats = PoolStats()
        self.dimensions = 0

    async def start(self) -> None:
        """Starts every worker (in parallel) and their supervisors; fails if none can start."""
        starts = (Worker.start(self.variant, self.token_budget, self.runtime, self._threads) for _ in range(self._size))
        started = await asyncio.gather(*starts, return_exceptions=True)
        workers = [w for w in started if isinstance(w, Worker)]
        if not workers:
            raise Unavailable(f"the local embedding engine does not start: {started[0]}")
        for failure in (e for e in started if not isinstance(e, Worker)):
            log.error("embedding worker failed to start: %s", failure)
        self.dimensions = workers[0].dimensions
        self._workers = [w if isinstance(w, Worker) else None for w in started]
        self._slots = [asyncio.create_task(self._supervise(i), name=f"embedding-worker-{i}") for i in range(self._size)]

    def pids(self) -> list[int]:
        return [w.process.pid for w in self._workers if w is not None and w.alive]

    def healthy(self) -> bool:
        return not self._closing and any(w is not None and w.alive for w in self._workers)

    async def embed(self, texts: Sequence[str], is_query: bool) -> Matrix:
        """Vectors of already sanitised texts, in order; identical texts are embedded once."""
        if self._closing:
            raise Unavailable("the local embedder is shutting down")
        if self._start_failed and not self.healthy():
            raise Unavailable("no local embedding engine is running (they fail to start; see the server log)")
        unique = list(dict.fromkeys(texts))
        scope = CALL_SCOPE.get()
        caller = scope.caller if scope else f"task-{id(asyncio.current_task())}"
        deadline = scope.deadline if scope else None
        loop = asyncio.get_running_loop()
        jobs = [
            Job(chunk, is_query, caller, deadline, loop.create_future(), estimated_tokens(chunk, self.token_budget))
            for chunk in split_jobs(unique, self._idle())
        ]
        for job in jobs:
            self._queue.put(job)
        self._wakeup.set()
        try:
            parts = [await job.future for job in jobs]
        finally:
            for job in jobs:  # cancelled or failed: what is still queued is never sent
                if self._queue.remove(job):
                    self.stats.dropped += 1
                if not job.future.done():
                    job.future.cancel()
                elif not job.future.cancelled():
                    job.future.exception()  # retrieved: one failure answers the whole call
        if not parts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        rows = dict(zip(unique, np.concatenate(parts), strict=True))
        return np.stack([rows[t] for t in texts])

    def _idle(self) -> int:
        """Engines with nothing to do right now (a request's texts are spread over them)."""
        alive = sum(1 for w in self._workers if w is not None and w.alive)
        return max(1, alive - self._running - len(self._queue))

    async def _next_job(self) -> Job:
        while True:
            job = self._queue.take()
            if job is None:
                self._wakeup.clear()
                await self._wakeup.wait()
            elif job.future.done():
                self.stats.dropped += 1
            elif job.expired():
                self.stats.dropped += 1
                job.future.set_exception(Unavailable("the call's deadline passed before its text was embedded"))
            elif self._cannot_finish(job):
                self.stats.dropped += 1
                job.future.set_exception(Unavailable("the call's deadline would pass before its text is embedded"))
            else:
                return job

    def _threads_for(self, job: Job) -> int:
        """Engine threads for `job`, just taken from the queue: all of them for a lone text when no other call runs
        or waits (several texts are already spread over idle engines, one thread each); else one, so that under
        load the engines do not compete for the cores. A call that arrives meanwhile shares the cores with it for
        the rest of that one call."""
        if len(job.texts) == 1 and self._running == 0 and not len(self._queue):
            return self._threads
        return 1

    def _cannot_finish(self, job: Job) -> bool:
        """The engine would answer after the job's deadline, judging by the recent engine calls: wasted work
        that would only delay others (a flood of long texts with short deadlines)."""
        if job.deadline is None or self._seconds_per_token is None:
            return False
        if time.monotonic() + job.cost * self._seconds_per_token <= job.deadline:
            return False
        # Each drop lowers the estimate a little: one stalled call cannot make every later job look hopeless
        # (dropped jobs teach the average nothing).
        self._seconds_per_token *= DROP_DECAY
        return True

    def _observe(self, job: Job, seconds: float) -> None:
        rate = seconds / max(job.cost, 1)
        previous = self._seconds_per_token
        self._seconds_per_token = rate if previous is None else previous + RATE_WEIGHT * (rate - previous)

    async def _supervise(self, slot: int) -> None:
        failures = 0
        while not self._closing:
            worker = self._workers[slot]
            if worker is None or not worker.alive:
                worker = await self._restart(slot, failures)
                if worker is None:
                    failures += 1
                    continue
            job = await self._next_job()
            self.stats.calls += 1
            self.stats.texts += len(job.texts)
            threads = self._threads_for(job)
            self.stats.wide += threads > 1
            started = time.monotonic()
            try:
                self._running += 1
                try:
                    result, fit_s, engine_s = await worker.embed(job.texts, job.is_query, threads)
                finally:
                    self._running -= 1
            except WorkerDied as exc:
                self.stats.deaths += 1
                log.error(
                    "embedding worker %d died (%s) with a call of %d text(s); restarting it",
                    worker.process.pid,
                    exc,
                    len(job.texts),
                )
                failures = failures + 1 if time.monotonic() - worker.started < 5.0 else 0
                if not exc.started and job.redispatched < len(RESTART_DELAY_S):
                    job.redispatched += 1
                    self._queue.put_back(job)
                    self._wakeup.set()
                else:
                    self._fail(job, Unavailable("the local embedding engine died while embedding this request"))
                continue
            except Unavailable as exc:
                self._fail(job, exc)
                continue
            except asyncio.CancelledError:
                self._fail(job, Unavailable("the local embedder is shutting down"))
                raise
            except Exception as exc:  # our bug (say, a malformed frame): the caller sees it, the slot goes on
                log.exception("embedding worker %d: unexpected failure; replacing it", worker.process.pid)
                self._fail(job, exc)
                await worker.kill()
                continue
            elapsed = time.monotonic() - started
            self._observe(job, elapsed)
            self.stats.fit_s.append(fit_s)
            self.stats.engine_s.append(engine_s)
            self.stats.hop_s.append(max(0.0, elapsed - fit_s - engine_s))
            if not job.future.done():  # the caller may have been cancelled meanwhile
                job.future.set_result(result)

    async def _restart(self, slot: int, failures: int) -> Worker | None:
        await asyncio.sleep(RESTART_DELAY_S[min(failures, len(RESTART_DELAY_S) - 1)])
        try:
            worker = await Worker.start(self.variant, self.token_budget, self.runtime, self._threads)
        except (WorkerDied, TimeoutError, OSError) as exc:
            log.error("embedding worker failed to start: %s", exc)
            self._start_failed = True
            return None
        self._start_failed = False
        self._workers[slot] = worker
        self.stats.restarts += 1
        log.warning("embedding worker %d started (restart %d)", worker.process.pid, self.stats.restarts)
        return worker

    @staticmethod
    def _fail(job: Job, error: Exception) -> None:
        if not job.future.done():
            job.future.set_exception(error)

    async def close(self) -> None:
        """Queued work fails Unavailable, running engine calls are abandoned, every worker is killed."""
        self._closing = True
        for job in self._queue.drain():
            self._fail(job, Unavailable("the local embedder is shutting down"))
        for task in self._slots:
            task.cancel()
        await asyncio.gather(*self._slots, return_exceptions=True)
        await asyncio.gather(*(w.kill() for w in self._workers if w is not None))
