"""Running one review command against the service: the calls, the listings (one table), the failures."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TextIO

import grpc
from google.protobuf.message import Message

from factmemory.cli_review.arguments import (
    AGENT_FORMAT,
    EXIT_ERROR,
    EXIT_UNREACHABLE,
    EXIT_USAGE,
    KINDS,
    NAME_MATCHES,
    RESOLUTIONS,
    SOURCES,
    STATUSES,
    UNREACHABLE,
    VERIFICATIONS,
    CommandLineError,
    Connection,
    is_uuid,
    pick_agent,
    pick_person,
)
from factmemory.cli_review.lines import (
    Printer,
    agent_line,
    as_dict,
    candidate_line,
    entity_line,
    fact_line,
    history_line,
)
from factmemory.v1 import factmemory_pb2 as pb
from factmemory.v1 import factmemory_pb2_grpc as pb_grpc

Handler = Callable[["Caller", argparse.Namespace, Printer], None]


def run(args: argparse.Namespace, connection: Connection, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Runs one review command; every failure is one line on `err` and a non-zero exit code."""
    out, err = out or sys.stdout, err or sys.stderr
    try:
        with connection.channel() as channel:
            stub = pb_grpc.FactMemoryServiceStub(channel)
            call = Caller(stub, connection)
            if getattr(args, "agent_id", None) and not is_uuid(args.agent_id):
                args.agent_id = agent_named(call, args.agent_id)
            for field in ("entity_id", "entity"):  # a person's name: the one person of this agent it means
                if getattr(args, field, None) and not is_uuid(getattr(args, field)):
                    setattr(args, field, person_named(call, args.agent_id, getattr(args, field)))
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


def _scope(args: argparse.Namespace) -> dict[str, Any]:
    return {"agent_id": args.agent_id, "entity_id": args.entity_id}


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


def _page_size(args: argparse.Namespace) -> int:
    return min(max(int(args.limit), 1), 1000)


@dataclass(frozen=True)
class Listing:
    """A list command: the paged call, the response field it lists, how one item prints, how many to show."""

    method: str
    items: str
    request: Callable[[argparse.Namespace, str], Message]  # (args, page token) -> the request
    line: Callable[[Any], str]
    limit: Callable[[argparse.Namespace], int] = lambda args: args.limit


LISTINGS: dict[tuple[str, str | None], Listing] = {
    ("facts", "list"): Listing(
        "ListFacts",
        "facts",
        lambda args, token: pb.ListFactsRequest(
            **_scope(args), kind=KINDS.get(args.kind or "", pb.KIND_UNSPECIFIED), page_size=1000, page_token=token
        ),
        fact_line,
        lambda args: 10**9,  # every fact of the entity
    ),
    ("candidates", "list"): Listing(
        "ListCandidates",
        "candidates",
        lambda args, token: pb.ListCandidatesRequest(
            agent_id=args.agent_id,
            entity_id=args.entity or "",
            status=STATUSES.get(args.status, pb.CANDIDATE_STATUS_UNSPECIFIED),
            any_status=args.status == "any",
            source=SOURCES.get(args.source or "", pb.CANDIDATE_SOURCE_UNSPECIFIED),
            page_size=_page_size(args),
            page_token=token,
        ),
        candidate_line,
    ),
    ("entities", None): Listing(
        "ListEntities",
        "entities",
        lambda args, token: pb.ListEntitiesRequest(
            agent_id=args.agent_id, query=args.query, page_size=_page_size(args), page_token=token
        ),
        entity_line,
    ),
    ("agents", None): Listing(
        "ListAgents",
        "agents",
        lambda args, token: pb.ListAgentsRequest(query=args.query, page_size=_page_size(args), page_token=token),
        agent_line,
    ),
}


def listing(what: Listing) -> Handler:
    """The handler of a list command: every page read, then JSON or one line per item ("no <items>" for none)."""

    def handler(call: Caller, args: argparse.Namespace, printer: Printer) -> None:
        fetch = lambda token: call(what.method, what.request(args, token))  # noqa: E731
        found = list(_pages(fetch, what.items, what.limit(args)))
        if printer.as_json:
            printer.json([as_dict(item) for item in found])
            return
        names = people_named(call, args.agent_id) if what.items == "candidates" and found else {}
        for item in found:
            printer.line(candidate_line(item, names.get(item.entity_id, "")) if names else what.line(item))
        if not found:
            printer.line(f"no {what.items}")

    return handler


