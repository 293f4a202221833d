"""The source of a fact: a bounded excerpt of each message kept with its evaluation, shown on the fact's page
(the sentence matching the claim), dropped by retention with the evaluation, erased with the person, and never
sent anywhere else (responses, the next prompt)."""

from __future__ import annotations

import asyncio
import re
import urllib.request
import uuid
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from factmemory.adapters.postgres.erasure.retention import PostgresRetention
from factmemory.api.http.pages import PageConfig
from factmemory.api.http.server import PageListener
from factmemory.app import retention_policy
from factmemory.domain.excerpts import best_sentence, excerpt
from factmemory.domain.limits import MAX_EXCERPT_CHARS
from factmemory.ports import NullTelemetry
from factmemory.settings import Settings
from factmemory.usecases.retention import sweep
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service, make_settings, new_database, start_service
from tests.support.fm import NOW, Person, add_durable, change, facts_reply
from tests.support.llm_stub import Reply, ScriptedLLM

POLICY = retention_policy(Settings.model_construct())
SAID = "Morning! So we finally moved to Lisbon in March, after years of talking about it. How was your weekend?"
ANA = "Hi, I'm Ana. I live in Lisbon."
SENTENCE = "So we finally moved to Lisbon in March, after years of talking about it."


def test_the_excerpt_is_one_bounded_line_cut_at_a_word() -> None:
    long = "word " * 200 + "\n\tend"
    kept = excerpt(long)
    assert len(kept) <= MAX_EXCERPT_CHARS and kept.endswith("…") and "\n" not in kept
    assert kept[:-1].split(" ")[-1] == "word"  # no half word before the ellipsis
    assert excerpt("  I  live\nin Oslo ") == "I live in Oslo"


def test_the_sentence_shown_is_the_one_sharing_most_words_with_the_claim() -> None:
    assert best_sentence(SAID, ["lives in Lisbon since March"]) == SENTENCE
    # "live" and "lives" are one word; the greeting before the fact is never chosen for being first.
    assert best_sentence(ANA, ["lives in Porto"]) == "I live in Lisbon."
    assert best_sentence(ANA, ["lives in Porto", "lives in Lisbon"]) == "I live in Lisbon."
    assert best_sentence("One thing. Another thing.", ["nothing alike"]) == "One thing. Another thing."  # all of it
    assert best_sentence("", ["x"]) == ""


@pytest.fixture(scope="module")
async def own(pg_url: str, llm_server: ScriptedLLM, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Service]:
    """A database of its own: the retention sweep reduces every old evaluation of its database."""
    async with new_database(pg_url, "sources") as url:
        async for svc in start_service(make_settings(url, llm_server, tmp_path_factory.mktemp("sources"))):
            yield svc


async def fact_page(svc: Service, person: Person, fact_id: str) -> str:
    listener = PageListener(svc.deps, PageConfig(clock=lambda: NOW), "127.0.0.1:0")
    await listener.start()
    url = f"http://127.0.0.1:{listener.port}/agents/{person.agent_id}/entities/{person.entity_id}/facts/{fact_id}"
    try:
        return await asyncio.to_thread(lambda: urllib.request.urlopen(url, timeout=10).read().decode())
    finally:
        await listener.stop()


async def kept(svc: Service, person: Person) -> list[str | None]:
    rows = await svc.pool.fetch(
        "SELECT excerpt FROM evaluations WHERE agent_id = $1 AND entity_id = $2 ORDER BY created_at",
        uuid.UUID(person.agent_id),
        uuid.UUID(person.entity_id),
    )
    return [r["excerpt"] for r in rows]


