"""The review commands' command line: the word tables, the argument types, the subcommands, the connection."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn, Protocol
from urllib.parse import urlsplit
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
# An agent's export (domain/backup.py's AGENT_FORMAT, which this layer may not import; tests/test_restore.py checks).
AGENT_FORMAT = "factmemory-agent-export"
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
        """`https://host:port` (or a CA file) means TLS; `http://host:port` and `host:port` mean plain text."""
        address, tls = parse_address(self.address)
        if self.ca_file:
            with open(self.ca_file, "rb") as handle:
                return grpc.secure_channel(address, grpc.ssl_channel_credentials(handle.read()))
        if tls:  # the system's trust store
            return grpc.secure_channel(address, grpc.ssl_channel_credentials())
        return grpc.insecure_channel(address)

    def metadata(self) -> list[tuple[str, str]]:
        out = [(REVIEWER_METADATA, self.reviewer)] if self.reviewer else []
        if self.token:
            out.append(("authorization", f"Bearer {self.token}"))
        return out


def parse_address(given: str) -> tuple[str, bool]:
    """host:port and whether to use TLS, from the forms the plugin and the Python client take: `host:port`,
    `http://host:port`, `https://host:port` (TLS)."""
    trimmed = given.strip()
    if "://" not in trimmed:
        return trimmed.rstrip("/"), False
    parts = urlsplit(trimmed)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path.strip("/") or parts.query:
        raise CommandLineError(f"--address takes host:port, http://host:port or https://host:port, not {given[:80]!r}")
    return parts.netloc, parts.scheme == "https"


def uuid_arg(value: str) -> str:
    try:
        return str(UUID(value))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a UUID: {value[:60]!r}") from None


def agent_arg(value: str) -> str:
    """An agent id, or its name (looked up with ListAgents before the command runs)."""
    return _id_or_name(value, "an agent id or name is required")


def person_arg(value: str) -> str:
    """A person's entity id, or their name among the agent's people (looked up with ListEntities)."""
    return _id_or_name(value, "a person's entity id or name is required")


def _id_or_name(value: str, missing: str) -> str:
    try:
        return str(UUID(value))
    except ValueError:
        pass
    name = " ".join(value.split())
    if not name:
        raise argparse.ArgumentTypeError(missing)
    return name


def is_uuid(value: str) -> bool:
    try:
        UUID(value)
    except ValueError:
        return False
    return True


class Named(Protocol):
    """An agent or a person as listed (pb.AgentSummary / pb.EntitySummary, or the service's own summaries for
    `export --direct`): a name, and an `agent_id` or `entity_id`."""

    @property
    def name(self) -> str: ...


def pick_agent(given: str, found: Sequence[Named]) -> str:
    """The id of the one agent a person means by a name (see `_pick`)."""
    none = "no agent is named {!r} and it is not an agent id (a UUID); `factmemory agents` lists the agents"
    return _pick(given, found, "agent_id", "agents", none)


def pick_person(given: str, found: Sequence[Named]) -> str:
    """The entity id of the one person a name means among one agent's people (see `_pick`)."""
    none = (
        "this agent knows no one named {!r} and it is not an entity id (a UUID); "
        "`factmemory entities AGENT` lists the people"
    )
    return _pick(given, found, "entity_id", "people", none)


def _pick(given: str, found: Sequence[Named], id_field: str, plural: str, none_found: str) -> str:
    """An exact name (case-insensitive) wins over partial matches; none, or several, is one line naming what
    matched (several: the candidates with their ids)."""
    wanted = given.casefold()
    exact = [a for a in found if a.name.casefold() == wanted]
    matches = exact or list(found)
    if len(matches) == 1:
        return str(getattr(matches[0], id_field))
    if not matches:
        raise CommandLineError(none_found.format(given))
    listed = ", ".join(f"{a.name or '(no name)'} {getattr(a, id_field)}" for a in matches[:10])
    more = " and more" if len(matches) > 10 else ""
    raise CommandLineError(f"{given!r} matches {len(matches)} {plural}: {listed}{more}; give the id")


