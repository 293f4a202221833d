"""Recall on real conversations: LoCoMo (Maharana et al., ACL 2024, CC BY-NC 4.0), replayed as the outside check does.

The data is never in the repository: it is read from `../shared/data/locomo-tune.json` beside the checkout (or
`--data PATH`). Its `replay` field is the protocol:

* one agent per conversation, one person per speaker; every turn is a message (its time, speaker, text) sent to
  Evaluate over gRPC with the previous 10 messages as recent ones; the scripted model answers exactly that turn's ops;
* each question is one Provide for the person it is about (the question from that person's entity id, the name
  "asker", at `asked_at`), now = `asked_at`, called as the elizaOS plugin calls it by default (one budget of 12),
  in each of four ways (`--modes`):
  - `alone`: the question as the only recent message (the replay file's protocol);
  - `after 4`: the live turn in a room: the conversation's last 4 messages (each with its speaker's entity id and
    its time), then the question;
  - `after 1`: the conversation's last message, then the question;
  - `follow-up`: the conversation's last 3 messages, the question, then a follow-up leaning on it ("When was
    that?", chosen by the question's first words: `follow_up`), so that context that helps is measured too;
* a hit: a returned fact cites one of the question's evidence turns; recall@12 = hits / questions; the ceiling:
  questions whose evidence any stored fact of that person cites.

Beside Provide, over the same stored facts: cosine top-12, cosine 6 + 6 (the seed's fixed split) and mem0 2.2.1's
search(limit=12) as designed and with its entity boost off (recall/locomo_mem0.py).

    PYTHONPATH=tools .venv/bin/python -m factmemory_tools.recall.locomo --keep-db /tmp/locomo-db [--reuse] [--no-mem0]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
import uuid
from collections.abc import Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from factmemory.settings import Settings
from factmemory.testing.llm import Reply, ScriptedLLM
from factmemory.testing.service import bench_settings, serve_in_process
from factmemory.v1 import factmemory_pb2 as pb
from factmemory.v1 import factmemory_pb2_grpc as pb_grpc
from factmemory_tools.plugin_call import PLUGIN_TOTAL
from factmemory_tools.recall.run import database, ts

REPO = Path(__file__).resolve().parents[3]
DATA = REPO.parent / "shared" / "data" / "locomo-tune.json"
RECENT = 10
TOP = 12
HALF = 6
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
NAMESPACE = uuid.UUID("5b0c4d6e-1f2a-4b3c-9d8e-7f6a5b4c3d2e")

# Every live fact of one agent, with the messages it cites and its vector (cosine rankings, mem0, the ceiling).
FACTS = """
SELECT id, entity_id, kind, category, claim, confidence, evidence_message_ids, embedding, created_at, valid_at
  FROM facts
 WHERE agent_id = $1 AND archived_at IS NULL
"""
COSINE = """
SELECT id, kind FROM facts
 WHERE agent_id = $1 AND entity_id = $2 AND archived_at IS NULL
 ORDER BY embedding <=> $3, id
 LIMIT $4
