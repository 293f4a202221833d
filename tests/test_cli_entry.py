"""The `factmemory` console script as a person runs it: a separate process, started from the virtual environment's
bin/ (where `pip install` puts it), against the running service (real gRPC, real PostgreSQL). People by name,
`import --agent <name>`, the address forms the plugin and the Python client take, an import file of the wrong
shape, the claim an accepted candidate replaced, and every failure in one line."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from uuid import uuid4

import pytest

from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service
from tests.support.fm import Person, add_durable, change, facts_reply
from tests.support.llm_stub import Reply, ScriptedLLM
from tests.test_cli_review import eliza_memory

CONSOLE = Path(sys.executable).parent / "factmemory"


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str

    def error_line(self) -> str:
        """The one line a failure prints (an import's audit log line aside: every run writes one)."""
        lines = [line for line in self.err.strip().splitlines() if "factmemory.audit" not in line]
        assert len(lines) == 1, self.err
        return lines[0]


async def factmemory(*argv: str, env: dict[str, str] | None = None) -> Run:
    if not CONSOLE.exists():
        pytest.fail(f"no console script at {CONSOLE}: install the package (pip install -e .)")
    process = await asyncio.create_subprocess_exec(
        str(CONSOLE),
        *argv,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "FACTMEMORY_REVIEWER": "ann", **(env or {})},
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout=180)
    assert process.returncode is not None
    return Run(process.returncode, out.decode(), err.decode())


async def learn(service: Service, llm: ScriptedLLM, person: Person, text: str, *ops: dict[str, object]) -> None:
    llm.on(text, Reply(facts_reply(*ops)))
    await service.stub.Evaluate(person.evaluate(text))


def agent_name() -> str:
    return f"Eliza {uuid4().hex[:8]}"


async def test_people_by_name_an_http_address_and_the_replaced_claim(service: Service, llm: ScriptedLLM) -> None:
    name = agent_name()
    ana = Person("Ana Lima")
    other_ana = Person("Ana Souza", agent_id=ana.agent_id)
    await service.stub.RegisterAgent(pb.RegisterAgentRequest(agent_id=ana.agent_id, name=name))
    await learn(service, llm, ana, "Hi, I'm Ana. I live in Lisbon.", add_durable("lives in Lisbon", "identity"))
    await learn(service, llm, ana, "We moved to Porto.", change("contradict", "D1", "moved", "lives in Porto"))
    await learn(service, llm, other_ana, "I'm a nurse", add_durable("works as a nurse", "business_role"))
    http = ["--address", f"http://127.0.0.1:{service.port}"]  # the form FACT_MEMORY_URL and connect() take

    listed = await factmemory("facts", "list", name, "Ana Lima", *http)
    assert listed.code == 0, listed.err
    assert "lives in Lisbon" in listed.out and "works as a nurse" not in listed.out

    ambiguous = await factmemory("facts", "list", name, "ana", *http)
    line = ambiguous.error_line()
    assert ambiguous.code == 2 and "'ana' matches 2 people" in line
    assert f"Ana Lima {ana.entity_id}" in line and f"Ana Souza {other_ana.entity_id}" in line
    unknown = await factmemory("facts", "list", name, "Bea", *http)
    assert unknown.code == 2 and "knows no one named 'Bea'" in unknown.error_line()

    queue = await factmemory("candidates", "list", name, "--entity", "Ana Lima", "--json", *http)
    assert queue.code == 0, queue.err
    [pending] = json.loads(queue.out)
    accepted = await factmemory("candidates", "accept", name, "Ana Lima", pending["id"], *http)
    assert accepted.code == 0, accepted.err
    after = await factmemory("candidates", "list", name, "--status", "any", *http)
    assert "accepted  'lives in Lisbon' -> 'lives in Porto'" in after.out, after.out  # the claim it replaced

    bare = await factmemory("facts", "list", ana.agent_id, ana.entity_id, "--address", f"127.0.0.1:{service.port}")
    assert bare.code == 0 and "lives in Porto" in bare.out
    # https:// means TLS: this service speaks plain text, so the handshake fails and says where it tried.
    tls = await factmemory("facts", "list", name, "Ana Lima", "--address", f"https://127.0.0.1:{service.port}")
    # (gRPC's native library adds its own line about the failed handshake; GRPC_VERBOSITY=ERROR hides it)
    [said] = [line for line in tls.err.splitlines() if line.startswith("factmemory:")]
    assert tls.code == 3 and said.startswith("factmemory: cannot reach the service") and "Tls handshake" in said
    wrong = await factmemory("facts", "list", name, "Ana Lima", "--address", "ftp://127.0.0.1:1")
    assert wrong.code == 2 and "--address takes host:port, http://host:port or https://host:port" in wrong.error_line()


