"""The review page's layout in a real headless Chromium, at 390 px (a phone) and 1280 px (a desktop): every view fits
its width, one long unbreakable word (a pasted token, a claim without spaces) wraps inside its own box, the agent
is named in the header, the Add form's select shows its longest option, and the people and agent lists keep every
column on a phone's screen."""

from __future__ import annotations

from uuid import uuid4

import pytest
from playwright.async_api import BrowserContext, Page, ViewportSize, expect

from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service
from tests.support.fm import Person, add_durable, change, facts_reply
from tests.support.llm_stub import Reply, ScriptedLLM
from tests.test_page import MEASURE, browser, learn, page_url, signed_in_page

__all__ = ["browser", "page_url"]  # fixtures used by name below

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
TOKEN_260 = "tok_" + "A1b2C3d4E5" * 25 + "xyz123"  # 260 characters, no break opportunity
CLAIM_400 = "uses-the-password-" + "x" * 382  # 400 characters without a space
PASTED = f"My API key is {TOKEN_260} ok"
AGENT_NAME = "Eliza the patient reviewer"


async def fits(page: Page, selector: str, width: int) -> None:
    """Every element matching selector: its box inside the viewport and its text inside its box."""
    boxes = page.locator(selector)
    await expect(boxes.first).to_be_visible()
    for i in range(await boxes.count()):
        found: dict[str, float] = await boxes.nth(i).evaluate(MEASURE)
        assert found["scroll"] <= width, (selector, found)  # the page does not scroll sideways
        assert found["right"] <= width + 0.5, (selector, found)
        assert found["text_right"] <= found["right"] + 0.5, (selector, found)


async def no_sideways_scroll(page: Page, width: int) -> None:
    scroll = await page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, (page.url, scroll)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390px", "1280px"])
async def test_long_unbreakable_words_wrap_inside_their_box_on_every_view(
    service: Service,
    llm: ScriptedLLM,
    page_url: str,
    browser: BrowserContext,
    viewport: ViewportSize,
) -> None:
    width = viewport["width"]
    lee = Person("Lee")
    await service.stub.RegisterAgent(pb.RegisterAgentRequest(agent_id=lee.agent_id, name=AGENT_NAME))
    learned = await learn(service, llm, lee, PASTED, add_durable(CLAIM_400, "preference"))
    fact_id = learned.ops[0].fact.id
    await learn(service, llm, lee, "I live in Oslo", add_durable("lives in Oslo", "identity"))
    await learn(service, llm, lee, f"moved: {TOKEN_260}", change("contradict", "D1", TOKEN_260, CLAIM_400 + "y"))
    agent = f"{page_url}/agents/{lee.agent_id}"
    fact = f"{agent}/entities/{lee.entity_id}/facts/{fact_id}"
    views = {  # each view, and the boxes in it that hold the long words (or the form they could push away)
        f"{agent}/entities/{lee.entity_id}": ("#durable td.claim",),
        fact: ("h1.claim-title", "#sources blockquote", "#history li", "#edit-fact label", "#edit-fact button"),
        f"{fact}/delete": ("#doomed",),
        f"{agent}/queue": ("#queue .side .claim", "#queue blockquote.said", "#queue .model-reason", "#queue button"),
        f"{agent}/entities": ("#entities td",),
        f"{page_url}/?agent=patient": ("#agents td",),
    }
    page = await signed_in_page(browser, page_url, viewport)
    for url, boxes in views.items():
        await page.goto(url)
        if "/agents/" in url:  # the header names the agent
            await expect(page.locator("#agent-name")).to_have_text(AGENT_NAME)
        for selector in boxes:
            await fits(page, selector, width)
        await no_sideways_scroll(page, width)


