"""One log stream: a real `factmemory serve` with JSON logs (gRPC core asked to talk: GRPC_VERBOSITY=debug), the
review page and the review RPCs driven, then a real `factmemory import`; every line either process wrote must be
JSON, and every state-changing action exactly one audit line naming who, what, where and the result."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest

from factmemory.v1 import factmemory_pb2 as pb
from factmemory.v1 import factmemory_pb2_grpc as pb_grpc
from tests.support.fm import Person, add_durable, change, facts_reply
from tests.support.llm_stub import Reply, ScriptedLLM
from tests.support.serve import spawn_serve

REPO = Path(__file__).resolve().parents[1]
TOKEN = "log-test-token-4f1c"
GUESS = "guessed-Secret-9d2e"
AUTH = (("authorization", f"Bearer {TOKEN}"), ("x-factmemory-reviewer", "rita"))


def environment(pg_url: str, llm: ScriptedLLM, tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FACTMEMORY_", "OPENAI_", "GRPC_"))}
    env.update(
        {
            "FACTMEMORY_LISTEN": "127.0.0.1:0",
            "FACTMEMORY_HTTP_LISTEN": "127.0.0.1:0",
            "FACTMEMORY_METRICS_LISTEN": "0",
            "FACTMEMORY_DATABASE_URL": pg_url,
            "FACTMEMORY_DATA_DIR": str(tmp_path),
            "FACTMEMORY_AUTH_TOKEN": TOKEN,
            "FACTMEMORY_LOG_FORMAT": "json",
            "FACTMEMORY_EMBEDDING_WORKERS": "1",
            "OPENAI_API_KEY": "sk-test",
            "OPENAI_BASE_URL": llm.base_url,
            **extra,
        }
    )
    return env


@dataclass
class Served:
    proc: subprocess.Popen[str]
    address: str
    page: str
    metrics: str
    stdout: list[str]


@pytest.fixture
def served(pg_url: str, llm: ScriptedLLM, tmp_path: Path) -> Iterator[Served]:
    env = environment(pg_url, llm, tmp_path, GRPC_VERBOSITY="debug", FACTMEMORY_READ_YOUR_WRITES_S="5")
    proc = spawn_serve(env)
    assert proc.stdout is not None
    lines: list[str] = []
    found: dict[str, str] = {}
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and "address" not in found:
        line = proc.stdout.readline()
        if not line and proc.poll() is not None:
            break
        lines.append(line)
        record = json.loads(line)  # the start-up lines are JSON too
        if record.get("event") == "config":
            found["metrics"] = record["metrics"]
        elif record.get("event") == "review_page":
            found["page"] = record["url"].rstrip("/")
        elif record.get("event") == "listening":
            found["address"] = record["address"]
    try:
        assert {"address", "page", "metrics"} <= found.keys(), proc.communicate(timeout=5)[1][-2000:]
        yield Served(proc, found["address"], found["page"], found["metrics"], lines)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


class Browser:
    """The review page over plain HTTP with a cookie jar: the CSRF cookie, then a session after logging in."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.get("/login")

    def get(self, path: str) -> tuple[int, str]:
        try:
            with self.opener.open(self.base + path, timeout=30) as reply:
                return reply.status, reply.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def post(self, path: str, **fields: str) -> tuple[int, str]:
        """A form post as the page sends it: the session's CSRF token (read from a form) and the page's origin."""
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', self.get("/login")[1])
        assert csrf, "no CSRF token on the login form"
        data = urllib.parse.urlencode({"csrf_token": csrf.group(1), **fields}).encode()
        request = urllib.request.Request(self.base + path, data=data, headers={"Origin": self.base})
        try:
            with self.opener.open(request, timeout=30) as reply:
                return reply.status, reply.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()


def parse_all(text: str) -> list[dict[str, Any]]:
    """Every non-empty line as JSON (a line that is not fails the test, showing it)."""
    records = []
    for line in text.splitlines():
        if line.strip():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                pytest.fail(f"a line that is not JSON: {line[:300]!r}")
    return records


