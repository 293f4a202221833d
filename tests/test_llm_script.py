"""The scripted model as a person uses it from its --help alone: the example script there, run as written against
the real service, learns a home and keeps a move that contradicts it for a reviewer (the fact named by its claim,
without knowing the handle the prompt shows it under)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from factmemory.testing.llm import SCRIPT_HELP, ScriptedLLM, load_script
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import make_settings, start_service
from tests.support.fm import Person


def example_script() -> str:
    lines = SCRIPT_HELP.split("Example", 1)[1].splitlines()[1:]
    return "\n".join(line for line in lines if line.startswith("  "))


def test_the_help_says_what_a_reply_holds_and_how_to_script_a_contradiction() -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "factmemory.testing.llm", "--help"], capture_output=True, text=True, timeout=60
    ).stdout
    for item in ("facts", "relationships", "identities", "success", "contradict", "fact_claim", "--demo"):
        assert item in shown, item


async def test_the_example_script_of_the_help_runs_as_written(pg_url: str, tmp_path: Path) -> None:
    (tmp_path / "script.json").write_text(example_script())
    json.loads(example_script())  # the example is valid JSON as printed
    sam = Person("Sam")
    with ScriptedLLM() as llm:
        load_script(llm, str(tmp_path / "script.json"))
        async for service in start_service(make_settings(pg_url, llm, tmp_path)):
            learned = await service.stub.Evaluate(sam.evaluate("I live in Berlin"))
            moved = await service.stub.Evaluate(sam.evaluate("I moved to Lisbon"))
            queue = await service.stub.ListCandidates(pb.ListCandidatesRequest(agent_id=sam.agent_id))
    assert [op.fact.claim for op in learned.ops] == ["lives in Berlin"]
    assert [op.op for op in moved.ops] == [pb.OP_TYPE_CONTRADICT] and not moved.ops[0].rejected
    assert [c.proposed_claim for c in queue.candidates] == ["lives in Lisbon"]