async def test_a_phone_sees_every_column_of_the_agent_and_people_lists(
    service: Service, llm: ScriptedLLM, page_url: str, browser: BrowserContext
) -> None:
    kim = Person("Kim Okafor")
    await service.stub.RegisterAgent(pb.RegisterAgentRequest(agent_id=kim.agent_id, name=AGENT_NAME))
    await learn(service, llm, kim, "I love coffee", add_durable("loves coffee", "preference"))
    await learn(service, llm, kim, "coffee is awful now", add_durable("hates coffee", "preference"))
    page = await signed_in_page(browser, page_url, PHONE)
    for view, table in (
        (f"{page_url}/?agent=patient", "#agents"),
        (f"{page_url}/agents/{kim.agent_id}/entities", "#entities"),
    ):
        await page.goto(view)
        await no_sideways_scroll(page, PHONE["width"])
        await fits(page, f"{table} td", PHONE["width"])  # every cell on screen, Pending and Last activity too
    await expect(page.locator("#agent-name")).to_have_text(AGENT_NAME)


async def test_the_add_forms_select_shows_its_longest_option_at_1280px(
    service: Service, llm: ScriptedLLM, page_url: str, browser: BrowserContext
) -> None:
    ida = Person("Ida")
    await learn(service, llm, ida, "I live in Rome", add_durable("lives in Rome", "identity"))
    page = await signed_in_page(browser, page_url, DESKTOP)
    await page.goto(f"{page_url}/agents/{ida.agent_id}/entities/{ida.entity_id}")
    select = page.locator("#add-fact select[name=kind_category]")
    # The widest option's text, set in a probe with the select's font, against the room the select gives its text.
    room: dict[str, float] = await select.evaluate(
        """(s) => {
            const probe = document.createElement("span");
            probe.style.cssText = "position:absolute;white-space:nowrap;visibility:hidden";
            probe.style.font = getComputedStyle(s).font;
            document.body.appendChild(probe);
            let widest = 0;
            for (const o of s.options) {
                probe.textContent = o.text;
                widest = Math.max(widest, probe.getBoundingClientRect().width);
            }
            probe.remove();
            return {widest: widest, select: s.getBoundingClientRect().width};
        }"""
    )
    # 10 px of padding on each side and about 20 px for the arrow.
    assert room["select"] >= room["widest"] + 40, room


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390px", "1280px"])
async def test_a_queue_items_badge_and_date_each_stay_on_one_line(
    service: Service, llm: ScriptedLLM, page_url: str, browser: BrowserContext, viewport: ViewportSize
) -> None:
    """The queue's item head on a phone: the source badge ("shared claim", "dedup conflict") never breaks inside a
    word and the date is one line, whatever the person's name; the head wraps between them instead."""
    width = viewport["width"]
    kim = Person("Kimberly Alexandra Montgomery-Fitzgerald")
    await learn(service, llm, kim, "I live in Oslo", add_durable("lives in Oslo", "identity"))
    await learn(service, llm, kim, "moved to Bergen", change("contradict", "D1", "moved", "lives in Bergen"))
    stranger = kim.evaluate("The hackathon moved to Friday", world_id=str(uuid4()), speaker_roles=["NONE"])
    claim = add_durable("the hackathon moved to Friday", "life_event") | {"scope": "shared"}
    llm.on(stranger.message.text, Reply(facts_reply(claim)))
    await service.stub.Evaluate(stranger)
    page = await signed_in_page(browser, page_url, viewport)
    await page.goto(f"{page_url}/agents/{kim.agent_id}/queue")
    heads = page.locator("#queue article.item header")
    assert await heads.count() == 2
    for i in range(2):
        head = heads.nth(i)
        badge = await head.locator(".badge").evaluate(MEASURE)
        date = await head.locator(".muted").evaluate(MEASURE)
        assert badge["lines"] == 1 and date["lines"] == 1, (i, badge, date)
        assert badge["right"] <= width and date["right"] <= width
    shared = page.locator('#queue article[data-source="shared_claim"] .badge')
    await expect(shared).to_have_text("shared claim")
    await no_sideways_scroll(page, width)