"""


def agent_of(conversation: dict[str, Any]) -> uuid.UUID:
    """A stable agent per conversation, so a kept database can be asked again (--reuse)."""
    return uuid.uuid5(NAMESPACE, conversation["id"])


def person(agent: uuid.UUID, speaker: str) -> uuid.UUID:
    return uuid.uuid5(agent, "speaker/" + speaker)


def message_id(agent: uuid.UUID, dia_id: str) -> str:
    return str(uuid.uuid5(agent, "turn/" + dia_id))


def reply(ops: Sequence[dict[str, Any]]) -> dict[str, Any]:
    return {
        "facts": {"ops": list(ops)},
        "relationships": [],
        "identities": [],
        "success": {"completed": True, "reason": "scripted"},
    }


@dataclass
class Tally:
    """Hits per conversation and per category for one ranking."""

    hits: dict[str, list[int]] = field(default_factory=dict)  # conversation -> 0/1 per question
    by_category: dict[int, list[int]] = field(default_factory=dict)

    def add(self, conversation: str, category: int, hit: bool) -> None:
        self.hits.setdefault(conversation, []).append(int(hit))
        self.by_category.setdefault(category, []).append(int(hit))

    def overall(self) -> float:
        every = [h for hits in self.hits.values() for h in hits]
        return sum(every) / len(every) if every else float("nan")

    def summary(self) -> dict[str, Any]:
        return {
            "recall@12": self.overall(),
            "conversations": {c: sum(h) / len(h) for c, h in sorted(self.hits.items())},
            "categories": {CATEGORIES[c]: sum(h) / len(h) for c, h in sorted(self.by_category.items())},
        }


@dataclass
class Question:
    conversation: str
    agent: uuid.UUID
    entity: uuid.UUID
    text: str
    category: int
    evidence: frozenset[str]  # message ids
    asked_at: str
    vector: list[float] = field(default_factory=list)
    last: tuple[pb.ChatMessage, ...] = ()  # the conversation's last LIVE_BEFORE messages, oldest first


# The live turn: the plugin sends the room's recent messages with the current one last (client_ts/src/request.ts).
LIVE_BEFORE = 4
# The follow-up set: the question, then a follow-up leaning on it (chosen by the question's first words).
FOLLOW_UPS = (
    ("when", "When was that?"),
    ("where", "Where was that?"),
    ("who", "Who was that?"),
    ("why", "Why was that?"),
    ("how long", "How long was that?"),
    ("how many", "How many was it?"),
    ("how", "How did that go?"),
    ("which", "Which one was it?"),
    ("what", "What was it again?"),
)
FOLLOW_UP_DEFAULT = "Do you remember that?"


def follow_up(question: str) -> str:
    """A short follow-up with no topic of its own, as a person asks after the question: "When was that?"."""
    lower = question.strip().lower()
    return next((f for start, f in FOLLOW_UPS if lower.startswith(start)), FOLLOW_UP_DEFAULT)


async def replay(stub: pb_grpc.FactMemoryServiceStub, llm: ScriptedLLM, conversation: dict[str, Any]) -> None:
    """Every turn through Evaluate, in order; the scripted model answers that turn's ops (one at a time: the model
    is shared)."""
    agent = agent_of(conversation)
    room = str(uuid.uuid5(agent, "room"))
    messages: list[pb.ChatMessage] = []
    for turn in conversation["turns"]:
        entity = str(person(agent, turn["speaker"]))
        message = pb.ChatMessage(
            id=message_id(agent, turn["dia_id"]),
            entity_id=entity,
            name=turn["speaker"],
            text=turn["text"],
            created_at=ts(turn["time"]),
        )
        llm.default = Reply(reply(turn["ops"]))
        await stub.Evaluate(
            pb.EvaluateRequest(
                agent_id=str(agent),
                entity_id=entity,
                room_id=room,
                message=message,
                recent_messages=messages[-RECENT:],
                did_respond=True,
            )
        )
        messages.append(message)


def last_messages(conversation: dict[str, Any], count: int) -> tuple[pb.ChatMessage, ...]:
    """The conversation's last `count` messages, each with its speaker (that person's entity id) and time."""
    agent = agent_of(conversation)
    return tuple(
        pb.ChatMessage(
            id=message_id(agent, turn["dia_id"]),
            entity_id=str(person(agent, turn["speaker"])),
            name=turn["speaker"],
            text=turn["text"],
            created_at=ts(turn["time"]),
        )
        for turn in conversation["turns"][-count:]
    )


def questions(data: dict[str, Any]) -> list[Question]:
    out = []
    for conversation in data["conversations"]:
        agent = agent_of(conversation)
        last = last_messages(conversation, LIVE_BEFORE)
        for q in conversation["questions"]:
            out.append(
                Question(
                    conversation=conversation["id"],
                    agent=agent,
                    entity=person(agent, q["about"]),
                    text=q["question"],
                    category=int(q["category"]),
                    evidence=frozenset(message_id(agent, e) for e in q["evidence"]),
                    asked_at=conversation["asked_at"],
                    last=last,
                )
            )
    return out


def asked(q: Question, text: str) -> pb.ChatMessage:
    """A message of the person the question is about, at asked_at."""
    return pb.ChatMessage(
        id=str(uuid.uuid5(q.agent, "question/" + text)),
        entity_id=str(q.entity),
        name="asker",
        text=text,
        created_at=ts(q.asked_at),
    )


# The ways a question reaches Provide: alone (every figure before the live turn), after the conversation's last
# messages (the plugin's call in a room), and the follow-up set (the question, then a follow-up leaning on it).
ALONE = "alone"
AFTER_1 = "after 1"
AFTER_4 = "after 4"
FOLLOW_UP = "follow-up"
MODES = (ALONE, AFTER_4, AFTER_1, FOLLOW_UP)
MODE_NAMES = {
    ALONE: "the question alone",
    AFTER_1: "after the last message",
    AFTER_4: f"after the last {LIVE_BEFORE} messages",
    FOLLOW_UP: "follow-up (the question, then a follow-up)",
}


def turn_messages(q: Question, mode: str) -> list[pb.ChatMessage]:
    """The recent messages of one question's turn, oldest first, the current one last."""
    if mode == ALONE:
        return [asked(q, q.text)]
    if mode == AFTER_1:
        return [*q.last[-1:], asked(q, q.text)]
    if mode == AFTER_4:
        return [*q.last, asked(q, q.text)]
    return [*q.last[-(LIVE_BEFORE - 1) :], asked(q, q.text), asked(q, follow_up(q.text))]


