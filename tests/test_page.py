"""The review page end to end in a real headless Chromium (Debian's package, driven by Playwright): a database
seeded through the real service (Evaluate with the scripted LLM), every review task done by clicking, and the
database checked after each step. `--screenshots` also writes the main views to docs/screenshots/."""

from __future__ import annotations

import asyncio
import re
import shutil
import uuid
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import BrowserContext, Page, ViewportSize, async_playwright, expect

from factmemory.api.http.pages import PageConfig
from factmemory.api.http.server import PageListener
from factmemory.app import InsecureBind, check_bind, page_config
from factmemory.domain.models import Kind
from factmemory.domain.resolutions import check_category
from factmemory.settings import Settings
from factmemory.v1 import factmemory_pb2 as pb
from tests.conftest import Service
from tests.support.fm import NOW, Person, add_current, add_durable, change, days_ago, facts_reply
from tests.support.llm_stub import Reply, ScriptedLLM

CHROMIUM = Path("/usr/bin/chromium")
TOKEN = "page-test-token"
SCREENSHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCRIPT_CLAIM = 'said "<script>alert(1)</script>" is their favourite snippet'
# Every assertion on the page waits (up to this long) for what it expects: a click that navigates returns before the
# next page has loaded, and a busy machine can take seconds to answer.
expect.set_options(timeout=20_000)


async def learn(
    service: Service, llm: ScriptedLLM, person: Person, text: str, *ops: dict[str, object], days: float = 0.0
) -> pb.EvaluateResponse:
    llm.on(text, Reply(facts_reply(*ops)))
    response: pb.EvaluateResponse = await service.stub.Evaluate(person.evaluate(text, days_ago(days)))
    return response


@pytest_asyncio.fixture
async def page_url(service: Service) -> AsyncIterator[str]:
    # The seeded facts are dated around NOW; the page's clock is pinned a little later so weights are stable.
    config = PageConfig(token=TOKEN, clock=lambda: NOW + timedelta(hours=6))
    listener = PageListener(service.deps, config, "127.0.0.1:0")
    await listener.start()
    yield f"http://127.0.0.1:{listener.port}"
    await listener.stop()


def require_chromium() -> None:
    if not CHROMIUM.exists():
        pytest.skip(
            f"no browser at {CHROMIUM}: install Debian's chromium (`apt-get install -y chromium`, which "
            "./dev test does when run as root)"
        )


async def sign_in(page: Page, page_url: str) -> None:
    """Logs in through the form and waits until the page after the login's redirect has loaded."""
    await page.goto(f"{page_url}/login")
    await page.fill("#token", TOKEN)
    await page.click("button:has-text('Log in')")
    await expect(page.locator("button:has-text('Log out')")).to_have_count(1)


async def signed_in_page(browser: BrowserContext, page_url: str, viewport: ViewportSize) -> Page:
    """A new tab of the given size, logged in."""
    page = await browser.new_page()
    await page.set_viewport_size(viewport)
    await sign_in(page, page_url)
    return page


@pytest_asyncio.fixture
async def browser(tmp_path: Path) -> AsyncIterator[BrowserContext]:
    require_chromium()
    async with async_playwright() as p:
        context = await p.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=str(CHROMIUM),
            args=ARGS,
            headless=True,
            viewport={"width": 1280, "height": 900},
        )
        try:
            yield context
        finally:
            await context.close()


class Seed:
    """Two people of one agent and one of another agent, with facts and both kinds of review items."""

    def __init__(self) -> None:
        self.sam = Person("Sam Rivera")
        self.ada = Person("Ada Byrne", agent_id=self.sam.agent_id)
        self.stranger = Person("Other Agent's Person")