async def test_the_fact_page_shows_the_sentence_and_nothing_else_sends_it(own: Service, llm: ScriptedLLM) -> None:
    person = Person("Ines")
    llm.on(SAID, Reply(facts_reply(add_durable("lives in Lisbon since March", "identity"))))
    learned = await own.stub.Evaluate(person.evaluate(SAID))
    fact_id = learned.ops[0].fact.id
    assert await kept(own, person) == [SAID]

    page = await fact_page(own, person, fact_id)
    sources = page.split('id="sources"', 1)[1].split("</ul>", 1)[0]
    assert f"“{SENTENCE}”" in sources and "How was your weekend" not in sources.split("“", 1)[1].split("”")[0]

    got = await own.stub.GetFact(
        pb.GetFactRequest(agent_id=person.agent_id, entity_id=person.entity_id, fact_id=fact_id)
    )
    provided = await own.stub.Provide(person.provide("where do you live?"))
    llm.on("anything new?", Reply(facts_reply()))
    await own.stub.Evaluate(person.evaluate("anything new?"))
    for sent in (str(got), str(learned), str(provided), str(llm.requests[-1])):
        assert "years of talking" not in sent  # the kept words never leave through a response or a prompt


async def test_retention_drops_the_excerpt_with_the_result_and_forget_erases_it(own: Service, llm: ScriptedLLM) -> None:
    old, gone = Person("Old"), Person("Gone")
    for person, text in ((old, "window: I grow tomatoes"), (gone, "forget: I grow basil")):
        llm.on(text, Reply(facts_reply(add_durable(text.split(": ")[1].replace("I grow", "grows"), "preference"))))
        await own.stub.Evaluate(person.evaluate(text))
    await own.pool.execute(
        "UPDATE evaluations SET created_at = $2 WHERE entity_id = $1",
        uuid.UUID(old.entity_id),
        NOW - timedelta(days=31),
    )
    counts = await sweep(PostgresRetention(own.pool), POLICY, NOW, NullTelemetry())
    assert counts.reduced_evaluations >= 1
    assert await kept(own, old) == [None]  # the row stays for idempotency, the words go
    fact_id = (
        (await own.stub.ListFacts(pb.ListFactsRequest(agent_id=old.agent_id, entity_id=old.entity_id))).facts[0].id
    )
    assert "No kept message text" in await fact_page(own, old, fact_id)

    assert await kept(own, gone) == ["forget: I grow basil"]
    await own.stub.ForgetEntity(pb.ForgetEntityRequest(agent_id=gone.agent_id, entity_id=gone.entity_id))
    assert await kept(own, gone) == []
    assert await own.pool.fetchval("SELECT count(*) FROM evaluations WHERE excerpt LIKE '%basil%'") == 0


async def test_after_an_accepted_contradiction_each_message_shows_the_sentence_that_carries_the_fact(
    own: Service, llm: ScriptedLLM
) -> None:
    ana = Person("Ana")
    llm.on(ANA, Reply(facts_reply(add_durable("lives in Lisbon", "identity"))))
    fact_id = (await own.stub.Evaluate(ana.evaluate(ANA))).ops[0].fact.id
    moved = "Big news, everyone! We moved to Porto in May."
    llm.on(moved, Reply(facts_reply(change("contradict", "D1", "says she moved", "lives in Porto"))))
    await own.stub.Evaluate(ana.evaluate(moved))
    [pending] = (
        await own.stub.ListCandidates(pb.ListCandidatesRequest(agent_id=ana.agent_id, entity_id=ana.entity_id))
    ).candidates
    await own.stub.ResolveCandidate(
        pb.ResolveCandidateRequest(
            agent_id=ana.agent_id, entity_id=ana.entity_id, candidate_id=pending.id, resolution=pb.RESOLUTION_ACCEPT
        )
    )
    page = await fact_page(own, ana, fact_id)
    quotes = re.findall(r"“([^”]*)”", page.split('id="sources"', 1)[1].split("</ul>", 1)[0])
    assert quotes == ["I live in Lisbon.", "We moved to Porto in May."], quotes
    history = page.split('id="history"', 1)[1].split("</ol>", 1)[0]
    assert re.findall(r"“([^”]*)”", history) == quotes  # beside "created" and "contradicted", the same sentences