def plugin_request(q: Question, total: int = PLUGIN_TOTAL, mode: str = ALONE) -> pb.ProvideRequest:
    """Provide as the elizaOS plugin calls it by default (client_ts/src/request.ts: no per-section limits, one
    shared budget of 12, the sender's name, the room's recent messages with the current one last)."""
    return pb.ProvideRequest(
        agent_id=str(q.agent),
        entity_id=str(q.entity),
        recent_messages=turn_messages(q, mode),
        subject_name="asker",
        now=ts(q.asked_at),
        total_limit=total,
    )


class Facts:
    """The stored facts of every conversation: which messages each cites."""

    def __init__(self, rows: Sequence[Any]) -> None:
        self.rows = list(rows)
        self.cites = {str(r["id"]): frozenset(r["evidence_message_ids"]) for r in rows}
        self.by_entity: dict[uuid.UUID, set[str]] = {}
        for r in rows:
            self.by_entity.setdefault(r["entity_id"], set()).update(r["evidence_message_ids"])

    def hit(self, q: Question, ids: Sequence[str]) -> bool:
        return any(self.cites.get(i, frozenset()) & q.evidence for i in ids[:TOP])

    def reachable(self, q: Question) -> bool:
        return bool(self.by_entity.get(q.entity, set()) & q.evidence)


async def cosine_rankings(conn: Any, q: Question) -> tuple[list[str], list[str]]:
    """Cosine top-12 and cosine 6 durable + 6 current over the person's live facts (exact scan)."""
    rows = await conn.fetch(COSINE, q.agent, q.entity, q.vector, 10_000)
    top = [str(r["id"]) for r in rows[:TOP]]
    durable = [str(r["id"]) for r in rows if r["kind"] == "durable"][:HALF]
    current = [str(r["id"]) for r in rows if r["kind"] == "current"][:HALF]
    return top, durable + current


@dataclass(frozen=True)
class Options:
    data: Path = DATA
    keep: Path | None = None
    reuse: bool = False
    url: str | None = None
    mem0: Path | None = None  # mem0's interpreter (vs_mem0's virtual environment); None: no mem0 rows
    only: str = ""  # one conversation id
    dump: Path | None = None  # write the stored facts and every question (its vector, what Provide showed) here
    total: int = PLUGIN_TOTAL  # ProvideRequest.total_limit; 0: fixed 6 + 6 sections (the call before the plugin's)
    modes: tuple[str, ...] = MODES  # how each question reaches Provide (the first: the one --dump records)


async def run(options: Options) -> dict[str, Any]:
    import asyncpg
    from pgvector.asyncpg import register_vector

    data = json.loads(options.data.read_text(encoding="utf-8"))
    if options.only:
        data["conversations"] = [c for c in data["conversations"] if c["id"] == options.only]
    async with AsyncExitStack() as stack:
        url = options.url if options.url is not None else await stack.enter_async_context(database(options.keep))
        llm = stack.enter_context(ScriptedLLM())
        deps, stub = await serve_in_process(stack, bench_settings(Settings(), url, llm.base_url))
        conn = await asyncpg.connect(url)
        stack.push_async_callback(conn.close)
        await register_vector(conn)
        for conversation in data["conversations"]:
            agent = agent_of(conversation)
            stored = await conn.fetchval("SELECT count(*) FROM facts WHERE agent_id = $1", agent)
            if stored and options.reuse:
                continue
            if stored:
                raise RuntimeError(f"{conversation['id']} is already stored: pass --reuse, or a new --keep-db")
            started = time.perf_counter()
            await replay(stub, llm, conversation)
            print(f"{conversation['id']}: replayed in {time.perf_counter() - started:.0f} s", file=sys.stderr)
        rows = [r for c in data["conversations"] for r in await conn.fetch(FACTS, agent_of(c))]
        facts = Facts(rows)
        asked = questions(data)
        shown_ids: list[list[str]] = []
        provide = "Provide" if options.total == PLUGIN_TOTAL else f"Provide (total_limit {options.total})"
        names = {mode: f"{provide}, {MODE_NAMES[mode]}" for mode in options.modes}
        tallies = {name: Tally() for name in (*names.values(), "cosine top-12", "cosine 6+6", "ceiling")}
        for q in asked:
            q.vector = [float(v) for v in (await deps.embedder.queries([q.text]))[0]]
            for mode, name in names.items():
                response = await stub.Provide(plugin_request(q, options.total, mode))
                shown = sorted([*response.durable, *response.current], key=lambda s: (-s.score, s.fact.id))
                tallies[name].add(q.conversation, q.category, facts.hit(q, [s.fact.id for s in shown]))
                if mode == options.modes[0]:
                    shown_ids.append([s.fact.id for s in shown])
            top, halves = await cosine_rankings(conn, q)
            tallies["cosine top-12"].add(q.conversation, q.category, facts.hit(q, top))
            tallies["cosine 6+6"].add(q.conversation, q.category, facts.hit(q, halves))
            tallies["ceiling"].add(q.conversation, q.category, facts.reachable(q))
        if options.dump is not None:
            write_dump(options.dump, rows, asked, shown_ids)
        if options.mem0 is not None:
            from factmemory_tools.recall.locomo_mem0 import mem0_rankings

            ranked = await asyncio.to_thread(mem0_rankings, options.mem0, url, options.keep, rows, asked)
            for name, ids_per_question in ranked.items():
                tally = tallies.setdefault(name, Tally())
                for q, ids in zip(asked, ids_per_question, strict=True):
                    tally.add(q.conversation, q.category, facts.hit(q, ids))
    return {"questions": len(asked), "facts": len(rows), "rankings": {n: t.summary() for n, t in tallies.items()}}


