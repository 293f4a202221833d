"""The `factmemory` command: parse the command line, build Settings, run. Failures end in one line on stderr."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from uuid import UUID

from pydantic import ValidationError

from factmemory.api.logs import configure_logging
from factmemory.settings import Settings

log = logging.getLogger("factmemory")


class UsageError(ValueError):
    """A command-line argument is wrong."""


def _serve(settings: Settings, _: argparse.Namespace) -> int:
    from factmemory.app import serve

    return asyncio.run(serve(settings))


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


def _uuid(value: str, name: str) -> UUID:
    try:
        return UUID(value)
    except ValueError:
        raise UsageError(f"{name} must be a UUID, got {value[:80]!r}") from None


def _export(settings: Settings, args: argparse.Namespace) -> int:
    from factmemory.app import open_deps
    from factmemory.usecases.review import export_entity

    agent_id, entity_id = _uuid(args.agent_id, "agent_id"), _uuid(args.entity_id, "entity_id")

    async def run() -> dict[str, object]:
        async with open_deps(settings) as deps:
            return await export_entity(deps, agent_id, entity_id)

    print(json.dumps(asyncio.run(run()), indent=2, sort_keys=True, ensure_ascii=False))
    return 0


def _config_error(exc: ValidationError) -> str:
    first = exc.errors()[0]
    field = ".".join(str(p) for p in first["loc"]) or "(settings)"
    return f"invalid configuration: FACTMEMORY_{field.upper()}: {first['msg']}"


def _expected_failures() -> tuple[type[BaseException], ...]:
    """Errors that are the operator's to fix: reported in one line, no traceback."""
    from factmemory.adapters.postgres.database import DatabaseSetupError
    from factmemory.app import DependencyLost, InsecureBind, ListenError

    return (UsageError, InsecureBind, ListenError, DatabaseSetupError, DependencyLost, OSError)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script."""
    parser = argparse.ArgumentParser(prog="factmemory", description="Long-term memory about people for AI agents")
    parser.add_argument("--log-level", default="INFO")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("serve", help="run the gRPC service (configured by FACTMEMORY_* variables)")
    sub.add_parser("migrate", help="apply pending database migrations and exit")
    export = sub.add_parser("export", help="print everything stored about one entity as JSON")
    export.add_argument("agent_id")
    export.add_argument("entity_id")
    args = parser.parse_args(argv)
    try:
        settings = Settings()
    except ValidationError as exc:
        print(f"factmemory: {_config_error(exc)}", file=sys.stderr)
        return 2
    commands = {"serve": _serve, "migrate": _migrate, "export": _export}
    try:
        configure_logging(args.log_level, settings.log_format)
        return commands[args.command](settings, args)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        if isinstance(exc, _expected_failures()):
            print(f"factmemory: {exc}", file=sys.stderr)
            return 2 if isinstance(exc, UsageError) else 1
        log.debug("unexpected failure", exc_info=True)
        print(f"factmemory: unexpected error: {type(exc).__name__}: {exc} (--log-level DEBUG shows the traceback)",
              file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
