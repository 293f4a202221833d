"""The review command line against a running service (real gRPC, real PostgreSQL), and the legacy import."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import asyncpg
import pytest

from factmemory.cli import main
from factmemory.domain.prompts import FACT_LINE
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service, make_settings, start_service
from tests.support.fm import Person, add_durable, change, facts_reply
from tests.support.llm_stub import Reply, ScriptedLLM


class Result:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    def json(self) -> Any:
        return json.loads(self.out)


async def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> Result:
    """Runs `factmemory ...` in a thread (its gRPC calls are blocking; the service runs on this loop)."""
    capsys.readouterr()
    code = await asyncio.to_thread(main, list(argv))
    captured = capsys.readouterr()
    return Result(code, captured.out, captured.err)


def at(service: Service) -> list[str]:
    return ["--address", f"127.0.0.1:{service.port}", "--reviewer", "ann"]


async def learn(
    service: Service, llm: ScriptedLLM, person: Person, text: str, *ops: dict[str, object]
) -> pb.EvaluateResponse:
    llm.on(text, Reply(facts_reply(*ops)))
    response: pb.EvaluateResponse = await service.stub.Evaluate(person.evaluate(text))
    return response


async def test_review_workflow_from_the_command_line(
    service: Service, llm: ScriptedLLM, capsys: pytest.CaptureFixture[str]
) -> None:
    person = Person("Sam Rivers")
    agent, entity = person.agent_id, person.entity_id
    await learn(service, llm, person, "I live in Berlin", add_durable("lives in Berlin", "identity"))
    await learn(service, llm, person, "moved to Tokyo", change("contradict", "D1", "moved", "lives in Tokyo"))

    entities = await cli(capsys, "entities", agent, *at(service))
    assert entities.code == 0 and "Sam Rivers" in entities.out and "pending 1" in entities.out
    queue = (await cli(capsys, "candidates", "list", agent, "--json", *at(service))).json()
    assert [c["proposed_claim"] for c in queue] == ["lives in Tokyo"]
    listed = await cli(capsys, "facts", "list", agent, entity, *at(service))
    assert 'lives in Berlin  (may have changed: "lives in Tokyo", unconfirmed)' in listed.out

    kept = await cli(capsys, "candidates", "keep-both", agent, entity, queue[0]["id"], *at(service))
    assert kept.code == 0 and "keep-both" in kept.out
    facts = (await cli(capsys, "facts", "list", agent, entity, "--json", *at(service))).json()
    assert sorted(f["claim"] for f in facts) == ["lives in Berlin", "lives in Tokyo"]

    added = (
        await cli(
            capsys,
            "facts",
            "add",
            agent,
            entity,
            "allergic to penicillin",
            "--category",
            "health",
            "--json",
            *at(service),
        )
    ).json()
    assert added["verification_status"] == "VERIFICATION_STATUS_CONFIRMED"
    edited = await cli(
        capsys, "facts", "edit", agent, entity, added["id"], "--claim", "allergic to amoxicillin", *at(service)
    )
    assert edited.code == 0 and "allergic to amoxicillin" in edited.out
    shown = await cli(capsys, "facts", "show", agent, entity, added["id"], *at(service))
    assert "created" in shown.out and "edited" in shown.out and "reviewer:ann" in shown.out
    assert "'allergic to penicillin' -> 'allergic to amoxicillin'" in shown.out
    assert (await cli(capsys, "facts", "delete", agent, entity, added["id"], *at(service))).code == 0

    exported = (await cli(capsys, "export", agent, entity, *at(service))).json()
    assert {"created", "kept_both", "edited", "deleted"} <= {h["action"] for h in exported["history"]}
    refused = await cli(capsys, "forget", agent, entity, *at(service))
    assert refused.code == 2 and "--yes" in refused.err
    forgotten = await cli(capsys, "forget", agent, entity, "--yes", *at(service))
    assert forgotten.code == 0 and "forgotten: 2 facts" in forgotten.out
    assert "no facts" in (await cli(capsys, "facts", "list", agent, entity, *at(service))).out


def one_line_error(result: Result, code: int, *words: str) -> None:
    assert result.code == code, result.err
    assert result.out == "" and result.err.count("\n") == 1 and "Traceback" not in result.err
    for word in words:
        assert word in result.err


async def test_every_error_is_one_line_and_a_non_zero_exit(
    service: Service, pg_url: str, llm: ScriptedLLM, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = [str(uuid4()) for _ in range(3)]
    one_line_error(await cli(capsys, "facts", "show", "not-a-uuid", ids[0], ids[1], *at(service)), 2, "UUID")
    one_line_error(await cli(capsys, "facts", "show", *ids, *at(service)), 1, "NOT_FOUND")
    one_line_error(
        await cli(capsys, "facts", "add", *ids[:2], "x", "--category", "feeling", *at(service)), 1, "INVALID_ARGUMENT"
    )
    one_line_error(
        await cli(capsys, "facts", "list", *ids[:2], "--address", "127.0.0.1:1", "--timeout", "3"), 3, "cannot reach"
    )
    settings = make_settings(pg_url, llm, tmp_path, auth_token="s3cret")
    async for secured in start_service(settings):
        one_line_error(await cli(capsys, "entities", ids[0], *at(secured)), 1, "UNAUTHENTICATED", "--token")
        allowed = await cli(capsys, "entities", ids[0], "--token", "s3cret", *at(secured))
        assert allowed.code == 0 and "no entities" in allowed.out


# --- legacy import --------------------------------------------------------------------------------------------


def eliza_memory(agent: str, entity: str, text: str, created_ms: int = 1_763_000_000_000) -> dict[str, Any]:
    """A plugin-sql `facts` memory as elizaOS exports it."""
    return {
        "id": str(uuid4()),
        "type": "facts",
        "agentId": agent,
        "entityId": entity,
        "roomId": str(uuid4()),
        "createdAt": created_ms,
        "content": {"text": text},
    }


async def test_import_is_idempotent_and_facts_are_reclassified_on_first_use(
    service: Service,
    pg_url: str,
    llm: ScriptedLLM,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    person = Person()
    export = tmp_path / "eliza-facts.json"
    export.write_text(
        json.dumps(
            {
                "memories": [
                    eliza_memory(person.agent_id, person.entity_id, "Lives in Lisbon"),
                    eliza_memory(person.agent_id, person.entity_id, "Has a dog named Rex"),
                    {
                        "id": str(uuid4()),
                        "type": "messages",
                        "agentId": person.agent_id,
                        "entityId": person.entity_id,
                        "content": {"text": "hello"},
                    },
                    eliza_memory(person.agent_id, "not-a-uuid", "broken"),
                ]
            }
        )
    )
    monkeypatch.setenv("FACTMEMORY_DATABASE_URL", pg_url)
    monkeypatch.setenv("FACTMEMORY_DATA_DIR", str(tmp_path))
    first = await cli(capsys, "import", "--file", str(export), "--json")
    assert first.code == 0, first.err
    assert {k: first.json()[k] for k in ("imported", "already_imported", "skipped")} == {
        "imported": 2,
        "already_imported": 0,
        "skipped": 2,
    }
    again = (await cli(capsys, "import", "--file", str(export), "--json")).json()
    assert (again["imported"], again["already_imported"]) == (0, 2)
    facts = {f.claim: f for f in (await service.stub.ListFacts(person.list_facts())).facts}
    assert set(facts) == {"Lives in Lisbon", "Has a dog named Rex"}
    assert {f.category for f in facts.values()} == {"uncategorized"}

    # The model sees them as uncategorized durable facts ("[D1] (uncategorized 0.70) ...") and names the category
    # when it uses one.
    llm.on(
        "I still live in Lisbon",
        Reply(facts_reply({"op": "strengthen", "fact": "D1", "reason": "again", "category": "identity"})),
    )
    response = await service.stub.Evaluate(person.evaluate("I still live in Lisbon"))
    prompt = llm.calls_for("I still live in Lisbon")[0]["messages"][1]["content"]
    shown = {m["claim"]: (m["handle"][0], m["category"]) for m in FACT_LINE.finditer(prompt)}
    assert shown["Lives in Lisbon"] == ("D", "uncategorized")
    assert response.ops[0].fact.claim == "Lives in Lisbon" and response.ops[0].fact.category == "identity"
    history = await service.stub.GetFact(
        pb.GetFactRequest(agent_id=person.agent_id, entity_id=person.entity_id, fact_id=facts["Lives in Lisbon"].id)
    )
    assert [pb.HistoryAction.Name(h.action) for h in history.history] == [
        "HISTORY_ACTION_IMPORTED",
        "HISTORY_ACTION_RECLASSIFIED",
        "HISTORY_ACTION_STRENGTHENED",
    ]
    assert history.history[0].actor == "import:file:eliza-facts.json"
    direct = await cli(capsys, "export", person.agent_id, person.entity_id, "--direct")  # reads the database
    assert direct.code == 0, direct.err
    assert [h["action"] for h in direct.json()["history"]].count("imported") == 2
    untouched = (
        await service.stub.GetFact(
            pb.GetFactRequest(
                agent_id=person.agent_id, entity_id=person.entity_id, fact_id=facts["Has a dog named Rex"].id
            )
        )
    ).fact
    assert untouched.category == "uncategorized"


async def test_import_from_an_elizaos_database(
    service: Service, pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    person = Person()
    database = f"eliza_{uuid4().hex[:8]}"
    admin = await asyncpg.connect(pg_url)
    try:
        await admin.execute(f"CREATE DATABASE {database}")
    finally:
        await admin.close()
    eliza_url = pg_url.replace("/postgres?", f"/{database}?", 1)
    assert eliza_url != pg_url
    conn = await asyncpg.connect(eliza_url)
    try:  # the plugin-sql 1.x table, camelCase columns
        await conn.execute(
            'CREATE TABLE memories (id uuid PRIMARY KEY, type text NOT NULL, "createdAt" timestamptz '
            'NOT NULL DEFAULT now(), content jsonb NOT NULL, "entityId" uuid, "agentId" uuid NOT NULL, '
            '"roomId" uuid, "worldId" uuid, "unique" boolean NOT NULL DEFAULT true, '
            "metadata jsonb NOT NULL DEFAULT '{}')"
        )
        for kind, text in (("facts", "Works as a nurse"), ("facts", "Speaks Portuguese"), ("messages", "hi")):
            await conn.execute(
                'INSERT INTO memories (id, type, content, "entityId", "agentId") VALUES ($1, $2, $3::jsonb, $4, $5)',
                uuid4(),
                kind,
                json.dumps({"text": text}),
                UUID(person.entity_id),
                UUID(person.agent_id),
            )
    finally:
        await conn.close()
    monkeypatch.setenv("FACTMEMORY_DATABASE_URL", pg_url)
    monkeypatch.setenv("FACTMEMORY_DATA_DIR", str(tmp_path))
    result = await cli(capsys, "import", "--postgres", eliza_url, "--agent", person.agent_id)
    assert result.code == 0 and "imported 2 facts" in result.out, result.err
    claims = {f.claim for f in (await service.stub.ListFacts(person.list_facts())).facts}
    assert claims == {"Works as a nurse", "Speaks Portuguese"}
