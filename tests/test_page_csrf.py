"""CSRF against a page on ANOTHER PORT of the same host, in a real Chromium: cookies are not isolated by port and
SameSite treats every port as the same site, so such a page can overwrite the page's cookies and post forms that
carry the reviewer's session. The tokens live with the server-side session and every post must come from the
page's own origin, so each attack below is refused and the person's facts remain; the normal flow still works."""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import AsyncIterator

import pytest_asyncio
from playwright.async_api import APIRequestContext, BrowserContext, Page, async_playwright, expect

from factmemory.api.http.security import cross_origin
from tests.conftest import Service
from tests.support.fm import Person, add_durable
from tests.support.llm_stub import ScriptedLLM
from tests.test_page import TOKEN, browser, claims, learn, page_url, sign_in

__all__ = ["browser", "page_url"]  # fixtures used by name below


class OtherSite:
    """A bare HTTP server on another port of 127.0.0.1, answering each path with the headers and HTML set for it."""

    def __init__(self) -> None:
        self.pages: dict[str, tuple[list[str], str]] = {}
        self.port = 0
        self._server: asyncio.Server | None = None

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._answer, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        assert self._server is not None
        self._server.close()
        await self._server.wait_closed()

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError:  # a connection the browser opened ahead and closed unused
            writer.close()
            return
        path = head.split(b" ", 2)[1].decode()
        headers, body = self.pages.get(path, ([], "not here"))
        status = "200 OK" if path in self.pages else "404 Not Found"
        lines = [f"HTTP/1.1 {status}", "content-type: text/html", f"content-length: {len(body.encode())}"]
        lines += [*headers, "connection: close", "", ""]
        writer.write("\r\n".join(lines).encode() + body.encode())
        await writer.drain()
        writer.close()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"


@pytest_asyncio.fixture
async def outside() -> AsyncIterator[list[APIRequestContext]]:
    """Two HTTP clients outside the browser, each with its own cookies (not a browser: no Origin unless given)."""
    async with async_playwright() as p:
        clients = [await p.request.new_context(), await p.request.new_context()]
        yield clients
        for client in clients:
            await client.dispose()


TOKEN_IN_FORM = re.compile(r'name="csrf_token" value="([^"]+)"')


async def form_token(client: APIRequestContext, url: str) -> str:
    found = TOKEN_IN_FORM.search(await (await client.get(url)).text())
    assert found is not None
    return found[1]


async def session_of(client: APIRequestContext) -> str:
    return next(c["value"] for c in (await client.storage_state())["cookies"] if c["name"] == "fm_session")


@pytest_asyncio.fixture
async def other_site() -> AsyncIterator[OtherSite]:
    site = OtherSite()
    await site.start()
    yield site
    await site.stop()


def posting_page(action: str, fields: dict[str, str]) -> str:
    """A page that posts a form to `action` as soon as it loads (what a hostile local dev server would serve)."""
    inputs = "".join(f'<input name="{html.escape(k)}" value="{html.escape(v)}">' for k, v in fields.items())
    return (
        f'<html><body><form id="f" method="post" action="{html.escape(action)}">{inputs}</form>'
        '<script>document.getElementById("f").submit()</script></body></html>'
    )


async def visit(page: Page, url: str) -> int:
    """Opens the hostile page and waits until its form was posted; the status of the page's answer."""
    async with page.expect_response(lambda r: r.request.method == "POST") as answered:
        await page.goto(url)
    return (await answered.value).status


async def csrf_of(page: Page) -> str:
    value = await page.locator("input[name=csrf_token]").first.get_attribute("value")
    assert value
    return value


