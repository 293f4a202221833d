"""A claim the message says of another person, added as the speaker's (issue 25, the room-mate's fact).

Pure cases of `domain/attribution.py`, the recall data sets' stated facts (none may be flagged), and the service:
real gRPC, real PostgreSQL + pgvector, the scripted LLM.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from factmemory.domain.attribution import other_person, screen_adds
from factmemory.domain.models import Kind, OpType, Verification
from factmemory.domain.ops import PlannedAdd, RejectedOp
from tests.conftest import Service
from tests.support.fm import Person, add_durable, facts_of
from tests.support.llm_stub import ScriptedLLM
from tests.test_service_duplicates import learn

RECALL_DATA = Path(__file__).parents[1] / "tools" / "factmemory_tools" / "recall" / "data"
CELLO = "Long day. My room-mate Jake plays the cello all night."


@pytest.mark.parametrize(
    ("claim", "text", "other"),
    [
        ("plays the cello", CELLO, "my room-mate Jake"),
        ("is visiting next week", "My sister Mia is visiting next week.", "my sister Mia"),
        ("lives in Lyon", "My brother lives in Lyon and I live in Paris.", "my brother"),
        ("is expecting a baby", "my wife is expecting a baby!", "my wife"),
    ],
)
def test_a_claim_the_message_says_of_another_person_is_found(claim: str, text: str, other: str) -> None:
    assert other_person(claim, text) == other


@pytest.mark.parametrize(
    ("claim", "text"),
    [
        ("plays the piano", "My room-mate Jake plays the cello and I play the piano."),  # the speaker's clause
        ("lives in Paris", "My brother lives in Lyon and I live in Paris."),
        ("room-mate plays the cello", CELLO),  # the claim keeps the other person
        ("has a room-mate named Jake who plays the cello", CELLO),
        ("has a sister named Mia who is visiting", "My sister Mia is visiting next week."),
        ("knee hurts", "Went hiking with my friend Tom, my knee hurts."),
        ("plays the cello", "Jake plays the cello."),  # a bare name is not read as another person
        ("plays the cello", "Long day at work."),  # no grounding: an inference or a restated fact, left alone
        ("my sister and I play tennis", "My sister and I play tennis."),
        (  # it names someone the room-mate's clause does not (the full replay's one false flag before the check)
            "has a neighbour named Lazlo who waters the plants when they travel",
            "My neighbour Lazlo waters my plants whenever I'm away. My room-mate Priya has a neighbour named Augustin"
            " who waters the plants when they travel.",
        ),
    ],
)
def test_a_claim_about_the_speaker_is_left_alone(claim: str, text: str) -> None:
    assert other_person(claim, text) is None


@pytest.mark.parametrize("name", ["recall.json", "hard.json"])
def test_no_stated_fact_of_the_recall_data_sets_is_flagged(name: str) -> None:
    data = json.loads((RECALL_DATA / name).read_text(encoding="utf-8"))
    pairs = [(f["claim"], m["text"]) for p in data["people"] for m in p["messages"] for f in m["facts"]]
    assert len(pairs) > 2000
    assert [(claim, text) for claim, text in pairs if other_person(claim, text) is not None] == []


def test_screen_adds_rejects_only_the_flagged_add() -> None:
    def add(claim: str) -> PlannedAdd:
        return PlannedAdd(OpType.ADD_DURABLE, Kind.DURABLE, "preference", claim, {}, Verification.SELF_REPORTED, None)

    kept, flagged = add("likes jazz"), add("plays the cello")
    [first, second] = screen_adds([kept, flagged], ["I like jazz.", CELLO])
    assert first == kept
    assert isinstance(second, RejectedOp) and second.op is OpType.ADD_DURABLE
    assert second.reason == "not stored: the message says this of my room-mate Jake, not of the speaker"


async def test_the_service_does_not_store_a_room_mates_fact_as_the_speakers(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    response = await learn(
        service,
        llm,
        person,
        CELLO,
        add_durable("plays the cello", "preference"),
        add_durable("room-mate plays the cello at night", "relationship"),
    )
    [wrong, right] = response.ops
    assert wrong.rejected and "my room-mate Jake, not of the speaker" in wrong.reason
    assert not right.rejected
    assert {f.claim for f in await facts_of(service, person)} == {"room-mate plays the cello at night"}
    again = await learn(service, llm, person, CELLO, add_durable("plays the cello", "preference"))  # said again
    assert again.ops[0].rejected
    assert {f.claim for f in await facts_of(service, person)} == {"room-mate plays the cello at night"}
