"""The demo model's sentence patterns (adapters/llm/demo.py), without the service: what each simple sentence becomes,
a claim said again is strengthened, a new home contradicts the known one, and anything else learns nothing."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import uuid4

from factmemory.adapters.llm.demo import DemoExtractor, ops_for
from factmemory.domain.models import ChatMessage, Fact, Item, Kind
from factmemory.domain.prompts import Prompt, build_prompt
from tests.support.fm import LIMITS

NOW = datetime(2026, 11, 20, tzinfo=UTC)
ALL = frozenset(Item)


def known(claim: str, category: str = "identity") -> Fact:
    return Fact(
        id=uuid4(), agent_id=uuid4(), entity_id=uuid4(), kind=Kind.DURABLE, category=category, claim=claim,
        confidence=0.7, created_at=NOW, last_confirmed_at=NOW,
    )  # fmt: skip


def prompt(text: str, *durable: Fact) -> Prompt:
    """The service's own prompt for text, showing the durable facts as D1, D2, ..."""
    said = ChatMessage(id=str(uuid4()), entity_id=str(uuid4()), name="Sam", text=text, created_at=NOW)
    return build_prompt(said, [], durable, [], ALL, limits=LIMITS)


def test_simple_sentences_become_the_facts_they_say() -> None:
    said = "I moved to Berlin last March, and I'm allergic to penicillin. I feel anxious today."
    ops = ops_for(said, prompt(said))
    assert [(o["op"], o["claim"], o["category"]) for o in ops] == [
        ("add_durable", "lives in Berlin", "identity"),
        ("add_durable", "allergic to penicillin", "health"),
        ("add_current", "feels anxious", "feeling"),
    ]


def test_a_claim_said_again_is_strengthened_and_a_new_home_contradicts_the_old() -> None:
    again = ops_for("I live in Berlin.", prompt("I live in Berlin.", known("lives in Berlin")))
    assert again == [{"op": "strengthen", "fact": "D1", "reason": "said again"}]
    said = "I moved to Lisbon."
    moved = ops_for(said, prompt(said, known("allergic to penicillin", "health"), known("lives in Berlin")))
    assert [(o["op"], o["fact"], o["proposed_claim"]) for o in moved] == [("contradict", "D2", "lives in Lisbon")]


async def test_a_sentence_no_pattern_fits_learns_nothing_and_the_reply_keeps_the_contract() -> None:
    reply, usage = await DemoExtractor().extract(prompt("What a lovely day, isn't it?"), ALL)
    assert reply.facts is not None and reply.facts.ops == [] and reply.success is not None and reply.success.completed
    assert usage.llm_calls == 1