async def seed(service: Service, llm: ScriptedLLM) -> Seed:
    s = Seed()
    await learn(service, llm, s.sam, "I live in Berlin", add_durable("lives in Berlin", "identity"), days=40)
    await learn(
        service,
        llm,
        s.sam,
        "My sister Mia visits",
        add_durable("has a sister named Mia", "relationship", "confirmed"),
        days=30,
    )
    await learn(service, llm, s.sam, "I love coffee", add_durable("loves coffee", "preference"), days=20)
    await learn(
        service, llm, s.sam, "I want to run a marathon", add_durable("wants to run a marathon", "goal"), days=12
    )
    await learn(
        service,
        llm,
        s.sam,
        "I'm rewriting the auth flow",
        add_current("is rewriting the auth flow at work", "working_on"),
        days=9,
    )
    await learn(service, llm, s.sam, "my knee hurts", add_current("has a sore knee", "physical_state"), days=3)
    await learn(
        service,
        llm,
        s.sam,
        "nervous about Friday",
        add_current("is nervous about the Friday demo", "feeling"),
        days=0.5,
    )
    await learn(service, llm, s.sam, "look at this", add_durable(SCRIPT_CLAIM, "preference"), days=1)
    await learn(
        service,
        llm,
        s.sam,
        "actually I moved to Tokyo last month",
        change("contradict", "D1", "says they moved", "lives in Tokyo"),
        days=0.3,
    )
    await learn(service, llm, s.sam, "coffee is awful now", add_durable("hates coffee", "preference"), days=0.2)
    await learn(service, llm, s.ada, "I'm a nurse", add_durable("works as a nurse", "business_role"), days=2)
    await learn(service, llm, s.stranger, "I like tea", add_durable("likes tea", "preference"), days=2)
    return s


async def claims(service: Service, person: Person) -> set[str]:
    rows = await service.pool.fetch(
        "SELECT claim FROM facts WHERE agent_id = $1 AND entity_id = $2",
        uuid.UUID(person.agent_id),
        uuid.UUID(person.entity_id),
    )
    return {r["claim"] for r in rows}


async def candidate_status(service: Service, person: Person, proposed: str) -> str:
    status = await service.pool.fetchval(
        "SELECT status FROM fact_candidates WHERE agent_id = $1 AND entity_id = $2 AND proposed_claim = $3",
        uuid.UUID(person.agent_id),
        uuid.UUID(person.entity_id),
        proposed,
    )
    return str(status)


async def snap(page: Page, tmp_path: Path, name: str, keep: bool) -> None:
    path = tmp_path / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)
    if keep:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, SCREENSHOTS / f"{name}.png")


