"""What a person sees when the service starts (`./dev run` runs `factmemory serve`): after `listening`, what to do
next: the review page's address (or how to turn it on), where the token comes from, how agents, scripts and the
command line reach the service; never the token itself."""

from __future__ import annotations

import asyncio
import urllib.request
from pathlib import Path

from factmemory.app.config import next_steps
from factmemory.settings import Settings
from tests.support.llm_stub import ScriptedLLM
from tests.test_operations import Served

SECRET = "first-run-token-0123456789abcdef"


def test_the_next_steps_name_the_page_or_how_to_turn_it_on_and_never_the_token() -> None:
    off = next_steps(Settings(), "127.0.0.1:50051", None)
    assert off[0] == "review page: off; to turn it on, start with FACTMEMORY_HTTP_LISTEN=127.0.0.1:8080"
    assert "FACT_MEMORY_URL=http://127.0.0.1:50051" in off[1] and ".venv/bin/factmemory agents" in off[1]
    on = next_steps(Settings(auth_token=SECRET), "127.0.0.1:50051", "127.0.0.1:8080")
    assert on[0] == "review page: http://127.0.0.1:8080/ (log in with the token in FACTMEMORY_AUTH_TOKEN)"
    assert "FACTMEMORY_AUTH_TOKEN" in on[2] and not any(SECRET in line for line in on)


async def test_the_started_service_says_what_to_do_next_after_listening(llm: ScriptedLLM, tmp_path: Path) -> None:
    served = await asyncio.to_thread(
        Served, tmp_path / "data", llm, FACTMEMORY_HTTP_LISTEN="127.0.0.1:0", FACTMEMORY_AUTH_TOKEN=SECRET
    )
    try:
        await asyncio.to_thread(says_what_to_do_next, served)
    finally:
        await asyncio.to_thread(served.stop)


def says_what_to_do_next(served: Served) -> None:
    assert served.proc.stdout is not None
    page, clients, token = (served.proc.stdout.readline().strip() for _ in range(3))  # the lines after `listening`
    assert page.startswith("review page: http://127.0.0.1:") and "FACTMEMORY_AUTH_TOKEN" in page, page
    with urllib.request.urlopen(page.split()[2] + "login", timeout=10) as answer:  # the address printed is the page
        assert answer.status == 200 and "Log in" in answer.read().decode()
    assert f"FACT_MEMORY_URL=http://{served.address}" in clients and "callers send the token" in token
    assert not any(SECRET in line for line in (page, clients, token))


def test_the_readme_shows_the_plugin_import_and_plugins_line_for_a_runtime_you_build() -> None:
    repo = Path(__file__).resolve().parents[1]
    readme = (repo / "README.md").read_text(encoding="utf-8")
    section = readme.split("<!-- elizaos-quickstart -->", 1)[1].split("<!-- /elizaos-quickstart -->", 1)[0]
    assert 'import factMemoryPlugin from "@factmemory/plugin-elizaos";' in section
    assert "plugins: [sqlPlugin, openaiPlugin, bootstrapPlugin, factMemoryPlugin]" in section
    # The same default import is what client_ts/test/package.test.ts installs, registers in an AgentRuntime and runs.
    package_test = (repo / "client_ts" / "test" / "package.test.ts").read_text(encoding="utf-8")
    assert 'const NAME = "@factmemory/plugin-elizaos"' in package_test
    assert 'import factMemoryPlugin from "${NAME}";' in package_test