def audit_lines(records: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [(r["via"], r["action"], r["result"]) for r in records if r.get("audit")]


async def test_every_line_is_json_and_every_action_is_one_audit_line(served: Served, llm: ScriptedLLM) -> None:
    person = Person("Noor Haddad")
    agent, entity = person.agent_id, person.entity_id
    llm.on("I live in Oslo", Reply(facts_reply(add_durable("lives in Oslo", "identity"))))
    llm.on("moved to Bergen", Reply(facts_reply(change("contradict", "D1", "moved", "lives in Bergen"))))
    llm.on("moved to Tromso", Reply(facts_reply(change("contradict", "D1", "moved", "lives in Tromso"))))
    async with grpc.aio.insecure_channel(served.address) as channel:
        stub = pb_grpc.FactMemoryServiceStub(channel)
        for text in ("I live in Oslo", "moved to Bergen"):
            await stub.Evaluate(person.evaluate(text), metadata=AUTH)

        # The review RPCs: add, update, delete, resolve, and one refused (a bad id).
        added = await stub.AddFact(
            pb.AddFactRequest(
                agent_id=agent, entity_id=entity, kind=pb.KIND_DURABLE, category="goal", claim="wants to sail"
            ),
            metadata=AUTH,
        )
        fact_id = added.fact.id
        await stub.UpdateFact(
            pb.UpdateFactRequest(agent_id=agent, entity_id=entity, fact_id=fact_id, claim="wants to sail north"),
            metadata=AUTH,
        )
        await stub.DeleteFact(pb.DeleteFactRequest(agent_id=agent, entity_id=entity, fact_id=fact_id), metadata=AUTH)
        with pytest.raises(grpc.aio.AioRpcError):
            await stub.DeleteFact(pb.DeleteFactRequest(agent_id=agent, entity_id=entity, fact_id="nope"), metadata=AUTH)
        [pending] = (await stub.ListCandidates(pb.ListCandidatesRequest(agent_id=agent), metadata=AUTH)).candidates
        await stub.ResolveCandidate(
            pb.ResolveCandidateRequest(
                agent_id=agent, entity_id=entity, candidate_id=pending.id, resolution=pb.RESOLUTION_REJECT
            ),
            metadata=AUTH,
        )
        await stub.Evaluate(person.evaluate("moved to Tromso"), metadata=AUTH)
        [second] = (await stub.ListCandidates(pb.ListCandidatesRequest(agent_id=agent), metadata=AUTH)).candidates

        # The page: a wrong token, a login, an add refused then done, an edit, a resolution, a delete, a forget.
        page = Browser(served.page)
        assert page.post("/login", token=GUESS, name="mallory")[0] == 401
        assert page.post("/login", token=TOKEN, name="Dana")[0] == 200
        person_path = f"/agents/{agent}/entities/{entity}"
        status, body = page.post(f"{person_path}/facts", kind_category="current:identity", claim="speaks Norwegian")
        assert status == 400 and "speaks Norwegian" in body  # the form comes back as typed
        assert page.post(f"{person_path}/facts", kind_category="durable:identity", claim="speaks Norwegian")[0] == 200
        facts = (await stub.ListFacts(pb.ListFactsRequest(agent_id=agent, entity_id=entity), metadata=AUTH)).facts
        norwegian = next(f.id for f in facts if f.claim == "speaks Norwegian")
        assert page.post(f"{person_path}/facts/{norwegian}/edit", claim="speaks Norwegian well")[0] == 200
        assert page.post(f"{person_path}/candidates/{second.id}", resolution="keep_both")[0] == 200
        assert page.post(f"{person_path}/facts/{norwegian}/delete")[0] == 200
        assert page.post(f"{person_path}/forget", confirm=entity)[0] == 200

        # The forget RPC, on another person.
        other = Person("Ola", agent_id=agent)
        await stub.Evaluate(other.evaluate("I live in Oslo"), metadata=AUTH)
        await stub.ForgetEntity(pb.ForgetEntityRequest(agent_id=agent, entity_id=other.entity_id), metadata=AUTH)

    served.proc.send_signal(signal.SIGTERM)
    out, err = served.proc.communicate(timeout=60)
    records = parse_all("".join(served.stdout) + out) + parse_all(err)
    assert any(r["logger"] == "factmemory.native" for r in records), "gRPC core said nothing: the routing is untested"
    deprecated = [r for r in records if "FACTMEMORY_READ_YOUR_WRITES_S" in r.get("message", "")]
    assert [r["level"] for r in deprecated] == ["WARNING"]  # set, started anyway, said once with its replacements
    assert "FACTMEMORY_READ_RETRY_S" in deprecated[0]["message"]
    assert audit_lines(records) == [
        ("grpc", "add_fact", "ok"),
        ("grpc", "update_fact", "ok"),
        ("grpc", "delete_fact", "ok"),
        ("grpc", "delete_fact", "invalid_input"),
        ("grpc", "resolve_candidate", "ok"),
        ("page", "login", "refused"),
        ("page", "login", "ok"),
        ("page", "add_fact", "invalid_input"),
        ("page", "add_fact", "ok"),
        ("page", "update_fact", "ok"),
        ("page", "resolve_candidate", "ok"),
        ("page", "delete_fact", "ok"),
        ("page", "forget_entity", "ok"),
        ("grpc", "forget_entity", "ok"),
    ]
    audits = [r for r in records if r.get("audit")]
    assert all(r["agent_id"] == agent for r in audits if r["action"] != "login")
    assert [r["actor"] for r in audits if r["via"] == "grpc"] == ["reviewer:rita"] * 6
    assert [r["actor"] for r in audits if r["via"] == "page"][1:] == ["reviewer:Dana"] * 7
    assert audits[5]["actor"] == "reviewer:mallory" and audits[5]["level"] == "WARNING"
    resolved = [r for r in audits if r["action"] == "resolve_candidate"]
    assert [r["resolution"] for r in resolved] == ["reject", "keep_both"]
    assert [r["candidate_id"] for r in resolved] == [pending.id, second.id]
    assert audits[2]["fact_id"] == fact_id and audits[1]["fields"] == "claim"
    everything = "".join(served.stdout) + out + err
    assert GUESS not in everything and TOKEN not in everything  # neither the guess nor the token
    assert "speaks Norwegian" not in everything and "I live in Oslo" not in everything  # no claims, no messages


def test_the_import_command_writes_json_lines_and_one_audit_line_per_run(
    pg_url: str, llm: ScriptedLLM, tmp_path: Path
) -> None:
    """In a process of its own: JSON lines, no LLM warning, one audit line per run, a bad file in one line."""
    person = Person()
    good = tmp_path / "memories.json"
    memory = {
        "id": "m1",
        "type": "facts",
        "agentId": person.agent_id,
        "entityId": person.entity_id,
        "content": {"text": "x"},
    }
    good.write_text(json.dumps([memory]))
    bad = tmp_path / "broken.json"
    bad.write_text("{not json")
    env = environment(pg_url, llm, tmp_path)
    del env["OPENAI_API_KEY"], env["OPENAI_BASE_URL"]
    runs = [
        subprocess.run(
            [sys.executable, "-m", "factmemory", "import", "--file", str(path)],
            env=env,
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=180,
        )
        for path in (good, bad)
    ]
    assert [r.returncode for r in runs] == [0, 1], runs[1].stderr
    imported = parse_all(runs[0].stderr)
    assert audit_lines(imported) == [("cli", "import", "ok")]
    assert not any("no LLM configured" in r["message"] for r in imported)
    failed = parse_all(runs[1].stderr)
    assert audit_lines(failed) == [("cli", "import", "error")]
    [said] = [r["message"] for r in failed if "import failed" in r["message"]]
    assert said == (
        f"factmemory: import failed: file {bad}: not valid JSON: Expecting property name enclosed in double quotes "
        "at line 1 column 2"
    )