async def test_every_review_task_in_a_real_browser(
    service: Service,
    llm: ScriptedLLM,
    page_url: str,
    browser: BrowserContext,
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> None:
    keep = bool(request.config.getoption("--screenshots"))
    s = await seed(service, llm)
    agent = f"{page_url}/agents/{s.sam.agent_id}"
    sam = f"{agent}/entities/{s.sam.entity_id}"
    dialogs: list[str] = []
    page = await browser.new_page()
    page.on("dialog", lambda d: dialogs.append(d.message))

    # Logging in: the token goes through the form, never the URL; the session cookie is HttpOnly + Strict.
    await page.goto(f"{agent}/entities")
    assert page.url.startswith(f"{page_url}/login?next=")
    await expect(page.locator("#token")).to_have_count(1)
    assert await page.locator("button:has-text('Log out')").count() == 0  # nobody to log out yet
    await page.fill("#token", "wrong")
    await page.click("button:has-text('Log in')")
    await expect(page.locator("main")).to_contain_text("not right")
    await page.fill("#name", "Dana")
    await page.fill("#token", TOKEN)
    await page.click("button:has-text('Log in')")
    await expect(page).to_have_url(f"{agent}/entities")  # back where the login started
    await expect(page.locator("button:has-text('Log out')")).to_have_count(1)
    [session] = [c for c in await browser.cookies() if c["name"] == "fm_session"]
    assert session["httpOnly"] and session["sameSite"] == "Strict"

    # Entities: both people of this agent, not the other agent's; the queue count in the navigation.
    await page.goto(f"{agent}/entities")
    table = await page.inner_text("#entities")
    assert "Sam Rivera" in table and "Ada Byrne" in table and "Other Agent" not in table
    assert await page.inner_text("#queue-count") == "2"
    await snap(page, tmp_path, "entities", keep)
    await page.goto(f"{agent}/entities?done=Your+account+is+locked,+call+555")  # a link cannot inject a notice
    assert await page.locator(".notice").count() == 0
    await page.fill("#q", "ada")
    await page.click("button:has-text('Search')")
    await expect(page).to_have_url(re.compile(r"[?&]q=ada"))
    await expect(page.locator("#entities")).to_contain_text("Ada Byrne")
    await expect(page.locator("#entities")).not_to_contain_text("Sam Rivera")

    # One entity: two lists, the disputed fact marked, the <script> claim shown as text and never run.
    await page.goto(sam)
    durable = await page.inner_text("#durable")
    assert SCRIPT_CLAIM in durable and "lives in Berlin" in durable
    assert await page.locator("script").count() == 0 and dialogs == []
    berlin = page.locator("#durable tr", has_text="lives in Berlin")
    assert "disputed" in await berlin.inner_text() and "lives in Tokyo" in await berlin.inner_text()
    current = await page.inner_text("#current")
    assert current.index("nervous about the Friday demo") < current.index("rewriting the auth flow")
    assert await page.locator("svg.chart circle.dot").count() == 3
    await snap(page, tmp_path, "entity", keep)

    # Queue: each button says what it does, none is highlighted for opposites; accept the contradiction, reject
    # the conflict; the database after each.
    await page.goto(f"{agent}/queue")
    assert await page.locator("#queue article").count() == 2
    assert await page.locator("#queue button.primary").count() == 0
    coffee = page.locator("#queue article", has_text="hates coffee")
    assert await coffee.locator("button[value=merge]").inner_text() == "Replace ‘loves coffee’ with ‘hates coffee’"
    assert await coffee.locator("button[value=keep_both]").inner_text() == "Keep both"
    assert "delete the new fact ‘hates coffee’" in await coffee.inner_text()
    # The person's own words beside each item; the model's reason labelled as the model's.
    tokyo = page.locator("#queue article", has_text="lives in Tokyo")
    assert await tokyo.locator("blockquote.said").text_content() == "“actually I moved to Tokyo last month”"
    assert await tokyo.locator(".model-reason").text_content() == "The model's reason: says they moved"
    assert await coffee.locator("blockquote.said").text_content() == "“coffee is awful now”"
    await snap(page, tmp_path, "queue", keep)
    await page.click("a:has-text('contradict')")
    await expect(page).to_have_url(re.compile(r"source=contradict"))
    await expect(page.locator("#queue article")).to_have_count(1)
    await page.click("#queue article button[value=accept]")
    await expect(page.locator(".notice")).to_contain_text("Accepted")
    assert "lives in Tokyo" in await claims(service, s.sam) and "lives in Berlin" not in await claims(service, s.sam)
    assert await candidate_status(service, s.sam, "lives in Tokyo") == "accepted"
    await page.goto(f"{agent}/queue")
    conflict = page.locator("#queue article", has_text="hates coffee")
    await conflict.locator("button[value=reject]").click()
    await expect(page.locator(".notice")).to_contain_text("Rejected")
    assert await candidate_status(service, s.sam, "hates coffee") == "rejected"
    assert "loves coffee" in await claims(service, s.sam) and "hates coffee" not in await claims(service, s.sam)
    await expect(page.locator("#queue-count")).to_have_text("0")

    # Edit the fact just corrected, through its history page; the history shows both changes and who made them.
    await page.goto(sam)
    await page.locator("#durable tr", has_text="lives in Tokyo").locator("a:has-text('history')").click()
    await page.fill("#edit-fact input[name=claim]", "lives in Tokyo, in Shibuya")
    await page.fill("#edit-fact input[name=confidence]", "0.9")
    await page.click("#edit-fact button[type=submit]")
    await expect(page.locator(".notice")).to_contain_text("Fact saved")
    row = await service.pool.fetchrow(
        "SELECT claim, confidence FROM facts WHERE entity_id = $1 AND claim LIKE $2",
        uuid.UUID(s.sam.entity_id),
        "lives in%",
    )
    assert row is not None and row["claim"] == "lives in Tokyo, in Shibuya" and row["confidence"] == 0.9
    history = await page.inner_text("#history")
    assert "candidate accepted" in history and "edited" in history and "reviewer:Dana" in history
    # Where it came from: the sentence each message said, kept with its evaluation.
    assert "I live in Berlin" in await page.inner_text("#sources")
    assert "I live in Berlin" in history  # beside the history entry of the message that created the fact
    await snap(page, tmp_path, "history", keep)

    # Delete a fact from the entity page.
    await page.goto(sam)
    await page.locator("#current tr", has_text="has a sore knee").locator("a[data-action=delete]").click()
    await expect(page.locator("#doomed")).to_have_text("has a sore knee")  # Delete asks first, naming the fact
    assert "has a sore knee" in await claims(service, s.sam)
    await page.click("#delete button:has-text('Delete the fact')")
    await expect(page.locator(".notice")).to_contain_text("Fact deleted")
    await expect(page.locator("main")).not_to_contain_text("has a sore knee")
    assert "has a sore knee" not in await claims(service, s.sam)

    # Add a fact. Only valid kind/category pairs are offered; a refused add comes back on the person's page with
    # what was typed and the reason (here a pair forged in the browser, which the server refuses).
    offered = await page.locator("#add-fact select[name=kind_category] option").evaluate_all(
        "options => options.map(o => o.value)"
    )
    assert "durable:identity" in offered and "current:feeling" in offered
    assert all(check_pair(value) for value in offered)
    select = page.locator("#add-fact select[name=kind_category]")
    await select.evaluate("s => { s.options[0].value = 'current:identity' }")
    await page.fill("#add-fact input[name=claim]", "speaks Portuguese")
    await page.fill("#add-fact input[name=confidence]", "0.8")
    await page.click("#add-fact button[type=submit]")
    await expect(page).to_have_url(re.compile(re.escape(f"{sam}/facts")))
    await expect(page.locator("#add-error")).to_contain_text("not a current category")
    assert await page.input_value("#add-fact input[name=claim]") == "speaks Portuguese"
    assert await page.input_value("#add-fact input[name=confidence]") == "0.8"
    assert "speaks Portuguese" not in await claims(service, s.sam)
    await page.select_option("#add-fact select[name=kind_category]", "durable:identity")
    await page.click("#add-fact button[type=submit]")
    await expect(page.locator(".notice")).to_contain_text("Fact added")
    assert "speaks Portuguese" in await claims(service, s.sam)

    # CSRF: a post without the token (or with a wrong one) is refused and changes nothing.
    fact_id = await service.pool.fetchval(
        "SELECT id FROM facts WHERE entity_id = $1 AND claim = $2", uuid.UUID(s.sam.entity_id), "speaks Portuguese"
    )
    refused = await page.request.post(f"{sam}/facts/{fact_id}/delete", form={"x": "1"})
    assert refused.status == 403
    refused = await page.request.post(f"{sam}/facts/{fact_id}/delete", form={"csrf_token": "guess"})
    assert refused.status == 403
    assert "speaks Portuguese" in await claims(service, s.sam)

    # Scope: the other agent's entity and fact ids under this agent are not found.
    other = await page.goto(f"{agent}/entities/{s.stranger.entity_id}")
    assert other is not None and other.status == 404
    ada_fact = await service.pool.fetchval("SELECT id FROM facts WHERE entity_id = $1", uuid.UUID(s.ada.entity_id))
    crossed = await page.goto(f"{sam}/facts/{ada_fact}")
    assert crossed is not None and crossed.status == 404

    # Export and forget, each after a confirmation page.
    await page.goto(f"{agent}/entities/{s.ada.entity_id}")
    await page.click("a:has-text('Export')")
    async with page.expect_download() as download:
        await page.click("#export button")
    exported = await asyncio.to_thread(Path(await (await download.value).path()).read_text)
    assert "works as a nurse" in exported
    await page.goto(f"{agent}/entities/{s.ada.entity_id}")
    await page.click("a:has-text('Forget')")
    await page.fill("#forget input[name=confirm]", "not the id")
    await page.click("#forget button")
    await expect(page.locator("main")).to_contain_text("type the entity id to confirm")
    assert await claims(service, s.ada) == {"works as a nurse"}
    await page.goto(f"{agent}/entities/{s.ada.entity_id}/forget")
    await page.fill("#forget input[name=confirm]", s.ada.entity_id)
    await page.click("#forget button")
    await expect(page.locator(".notice")).to_contain_text("forgotten")
    assert await claims(service, s.ada) == set()
    assert await claims(service, s.stranger) == {"likes tea"}
    assert dialogs == []


LONG_CLAIM = (
    "is planning a three week cycling trip along the Atlantic coast from Porto to Bordeaux next summer with "
    "their partner and two friends, carrying a tent, a small stove and far too many spare inner tubes"
)
PHONE: ViewportSize = {"width": 390, "height": 844}


# Lines are counted from the boxes the browser laid the text out in (one client rect per line of each text node),
# never from computed-style strings such as a line height of `normal`. A rect starting below the previous line's
# bottom starts a new line; smaller text on the same line (a badge) overlaps it and does not.
MEASURE = """(e) => {
    const rects = [];
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const r of range.getClientRects()) if (r.width > 0 && r.height > 0) rects.push(r);
    }
    rects.sort((a, b) => a.top - b.top);
    let lines = 0, bottom = -Infinity, widest = 0;
    for (const r of rects) {
        if (r.top >= bottom - 1) { lines += 1; bottom = r.bottom; } else { bottom = Math.max(bottom, r.bottom); }
        widest = Math.max(widest, r.right);
    }
    const box = e.getBoundingClientRect();
    return {scroll: document.documentElement.scrollWidth, view: window.innerWidth, width: box.width,
            right: box.right, height: box.height, lines: lines, text_right: widest};
}"""


async def layout(page: Page, selector: str) -> dict[str, float]:
    """Measured in the browser: page overflow, the element's box, its lines of text and their right edge."""
    target = page.locator(selector).first
    await expect(target).to_be_visible()
    found: dict[str, float] = await target.evaluate(MEASURE)
    return found


async def test_every_view_fits_a_phone_and_long_claims_wrap_by_words(
    service: Service,
    llm: ScriptedLLM,
    page_url: str,
    browser: BrowserContext,
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> None:
    keep = bool(request.config.getoption("--screenshots"))
    kim = Person("Kim Okafor")
    await learn(service, llm, kim, "We plan the big ride", add_durable(LONG_CLAIM, "goal"), days=5)
    await learn(service, llm, kim, "I love coffee", add_durable("loves coffee", "preference"), days=4)
    await learn(service, llm, kim, "I live in Lyon", add_durable("lives in Lyon", "identity"), days=3)
    await learn(service, llm, kim, "I'm anxious today", add_current("is anxious today", "feeling"), days=0.2)
    await learn(service, llm, kim, "coffee is awful now", add_durable("hates coffee", "preference"), days=0.2)
    await learn(
        service, llm, kim, "moved to Nantes", change("contradict", "D3", "says they moved", "lives in Nantes"), days=0.1
    )
    agent = f"{page_url}/agents/{kim.agent_id}"
    kim_url = f"{agent}/entities/{kim.entity_id}"
    page = await signed_in_page(browser, page_url, PHONE)

    await page.goto(kim_url)
    row = await layout(page, f"#durable tr[data-fact] td.claim:has-text('{LONG_CLAIM[:30]}')")
    assert row["scroll"] <= PHONE["width"], row  # nothing sticks out sideways
    assert row["right"] <= PHONE["width"] and row["width"] > 300, row  # the claim has the width of the card
    assert 3 <= row["lines"] <= len(LONG_CLAIM) / 25, row  # whole words per line, never a letter per line
    short = await layout(page, "#durable td.claim:has-text('loves coffee')")
    assert short["lines"] <= 2, short  # the claim and its dispute line, not a column of letters
    await snap(page, tmp_path, "phone-entity", keep)

    await page.goto(f"{agent}/queue")
    item = await layout(page, "#queue article")
    assert item["scroll"] <= PHONE["width"] and item["right"] <= PHONE["width"], item
    await snap(page, tmp_path, "phone-queue", keep)

    await page.goto(f"{agent}/entities")
    listed = await layout(page, "#entities")
    assert listed["scroll"] <= PHONE["width"], listed  # the table scrolls inside its box if it must

    await page.goto(kim_url)
    await page.locator("#durable tr", has_text=LONG_CLAIM[:30]).locator("a:has-text('history')").click()
    title = await layout(page, "h1.claim-title")
    assert title["scroll"] <= PHONE["width"] and 2 <= title["lines"] <= len(LONG_CLAIM) / 20, title
    await expect(page.locator("#sources")).to_contain_text("We plan the big ride")
    await snap(page, tmp_path, "phone-history", keep)


def check_pair(value: str) -> bool:
    kind, _, category = value.partition(":")
    return check_category(Kind(kind), category) == category


async def test_without_a_session_the_page_needs_the_bearer_header(page_url: str, browser: BrowserContext) -> None:
    api = browser.request
    agent = f"{page_url}/agents/{uuid.uuid4()}/entities"
    anonymous = await api.get(agent, max_redirects=0)
    assert anonymous.status == 303 and anonymous.headers["location"].startswith("/login?next=")
    in_url = await api.get(f"{agent}?token={TOKEN}", max_redirects=0)
    assert in_url.status == 303
    bearer = await api.get(agent, headers={"Authorization": f"Bearer {TOKEN}"})
    assert bearer.status == 200 and "knows nobody yet" in await bearer.text()
    assert "default-src 'none'" in bearer.headers["content-security-policy"]
    posted = await api.post(f"{page_url}/logout", max_redirects=0)
    assert posted.status == 401


async def test_the_page_answers_only_to_its_host_names(page_url: str, browser: BrowserContext) -> None:
    # A DNS-rebinding page on another name must not read this one, even with the token it does not have.
    rebound = await browser.request.get(f"{page_url}/login", headers={"Host": "evil.example"})
    assert rebound.status == 400
    assert (await browser.request.get(f"{page_url}/login")).status == 200


def test_the_page_refuses_a_remote_bind_without_a_token(tmp_path: Path) -> None:
    with pytest.raises(InsecureBind):
        check_bind(Settings(http_listen="0.0.0.0:8080", data_dir=tmp_path))
    check_bind(Settings(http_listen="0.0.0.0:8080", auth_token="t", data_dir=tmp_path))
    check_bind(Settings(http_listen="127.0.0.1:8080", data_dir=tmp_path))
    assert page_config(Settings(http_listen="0.0.0.0:8080", auth_token="t")).allowed_hosts == ("*",)
    assert "localhost" in page_config(Settings(http_listen="127.0.0.1:8080")).allowed_hosts
    assert "[::1]" in page_config(Settings(http_listen="[::1]:8080")).allowed_hosts
