"""The shared section shares the provider's budget (issue 39 item 4): with total_limit > 0 the shared facts near the
turn compete with the person's facts for the one budget; with total_limit 0 the sections stay fixed (real gRPC,
real PostgreSQL, the local embedder, the scripted LLM)."""

from __future__ import annotations

from typing import Any

from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service
from tests.support.fm import Person, add_current, add_durable
from tests.support.llm_stub import ScriptedLLM
from tests.test_shared import COMMUNITY, World, shared, teach

ASK = "What is going on with the hackathon?"
SHARED_CLAIMS = (
    "the hackathon moved to Friday",
    "the hackathon is held at the old library downtown",
    "the hackathon prize is a trip to Berlin",
)
DURABLE_CLAIMS = (
    "Ben is building a chess bot for the hackathon",
    "Ben won a hackathon in Porto two years ago",
    "Ben's hackathon team is called Night Owls",
    "Ben writes his hackathon projects in Rust",
    "Ben mentors first-time hackathon participants",
    "Ben judged the spring hackathon in Madrid",
    "Ben keeps a list of hackathon project ideas",
    "Ben designed the hackathon's logo",
)
CURRENT_CLAIMS = (
    "Ben is preparing slides for the hackathon demo",
    "Ben is looking for a designer to join his hackathon team",
    "Ben booked a hotel near the hackathon venue",
    "Ben is nervous about the hackathon pitch",
    "Ben is testing his hackathon bot against friends",
    "Ben is buying snacks for the hackathon night",
    "Ben is reading about chess engines for the hackathon",
    "Ben is fixing a bug in his hackathon project",
)


async def community(service: Service, llm: ScriptedLLM) -> tuple[World, Person]:
    """A world whose admin taught three hackathon facts, and a member with sixteen of his own about it."""
    world = World()
    admin, member = world.person("Ada"), world.person("Ben")
    ops = [shared(add_durable(claim, "life_event")) for claim in SHARED_CLAIMS]
    taught = await teach(service, llm, world.says(admin, "News about the hackathon", "ADMIN"), *ops)
    assert len(taught.ops) == len(SHARED_CLAIMS)
    own: list[dict[str, Any]] = [add_durable(c, "life_event") for c in DURABLE_CLAIMS]
    own += [add_current(c, "schedule_context") for c in CURRENT_CLAIMS]
    learned = await teach(service, llm, world.says(member, "All about my hackathon plans", "NONE"), *own)
    assert len(learned.ops) == len(own)
    return world, member


def person_claims(reply: pb.ProvideResponse) -> list[str]:
    return [s.fact.claim for s in [*reply.durable, *reply.current]]


async def test_the_shared_section_takes_slots_of_one_budget(service: Service, llm: ScriptedLLM) -> None:
    world, member = await community(service, llm)
    alone = await service.stub.Provide(member.provide(ASK, total_limit=12))
    assert len(person_claims(alone)) == 12 and not alone.shared
    request = world.asks(member, ASK)
    request.total_limit = 12
    reply = await service.stub.Provide(request)
    shown = [s.fact.claim for s in reply.shared]
    assert COMMUNITY in reply.text and shown and set(shown) <= set(SHARED_CLAIMS)
    # At most 12 in all: every shared fact shown took a slot the person's sections had without the world.
    assert len(person_claims(reply)) + len(shown) == 12
    assert set(person_claims(reply)) < set(person_claims(alone))
    assert all(c not in reply.text for c in set(person_claims(alone)) - set(person_claims(reply)))
    # shared_limit stays the shared section's maximum within the budget.
    request.shared_limit = 1
    capped = await service.stub.Provide(request)
    assert len(capped.shared) == 1 and len(person_claims(capped)) == 11


async def test_with_total_limit_0_the_sections_stay_fixed(service: Service, llm: ScriptedLLM) -> None:
    world, member = await community(service, llm)
    alone = await service.stub.Provide(member.provide(ASK))
    reply = await service.stub.Provide(world.asks(member, ASK))
    # The person's sections as without the world (6 + 6 by default), and the shared section beside them.
    assert person_claims(reply) == person_claims(alone) and len(person_claims(reply)) == 12
    assert COMMUNITY in reply.text and 1 <= len(reply.shared) <= 4