async def test_a_page_on_another_port_cannot_forget_a_person(
    service: Service,
    llm: ScriptedLLM,
    page_url: str,
    browser: BrowserContext,
    other_site: OtherSite,
    outside: list[APIRequestContext],
) -> None:
    ada = Person("Ada Byrne")
    await learn(service, llm, ada, "I'm a nurse", add_durable("works as a nurse", "business_role"))
    forget = f"{page_url}/agents/{ada.agent_id}/entities/{ada.entity_id}/forget"
    page = await browser.new_page()
    await sign_in(page, page_url)
    await page.goto(forget)
    victims_token = await csrf_of(page)

    # 1. Overwrite a CSRF cookie with a value of its choice and post that value (the attack of the old page).
    other_site.pages["/chosen"] = (
        ["set-cookie: fm_csrf=chosen; Path=/", "set-cookie: csrf_token=chosen; Path=/"],
        posting_page(forget, {"csrf_token": "chosen", "confirm": ada.entity_id}),
    )
    assert await visit(page, other_site.url("/chosen")) == 403
    # 2. Even with the reviewer's real token (say it leaked), a post from another origin is refused.
    other_site.pages["/leaked"] = ([], posting_page(forget, {"csrf_token": victims_token, "confirm": ada.entity_id}))
    assert await visit(page, other_site.url("/leaked")) == 403
    assert await claims(service, ada) == {"works as a nurse"}

    # 3. Plant its own session (fetched from the page outside the browser) and post that session's token.
    planted_token = await form_token(outside[0], f"{page_url}/login")
    other_site.pages["/planted"] = (
        [f"set-cookie: fm_session={await session_of(outside[0])}; Path=/"],
        posting_page(forget, {"csrf_token": planted_token, "confirm": ada.entity_id}),
    )
    assert await visit(page, other_site.url("/planted")) in (401, 403)
    assert await claims(service, ada) == {"works as a nurse"}

    # The normal flow still works: log in again (attack 3 replaced the session cookie) and forget by clicking.
    await sign_in(page, page_url)
    await page.goto(forget)
    await page.fill("#forget input[name=confirm]", ada.entity_id)
    await page.click("#forget button")
    await expect(page.locator(".notice")).to_contain_text("forgotten")
    assert await claims(service, ada) == set()


async def test_a_token_from_another_session_is_refused_even_from_the_same_origin(
    service: Service, llm: ScriptedLLM, page_url: str, outside: list[APIRequestContext]
) -> None:
    ada = Person("Ada Byrne")
    await learn(service, llm, ada, "I'm a nurse", add_durable("works as a nurse", "business_role"))
    forget = f"{page_url}/agents/{ada.agent_id}/entities/{ada.entity_id}/forget"
    same_origin = {"origin": page_url, "sec-fetch-site": "same-origin"}

    async def log_in(client: APIRequestContext) -> str:
        token = await form_token(client, f"{page_url}/login")
        done = await client.post(
            f"{page_url}/login", form={"token": TOKEN, "csrf_token": token, "next": "/"}, max_redirects=0
        )
        assert done.status == 303
        return await form_token(client, forget)

    reviewer, other = outside
    await log_in(reviewer)
    others_token = await log_in(other)
    crossed = await reviewer.post(
        forget, form={"csrf_token": others_token, "confirm": ada.entity_id}, headers=same_origin, max_redirects=0
    )
    assert crossed.status == 403
    assert await claims(service, ada) == {"works as a nurse"}
    own = await form_token(reviewer, forget)
    done = await reviewer.post(
        forget, form={"csrf_token": own, "confirm": ada.entity_id}, headers=same_origin, max_redirects=0
    )
    assert done.status == 303 and await claims(service, ada) == set()


def test_only_same_origin_posts_pass() -> None:
    host = "127.0.0.1:8080"
    assert cross_origin("GET", "cross-site", "http://evil.example", host) == ""
    assert cross_origin("POST", "same-origin", f"http://{host}", host) == ""
    assert cross_origin("POST", "", "", host) == ""  # not a browser: no reviewer's cookies ride along
    assert cross_origin("POST", "same-site", "http://127.0.0.1:9999", host)
    assert cross_origin("POST", "", "http://127.0.0.1:9999", host)
    assert cross_origin("POST", "cross-site", "", host)
    assert cross_origin("POST", "", "null", host)
