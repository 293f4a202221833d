"""The review commands of `factmemory`: facts, candidates, entities, forget, export, against a running service.

Human-readable output by default, --json for scripts. Every failure is one line on stderr and a non-zero exit:
2 for a wrong command line, 1 for an error the service reported, 3 when the service cannot be reached."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn, Protocol, TextIO
from uuid import UUID

import grpc
from google.protobuf.json_format import MessageToDict
from google.protobuf.message import Message

from factmemory.v1 import factmemory_pb2 as pb
from factmemory.v1 import factmemory_pb2_grpc as pb_grpc

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


# --- running a command ------------------------------------------------------------------------------------------


def run(args: argparse.Namespace, connection: Connection, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Runs one review command; every failure is one line on `err` and a non-zero exit code."""
    out, err = out or sys.stdout, err or sys.stderr
    try:
        with connection.channel() as channel:
            stub = pb_grpc.FactMemoryServiceStub(channel)
            call = Caller(stub, connection)
            if getattr(args, "agent_id", None) and not is_uuid(args.agent_id):
                args.agent_id = agent_named(call, args.agent_id)
            handler = HANDLERS[(args.command, getattr(args, "action", None))]
            handler(call, args, Printer(out, args.json))
        return 0
    except CommandLineError as exc:
        print(f"factmemory: {exc}", file=err)
        return EXIT_USAGE
    except grpc.RpcError as exc:
        return _rpc_failure(
            exc, connection, err, " (or export --direct to read the database)" if args.command == "export" else ""
        )
    except OSError as exc:
        print(f"factmemory: {exc}", file=err)
        return EXIT_ERROR


def _rpc_failure(exc: grpc.RpcError, connection: Connection, err: TextIO, unreachable_hint: str) -> int:
    code: grpc.StatusCode = exc.code()
    details = " ".join(str(exc.details() or "").split())
    if code in UNREACHABLE:
        print(
            f"factmemory: cannot reach the service at {connection.address} ({code.name}: {details}){unreachable_hint}",
            file=err,
        )
        return EXIT_UNREACHABLE
    hint = " (set --token or FACTMEMORY_AUTH_TOKEN)" if code is grpc.StatusCode.UNAUTHENTICATED else ""
    print(f"factmemory: {code.name}: {details}{hint}", file=err)
    return EXIT_ERROR


class Caller:
    """Calls the service with the token, the reviewer's name and a deadline."""

    def __init__(self, stub: pb_grpc.FactMemoryServiceStub, connection: Connection) -> None:
        self._stub = stub
        self._connection = connection

    def __call__(self, method: str, request: Message) -> Any:
        rpc = getattr(self._stub, method)
        return rpc(request, metadata=self._connection.metadata(), timeout=self._connection.timeout_s)


class Printer:
    def __init__(self, out: TextIO, as_json: bool) -> None:
        self.out = out
        self.as_json = as_json

    def json(self, value: Any) -> None:
        print(json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False), file=self.out)

    def line(self, text: str) -> None:
        print(text, file=self.out)


def as_dict(message: Message) -> dict[str, Any]:
    return MessageToDict(message, preserving_proto_field_name=True)


def _scope(args: argparse.Namespace) -> dict[str, Any]:
    return {"agent_id": args.agent_id, "entity_id": args.entity_id}


def _when(ts: Any) -> str:
    return ts.ToDatetime().strftime("%Y-%m-%d %H:%M") if ts.seconds else "-"


def fact_line(fact: pb.Fact) -> str:
    kind = pb.Kind.Name(fact.kind).removeprefix("KIND_").lower()
    verification = pb.VerificationStatus.Name(fact.verification_status).removeprefix("VERIFICATION_STATUS_").lower()
    line = f"{fact.id}  {kind}.{fact.category}  {fact.confidence:.2f}  {verification}  {fact.claim}"
    if fact.disputed_by:
        line += f'  (may have changed: "{fact.disputed_by}", unconfirmed)'
    return line


def history_line(entry: pb.HistoryEntry) -> str:
    action = pb.HistoryAction.Name(entry.action).removeprefix("HISTORY_ACTION_").lower()
    before, after = (
        as_dict(entry.before) if entry.HasField("before") else {},
        as_dict(entry.after) if entry.HasField("after") else {},
    )
    changed = [
        f"{k}: {before.get(k)!r} -> {after.get(k)!r}"
        for k in sorted(set(before) | set(after))
        if before.get(k) != after.get(k)
    ]
    detail = "; ".join(changed) or entry.reason
    return f"{_when(entry.at)}  {action:<18} {entry.actor:<30} {detail}"


