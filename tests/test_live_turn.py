"""Provide in a live conversation, through the real service: the message being answered leads the turn's
relevance (domain/turn.py); the messages before it help a follow-up and do not drag a question elsewhere."""

from __future__ import annotations

from tests.conftest import Service
from tests.support.fm import Person, add_durable
from tests.support.llm_stub import ScriptedLLM
from tests.test_service import learn

HIKING = (
    "hikes the Pennine Way every summer",
    "owns a pair of waterproof hiking boots",
    "climbed Ben Nevis twice",
    "walks in the Lake District with friends",
    "likes long mountain trails",
    "camps in the hills in autumn",
)
CHATTER = (
    "We did a long hike on a mountain trail yesterday.",
    "My boots held up great, even in the rain on the hills.",
    "Next summer I want to walk the whole Pennine Way again.",
    "Climbing in the Lake District is the best, honestly.",
)
DOG = "adopted a rescue dog named Biscuit"


async def known(service: Service, llm: ScriptedLLM) -> Person:
    person = Person()
    await learn(service, llm, person, "hiking", *(add_durable(c, "preference") for c in HIKING))
    await learn(service, llm, person, "dog", add_durable(DOG, "relationship"))
    await learn(service, llm, person, "job", add_durable("works as a nurse in Leeds", "identity"))
    return person


async def test_a_question_after_chatter_about_something_else_finds_its_own_fact(
    service: Service, llm: ScriptedLLM
) -> None:
    person = await known(service, llm)
    alone = await service.stub.Provide(person.provide("What is my dog called?", total_limit=2))
    assert alone.durable[0].fact.claim == DOG
    live = await service.stub.Provide(person.provide(*CHATTER, "What is my dog called?", total_limit=2))
    assert live.durable[0].fact.claim == DOG


async def test_a_follow_up_keeps_the_topic_of_the_message_before_it(service: Service, llm: ScriptedLLM) -> None:
    person = await known(service, llm)
    turn = (*CHATTER[:2], "Remember my rescue dog Biscuit?", "When was that?")
    live = await service.stub.Provide(person.provide(*turn, total_limit=2))
    assert live.durable[0].fact.claim == DOG
    # The follow-up alone names nothing: the dog is not what it finds first.
    alone = await service.stub.Provide(person.provide("When was that?", total_limit=2))
    assert [s.fact.claim for s in alone.durable][:1] != [DOG]