def people_named(call: Caller, agent_id: str) -> dict[str, str]:
    """The names of the agent's people (the first 1000 listed), by entity id, for lines that name a person."""
    listed = call("ListEntities", pb.ListEntitiesRequest(agent_id=agent_id, page_size=1000)).entities
    return {e.entity_id: e.name for e in listed if e.name}


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
    printer.one(as_dict(fact), "added " + fact_line(fact))


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
    printer.one(as_dict(fact), "updated " + fact_line(fact))


def facts_delete(call: Caller, args: argparse.Namespace, printer: Printer) -> None:
    call("DeleteFact", pb.DeleteFactRequest(**_scope(args), fact_id=args.fact_id))
    printer.one({"deleted": args.fact_id}, f"deleted {args.fact_id}")


def candidates_resolve(call: Caller, args: argparse.Namespace, printer: Printer) -> None:
    response = call(
        "ResolveCandidate",
        pb.ResolveCandidateRequest(
            **_scope(args),
            candidate_id=args.candidate_id,
            resolution=RESOLUTIONS[args.action],
            agent_wide=getattr(args, "agent_wide", False),
        ),
    )
    if printer.as_json:
        printer.json(as_dict(response))
        return
    person = people_named(call, args.agent_id).get(response.candidate.entity_id, "")
    printer.line(f"{args.action}: {candidate_line(response.candidate, person)}")
    if response.HasField("fact"):
        printer.line("now: " + fact_line(response.fact))


def agent_named(call: Caller, name: str) -> str:
    found = call("ListAgents", pb.ListAgentsRequest(query=name, page_size=NAME_MATCHES)).agents
    return pick_agent(name, found)


def person_named(call: Caller, agent_id: str, name: str) -> str:
    found = call("ListEntities", pb.ListEntitiesRequest(agent_id=agent_id, query=name, page_size=NAME_MATCHES))
    return pick_person(name, found.entities)


def forget(call: Caller, args: argparse.Namespace, printer: Printer) -> None:
    if not args.yes:
        raise CommandLineError("forget erases everything about the entity and cannot be undone: add --yes")
    response = call("ForgetEntity", pb.ForgetEntityRequest(**_scope(args)))
    printer.one(
        as_dict(response),
        f"forgotten: {response.facts_deleted} facts, {response.candidates_deleted} candidates, "
        f"{response.relationships_deleted} relationships, {response.identities_deleted} identities, "
        f"{response.evaluations_deleted} evaluations",
    )


def export(call: Caller, args: argparse.Namespace, printer: Printer) -> None:
    """One document: a person's export, or the agent's (every person and shared subject it lists, one after
    the other: domain/backup.py)."""
    if args.entity_id:
        printer.json(export_person(call, args.agent_id, args.entity_id))
        return
    fetch = lambda token: call(  # noqa: E731
        "ListEntities", pb.ListEntitiesRequest(agent_id=args.agent_id, page_size=1000, page_token=token)
    )
    people = [export_person(call, args.agent_id, e.entity_id) for e in _pages(fetch, "entities", 10**9)]
    name = "".join(a.name for a in call("ListAgents", pb.ListAgentsRequest(query=args.agent_id, page_size=1)).agents)
    printer.json(agent_document(args.agent_id, name, people))


def export_person(call: Caller, agent_id: str, entity_id: str) -> dict[str, Any]:
    """A person's export, its pages joined (every list of a page continues the one before)."""
    response = call("ExportEntity", pb.ExportEntityRequest(agent_id=agent_id, entity_id=entity_id))
    document: dict[str, Any] = json.loads(response.json)
    while response.next_page_token:
        request = pb.ExportEntityRequest(agent_id=agent_id, entity_id=entity_id, page_token=response.next_page_token)
        response = call("ExportEntity", request)
        for key, value in json.loads(response.json).items():
            if isinstance(value, list):
                document[key].extend(value)
    return document


def agent_document(agent_id: str, name: str, people: list[dict[str, Any]]) -> dict[str, Any]:
    """An agent's export: its people's exports, wrapped."""
    return {
        "format": AGENT_FORMAT,
        "agent_id": agent_id,
        "name": name,
        "exported_at": datetime.now(UTC).isoformat(),
        "people": people,
    }


HANDLERS: dict[tuple[str, str | None], Handler] = {
    **{key: listing(what) for key, what in LISTINGS.items()},
    ("facts", "show"): facts_show,
    ("facts", "add"): facts_add,
    ("facts", "edit"): facts_edit,
    ("facts", "delete"): facts_delete,
    **{("candidates", name): candidates_resolve for name in RESOLUTIONS},
    ("forget", None): forget,
    ("export", None): export,
}
