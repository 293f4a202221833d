"""The Python client distribution (clients/python): its wrapper against gRPC servers, and its wheel installed alone.

The wrapper's own behaviour (token, deadline, which failures it retries, TLS) is checked in-process against a small
gRPC server whose answers the test controls. The wheel is built, installed into a scratch virtual environment
without the server's dependencies, and used from there to talk to the real service.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import grpc
import pytest

from factmemory.v1 import factmemory_pb2 as pb
from factmemory_client import NO_RETRY, Retry, Target, connect, parse_url
from factmemory_client import pb as cpb
from factmemory_client.v1 import factmemory_pb2_grpc as cpb_grpc
from tests.conftest import Service, new_database
from tests.support.fm import Person, add_durable, facts_reply
from tests.support.llm_stub import Reply, ScriptedLLM
from tests.support.tls import SelfSigned, self_signed_localhost

REPO = Path(__file__).resolve().parent.parent
FAST = Retry(attempts=3, initial_backoff_s=0.01, max_backoff_s=0.01)


# --- pure parts ---------------------------------------------------------------------------------------------------


def test_parse_url_mirrors_the_typescript_client() -> None:
    assert parse_url("127.0.0.1:50051") == Target("127.0.0.1:50051", tls=False)
    assert parse_url(" http://memory.internal:50051/ ") == Target("memory.internal:50051", tls=False)
    assert parse_url("https://memory.example.com:443") == Target("memory.example.com:443", tls=True)
    for bad in ("ftp://host:1", "https://", "http://host:1/path"):
        with pytest.raises(ValueError):
            parse_url(bad)


def test_backoff_grows_to_its_cap_with_full_jitter() -> None:
    retry = Retry(attempts=6, initial_backoff_s=0.2, max_backoff_s=1.0, multiplier=2.0)
    assert [retry.backoff_s(n, draw=lambda: 1.0) for n in range(1, 6)] == pytest.approx([0.2, 0.4, 0.8, 1.0, 1.0])
    assert retry.backoff_s(3, draw=lambda: 0.5) == pytest.approx(0.4)
    with pytest.raises(ValueError):
        Retry(attempts=0)


# --- the wrapper against a server whose answers the test controls ------------------------------------------------


class Scripted(cpb_grpc.FactMemoryServiceServicer):  # type: ignore[misc]
    """Provide fails with `code` on its first `failures` calls, then answers; it records what each call carried."""

    def __init__(self, failures: int = 0, code: grpc.StatusCode = grpc.StatusCode.UNAVAILABLE) -> None:
        self.failures = failures
        self.code = code
        self.calls = 0
        self.authorization: list[str | bytes | None] = []
        self.time_remaining: list[float] = []

    async def Provide(
        self, request: cpb.ProvideRequest, context: grpc.aio.ServicerContext[cpb.ProvideRequest, cpb.ProvideResponse]
    ) -> cpb.ProvideResponse:
        self.calls += 1
        self.authorization.append(dict(context.invocation_metadata() or ()).get("authorization"))
        remaining = context.time_remaining()
        self.time_remaining.append(float("inf") if remaining is None else remaining)
        if self.calls <= self.failures:
            await context.abort(self.code, f"scripted failure {self.calls}")
        return cpb.ProvideResponse(text=f"answered call {self.calls}")

    async def AddFact(
        self, request: cpb.AddFactRequest, context: grpc.aio.ServicerContext[cpb.AddFactRequest, cpb.AddFactResponse]
    ) -> cpb.AddFactResponse:
        self.calls += 1
        self.authorization.append(dict(context.invocation_metadata() or ()).get("x-factmemory-reviewer"))
        if self.calls <= self.failures:
            await context.abort(self.code, f"scripted failure {self.calls}")
        return cpb.AddFactResponse(fact=cpb.Fact(claim=request.claim))


@asynccontextmanager
async def scripted_server(servicer: Scripted, tls: SelfSigned | None = None) -> AsyncIterator[int]:
    server = grpc.aio.server()
    cpb_grpc.add_FactMemoryServiceServicer_to_server(servicer, server)
    if tls is None:
        port = server.add_insecure_port("127.0.0.1:0")
    else:
        port = server.add_secure_port("127.0.0.1:0", grpc.ssl_server_credentials([(tls.key, tls.cert)]))
    await server.start()
    try:
        yield port
    finally:
        await server.stop(0)


def code_of(error: pytest.ExceptionInfo[grpc.aio.AioRpcError]) -> grpc.StatusCode:
    code: grpc.StatusCode = error.value.code()
    return code


async def test_unavailable_is_retried_until_an_answer() -> None:
    servicer = Scripted(failures=2)
    async with scripted_server(servicer) as port, connect(f"127.0.0.1:{port}", retry=FAST) as client:
        response = await client.provide(cpb.ProvideRequest())
    assert response.text == "answered call 3"
    assert servicer.calls == 3


async def test_retries_are_bounded_by_attempts() -> None:
    servicer = Scripted(failures=10)
    async with scripted_server(servicer) as port, connect(f"127.0.0.1:{port}", retry=FAST) as client:
        with pytest.raises(grpc.aio.AioRpcError) as error:
            await client.provide(cpb.ProvideRequest())
    assert code_of(error) == grpc.StatusCode.UNAVAILABLE
    assert servicer.calls == 3


@pytest.mark.parametrize(
    "code",
    [
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.INTERNAL,
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        grpc.StatusCode.UNAUTHENTICATED,
    ],
)
async def test_only_unavailable_is_retried(code: grpc.StatusCode) -> None:
    servicer = Scripted(failures=1, code=code)
    async with scripted_server(servicer) as port, connect(f"127.0.0.1:{port}", retry=FAST) as client:
        with pytest.raises(grpc.aio.AioRpcError) as error:
            await client.provide(cpb.ProvideRequest())
    assert code_of(error) == code
    assert servicer.calls == 1


async def test_a_model_reply_of_the_wrong_shape_costs_one_model_call(service: Service, llm: ScriptedLLM) -> None:
    """Against the real service: the scripted model answers in the wrong shape; the service answers
    FAILED_PRECONDITION (not retryable) and the client, with retries on, does not call again."""
    person = Person()
    text = "my reply comes back in the wrong shape"
    llm.on(text, Reply({"facts": "lives in Berlin"}))
    request = cpb.EvaluateRequest.FromString(person.evaluate(text).SerializeToString())
    async with connect(f"http://127.0.0.1:{service.port}", retry=FAST, timeout_s=30) as client:
        with pytest.raises(grpc.aio.AioRpcError) as error:
            await client.evaluate(request)
    assert code_of(error) == grpc.StatusCode.FAILED_PRECONDITION and "wrong shape" in str(error.value.details())
    assert len(llm.calls_for(text)) == 1


@pytest.mark.timing  # wall clock: a 0.5 s deadline ends the call within 1 s
async def test_the_deadline_covers_the_retries() -> None:
    servicer = Scripted(failures=1_000)
    patient = Retry(attempts=1_000, initial_backoff_s=0.05, max_backoff_s=0.05)
    async with scripted_server(servicer) as port, connect(f"127.0.0.1:{port}", retry=patient) as client:
        started = time.monotonic()
        with pytest.raises(grpc.aio.AioRpcError):
            await client.provide(cpb.ProvideRequest(), timeout_s=0.5)
        elapsed = time.monotonic() - started
    assert 2 <= servicer.calls < 1_000
    assert elapsed < 1.0
    # every attempt carried what was left of the one deadline, not a fresh one
    assert servicer.time_remaining[-1] < servicer.time_remaining[0] <= 0.51


async def test_adding_a_fact_names_the_reviewer_and_is_never_retried() -> None:
    servicer = Scripted(failures=1)
    async with scripted_server(servicer) as port, connect(f"127.0.0.1:{port}", retry=FAST, reviewer="ann") as client:
        with pytest.raises(grpc.aio.AioRpcError) as error:
            await client.add_fact(cpb.AddFactRequest(claim="likes tea"))
        added = await client.add_fact(cpb.AddFactRequest(claim="likes tea"))
    assert code_of(error) == grpc.StatusCode.UNAVAILABLE and added.fact.claim == "likes tea"
    assert servicer.calls == 2 and servicer.authorization == ["ann", "ann"]  # a retry could have added it twice


async def test_token_and_deadlines_are_sent() -> None:
    servicer = Scripted()
    async with scripted_server(servicer) as port:
        async with connect(f"http://127.0.0.1:{port}", token="s3cret", timeout_s=30) as client:
            await client.provide(cpb.ProvideRequest())
            await client.provide(cpb.ProvideRequest(), timeout_s=2)
        async with connect(f"127.0.0.1:{port}") as anonymous:
            await anonymous.provide(cpb.ProvideRequest())
    assert servicer.authorization == ["Bearer s3cret", "Bearer s3cret", None]
    default, per_call, none = servicer.time_remaining
    assert 25 < default <= 30.1  # the wire format rounds a deadline up a little
    assert 1 < per_call <= 2.1
    assert none == float("inf")


async def test_tls_with_a_private_ca() -> None:
    tls = await asyncio.to_thread(self_signed_localhost)
    servicer = Scripted()
    async with scripted_server(servicer, tls) as port:
        url = f"https://127.0.0.1:{port}"
        async with connect(url, root_certificates=tls.cert, timeout_s=5) as client:
            assert (await client.provide(cpb.ProvideRequest())).text == "answered call 1"
        async with connect(url, retry=NO_RETRY, timeout_s=5) as untrusting:  # the system's CAs only
            with pytest.raises(grpc.aio.AioRpcError) as error:
                await untrusting.provide(cpb.ProvideRequest())
        assert code_of(error) == grpc.StatusCode.UNAVAILABLE
        async with connect(f"http://127.0.0.1:{port}", retry=NO_RETRY, timeout_s=5) as plain:
            with pytest.raises(grpc.aio.AioRpcError):
                await plain.provide(cpb.ProvideRequest())
    assert servicer.calls == 1
    with pytest.raises(ValueError):
        connect("http://127.0.0.1:1", root_certificates=tls.cert)


# --- the wheel, installed alone, against the real service ---------------------------------------------------------

# Runs inside the scratch environment: requests come in as serialized bytes (hex), the answers go out as JSON.
USE_THE_SERVICE = """
import asyncio, json, sys

