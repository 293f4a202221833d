"""The review commands' command line: the word tables, the argument types, the subcommands, the connection."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn, Protocol
from uuid import UUID

import grpc

from factmemory.v1 import factmemory_pb2 as pb

REVIEWER_METADATA = "x-factmemory-reviewer"
EXIT_USAGE, EXIT_ERROR, EXIT_UNREACHABLE = 2, 1, 3
UNREACHABLE = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED}
KINDS = {"durable": pb.KIND_DURABLE, "current": pb.KIND_CURRENT}
STATUSES = {
    "pending": pb.CANDIDATE_STATUS_PENDING,
    "accepted": pb.CANDIDATE_STATUS_ACCEPTED,
    "rejected": pb.CANDIDATE_STATUS_REJECTED,
}
SOURCES = {
    "contradict": pb.CANDIDATE_SOURCE_CONTRADICT,
    "dedup_conflict": pb.CANDIDATE_SOURCE_DEDUP_CONFLICT,
    "decay_floor": pb.CANDIDATE_SOURCE_DECAY_FLOOR,
    "shared_claim": pb.CANDIDATE_SOURCE_SHARED_CLAIM,
}
VERIFICATIONS = {
    "self_reported": pb.VERIFICATION_STATUS_SELF_REPORTED,
    "confirmed": pb.VERIFICATION_STATUS_CONFIRMED,
    "contradicted": pb.VERIFICATION_STATUS_CONTRADICTED,
}
RESOLUTIONS = {
    "accept": pb.RESOLUTION_ACCEPT,
    "reject": pb.RESOLUTION_REJECT,
    "keep-both": pb.RESOLUTION_KEEP_BOTH,
    "keep-new": pb.RESOLUTION_KEEP_NEW,
    "keep-old": pb.RESOLUTION_KEEP_OLD,
    "merge": pb.RESOLUTION_MERGE,
}
COMMANDS = ("facts", "candidates", "entities", "forget", "export", "agents")
# Agents read to find the one a name means: enough to list the matches of an ambiguous name.
NAME_MATCHES = 50


class CommandLineError(Exception):
    """A wrong command line, reported as one line."""


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit 2 (no usage dump)."""

    def error(self, message: str) -> NoReturn:
        raise CommandLineError(message)


@dataclass(frozen=True)
class Connection:
    address: str
    token: str | None
    reviewer: str
    timeout_s: float
    ca_file: str | None = None

    def channel(self) -> grpc.Channel:
        if self.ca_file:
            with open(self.ca_file, "rb") as handle:
                return grpc.secure_channel(self.address, grpc.ssl_channel_credentials(handle.read()))
        return grpc.insecure_channel(self.address)

    def metadata(self) -> list[tuple[str, str]]:
        out = [(REVIEWER_METADATA, self.reviewer)] if self.reviewer else []
        if self.token:
            out.append(("authorization", f"Bearer {self.token}"))
        return out


def uuid_arg(value: str) -> str:
    try:
        return str(UUID(value))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a UUID: {value[:60]!r}") from None


def agent_arg(value: str) -> str:
    """An agent id, or its name (looked up with ListAgents before the command runs)."""
    try:
        return str(UUID(value))
    except ValueError:
        pass
    name = " ".join(value.split())
    if not name:
        raise argparse.ArgumentTypeError("an agent id or name is required")
    return name


def is_uuid(value: str) -> bool:
    try:
        UUID(value)
    except ValueError:
        return False
    return True


class Named(Protocol):
    """An agent as listed (pb.AgentSummary, or the service's own summary for `export --direct`)."""

    @property
    def name(self) -> str: ...

    @property
    def agent_id(self) -> object: ...


def pick_agent(given: str, found: Sequence[Named]) -> str:
    """The id of the one agent a person means by a name: an exact name (case-insensitive) wins over partial
    matches; none, or several, is one line naming what matched."""
    wanted = given.casefold()
    exact = [a for a in found if a.name.casefold() == wanted]
    matches = exact or list(found)
    if len(matches) == 1:
        return str(matches[0].agent_id)
    if not matches:
        raise CommandLineError(
            f"no agent is named {given!r} and it is not an agent id (a UUID); `factmemory agents` lists the agents"
        )
    listed = ", ".join(f"{a.name or '(no name)'} {a.agent_id}" for a in matches[:10])
    more = " and more" if len(matches) > 10 else ""
    raise CommandLineError(f"{given!r} matches {len(matches)} agents: {listed}{more}; give the agent id")


