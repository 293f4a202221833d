"""The `factmemory` command: parse the command line, build Settings, run. Failures end in one line on stderr."""

from __future__ import annotations

import os

# Before gRPC loads (the imports below): its fork handlers only narrate in this process ("Other threads are
# currently calling into gRPC, skipping fork() handlers" when pg_ctl stops the embedded database while gRPC threads
# run); nothing here uses gRPC in a forked child.
os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "0")

import argparse
import asyncio
import json
import logging
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any
from uuid import UUID

from pydantic import ValidationError

from factmemory import cli_review
from factmemory import cli_transfer as transfer
from factmemory.api.audit import audited
from factmemory.api.logs import configure_logging
from factmemory.cli_review import CommandLineError, Connection, OneLineParser
from factmemory.domain import backup
from factmemory.domain.errors import InvalidInput
from factmemory.domain.resolutions import import_actor
from factmemory.settings import ClientSettings, Settings

log = logging.getLogger("factmemory")


class UsageError(ValueError):
    """A command-line argument is wrong."""


def _serve(settings: Settings, _: argparse.Namespace) -> int:
    from factmemory.app import serve

    return asyncio.run(serve(settings))


def _migrate(settings: Settings, _: argparse.Namespace) -> int:
    from factmemory.adapters.postgres.deployment.database import database_url, migrate
    from factmemory.app import embedding_dimensions

    async def run() -> list[str]:
        dimensions = embedding_dimensions(settings)
        async with database_url(settings.database_url, settings.data_dir) as url:
            return await migrate(url, dimensions)

    applied = asyncio.run(run())
    print("applied: " + (", ".join(applied) if applied else "nothing (up to date)"))
    return 0


def _distribute(settings: Settings, _: argparse.Namespace) -> int:
    from factmemory.adapters.postgres.deployment.database import migrate
    from factmemory.adapters.postgres.deployment.distribution import distribute
    from factmemory.app import embedding_dimensions

    if not settings.database_url:
        raise UsageError("distribute needs FACTMEMORY_DATABASE_URL: the Citus coordinator")

    async def run(url: str) -> list[str]:
        await migrate(url, embedding_dimensions(settings))
        return await distribute(url)

    done = asyncio.run(run(settings.database_url))
    complete = "every table placed as planned, every trigger enabled, every function on every node"
    print("\n".join([*done, f"distributed: {complete}"]) if done else f"nothing to do: {complete}")
    return 0