def write_dump(path: Path, rows: Sequence[Any], asked: Sequence[Question], shown: Sequence[Sequence[str]]) -> None:
    """Everything a ranking experiment needs, without the service: the facts and the questions (see docs/recall.md)."""
    facts = [
        {
            "id": str(r["id"]),
            "entity": str(r["entity_id"]),
            "kind": r["kind"],
            "category": r["category"],
            "claim": r["claim"],
            "confidence": r["confidence"],
            "evidence": list(r["evidence_message_ids"]),
            "vector": [float(v) for v in r["embedding"].to_list()],
            "at": (r["valid_at"] or r["created_at"]).isoformat(),
        }
        for r in rows
    ]
    questions = [
        {
            "conversation": q.conversation,
            "entity": str(q.entity),
            "text": q.text,
            "category": q.category,
            "evidence": sorted(q.evidence),
            "asked_at": q.asked_at,
            "vector": q.vector,
            "provide": list(ids),
        }
        for q, ids in zip(asked, shown, strict=True)
    ]
    path.write_text(json.dumps({"facts": facts, "questions": questions}), encoding="utf-8")


def table(result: dict[str, Any]) -> str:
    rankings = result["rankings"]
    first = next(iter(rankings.values()))
    conversations, categories = list(first["conversations"]), list(first["categories"])
    lines = [
        f"{result['facts']} stored facts, {result['questions']} questions",
        "",
        "| ranking | recall@12 | " + " | ".join(conversations) + " |",
        "|---|---:|" + "---:|" * len(conversations),
    ]
    for name, s in rankings.items():
        cells = " | ".join(f"{s['conversations'][c]:.3f}" for c in conversations)
        lines.append(f"| {name} | {s['recall@12']:.3f} | {cells} |")
    lines += ["", "| ranking | " + " | ".join(categories) + " |", "|---|" + "---:|" * len(categories)]
    for name, s in rankings.items():
        lines.append(f"| {name} | " + " | ".join(f"{s['categories'][c]:.3f}" for c in categories) + " |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="factmemory_tools.recall.locomo", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=DATA, help="the LoCoMo replay file (default: %(default)s)")
    parser.add_argument("--keep-db", type=Path, help="keep the embedded database in this folder")
    parser.add_argument("--reuse", action="store_true", help="with --keep-db: ask again without replaying")
    parser.add_argument("--database-url", help="use this PostgreSQL (pgvector) instead of an embedded one")
    parser.add_argument("--mem0-venv", type=Path, default=REPO / ".venv-mem0", help="mem0's virtual environment")
    parser.add_argument("--no-mem0", action="store_true", help="leave out mem0's rows")
    parser.add_argument("--only", default="", help="one conversation id (e.g. conv-26)")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON here")
    parser.add_argument("--total-limit", type=int, default=PLUGIN_TOTAL, help="0: fixed 6 + 6 sections")
    parser.add_argument("--dump", type=Path, help="write the stored facts and the questions here (experiments)")
    parser.add_argument(
        "--modes",
        default=",".join(MODES),
        help="how each question reaches Provide, comma-separated, from: " + ", ".join(MODES) + " (default: all)",
    )
    args = parser.parse_args(argv)
    mem0 = None if args.no_mem0 else args.mem0_venv / "bin" / "python"
    modes = tuple(m.strip() for m in args.modes.split(",") if m.strip())
    if not modes or any(m not in MODES for m in modes):
        parser.error(f"--modes: each of {', '.join(MODES)}")
    options = Options(
        args.data, args.keep_db, args.reuse, args.database_url, mem0, args.only, args.dump, args.total_limit, modes
    )
    result = asyncio.run(run(options))
    print(table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
