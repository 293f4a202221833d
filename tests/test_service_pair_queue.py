"""The possible-duplicate queue (issue 25): likeliest pairs first, a few per prompt, unshown pairs expire.

Real gRPC, real PostgreSQL + pgvector, the real local embedder, the scripted LLM.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from uuid import UUID

from factmemory.domain.dedup.planning import PAIR_TTL_REVISIONS
from factmemory.domain.limits import MAX_PAIRS_SHOWN
from factmemory.domain.models import Kind, Verification
from factmemory.domain.new_fact import NewFact
from tests.conftest import Service
from tests.support.fm import NOW, Person, add_current, add_durable, facts_of, facts_reply, new_id
from tests.support.llm_stub import Reply, ScriptedLLM
from tests.test_service_duplicates import handles, learn, marked, merge, prompt_of

PAIR_STATES = """
SELECT f.claim AS first, o.claim AS second, p.status, p.closed_at
  FROM possible_duplicates p JOIN facts f ON f.id = p.fact_id JOIN facts o ON o.id = p.other_fact_id
 WHERE p.agent_id = $1 AND p.entity_id = $2
"""

CLAIMS = [f"{hobby} on weekends" for hobby in ("hikes", "paints", "sails", "cycles", "climbs", "fishes", "rows")]


async def stored_pairs(service: Service, person: Person, likelihoods: list[float]) -> list[frozenset[str]]:
    """Facts and pairs written straight through the store, pair i between CLAIMS[i] and a variant, likelihood[i]."""
    claims = [c for i in range(len(likelihoods)) for c in (CLAIMS[i], CLAIMS[i].replace("weekends", "Sundays"))]
    vectors = await service.deps.embedder.passages(claims)
    async with service.store.writing(UUID(person.agent_id), UUID(person.entity_id)) as turn:
        ids = []
        for claim, vector in zip(claims, vectors, strict=True):
            new = NewFact(
                kind=Kind.DURABLE,
                category="preference",
                claim=claim,
                structured_fields={},
                confidence=0.7,
                message_id=new_id(),
                verification=Verification.SELF_REPORTED,
                at=NOW,
                valid_at=None,
                embedding=vector,
                embedding_model=service.deps.embedder.model_name,
            )
            ids.append((await turn.insert_fact(new)).id)
        for i, likelihood in enumerate(likelihoods):
            await turn.insert_pair(ids[2 * i], ids[2 * i + 1], 0.95, "test", new_id(), NOW, likelihood)
    return [frozenset(claims[2 * i : 2 * i + 2]) for i in range(len(likelihoods))]


def marked_claims(prompt: str) -> set[frozenset[str]]:
    by_handle = {handle: claim for claim, handle in handles(prompt).items()}
    return {frozenset(by_handle[h] for h in pair) for pair in marked(prompt)}


async def test_the_likeliest_pairs_are_shown_first_whatever_their_age(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    likelihoods = [0.01, 0.02, 0.15, 0.03, 0.12, 0.09]  # recorded in this order: the oldest are the least likely
    pairs = await stored_pairs(service, person, likelihoods)
    await learn(service, llm, person, "what do I do on weekends?")
    best = sorted(range(len(pairs)), key=lambda i: -likelihoods[i])[:MAX_PAIRS_SHOWN]
    assert marked_claims(prompt_of(llm, "what do I do on weekends?")) == {pairs[i] for i in best}
    await learn(service, llm, person, "and on holidays?")  # the shown pairs are closed: the next ones follow
    rest = sorted(range(len(pairs)), key=lambda i: -likelihoods[i])[MAX_PAIRS_SHOWN:]
    assert marked_claims(prompt_of(llm, "and on holidays?")) == {pairs[i] for i in rest}


async def test_a_pair_not_shown_within_the_ttl_expires(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    [pair] = await stored_pairs(service, person, [0.2])
    agent, entity = UUID(person.agent_id), UUID(person.entity_id)
    for _ in range(PAIR_TTL_REVISIONS - 1):  # turns that show no pair (writes under the lock: reviews, imports)
        async with service.store.writing(agent, entity):
            pass
    [still] = await service.store.open_pairs(agent, entity, MAX_PAIRS_SHOWN, PAIR_TTL_REVISIONS)
    assert frozenset((still.first.claim, still.second.claim)) == pair
    async with service.store.writing(agent, entity):
        pass
    assert await service.store.open_pairs(agent, entity, MAX_PAIRS_SHOWN, PAIR_TTL_REVISIONS) == []
    await learn(service, llm, person, "what do I do on weekends?", add_durable("reads on the train", "preference"))
    assert not marked(prompt_of(llm, "what do I do on weekends?"))


async def test_a_merge_of_facts_that_name_different_things_is_rejected(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    await learn(service, llm, person, "pilot one", add_current("working on the Marigold pilot", "working_on"))
    await learn(service, llm, person, "pilot two", add_current("working on the Sandpiper pilot", "working_on"))
    llm.on("how are my pilots?", Reply(facts_reply()))
    await service.stub.Evaluate(person.evaluate("how are my pilots?"))
    shown = handles(prompt_of(llm, "how are my pilots?"))
    keep, duplicate = shown["working on the Marigold pilot"], shown["working on the Sandpiper pilot"]
    response = await learn(service, llm, person, "merge them", merge(keep, duplicate))
    [op] = response.ops
    assert op.rejected and "names differ" in op.reason
    assert {f.claim for f in await facts_of(service, person)} == {
        "working on the Marigold pilot",
        "working on the Sandpiper pilot",
    }


async def test_a_merge_of_one_frame_about_different_things_is_rejected(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    visit, works = "feeling irritable about the family visit", "feeling irritable about the neighbours' renovation"
    await learn(service, llm, person, "visit", add_current(visit, "feeling"))
    await learn(service, llm, person, "works", add_current(works, "feeling"))
    llm.on("how am I?", Reply(facts_reply()))
    await service.stub.Evaluate(person.evaluate("how am I?"))
    shown = handles(prompt_of(llm, "how am I?"))
    assert not marked(prompt_of(llm, "how am I?"))  # a pair whose merge would be refused is not offered
    response = await learn(service, llm, person, "merge them", merge(shown[visit], shown[works]))
    [op] = response.ops
    assert op.rejected and op.reason.startswith("not merged, they are about different things: what 'about'")
    assert {f.claim for f in await facts_of(service, person)} == {visit, works}


async def pair_states(service: Service, person: Person) -> dict[frozenset[str], tuple[str, datetime | None]]:
    async with service.pool.acquire() as conn:
        rows = await conn.fetch(PAIR_STATES, UUID(person.agent_id), UUID(person.entity_id))
    return {frozenset((r["first"], r["second"])): (r["status"], r["closed_at"]) for r in rows}


async def test_the_turn_that_ages_a_pair_out_closes_it_as_expired(service: Service, llm: ScriptedLLM) -> None:
    person = Person()
    *likely, unlikely = await stored_pairs(service, person, [0.3, 0.3, 0.3, 0.01])
    agent, entity = UUID(person.agent_id), UUID(person.entity_id)

    async def turns_without_evaluate(n: int) -> None:  # writes under the lock that show no pair (reviews, imports)
        for _ in range(n):
            async with service.store.writing(agent, entity):
                pass

    async def evaluate(text: str, when: datetime) -> str:
        llm.on(text, Reply(facts_reply()))
        await service.stub.Evaluate(person.evaluate(text, when))
        return prompt_of(llm, text)

    await turns_without_evaluate(PAIR_TTL_REVISIONS - 2)
    first, second = NOW + timedelta(hours=1), NOW + timedelta(hours=2)  # the messages' times are the clock
    await evaluate("what do I do on weekends?", first)  # the last turn within the TTL: shows the likely three
    assert await pair_states(service, person) == {p: ("closed", first) for p in likely} | {unlikely: ("open", None)}
    await turns_without_evaluate(1)
    assert await service.store.open_pairs(agent, entity, MAX_PAIRS_SHOWN, PAIR_TTL_REVISIONS) == []
    assert marked(await evaluate("and on holidays?", second)) == set()
    assert (await pair_states(service, person))[unlikely] == ("expired", second)