def candidate_line(candidate: pb.Candidate) -> str:
    status = pb.CandidateStatus.Name(candidate.status).removeprefix("CANDIDATE_STATUS_").lower()
    old = candidate.fact.claim if candidate.HasField("fact") else "(fact gone)"
    return (
        f"{candidate.id}  entity {candidate.entity_id}  {candidate.source}  {status}  "
        f"{old!r} -> {candidate.proposed_claim!r}  ({candidate.reason})"
    )


def entity_line(entity: pb.EntitySummary) -> str:
    name = entity.name or "(no name)"
    return (
        f"{entity.entity_id}  {name}  durable {entity.durable_facts}  current {entity.current_facts}  "
        f"pending {entity.pending_candidates}  last {_when(entity.last_activity)}"
    )


def _pages(fetch: Callable[[str], Any], items: str, limit: int) -> Iterator[Any]:
    token, count = "", 0
    while True:
        page = fetch(token)
        for item in getattr(page, items):
            if count >= limit:
                return
            count += 1
            yield item
        token = page.next_page_token
        if not token:
            return


def facts_list(call: Caller, args: argparse.Namespace, printer: Printer) -> None:
    kind = KINDS.get(args.kind or "", pb.KIND_UNSPECIFIED)
    facts = list(
        _pages(
            lambda token: call(
                "ListFacts", pb.ListFactsRequest(**_scope(args), kind=kind, page_size=1000, page_token=token)
            ),
            "facts",
            10**9,
        )
    )
    if printer.as_json:
        printer.json([as_dict(f) for f in facts])
        return
    for fact in facts:
        printer.line(fact_line(fact))
    if not facts:
        printer.line("no facts")


def facts_show(call: Caller, args: argparse.Namespace, printer: Printer) -> None:
    response = call("GetFact", pb.GetFactRequest(**_scope(args), fact_id=args.fact_id))
    if printer.as_json:
        printer.json(as_dict(response))
        return
    printer.line(fact_line(response.fact) if response.HasField("fact") else f"{args.fact_id}  (deleted)")
    if response.HasField("fact") and response.fact.previous_claims:
        printer.line("previous claims: " + "; ".join(response.fact.previous_claims))
    printer.line("history:")
    for entry in response.history:
        printer.line("  " + history_line(entry))


def facts_add(call: Caller, args: argparse.Namespace, printer: Printer) -> None:
    request = pb.AddFactRequest(**_scope(args), kind=KINDS[args.kind], category=args.category, claim=args.claim)
    if args.confidence is not None:
        request.confidence = args.confidence
    fact = call("AddFact", request).fact
    printer.json(as_dict(fact)) if printer.as_json else printer.line("added " + fact_line(fact))


def facts_edit(call: Caller, args: argparse.Namespace, printer: Printer) -> None:
    request = pb.UpdateFactRequest(
        **_scope(args),
        fact_id=args.fact_id,
        kind=KINDS.get(args.kind or "", pb.KIND_UNSPECIFIED),
        verification_status=VERIFICATIONS.get(args.verification or "", pb.VERIFICATION_STATUS_UNSPECIFIED),
    )
    for field in ("claim", "category", "confidence"):
        if getattr(args, field) is not None:
            setattr(request, field, getattr(args, field))
    fact = call("UpdateFact", request).fact
    printer.json(as_dict(fact)) if printer.as_json else printer.line("updated " + fact_line(fact))


def facts_delete(call: Caller, args: argparse.Namespace, printer: Printer) -> None:
    call("DeleteFact", pb.DeleteFactRequest(**_scope(args), fact_id=args.fact_id))
    printer.json({"deleted": args.fact_id}) if printer.as_json else printer.line(f"deleted {args.fact_id}")