import grpc
from factmemory_client import connect, pb

async def main() -> None:
    port, evaluate, list_facts, provide, prepare, reply = sys.argv[1], *(bytes.fromhex(a) for a in sys.argv[2:])
    out = {}
    async with connect(f"http://127.0.0.1:{port}", timeout_s=30) as client:
        first = await client.evaluate(pb.EvaluateRequest.FromString(evaluate))
        again = await client.evaluate(pb.EvaluateRequest.FromString(evaluate))
        out["applied"] = [op.fact.claim for op in first.ops]
        request = pb.EvaluateRequest.FromString(evaluate)
        batch = await client.evaluate_batch(
            pb.EvaluateBatchRequest(agent_id=request.agent_id, entity_id=request.entity_id, messages=[request.message])
        )
        out["replayed"] = [first.replayed, again.replayed, batch.results[0].replayed]
        facts = await client.list_facts(pb.ListFactsRequest.FromString(list_facts))
        out["facts"] = [fact.claim for fact in facts.facts]
        out["provided"] = (await client.provide(pb.ProvideRequest.FromString(provide))).text
        prepared = await client.prepare_evaluation(pb.PrepareEvaluationRequest.FromString(prepare))
        asked = prepared.prompt[1].content
        done = await client.complete_evaluation(
            pb.CompleteEvaluationRequest(
                agent_id=request.agent_id, entity_id=request.entity_id, ticket=prepared.ticket, reply=reply.decode()
            )
        )
        out["agent_model"] = ["I work as a nurse" in asked, [op.fact.claim for op in done.results[0].ops]]
        try:
            await client.list_facts(pb.ListFactsRequest(agent_id="not-a-uuid"))
        except grpc.aio.AioRpcError as error:
            out["bad_request"] = error.code().name
    try:
        import factmemory  # noqa: F401
        out["server_importable"] = True
    except ModuleNotFoundError:
        out["server_importable"] = False
    print(json.dumps(out))

