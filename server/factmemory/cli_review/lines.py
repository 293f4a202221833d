"""How the review commands print: one line per fact, history entry, candidate, entity or agent, or JSON."""

from __future__ import annotations

import json
from typing import Any, TextIO

from google.protobuf.json_format import MessageToDict
from google.protobuf.message import Message

from factmemory.v1 import factmemory_pb2 as pb


class Printer:
    def __init__(self, out: TextIO, as_json: bool) -> None:
        self.out = out
        self.as_json = as_json

    def json(self, value: Any) -> None:
        print(json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False), file=self.out)

    def line(self, text: str) -> None:
        print(text, file=self.out)

    def one(self, value: Any, text: str) -> None:
        """One result: `value` as JSON, or `text` as a line."""
        self.json(value) if self.as_json else self.line(text)


def as_dict(message: Message) -> dict[str, Any]:
    return MessageToDict(message, preserving_proto_field_name=True)


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


def candidate_line(candidate: pb.Candidate, person: str = "") -> str:
    """One review item: who it is about (their name when known), its source and status, and what it would change
    (a shared claim is one claim waiting to be shared, not a change of one claim into another)."""
    status = pb.CandidateStatus.Name(candidate.status).removeprefix("CANDIDATE_STATUS_").lower()
    who = person or f"entity {candidate.entity_id}"
    if candidate.source == "shared_claim":
        change = f"shared claim {candidate.proposed_claim!r}"
    else:
        change = f"{replaced_claim(candidate)!r} -> {candidate.proposed_claim!r}"
    return f"{candidate.id}  {who}  {candidate.source}  {status}  {change}  ({candidate.reason})"


def replaced_claim(candidate: pb.Candidate) -> str:
    """The claim the candidate disputed: once an accept (or merge) gave the fact the proposed claim, the fact's
    claim before it (its latest earlier claim), not the proposed claim twice."""
    if not candidate.HasField("fact"):
        return "(fact gone)"
    fact = candidate.fact
    resolved = candidate.status != pb.CANDIDATE_STATUS_PENDING
    if resolved and fact.claim == candidate.proposed_claim and fact.previous_claims:
        return fact.previous_claims[-1]
    return fact.claim


# What an entity is, as its line says: a person, or one of a community's shared subjects (a named world: its name,
# then its id).
KIND_WORDS = {
    pb.ENTITY_KIND_WORLD: "community: {named}world {world}",
    pb.ENTITY_KIND_AGENT_WIDE: "community: agent-wide",
    pb.ENTITY_KIND_HELD: "community: held for review, {named}world {world}",
}


def entity_line(entity: pb.EntitySummary) -> str:
    community = KIND_WORDS.get(entity.kind)
    named = f"{entity.world_name}, " if entity.world_name else ""
    name = (
        community.format(named=named, world=entity.world_id) if community else "person: " + (entity.name or "(no name)")
    )
    return (
        f"{entity.entity_id}  {name}  durable {entity.durable_facts}  current {entity.current_facts}  "
        f"pending {entity.pending_candidates}  last {_when(entity.last_activity)}"
    )


def agent_line(agent: pb.AgentSummary) -> str:
    return (
        f"{agent.agent_id}  {agent.name or '(no name)'}  people={agent.entities} communities={agent.communities} "
        f"facts={agent.facts} "
        f"pending={agent.pending_candidates}  last={_when(agent.last_activity)}"
    )
