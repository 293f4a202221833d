"""Export -> import is a round trip: what `factmemory export` writes, `factmemory import --file` stores back (the
real console script in processes of their own, the real service over gRPC, real PostgreSQL): a person and a whole
agent, into the same database or another one; a second import adds nothing; a person forgotten since the export is
not restored unless the operator says so; errors name the formats import reads."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

from factmemory.domain.backup import moved, read_backup
from factmemory.domain.shared import held_subject, world_subject
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service, new_database
from tests.support.fm import Person, add_durable, change, facts_reply, new_id
from tests.support.llm_stub import Reply, ScriptedLLM
from tests.support.serve import REPO

SCRIPT = Path(sys.executable).with_name("factmemory")
REVIEWER = (("x-factmemory-reviewer", "restore-test"),)


def environment(database: str, tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FACTMEMORY_", "OPENAI_"))}
    env.update(FACTMEMORY_DATABASE_URL=database, FACTMEMORY_DATA_DIR=str(tmp), FACTMEMORY_EMBEDDING_WORKERS="1")
    return env


def cli_sync(*args: str, database: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    env = environment(database, tmp)
    return subprocess.run([str(SCRIPT), *args], env=env, cwd=REPO, capture_output=True, text=True, timeout=600)


async def cli(*args: str, database: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    """The console script in a process of its own, while this event loop keeps serving the service it may call."""
    proc = await asyncio.create_subprocess_exec(
        str(SCRIPT), *args, env=environment(database, tmp), cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    out, err = await asyncio.wait_for(proc.communicate(), 600)
    assert proc.returncode is not None
    return subprocess.CompletedProcess(list(args), proc.returncode, out.decode(), err.decode())


async def learn(service: Service, llm: ScriptedLLM, request: pb.EvaluateRequest, reply: dict[str, Any]) -> Any:
    llm.on(request.message.text, Reply(reply))
    return await service.stub.Evaluate(request)


async def sam_with_everything(service: Service, llm: ScriptedLLM, agent_name: str) -> tuple[Person, Person]:
    """Sam (facts, a contradiction waiting for review, a relationship, an identity) and his sister Ana."""
    sam = Person("Sam")
    ana = Person("Ana", agent_id=sam.agent_id)
    await service.stub.RegisterAgent(pb.RegisterAgentRequest(agent_id=sam.agent_id, name=agent_name))
    first = facts_reply(add_durable("lives in Berlin", "identity"), add_durable("allergic to penicillin", "health"))
    first["relationships"] = [
        {"source_entity_id": sam.entity_id, "target_entity_id": ana.entity_id, "tags": ["sister"]}
    ]
    first["identities"] = [{"entity_id": sam.entity_id, "platform": "github", "handle": "sam-b", "confidence": 0.9}]
    room = [pb.RoomEntity(id=sam.entity_id, names=["Sam"]), pb.RoomEntity(id=ana.entity_id, names=["Ana"])]
    said = "I live in Berlin, I'm allergic to penicillin, Ana is my sister"
    await learn(service, llm, sam.evaluate(said, room_entities=room), first)
    await learn(
        service,
        llm,
        sam.evaluate("I might be moving to Tokyo"),
        facts_reply(change("contradict", "D1", "says he moves", proposed_claim="lives in Tokyo")),
    )
    await learn(
        service, llm, ana.evaluate("I play the cello"), facts_reply(add_durable("plays the cello", "preference"))
    )
    return sam, ana


def sections(document: dict[str, Any]) -> dict[str, Any]:
    """What a restore must bring back, comparable across databases (the `imported` history entries it adds apart)."""
    history = [h for h in document["history"] if h["action"] != "imported"]
    return {
        "facts": sorted(document["facts"], key=lambda f: f["id"]),
        "candidates": sorted(document["candidates"], key=lambda c: c["id"]),
        "relationships": document["relationships"],
        "identities": document["identities"],
        "evaluations": sorted(document["evaluations"], key=lambda e: e["message_id"]),
        "history": sorted(history, key=lambda h: h["id"]),
        "name": document["name"],
    }


async def test_a_persons_export_restores_into_another_database_once(
    service: Service, llm: ScriptedLLM, pg_url: str, tmp_path: Path
) -> None:
    sam, _ = await sam_with_everything(service, llm, "Eliza-" + new_id()[:8])
    agent = (await service.stub.ListAgents(pb.ListAgentsRequest(query=sam.agent_id))).agents[0].name
    address = f"127.0.0.1:{service.port}"
    exported = await cli("export", agent, "Sam", "--address", address, database=pg_url, tmp=tmp_path)
    assert exported.returncode == 0, exported.stderr
    (tmp_path / "sam.json").write_text(exported.stdout)
    original = json.loads(exported.stdout)
    assert len(original["facts"]) == 2 and len(original["candidates"]) == 1
    assert original["identities"] and original["relationships"] and original["name"] == "Sam"

    async with new_database(pg_url, "restore") as other:
        first = await cli(
            "import", "--file", str(tmp_path / "sam.json"), "--agent", agent, database=other, tmp=tmp_path
        )
        second = await cli(
            "import", "--file", str(tmp_path / "sam.json"), "--agent", agent, database=other, tmp=tmp_path
        )
        again = await cli("export", sam.agent_id, sam.entity_id, "--direct", database=other, tmp=tmp_path)

    assert first.returncode == 0, first.stderr
    assert first.stderr == ""  # one line of outcome, nothing before it
    assert first.stdout.splitlines() == [first.stdout.strip()]
    assert first.stdout.startswith("restored 1 person of 1: 2 facts (0 already there), 1 review items, 1 relationships")
    assert second.returncode == 0 and second.stdout.startswith(
        "restored 1 person of 1: 0 facts (2 already there), 0 rev"
    )
    restored = json.loads(again.stdout)
    assert sections(restored) == sections(original)
    assert any(h["action"] == "imported" for h in restored["history"])  # the restore is in each fact's history


async def test_a_forgotten_person_is_restored_only_on_purpose(
    service: Service, llm: ScriptedLLM, pg_url: str, tmp_path: Path
) -> None:
    sam, _ = await sam_with_everything(service, llm, "Eliza")
    address = f"127.0.0.1:{service.port}"
    exported = await cli("export", sam.agent_id, sam.entity_id, "--address", address, database=pg_url, tmp=tmp_path)
    (tmp_path / "sam.json").write_text(exported.stdout)
    await service.stub.ForgetEntity(
        pb.ForgetEntityRequest(agent_id=sam.agent_id, entity_id=sam.entity_id), metadata=REVIEWER
    )
    count = "SELECT count(*) FROM facts WHERE agent_id = $1 AND entity_id = $2"
    scope = (UUID(sam.agent_id), UUID(sam.entity_id))

    by_accident = await cli("import", "--file", str(tmp_path / "sam.json"), database=pg_url, tmp=tmp_path)
    assert by_accident.returncode == 0, by_accident.stderr
    assert "restored 0 people of 1" in by_accident.stdout
    assert "not restored, forgotten since the export: Sam (--restore-forgotten restores them on purpose)" in (
        by_accident.stdout
    )
    assert await service.pool.fetchval(count, *scope) == 0

    on_purpose = await cli(
        "import", "--file", str(tmp_path / "sam.json"), "--restore-forgotten", database=pg_url, tmp=tmp_path
    )
    twice = await cli(
        "import", "--file", str(tmp_path / "sam.json"), "--restore-forgotten", database=pg_url, tmp=tmp_path
    )
    assert on_purpose.stdout.startswith("restored 1 person of 1: 2 facts (0 already there)"), on_purpose.stderr
    assert twice.stdout.startswith("restored 1 person of 1: 0 facts (2 already there), 0 review items")
    assert await service.pool.fetchval(count, *scope) == 2
    facts = (await service.stub.ListFacts(sam.list_facts())).facts
    assert sorted(f.claim for f in facts) == ["allergic to penicillin", "lives in Berlin"]
    pending = await service.stub.ListCandidates(pb.ListCandidatesRequest(agent_id=sam.agent_id))
    assert [c.proposed_claim for c in pending.candidates] == ["lives in Tokyo"]
    # The evaluations came back too: the same message again is a replay, not a second lesson.
    llm_calls = len(llm.requests)
    replay = await service.stub.Evaluate(sam.evaluate("I might be moving to Tokyo", message_id=evaluated(exported)))
    assert replay.replayed and len(llm.requests) == llm_calls


def evaluated(exported: subprocess.CompletedProcess[str]) -> str:
    """The id of the message that raised the contradiction, from the export."""
    document = json.loads(exported.stdout)
    return str(next(e["message_id"] for e in document["evaluations"] if e["result"]["ops"][0]["op"] == "contradict"))


async def test_a_whole_agent_with_a_worlds_shared_facts_restores_into_another_database(
    service: Service, llm: ScriptedLLM, pg_url: str, tmp_path: Path
) -> None:
    sam, ana = await sam_with_everything(service, llm, "Eliza-" + new_id()[:8])
    world = new_id()
    teach = sam.evaluate("The hackathon moved to Friday", world_id=world, speaker_roles=["OWNER"])
    await learn(
        service,
        llm,
        teach,
        facts_reply(add_durable("the hackathon moved to Friday", "life_event") | {"scope": "shared"}),
    )
    stranger = ana.evaluate("The wallet is 0xABC", world_id=world, speaker_roles=["NONE"])
    await learn(
        service, llm, stranger, facts_reply(add_durable("the wallet is 0xABC", "identity") | {"scope": "shared"})
    )
    address = f"127.0.0.1:{service.port}"
    exported = await cli("export", sam.agent_id, "--address", address, database=pg_url, tmp=tmp_path)
    assert exported.returncode == 0, exported.stderr
    (tmp_path / "eliza.json").write_text(exported.stdout)
    document = json.loads(exported.stdout)
    subject = str(world_subject(UUID(sam.agent_id), UUID(world)).subject_id)
    held = str(held_subject(UUID(sam.agent_id), UUID(world)).subject_id)
    people = {p["entity_id"]: p for p in document["people"]}
    assert {sam.entity_id, ana.entity_id, subject, held} <= set(people)

    async with new_database(pg_url, "restore_agent") as other:
        first = await cli("import", "--file", str(tmp_path / "eliza.json"), database=other, tmp=tmp_path)
        second = await cli("import", "--file", str(tmp_path / "eliza.json"), database=other, tmp=tmp_path)
        again = await cli("export", sam.agent_id, "--direct", database=other, tmp=tmp_path)
        by_name = await cli("export", document["name"], "Sam", "--direct", database=other, tmp=tmp_path)
    assert by_name.returncode == 0, by_name.stderr  # the new database learnt the agent's name with the restore
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith(f"restored {len(people)} people of {len(people)}: ")
    assert " facts (0 already there)" in first.stdout
    assert ": 0 facts (" in second.stdout and "0 review items, 0 relationships, 0 identities, 0 evaluations" in (
        second.stdout
    )
    restored = {p["entity_id"]: p for p in json.loads(again.stdout)["people"]}
    assert set(restored) == set(people)
    for entity, person in people.items():
        assert sections(restored[entity]) == sections(person), entity
        assert restored[entity]["shared"] == person["shared"]
    assert [f["claim"] for f in restored[subject]["facts"]] == ["the hackathon moved to Friday"]
    assert [c["source"] for c in restored[held]["candidates"]] == ["shared_claim"]


def test_an_import_error_names_the_formats_it_reads_and_what_the_file_looked_like(pg_url: str, tmp_path: Path) -> None:
    strings = tmp_path / "notes.json"
    strings.write_text(json.dumps(["Sam lives in Berlin", "Sam is allergic to penicillin"]))
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"format": "factmemory-export", "agent_id": new_id(), "entity_id": new_id(),
                                  "facts": [{"id": "x"}]}))  # fmt: skip
    messages = tmp_path / "messages.json"
    messages.write_text(json.dumps([{"id": new_id(), "type": "messages", "content": {"text": "hi"}}]))

    for path, looked in (
        (strings, "a JSON list of 2 items"),
        (broken, "a FactMemory export, but facts.0."),
        (messages, "elizaOS memories, but none of its 1 records is an elizaOS fact memory (record 1: type is"),
    ):
        result = cli_sync("import", "--file", str(path), database=pg_url, tmp=tmp_path)
        assert result.returncode == 1 and result.stdout == ""
        (line,) = result.stderr.splitlines()
        assert line.startswith(f"factmemory: import failed: file {path}: import reads a FactMemory export (")
        assert 'or elizaOS fact memories (a JSON list, {"memories": [...]}, or JSON lines)' in line
        assert f"this looks like {looked}" in line, line


def test_a_shared_subject_moved_to_another_agent_is_that_agents_own() -> None:
    source, target, world = uuid4(), uuid4(), uuid4()
    subject = world_subject(source, world).subject_id
    document = {
        "format": "factmemory-export",
        "agent_id": str(source),
        "entity_id": str(subject),
        "forget_epoch": 2,
        "shared": {"scope": "world", "world_id": str(world)},
        "facts": [],
    }
    (backup,) = read_backup(document)
    there = moved(backup, target)
    assert there.entity_id == world_subject(target, world).subject_id and there.agent_id == target
    assert there.forget_epoch == 0  # any forget by the target agent keeps the subject out
    assert moved(backup, source) is backup
