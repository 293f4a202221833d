"""The `factmemory import` command's two sources (a FactMemory export, restored; elizaOS fact memories) and the
agent a name means, for `import` and `export --direct`. Each returns the one line of outcome the command prints."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import time
from pathlib import Path
from typing import Any
from uuid import UUID

from factmemory import cli_review
from factmemory.api.audit import AuditEntry
from factmemory.cli_review import CommandLineError
from factmemory.domain import backup
from factmemory.settings import Settings


class ImportShapeError(ValueError):
    """The import's source holds nothing that can be imported."""


def not_importable(looked_like: str, why: str) -> ImportShapeError:
    reads = " or ".join(backup.FORMATS)
    return ImportShapeError(f"import reads {reads}; this looks like {looked_like}, but {why}")


def read_document(path: Path) -> object:
    """The file's JSON; JSON lines (one elizaOS memory per line) as their list."""
    text = path.read_text(encoding="utf-8")
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        if "\n" not in text.strip():
            raise
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def restore(settings: Settings, args: argparse.Namespace, document: object, label: str, entry: AuditEntry) -> str:
    """A FactMemory export stored back (domain/backup.py)."""
    from factmemory.app import open_deps
    from factmemory.domain.errors import InvalidInput
    from factmemory.usecases.imports import RestoreReport, restore_backup

    try:
        people = backup.read_backup(document)  # type: ignore[arg-type]
    except InvalidInput as exc:
        raise not_importable("a FactMemory export", str(exc)) from None

    async def run() -> tuple[RestoreReport, float]:
        started = time.perf_counter()
        async with open_deps(settings) as deps:
            into = UUID(await target_agent(deps, args.agent, document)) if args.agent else None
            report = await restore_backup(deps, people, into, label, args.restore_forgotten)
        return report, round(time.perf_counter() - started, 2)

    report, seconds = asyncio.run(run())
    entry.note(restored=report.facts, already_imported=report.already_there)
    if args.json:
        return json.dumps(dataclasses.asdict(report) | {"seconds": seconds}, sort_keys=True)
    return report.line(len(people), seconds)


async def target_agent(deps: Any, given: str, document: Any) -> str:
    """The agent an export is restored into: an id, a name this database knows, or else the export's own agent's
    name (a database that has not met the agent yet)."""
    kind = backup.looks_like(document)
    own = str(document.get("agent_name") or "") if kind == "person" else str(document.get("name") or "")
    try:
        return await agent_id(deps, given)
    except CommandLineError:
        if own.casefold() != given.casefold():
            raise
        return str(document["agent_id"])


async def agent_id(deps: Any, given: str) -> str:
    from factmemory.usecases.agents import list_agents

    if cli_review.is_uuid(given):
        return given
    return cli_review.pick_agent(given, (await list_agents(deps, given, "", cli_review.NAME_MATCHES))[0])


def import_legacy(settings: Settings, args: argparse.Namespace, document: object, label: str, entry: AuditEntry) -> str:
    from factmemory.adapters import eliza
    from factmemory.app import open_deps
    from factmemory.usecases.imports import import_facts

    async def read() -> eliza.Parsed:
        records = list(eliza.records_of(document)) if args.file else await eliza.read_postgres(args.postgres)
        parsed = eliza.parse_all(records)
        if not records:
            raise not_importable(backup.describe(document), "it holds no memories")
        if not parsed.facts:
            looks = "elizaOS memories" if eliza.looks_like_memories(records) else backup.describe(document)
            raise not_importable(
                looks, f"none of its {len(records)} records is an elizaOS fact memory ({parsed.first_skip})"
            )
        return parsed

    async def run() -> tuple[dict[str, Any], eliza.Parsed]:
        parsed = await read()
        started = time.perf_counter()
        async with open_deps(settings) as deps:
            agent = await agent_id(deps, args.agent) if args.agent else None
            facts = [f for f in parsed.facts if not agent or str(f.agent_id) == agent]
            report = await import_facts(deps, facts, label, parsed.skipped + len(parsed.facts) - len(facts))
        return report.model_dump() | {"seconds": round(time.perf_counter() - started, 2)}, parsed

    report, parsed = asyncio.run(run())
    entry.note(imported=report["imported"], already_imported=report["already_imported"], forgotten=report["forgotten"])
    if args.json:
        return json.dumps(report | {"first_skip": parsed.first_skip}, sort_keys=True)
    skipped = f"{report['skipped']} records skipped" + (f", first {parsed.first_skip}" if parsed.first_skip else "")
    forgotten = (
        f"; {report['forgotten']} not stored: their person was forgotten while the import ran"
        if report["forgotten"]
        else ""
    )
    return (
        f"imported {report['imported']} facts ({report['already_imported']} already imported, {skipped}) "
        f"in {report['seconds']} s{forgotten}"
    )