def confidence_arg(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value[:30]!r}") from None
    if not 0.0 <= number <= 1.0:
        raise argparse.ArgumentTypeError("confidence must be between 0 and 1")
    return number


def add_client_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--address", help="host:port of the running service (env FACTMEMORY_ADDRESS)")
    parser.add_argument("--token", help="bearer token (env FACTMEMORY_AUTH_TOKEN)")
    parser.add_argument("--reviewer", help="your name in the history (env FACTMEMORY_REVIEWER, else $USER)")
    parser.add_argument("--tls-ca", help="CA certificate file: connect with TLS (env FACTMEMORY_TLS_CA_FILE)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per call (default 30)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def add_commands(sub: Any, parent: argparse.ArgumentParser) -> None:
    """The review subcommands, each with the client options of `parent`."""
    # The client options go on the leaf commands only: argparse lets a subcommand's defaults overwrite them.
    facts = sub.add_parser("facts", help="list, show, add, edit or delete one entity's facts")
    fsub = facts.add_subparsers(dest="action", required=True, parser_class=OneLineParser)
    scope = argparse.ArgumentParser(add_help=False)
    scope.add_argument("agent_id", type=agent_arg, help="the agent's id or name")
    scope.add_argument("entity_id", type=uuid_arg)
    listing = fsub.add_parser("list", parents=[parent, scope], help="every fact of the entity")
    listing.add_argument("--kind", choices=sorted(KINDS))
    fsub.add_parser("show", parents=[parent, scope], help="one fact and its history").add_argument(
        "fact_id", type=uuid_arg
    )
    add = fsub.add_parser("add", parents=[parent, scope], help="add a fact (verification confirmed)")
    add.add_argument("claim")
    add.add_argument("--kind", choices=sorted(KINDS), default="durable")
    add.add_argument("--category", required=True)
    add.add_argument("--confidence", type=confidence_arg)
    edit = fsub.add_parser("edit", parents=[parent, scope], help="change a fact's fields")
    edit.add_argument("fact_id", type=uuid_arg)
    edit.add_argument("--claim")
    edit.add_argument("--category")
    edit.add_argument("--kind", choices=sorted(KINDS))
    edit.add_argument("--confidence", type=confidence_arg)
    edit.add_argument("--verification", choices=sorted(VERIFICATIONS))
    fsub.add_parser("delete", parents=[parent, scope], help="delete one fact").add_argument("fact_id", type=uuid_arg)

    candidates = sub.add_parser("candidates", help="the review queue: list and resolve")
    csub = candidates.add_subparsers(dest="action", required=True, parser_class=OneLineParser)
    queue = csub.add_parser("list", parents=[parent], help="an agent's review queue, oldest first")
    queue.add_argument("agent_id", type=agent_arg, help="the agent's id or name")
    queue.add_argument("--entity", type=uuid_arg)
    queue.add_argument("--status", choices=[*sorted(STATUSES), "any"], default="pending")
    queue.add_argument("--source", choices=sorted(SOURCES))
    queue.add_argument("--limit", type=int, default=100)
    for name in RESOLUTIONS:
        resolve = csub.add_parser(name, parents=[parent, scope], help=f"resolve a candidate: {name}")
        resolve.add_argument("candidate_id", type=uuid_arg)

    entities = sub.add_parser("entities", parents=[parent], help="an agent's entities, most recent first")
    entities.add_argument("agent_id", type=agent_arg, help="the agent's id or name")
    entities.add_argument("--query", default="", help="start of an entity id, or part of a name")
    entities.add_argument("--limit", type=int, default=100)

    forget = sub.add_parser("forget", parents=[parent, scope], help="erase everything about one entity")
    forget.add_argument("--yes", action="store_true", help="required: the erasure cannot be undone")

    agents = sub.add_parser("agents", parents=[parent], help="the agents, by name, most recent activity first")
    agents.add_argument("--query", default="", help="part of a name, or the start of an id")
    agents.add_argument("--limit", type=int, default=100)

    export = sub.add_parser("export", parents=[parent, scope], help="everything stored about one entity, as JSON")
    export.add_argument(
        "--direct",
        action="store_true",
        help="read the database configured by FACTMEMORY_* instead of asking the service",
    )