def candidates_list(call: Caller, args: argparse.Namespace, printer: Printer) -> None:
    def fetch(token: str) -> Any:
        return call(
            "ListCandidates",
            pb.ListCandidatesRequest(
                agent_id=args.agent_id,
                entity_id=args.entity or "",
                status=STATUSES.get(args.status, pb.CANDIDATE_STATUS_UNSPECIFIED),
                any_status=args.status == "any",
                source=SOURCES.get(args.source or "", pb.CANDIDATE_SOURCE_UNSPECIFIED),
                page_size=min(max(args.limit, 1), 1000),
                page_token=token,
            ),
        )

    found = list(_pages(fetch, "candidates", args.limit))
    if printer.as_json:
        printer.json([as_dict(c) for c in found])
        return
    for candidate in found:
        printer.line(candidate_line(candidate))
    if not found:
        printer.line("no candidates")


def candidates_resolve(call: Caller, args: argparse.Namespace, printer: Printer) -> None:
    response = call(
        "ResolveCandidate",
        pb.ResolveCandidateRequest(**_scope(args), candidate_id=args.candidate_id, resolution=RESOLUTIONS[args.action]),
    )
    if printer.as_json:
        printer.json(as_dict(response))
        return
    printer.line(f"{args.action}: {candidate_line(response.candidate)}")
    if response.HasField("fact"):
        printer.line("now: " + fact_line(response.fact))


def entities_list(call: Caller, args: argparse.Namespace, printer: Printer) -> None:
    found = list(
        _pages(
            lambda token: call(
                "ListEntities",
                pb.ListEntitiesRequest(
                    agent_id=args.agent_id, query=args.query, page_size=min(max(args.limit, 1), 1000), page_token=token
                ),
            ),
            "entities",
            args.limit,
        )
    )
    if printer.as_json:
        printer.json([as_dict(e) for e in found])
        return
    for entity in found:
        printer.line(entity_line(entity))
    if not found:
        printer.line("no entities")


def agent_named(call: Caller, name: str) -> str:
    found = call("ListAgents", pb.ListAgentsRequest(query=name, page_size=NAME_MATCHES)).agents
    return pick_agent(name, found)


def agent_line(agent: pb.AgentSummary) -> str:
    return (
        f"{agent.agent_id}  {agent.name or '(no name)'}  people={agent.entities} facts={agent.facts} "
        f"pending={agent.pending_candidates}  last={_when(agent.last_activity)}"
    )


def agents_list(call: Caller, args: argparse.Namespace, printer: Printer) -> None:
    found = list(
        _pages(
            lambda token: call(
                "ListAgents",
                pb.ListAgentsRequest(query=args.query, page_size=min(max(args.limit, 1), 1000), page_token=token),
            ),
            "agents",
            args.limit,
        )
    )
    if printer.as_json:
        printer.json([as_dict(a) for a in found])
        return
    for agent in found:
        printer.line(agent_line(agent))
    if not found:
        printer.line("no agents")


def forget(call: Caller, args: argparse.Namespace, printer: Printer) -> None:
    if not args.yes:
        raise CommandLineError("forget erases everything about the entity and cannot be undone: add --yes")
    response = call("ForgetEntity", pb.ForgetEntityRequest(**_scope(args)))
    if printer.as_json:
        printer.json(as_dict(response))
        return
    printer.line(
        f"forgotten: {response.facts_deleted} facts, {response.candidates_deleted} candidates, "
        f"{response.relationships_deleted} relationships, {response.identities_deleted} identities, "
        f"{response.evaluations_deleted} evaluations"
    )


def export(call: Caller, args: argparse.Namespace, printer: Printer) -> None:
    """One document: a large entity's pages joined (every list of a page continues the one before)."""
    response = call("ExportEntity", pb.ExportEntityRequest(**_scope(args)))
    document = json.loads(response.json)
    while response.next_page_token:
        response = call("ExportEntity", pb.ExportEntityRequest(**_scope(args), page_token=response.next_page_token))
        for key, value in json.loads(response.json).items():
            if isinstance(value, list):
                document[key].extend(value)
    printer.json(document)


Handler = Callable[[Caller, argparse.Namespace, Printer], None]
HANDLERS: dict[tuple[str, str | None], Handler] = {
    ("facts", "list"): facts_list,
    ("facts", "show"): facts_show,
    ("facts", "add"): facts_add,
    ("facts", "edit"): facts_edit,
    ("facts", "delete"): facts_delete,
    ("candidates", "list"): candidates_list,
    **{("candidates", name): candidates_resolve for name in RESOLUTIONS},
    ("entities", None): entities_list,
    ("forget", None): forget,
    ("export", None): export,
    ("agents", None): agents_list,
}
