"""A batch respects FACTMEMORY_PROMPT_MAX_TOKENS: its messages share what the budget leaves after the instructions
and the known facts, fairly (a short message keeps all of it; the long ones are cut evenly, each marked with an
ellipsis), at the legal maximum: 16 messages of the maximum message length, at the default budget and the least."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from factmemory.domain.limits import MIN_BATCH_MESSAGE_TOKENS
from factmemory.domain.prompts import fair_shares
from factmemory.domain.text import estimate_tokens
from tests.conftest import Service, make_settings, start_service
from tests.support.fm import NOW, Person, add_durable
from tests.support.llm_stub import ScriptedLLM, batch_messages, per_message

MAX_MESSAGES = 16  # Settings.max_batch_messages
MAX_CHARS = 8_000  # Settings.max_text_chars


@pytest_asyncio.fixture(params=[2_500, 1_000], ids=["default budget", "least budget"])
async def budgeted(
    request: pytest.FixtureRequest, pg_url: str, llm: ScriptedLLM, tmp_path: Path
) -> AsyncIterator[tuple[Service, int]]:
    settings = make_settings(pg_url, llm, tmp_path, prompt_max_tokens=request.param)
    async for service in start_service(settings):
        yield service, request.param


def prompt_tokens(call: dict[str, Any]) -> int:
    return sum(estimate_tokens(m["content"]) for m in call["messages"])


async def test_sixteen_messages_of_the_maximum_length_fit_the_budget(
    budgeted: tuple[Service, int], llm: ScriptedLLM
) -> None:
    service, budget = budgeted
    llm.default = per_message(
        lambda i, _text: [add_durable("likes long letters", "preference")] if i == 0 else [],
        relationships=[],
        identities=[],
        success={"completed": True, "reason": "ok"},
    )
    person = Person()
    # A known fact, so the known-facts block is part of what the budget must hold.
    await service.stub.EvaluateBatch(person.batch(person.message("short hello", NOW)))
    texts = [f"message {i:02d} " + "x" * (MAX_CHARS - 11) for i in range(MAX_MESSAGES - 1)]
    texts.insert(3, "a short one, kept whole")
    sent = [person.message(t, NOW) for t in texts]
    response = await service.stub.EvaluateBatch(person.batch(*sent))
    assert len(response.results) == MAX_MESSAGES and response.usage.llm_calls == 1

    call = [r for r in llm.requests if "messages" in r][-1]
    assert prompt_tokens(call) <= budget
    shown = batch_messages(call)
    assert len(shown) == MAX_MESSAGES  # every message is seen
    assert shown[3] == "a short one, kept whole"
    long_ones = [estimate_tokens(t) for i, t in enumerate(shown) if i != 3]
    assert max(long_ones) - min(long_ones) <= 1  # cut evenly
    assert all(t.startswith("message ") and t.endswith("\u2026") for i, t in enumerate(shown) if i != 3)
    if budget == 2_500:
        assert min(long_ones) > 100  # the default budget leaves each message far more than the floor


def test_fair_shares_give_short_texts_all_and_split_the_rest_evenly() -> None:
    assert fair_shares([10, 500, 500], 400, 1_000) == [10, 195, 195]
    assert fair_shares([10, 20], 1_000, 15) == [10, 15]  # never beyond the per-message cap
    assert fair_shares([500, 500], 0, 1_000) == [MIN_BATCH_MESSAGE_TOKENS] * 2  # every message is still seen
    assert fair_shares([5, 500], 0, 1_000) == [5, MIN_BATCH_MESSAGE_TOKENS]
    assert sum(fair_shares([300] * 16, 1_600, 1_000)) == 1_600