def confidence_arg(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value[:30]!r}") from None
    if not 0.0 <= number <= 1.0:
        raise argparse.ArgumentTypeError("confidence must be between 0 and 1")
    return number


# The client options (add_client_options) that take a value, and the one flag; argparse reads them on the leaf
# command only, so `hoisted` moves those given before it.
CLIENT_VALUE_OPTIONS = ("--address", "--token", "--reviewer", "--tls-ca", "--timeout")
CLIENT_FLAGS = ("--json",)
TOP_VALUE_OPTIONS = ("--log-level",)
ACTIONS = ("list", "show", "add", "edit", "delete", *RESOLUTIONS)


def hoisted(argv: Sequence[str]) -> list[str]:
    """The command line with the client options given before the command (or between a command and its action)
    moved after it: `factmemory --address HOST facts list A P` reads as `factmemory facts list A P --address HOST`."""
    words = {*COMMANDS, *ACTIONS, "import", "export"}
    kept: list[str] = []
    moved: list[str] = []
    i = 0
    while i < len(argv):
        token, name = argv[i], argv[i].split("=", 1)[0]
        if name in CLIENT_VALUE_OPTIONS:
            step = 1 if "=" in token else 2
            moved += argv[i : i + step]
        elif token in CLIENT_FLAGS:
            step = 1
            moved.append(token)
        elif name in TOP_VALUE_OPTIONS:
            step = 1 if "=" in token else 2
            kept += argv[i : i + step]
        elif token.startswith("-") or token in words:
            step = 1
            kept.append(token)
        else:  # the command's own arguments begin: nothing after them moves
            break
        i += step
    return [*kept, *argv[i:], *moved]


def add_client_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--address",
        help="the running service: host:port, http://host:port or https://host:port (TLS) (env FACTMEMORY_ADDRESS)",
    )
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
    scope.add_argument("entity_id", type=person_arg, help="the person's entity id or name")
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
    queue.add_argument("--entity", type=person_arg, help="only this person (entity id or name)")
    queue.add_argument("--status", choices=[*sorted(STATUSES), "any"], default="pending")
    queue.add_argument("--source", choices=sorted(SOURCES))
    queue.add_argument("--limit", type=int, default=100)
    for name in RESOLUTIONS:
        resolve = csub.add_parser(name, parents=[parent, scope], help=f"resolve a candidate: {name}")
        resolve.add_argument("candidate_id", type=uuid_arg)
        if name == "accept":
            resolve.add_argument(
                "--agent-wide",
                action="store_true",
                help="a held shared claim: share it with every world (only from a world named in "
                "FACTMEMORY_SHARED_AGENT_WIDE_WORLDS)",
            )

    entities = sub.add_parser("entities", parents=[parent], help="an agent's entities, most recent first")
    entities.add_argument("agent_id", type=agent_arg, help="the agent's id or name")
    entities.add_argument("--query", default="", help="start of an entity id, or part of a name")
    entities.add_argument("--limit", type=int, default=100)

    forget = sub.add_parser("forget", parents=[parent, scope], help="erase everything about one entity")
    forget.add_argument("--yes", action="store_true", help="required: the erasure cannot be undone")

    agents = sub.add_parser("agents", parents=[parent], help="the agents, by name, most recent activity first")
    agents.add_argument("--query", default="", help="part of a name, or the start of an id")
    agents.add_argument("--limit", type=int, default=100)

    export = sub.add_parser(
        "export",
        parents=[parent],
        help="everything stored about one person, or about every person and community of an agent, as JSON "
        "(`factmemory import --file` restores it)",
    )
    export.add_argument("agent_id", type=agent_arg, help="the agent's id or name")
    export.add_argument(
        "entity_id", type=person_arg, nargs="?", help="the person's entity id or name (none: the whole agent)"
    )
    export.add_argument(
        "--direct",
        action="store_true",
        help="read the database configured by FACTMEMORY_* instead of asking the service",
    )