def _prune(settings: Settings, args: argparse.Namespace) -> int:
    from datetime import UTC, datetime

    from factmemory.adapters.postgres.connection import open_pool
    from factmemory.adapters.postgres.deployment.citus import distributed_by_person
    from factmemory.adapters.postgres.deployment.database import database_url, migrate
    from factmemory.app import embedding_dimensions, retention_policy
    from factmemory.app.runtime import adapters_for
    from factmemory.domain.errors import FactMemoryError
    from factmemory.ports import NullTelemetry
    from factmemory.usecases.retention import SweepCounts, sweep

    async def run() -> SweepCounts:
        async with database_url(settings.database_url, settings.data_dir) as url:
            await migrate(url, embedding_dimensions(settings))
            async with open_pool(url, 1, 2, settings.db_timeout_s) as pool:
                store = adapters_for(await distributed_by_person(pool)).retention(pool)
                return await sweep(store, retention_policy(settings), datetime.now(UTC), NullTelemetry())

    try:
        counts = asyncio.run(run())
    except FactMemoryError as exc:
        print(f"factmemory: prune failed: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(counts.__dict__, sort_keys=True))
    else:
        print(f"pruned: {counts.line()}")
    if counts.failed:
        # Each failed step logged its error in a line of its own (above).
        print(f"factmemory: prune: {len(counts.failed)} step(s) failed, the others ran", file=sys.stderr)
        return 1
    return 0


def _uuid(value: str, name: str) -> UUID:
    try:
        return UUID(value)
    except ValueError:
        raise UsageError(f"{name} must be a UUID, got {value[:80]!r}") from None


def _export(settings: Settings, args: argparse.Namespace) -> int:
    from factmemory.app import open_deps
    from factmemory.usecases.browse import export_entity, list_entities

    async def person(deps: Any, agent_id: UUID, given: str) -> dict[str, Any]:
        if not cli_review.is_uuid(given):  # a person's name among this agent's people
            found = await list_entities(deps, agent_id, given, "", cli_review.NAME_MATCHES)
            given = cli_review.pick_person(given, found[0])
        return await export_entity(deps, agent_id, _uuid(given, "entity_id"))

    async def everyone(deps: Any, agent_id: UUID) -> list[dict[str, Any]]:
        people, token = [], ""
        while True:
            page, token = await list_entities(deps, agent_id, "", token, 1000)
            people += [await export_entity(deps, agent_id, e.entity_id) for e in page]
            if not token:
                return people

    async def run() -> dict[str, Any]:
        async with open_deps(settings) as deps:
            agent_id = _uuid(await transfer.agent_id(deps, args.agent_id), "agent_id")
            if args.entity_id:
                return await person(deps, agent_id, args.entity_id)
            name = await deps.agents.agent_name(agent_id) if deps.agents is not None else ""
            return cli_review.agent_document(str(agent_id), name, await everyone(deps, agent_id))

    print(json.dumps(asyncio.run(run()), indent=2, sort_keys=True, ensure_ascii=False))
    return 0


def _import(settings: Settings, args: argparse.Namespace) -> int:
    """One line of outcome on stdout, or one line on stderr saying why nothing was imported."""
    label = f"file:{Path(args.file).name}" if args.file else "elizaos-postgres"
    source = f"file {args.file}" if args.file else "the elizaOS database"
    try:  # every run is one audit line (at INFO: shown with --log-level INFO or JSON logs), a failed one too
        with audited("import", "cli", import_actor(label.removeprefix("file:"))) as entry:
            entry.note(agent_id=args.agent)
            document = transfer.read_document(Path(args.file)) if args.file else None
            if document is not None and backup.looks_like(document) != "elizaos":
                line = transfer.restore(settings, args, document, label, entry)
            else:
                line = transfer.import_legacy(settings, args, document, label, entry)
    except (OSError, ValueError, InvalidInput) as exc:  # unreadable file, bad JSON or rows, unreachable database
        where = "" if isinstance(exc, OSError) and exc.filename else f"{source}: "  # the error names the file
        print(f"factmemory: import failed: {where}{describe(exc)}", file=sys.stderr)
        return 1
    print(line)
    return 0


def _client(args: argparse.Namespace) -> Connection:
    """Flags first, then FACTMEMORY_ADDRESS / FACTMEMORY_AUTH_TOKEN / FACTMEMORY_REVIEWER."""
    env = ClientSettings()
    ca_file = args.tls_ca or (str(env.tls_ca_file) if env.tls_ca_file else None)
    return Connection(
        address=args.address or env.address,
        token=args.token or env.auth_token,
        reviewer=args.reviewer or env.reviewer,
        timeout_s=args.timeout,
        ca_file=ca_file,
    )


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="factmemory", description="Long-term memory about people for AI agents")
    parser.add_argument(
        "--log-level", help="default INFO for serve, migrate and prune (and import with JSON logs); WARNING otherwise"
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version('factmemory')}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    serve = sub.add_parser(
        "serve",
        help="run the gRPC service (configured by FACTMEMORY_* variables)",
        description="Run the gRPC service, the review page (FACTMEMORY_HTTP_LISTEN) and the metrics endpoint "
        "(FACTMEMORY_METRICS_LISTEN). Every setting is an environment variable:",
        epilog=_settings_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    serve.add_argument(
        "--demo",
        action="store_true",
        help="Evaluate without a model key: the built-in demo model (FACTMEMORY_DEMO_MODEL=true) learns from a few "
        'simple English sentences ("I moved to Berlin", "I\'m allergic to penicillin", "I feel anxious today")',
    )
    sub.add_parser("migrate", help="apply pending database migrations and exit")
    sub.add_parser(
        "distribute",
        help="migrate, then distribute the database (a Citus coordinator, FACTMEMORY_DATABASE_URL) by person: "
        "once, with or without data (docs/scaling.md)",
    )
    prune = sub.add_parser(
        "prune",
        help="run retention once on the database configured by FACTMEMORY_* "
        "(archive stale current facts, delete long-archived ones, reduce old evaluations, "
        "archive old resolved candidates) and print the counts",
    )
    prune.add_argument("--json", action="store_true", help="print the counts as JSON")
    client = argparse.ArgumentParser(add_help=False)
    cli_review.add_client_options(client)
    cli_review.add_commands(sub, client)
    legacy = sub.add_parser(
        "import",
        help="restore a `factmemory export` file, or import elizaOS facts (plugin-sql 'facts' memories), into the "
        "database configured by FACTMEMORY_*",
    )
    source = legacy.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--file",
        help="a JSON file: what `factmemory export` wrote (restored, ids kept), or elizaOS memories "
        '(a list, {"memories": [...]}, or JSON lines)',
    )
    source.add_argument("--postgres", metavar="URL", help="an elizaOS PostgreSQL database (read only)")
    legacy.add_argument(
        "--agent",
        type=cli_review.agent_arg,
        help="elizaOS memories: import only this agent's facts; a FactMemory export: the agent to restore into "
        "(default: the one it was exported from). Its id or name",
    )
    legacy.add_argument(
        "--restore-forgotten",
        action="store_true",
        help="a FactMemory export: also restore people the agent forgot after the export was written",
    )
    legacy.add_argument("--json", action="store_true", help="print the report as JSON")
    return parser


