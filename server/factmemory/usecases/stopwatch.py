"""Per-call stage timings of the use-cases (embed, retrieve, llm, ...), kept per process for the benchmark.

Cheap by design: a few perf_counter calls and one small dict per call, appended to a bounded deque.
The use-cases only record; nothing reads these numbers on the request path.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager

KEEP_CALLS = 20_000


class Stopwatch:
    """Seconds spent in each named stage of one call; a nested stage's time is not counted in its parent."""

    __slots__ = ("_nested", "_started", "seconds")

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._nested: list[float] = []
        self._started = time.perf_counter()

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        self._nested.append(0.0)
        try:
            yield
        finally:
            elapsed = time.perf_counter() - start
            inner = self._nested.pop()
            self.seconds[name] = self.seconds.get(name, 0.0) + elapsed - inner
            if self._nested:
                self._nested[-1] += elapsed

    def elapsed(self) -> float:
        return time.perf_counter() - self._started


class StageLog:
    """The stage times of the most recent calls of each use-case; bounded so a long-running server can record."""

    def __init__(self, keep: int = KEEP_CALLS) -> None:
        self._keep = keep
        self._calls: dict[str, deque[dict[str, float]]] = {}

    def record(self, use_case: str, watch: Stopwatch) -> None:
        """Adds one finished call: its stages plus 'total' (wall time since the stopwatch started)."""
        times = dict(watch.seconds)
        times["total"] = watch.elapsed()
        self._calls.setdefault(use_case, deque(maxlen=self._keep)).append(times)

    def take(self, use_case: str) -> list[dict[str, float]]:
        """The recorded calls of a use-case, oldest first; they are forgotten."""
        return list(self._calls.pop(use_case, ()))
