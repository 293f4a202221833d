"""Measure the legacy import: N elizaOS facts (a JSON export) into a fresh embedded database, then again.

Run:  .venv/bin/python scripts/measure_import.py [--facts 10000] [--entities 100]
Writes a synthetic plugin-sql export (one `facts` memory per line) to a temporary directory, runs the same
code as `factmemory import --file` (parse, embed with the configured embedder, store) and prints the facts/s
of the first import and of the repeat (which must add nothing).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path
from uuid import uuid4

from factmemory.public import eliza, import_facts, open_deps
from factmemory.settings import Settings

SUBJECTS = (
    "coffee",
    "jazz",
    "hiking",
    "Berlin",
    "a dog named Rex",
    "two kids",
    "penicillin",
    "chess",
    "the night shift",
    "Portuguese",
    "a startup",
    "marathons",
    "sushi",
    "Tokyo",
    "a sister Mia",
)
TEMPLATES = (
    "likes {0}",
    "talks a lot about {0}",
    "mentioned {0} again",
    "is worried about {0}",
    "has plans involving {0}",
    "asked about {0} twice",
)


def write_export(path: Path, facts: int, entities: int) -> None:
    agent = str(uuid4())
    people = [str(uuid4()) for _ in range(entities)]
    with path.open("w", encoding="utf-8") as out:
        for i in range(facts):
            text = TEMPLATES[i % len(TEMPLATES)].format(SUBJECTS[(i // len(TEMPLATES)) % len(SUBJECTS)])
            memory = {
                "id": str(uuid4()),
                "type": "facts",
                "agentId": agent,
                "entityId": people[i % entities],
                "roomId": str(uuid4()),
                "createdAt": 1_760_000_000_000 + i * 1000,
                "content": {"text": f"{text} ({i})"},
            }
            out.write(json.dumps(memory) + "\n")


async def measure(export: Path, data_dir: Path) -> None:
    settings = Settings(data_dir=data_dir, database_url=None)
    async with open_deps(settings) as deps:
        facts, skipped, _ = eliza.parse_all(eliza.read_json(export))
        for label in ("first import", "repeat"):
            started = time.perf_counter()
            report = await import_facts(deps, facts, "measure", skipped)
            seconds = time.perf_counter() - started
            print(
                f"{label}: {report.imported} imported, {report.already_imported} already there, "
                f"{seconds:.1f} s, {len(facts) / seconds:.0f} facts/s"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=10_000)
    parser.add_argument("--entities", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="factmemory-import-") as tmp:
        export = Path(tmp) / "facts.jsonl"
        write_export(export, args.facts, args.entities)
        asyncio.run(measure(export, Path(tmp) / "data"))


if __name__ == "__main__":
    main()