async def test_import_takes_an_agent_name_and_refuses_a_file_of_the_wrong_shape(
    service: Service, pg_url: str, tmp_path: Path
) -> None:
    name = agent_name()
    kim, stranger = Person("Kim"), Person("Stranger")
    await service.stub.RegisterAgent(pb.RegisterAgentRequest(agent_id=kim.agent_id, name=name))
    env = {"FACTMEMORY_DATABASE_URL": pg_url, "FACTMEMORY_DATA_DIR": str(tmp_path)}
    export = tmp_path / "eliza.json"
    memories = [
        eliza_memory(kim.agent_id, kim.entity_id, "Lives in Oslo"),
        eliza_memory(stranger.agent_id, stranger.entity_id, "Likes tea"),
    ]
    export.write_text(json.dumps(memories))

    done = await factmemory("import", "--file", str(export), "--agent", name, "--json", env=env)
    assert done.code == 0, done.err
    report = json.loads(done.out)
    assert (report["imported"], report["skipped"]) == (1, 1)
    assert [f.claim for f in (await service.stub.ListFacts(kim.list_facts())).facts] == ["Lives in Oslo"]
    assert not (await service.stub.ListFacts(stranger.list_facts())).facts

    shapes = {
        "people.json": ({"people": [{"name": "Kim", "says": "hello"}]}, "none of its 1 records is an elizaOS fact"),
        "strings.json": (["Lives in Oslo"], "record 1: not a memory object but str"),
        "empty.json": ([], "it holds no memories"),
    }
    for file_name, (document, reason) in shapes.items():
        wrong = tmp_path / file_name
        wrong.write_text(json.dumps(document))
        refused = await factmemory("import", "--file", str(wrong), "--agent", name, env=env)
        assert refused.code == 1, (file_name, refused)
        line = refused.error_line()  # one line with the reason (and the run's audit line: error)
        assert line.startswith(f"factmemory: import failed: file {wrong}: ") and reason in line, line
    unknown = await factmemory("import", "--file", str(export), "--agent", "Nobody Here", env=env)
    assert unknown.code == 2 and "no agent is named 'Nobody Here'" in unknown.error_line()


async def test_options_before_the_command_and_review_items_that_name_the_person(
    service: Service, llm: ScriptedLLM
) -> None:
    name = agent_name()
    ana = Person("Ana Lima")
    await service.stub.RegisterAgent(pb.RegisterAgentRequest(agent_id=ana.agent_id, name=name))
    await learn(service, llm, ana, "Hi, I'm Ana. I live in Lisbon.", add_durable("lives in Lisbon", "identity"))
    await learn(service, llm, ana, "We moved to Porto.", change("contradict", "D1", "moved", "lives in Porto"))
    stranger = ana.evaluate("The wallet is 0xABC", world_id=str(uuid4()), speaker_roles=["NONE"])
    shared = add_durable("the team wallet is 0xABC", "identity") | {"scope": "shared"}
    llm.on(stranger.message.text, Reply(facts_reply(shared)))
    await service.stub.Evaluate(stranger)
    address = f"127.0.0.1:{service.port}"

    before = await factmemory("--address", address, "facts", "list", name, "Ana Lima")
    between = await factmemory("facts", "--address", address, "list", name, "Ana Lima")
    both = await factmemory("--log-level", "WARNING", "--json", "--address", address, "facts", "list", name, "Ana Lima")
    for run in (before, between):
        assert run.code == 0, run.err
        assert "lives in Lisbon" in run.out
    assert both.code == 0 and [f["claim"] for f in json.loads(both.out)] == ["lives in Lisbon"]

    queue = await factmemory("--address", address, "candidates", "list", name)
    assert queue.code == 0, queue.err
    lines = queue.out.splitlines()
    [contradiction] = [line for line in lines if "contradict" in line]
    assert "  Ana Lima  contradict  pending  'lives in Lisbon' -> 'lives in Porto'" in contradiction
    assert ana.entity_id not in contradiction
    [held] = [line for line in lines if "shared_claim" in line]
    assert "shared_claim  pending  shared claim 'the team wallet is 0xABC'" in held, held
    assert "-> 'the team wallet is 0xABC'" not in held