asyncio.run(main())
"""


def normalized(name: str) -> str:
    return name.lower().replace("_", "-")


@pytest.fixture(scope="module")
def client_python(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh virtual environment (no system site-packages) holding only the client wheel and what it requires."""
    scratch = tmp_path_factory.mktemp("python-client")
    wheels = scratch / "wheels"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    subprocess.run(
        [*pip, "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(REPO / "clients" / "python")],
        check=True,
        capture_output=True,
    )
    [wheel] = wheels.glob("factmemory_client-*.whl")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(scratch / "venv")], check=True)
    python = scratch / "venv" / "bin" / "python"
    # pip of the dev environment installs into the scratch one (--python): resolved from the index, as a user would.
    subprocess.run([*pip, "--python", str(python), "install", "-q", str(wheel)], check=True, capture_output=True)
    yield python


def test_the_wheel_installs_without_the_servers_dependencies(client_python: Path) -> None:
    listed = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(client_python), "list", "--format=json"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    installed = {normalized(p["name"]) for p in json.loads(listed)}
    # grpcio requires typing-extensions; nothing of the server (asyncpg, pydantic, openai, numpy, PostgreSQL, ...)
    assert installed == {"factmemory-client", "grpcio", "protobuf", "typing-extensions"}


async def test_the_installed_client_talks_to_the_service(
    client_python: Path, service: Service, llm: ScriptedLLM
) -> None:
    person = Person("Dana")
    llm.on("I live in Berlin", Reply(facts_reply(add_durable("lives in Berlin", "identity"))))
    requests = [
        person.evaluate("I live in Berlin"),
        person.list_facts(),
        person.provide("where do I live?"),
        pb.PrepareEvaluationRequest(single=person.evaluate("I work as a nurse")),
    ]
    # The agent's own model answers the prepared prompt (agent-model mode); the service's model is not asked.
    reply = json.dumps(facts_reply(add_durable("works as a nurse", "business_role"))).encode()
    process = await asyncio.create_subprocess_exec(
        str(client_python),
        "-c",
        USE_THE_SERVICE,
        str(service.port),
        *(r.SerializeToString().hex() for r in requests),
        reply.hex(),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    stdout, stderr = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, stderr.decode()
    answers = json.loads(stdout)
    assert "lives in Berlin" in answers.pop("provided")
    assert len(llm.calls_for("I work as a nurse")) == 0
    assert answers == {
        "applied": ["lives in Berlin"],
        "replayed": [False, True, True],
        "facts": ["lives in Berlin"],
        "agent_model": [True, ["works as a nurse"]],
        "bad_request": "INVALID_ARGUMENT",
        "server_importable": False,
    }


# --- the README's example, as written -------------------------------------------------------------------------------

README = REPO / "clients" / "python" / "README.md"


def readme_example() -> str:
    """The ```python block between <!-- add-then-provide --> and its end marker in clients/python/README.md."""
    text = README.read_text(encoding="utf-8")
    section = text.split("<!-- add-then-provide -->", 1)[1].split("<!-- /add-then-provide -->", 1)[0]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_front_readme_shows_the_example_that_runs() -> None:
    """The repository's README shows the same add-then-provide block that the test below runs."""
    front = (REPO / "README.md").read_text(encoding="utf-8")
    section = front.split("<!-- add-then-provide -->", 1)[1].split("<!-- /add-then-provide -->", 1)[0]
    assert section.split("```python\n", 1)[1].split("```", 1)[0] == readme_example()


def test_the_readme_installs_without_placeholders(client_python: Path) -> None:
    text = README.read_text(encoding="utf-8")
    assert "<" + "git-host>" not in text and "<owner>" not in text and "/path/to" not in text
    assert "pip install ./clients/python" in text
    built = {p.name for p in client_python.parent.parent.parent.glob("wheels/*.whl")}
    assert built and all(f"dist/{name}" in text for name in built)  # the wheel the README names is the one built


async def test_the_readmes_add_then_provide_example_runs_as_written(
    client_python: Path, service: Service, llm: ScriptedLLM
) -> None:
    example = readme_example()
    said = "I moved to Berlin last March, and I'm allergic to penicillin."
    assert said in example
    llm.on(
        said,
        Reply(
            facts_reply(
                add_durable("moved to Berlin", "life_event", date="2026-03"),
                add_durable("lives in Berlin", "identity"),
                add_durable("allergic to penicillin", "health"),
            )
        ),
    )

    async def run() -> str:
        process = await asyncio.create_subprocess_exec(
            str(client_python),
            "-c",
            example,
            env={"FACTMEMORY_ADDRESS": f"127.0.0.1:{service.port}"},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        stdout, stderr = await asyncio.wait_for(process.communicate(), 60)
        assert process.returncode == 0, stderr.decode()
        return stdout.decode()

    first, second = await run(), await run()

    assert first.splitlines()[:3] == [
        "OP_TYPE_ADD_DURABLE moved to Berlin ",
        "OP_TYPE_ADD_DURABLE lives in Berlin ",
        "OP_TYPE_ADD_DURABLE allergic to penicillin ",
    ]
    assert "What I know about Sam:" in first and "allergic to penicillin" in first.split("What I know", 1)[1]
    assert second.splitlines()[0] == "OP_TYPE_ADD_DURABLE moved to Berlin (replayed)"  # the same message, once
    assert len(llm.calls_for(said)) == 1
    agents = await service.stub.ListAgents(pb.ListAgentsRequest(query="7c9e6679"))
    assert [a.name for a in agents.agents] == ["Eliza"]


async def test_the_key_less_try_runs_the_readmes_example_on_the_demo_model(
    client_python: Path, pg_url: str, tmp_path: Path
) -> None:
    """The README's first try without a key: `./dev run --demo` (which runs `factmemory serve --demo`), then the
    same example as written; the demo model learns the example's sentences, a feeling, and a move that contradicts
    the known home (a review item)."""
    front = (REPO / "README.md").read_text(encoding="utf-8")
    quickstart = front.split("<!-- python-quickstart -->", 1)[1].split("<!-- add-then-provide -->", 1)[0]
    assert "./dev run --demo " in quickstart and "OPENAI_API_KEY" not in quickstart.split("--demo", 1)[0]
    assert 'exec "$VENV/bin/factmemory" serve "$@"' in (REPO / "dev").read_text(encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FACTMEMORY_", "OPENAI_"))}
    async with new_database(pg_url, "demo") as url:
        env.update(FACTMEMORY_DATABASE_URL=url, FACTMEMORY_LISTEN="127.0.0.1:0", FACTMEMORY_DATA_DIR=str(tmp_path))
        server = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "factmemory", "serve", "--demo", env=env, cwd=REPO,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        try:
            address = await asyncio.wait_for(listening(server), 120)
            first, second = await example_output(client_python, address), await example_output(client_python, address)
            learned = ["OP_TYPE_ADD_DURABLE lives in Berlin ", "OP_TYPE_ADD_DURABLE allergic to penicillin "]
            assert first.splitlines()[:2] == learned
            known = first.split("What I know about Sam:", 1)[1]
            assert "lives in Berlin" in known and "allergic to penicillin" in known
            assert second.splitlines()[0] == "OP_TYPE_ADD_DURABLE lives in Berlin (replayed)"
            sam = Person("Sam", agent_id="7c9e6679-7425-40de-944b-e07fc1f90ae7")
            sam.entity_id = "3f1b2c4d-5e6f-4a1b-8c2d-9e0f1a2b3c4d"
            async with grpc.aio.insecure_channel(address) as channel:
                stub = cpb_grpc.FactMemoryServiceStub(channel)
                feeling = await stub.Evaluate(sam.evaluate("I feel anxious today."))
                moved = await stub.Evaluate(sam.evaluate("I moved to Lisbon."))
                queue = await stub.ListCandidates(cpb.ListCandidatesRequest(agent_id=sam.agent_id))
            assert [(op.op, op.fact.claim) for op in feeling.ops] == [(pb.OP_TYPE_ADD_CURRENT, "feels anxious")]
            assert [op.op for op in moved.ops] == [pb.OP_TYPE_CONTRADICT]
            assert [c.proposed_claim for c in queue.candidates] == ["lives in Lisbon"]
        finally:
            server.terminate()
            await asyncio.wait_for(server.wait(), 60)


async def listening(server: asyncio.subprocess.Process) -> str:
    assert server.stdout is not None
    while line := (await server.stdout.readline()).decode():
        if line.startswith("factmemory listening on"):
            return line.rsplit(" ", 1)[-1].strip()
    raise AssertionError("the demo service did not start")


async def example_output(client_python: Path, address: str) -> str:
    process = await asyncio.create_subprocess_exec(
        str(client_python), "-c", readme_example(), env={"FACTMEMORY_ADDRESS": address},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    stdout, stderr = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, stderr.decode()
    return stdout.decode()
