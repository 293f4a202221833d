"""One retention sweep: archive stale current facts, delete long-archived ones, reduce old evaluations, archive
old resolved candidates, drop expired agent-model tickets' content. Small batches; each change of facts is one
short transaction per entity. Each step runs whatever became of the steps before it: a failed step is logged in one
line of its own and named in the counts."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from itertools import groupby
from typing import TypeVar
from uuid import UUID

from factmemory.domain.retention import RetentionPolicy, cutoff, scan_cutoff, should_archive
from factmemory.ports import RetentionStore, Telemetry

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class SweepCounts:
    """What one sweep changed, and the steps that failed (by their count's name)."""

    archived_facts: int = 0
    deleted_facts: int = 0
    reduced_evaluations: int = 0
    archived_candidates: int = 0
    expired_tickets: int = 0
    failed: tuple[str, ...] = ()

    def line(self) -> str:
        counts = ", ".join(f"{_words(f.name)} {getattr(self, f.name)}" for f in fields(self) if f.name != "failed")
        return counts + (f"; failed: {', '.join(map(_words, self.failed))}" if self.failed else "")


def _words(name: str) -> str:
    return name.replace("_", " ")


def one_line(exc: BaseException) -> str:
    """An error as one line (a database error's text may hold its detail and hint on lines of their own)."""
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"


async def sweep(store: RetentionStore, policy: RetentionPolicy, now: datetime, telemetry: Telemetry) -> SweepCounts:
    """Runs every part of the policy once, to the end, in batches; counts go to the telemetry as they happen. A step
    that fails is logged (one line) and the next one runs; it counts 0 (the telemetry has what it changed before)."""
    steps: dict[str, Callable[[], Awaitable[int]]] = {
        "archived_facts": lambda: _archive_stale(store, policy, now, telemetry),
        "deleted_facts": lambda: _delete_archived(store, policy, now, telemetry),
        "reduced_evaluations": lambda: _drain(
            lambda before: store.reduce_evaluations(before, now, policy.batch),
            cutoff(now, policy.evaluation_window_days),
            policy.batch,
            "reduced_evaluations",
            telemetry,
        ),
        "archived_candidates": lambda: _drain(
            lambda before: store.archive_candidates(before, now, policy.batch),
            cutoff(now, policy.candidate_archive_days),
            policy.batch,
            "archived_candidates",
            telemetry,
        ),
        "expired_tickets": lambda: _expire_tickets(store, now, telemetry),
    }
    counts: dict[str, int] = {}
    failed: list[str] = []
    for name, step in steps.items():
        try:
            counts[name] = await step()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.warning("retention: %s failed: %s", _words(name), one_line(exc))
            counts[name] = 0
            failed.append(name)
    return SweepCounts(**counts, failed=tuple(failed))


async def _expire_tickets(store: RetentionStore, now: datetime, telemetry: Telemetry) -> int:
    """Expired agent-model tickets lose their content (and long-expired rows go): on one PostgreSQL every issue
    does it too; on a database distributed by person only this sweep and the person's own calls do."""
    changed = await store.expire_tickets(now)
    telemetry.retention("expired_tickets", changed)
    return changed


async def _archive_stale(store: RetentionStore, policy: RetentionPolicy, now: datetime, telemetry: Telemetry) -> int:
    if policy.floor <= 0:
        return 0
    total, after = 0, None
    older_than = scan_cutoff(now, policy)
    while True:
        scanned = await store.stale_candidates(older_than, after, policy.batch)
        stale = [f for f in scanned if should_archive(f, now, policy)]
        for (agent_id, entity_id), group in _by_entity(stale, lambda f: (f.agent_id, f.entity_id)):
            archived = await store.archive_facts(
                agent_id, entity_id, group, now, f"weight below {policy.floor} for {policy.stale_days:g} days"
            )
            telemetry.retention("archived_facts", archived)
            total += archived
        if len(scanned) < policy.batch:
            return total
        last = scanned[-1]
        after = (last.agent_id, last.entity_id, last.id)
        await asyncio.sleep(0)  # let requests run between batches


async def _delete_archived(store: RetentionStore, policy: RetentionPolicy, now: datetime, telemetry: Telemetry) -> int:
    before = cutoff(now, policy.delete_after_days)
    if before is None:
        return 0
    total = 0
    while True:
        keys = await store.archived_before(before, policy.batch)
        for (agent_id, entity_id), group in _by_entity(keys, lambda k: (k[0], k[1])):
            deleted = await store.delete_archived(
                agent_id,
                entity_id,
                [k[2] for k in group],
                before,
                f"archived for more than {policy.delete_after_days:g} days",
            )
            telemetry.retention("deleted_facts", deleted)
            total += deleted
        if len(keys) < policy.batch:
            return total
        await asyncio.sleep(0)


async def _drain(
    step: Callable[[datetime], Awaitable[int]], before: datetime | None, batch: int, what: str, telemetry: Telemetry
) -> int:
    """Repeats a bulk step until it changes fewer rows than a batch."""
    if before is None:
        return 0
    total = 0
    while True:
        changed = await step(before)
        telemetry.retention(what, changed)
        total += changed
        if changed < batch:
            return total
        await asyncio.sleep(0)


def _by_entity(items: Sequence[T], key: Callable[[T], tuple[UUID, UUID]]) -> list[tuple[tuple[UUID, UUID], list[T]]]:
    ordered = sorted(items, key=lambda i: tuple(map(str, key(i))))
    return [(k, list(g)) for k, g in groupby(ordered, key=key)]


async def run_periodically(
    store: RetentionStore,
    policy: RetentionPolicy,
    interval_s: float,
    clock: Callable[[], datetime],
    telemetry: Telemetry,
) -> None:
    """The service's background sweep: one run every interval_s (the first right away); a failed step (or run) is
    logged in one line and retried at the next interval. Runs until cancelled."""
    while True:
        try:
            counts = await sweep(store, policy, clock(), telemetry)
            if counts.failed:
                log.warning("retention: %s", counts.line())
            else:
                log.info("retention: %s", counts.line())
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.warning("retention sweep failed: %s", one_line(exc))
        await asyncio.sleep(interval_s)