def _settings_help() -> str:
    import factmemory.settings as module
    from factmemory.api.settings_doc import settings_help

    source = Path(module.__file__).read_text(encoding="utf-8")
    return settings_help(Settings, source)


def describe(exc: BaseException) -> str:
    """An expected failure as one line, without Python's exception names."""
    if isinstance(exc, json.JSONDecodeError):
        return f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
    if isinstance(exc, UnicodeDecodeError):
        return "not UTF-8 text"
    if isinstance(exc, OSError) and exc.filename is not None:
        return f"cannot read {exc.filename}: {(exc.strerror or str(exc)).lower()}"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return " ".join(str(exc).split()) or type(exc).__name__


def _config_error(exc: ValidationError) -> str:
    first = exc.errors()[0]
    field = ".".join(str(p) for p in first["loc"]) or "(settings)"
    return f"invalid configuration: FACTMEMORY_{field.upper()}: {first['msg']}"


def _expected_failures() -> tuple[type[BaseException], ...]:
    """Errors that are the operator's to fix: reported in one line, no traceback."""
    from factmemory.adapters.postgres.deployment.setup_errors import DatabaseSetupError
    from factmemory.app import DependencyLost, InsecureBind, ListenError

    return (UsageError, CommandLineError, InsecureBind, ListenError, DatabaseSetupError, DependencyLost, OSError)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script."""
    try:
        args = build_parser().parse_args(cli_review.hoisted(sys.argv[1:] if argv is None else argv))
    except CommandLineError as exc:
        print(f"factmemory: {exc}", file=sys.stderr)
        return cli_review.EXIT_USAGE
    level = args.log_level or ("INFO" if args.command in ("serve", "migrate", "import", "prune") else "WARNING")
    if args.command in cli_review.COMMANDS and not getattr(args, "direct", False):
        logging.basicConfig(level=level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        return cli_review.run(args, _client(args))
    try:
        settings = Settings(demo_model=True) if getattr(args, "demo", False) else Settings()
    except ValidationError as exc:
        print(f"factmemory: {_config_error(exc)}", file=sys.stderr)
        return 2
    commands = {
        "serve": _serve,
        "migrate": _migrate,
        "distribute": _distribute,
        "export": _export,
        "import": _import,
        "prune": _prune,
    }
    if args.command == "import" and not args.log_level and settings.log_format != "json":
        level = "WARNING"  # one line of outcome on a terminal; JSON logs keep the audit line
    try:
        configure_logging(level, settings.log_format, settings.native_stderr)
        return commands[args.command](settings, args)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        if isinstance(exc, _expected_failures()):
            print(f"factmemory: {describe(exc)}", file=sys.stderr)
            return 2 if isinstance(exc, UsageError | CommandLineError) else 1
        log.debug("unexpected failure", exc_info=True)
        print(
            f"factmemory: unexpected error: {type(exc).__name__}: {exc} (--log-level DEBUG shows the traceback)",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
