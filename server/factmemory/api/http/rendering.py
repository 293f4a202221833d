"""What every review page shares: its settings, the templates, rendering with the navigation, the entity's
summary and facts, redirects with a notice, and the error pages."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlencode
from uuid import UUID

import jinja2
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.templating import Jinja2Templates

from factmemory.api.guessing import GuessLimiter, GuessLimits
from factmemory.api.http import labels, views
from factmemory.api.http.security import SESSION_COOKIE, Sessions
from factmemory.domain.errors import Conflict, FactMemoryError, InvalidInput, NotConfigured, NotFound, Unavailable
from factmemory.domain.limits import MAX_REASON_CHARS
from factmemory.domain.models import (
    CandidateStatus,
    EntitySummary,
    Fact,
)
from factmemory.domain.resolutions import reviewer_actor
from factmemory.usecases import agents, browse
from factmemory.usecases.deps import Deps

HERE = Path(__file__).parent
QUEUE_COUNT_LIMIT = 100
MAX_FACTS_SHOWN = 1000
STATUS = {NotFound: 404, InvalidInput: 400, Conflict: 409, NotConfigured: 503, Unavailable: 503}


@dataclass(frozen=True)
class PageConfig:
    """What the page needs beyond the use-cases: the token (None = open) and the host names it answers to."""

    token: str | None = None
    allowed_hosts: tuple[str, ...] = ("127.0.0.1", "localhost", "[::1]")
    clock: Callable[[], datetime] = lambda: datetime.now(UTC)
    guess_limits: GuessLimits = field(default_factory=GuessLimits)
    # The clock of the guessing limits (monotonic seconds).
    monotonic: Callable[[], float] = time.monotonic


def templates() -> Jinja2Templates:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"), autoescape=True, undefined=jinja2.StrictUndefined
    )
    env.filters["short"] = lambda value: str(value)[:8]
    env.globals["person"] = labels.person_label
    env.filters["when"] = lambda at: at.strftime("%Y-%m-%d %H:%M") if at else "—"
    env.filters["pct"] = lambda x: f"{x:.2f}"
    env.filters["actor"] = labels.short_actor
    env.filters["category"] = labels.category_label
    return Jinja2Templates(env=env)


class PageBase:
    """The use-case collaborators and page settings, and what every handler uses to answer."""

    def __init__(self, deps: Deps, config: PageConfig, sessions: Sessions) -> None:
        self.deps, self.config, self.sessions = deps, config, sessions
        self.guesses = GuessLimiter("page", deps.telemetry, config.guess_limits, config.monotonic)
        self.templates = templates()

    # --- rendering helpers --------------------------------------------------------------------------------------

    async def render(self, request: Request, name: str, status_code: int = 200, **context: object) -> Response:
        agent_id = context.get("agent_id")
        queue = await self.queue_label(agent_id) if isinstance(agent_id, UUID) else ""
        agent_name = await agents.name_of(self.deps, agent_id) if isinstance(agent_id, UUID) else ""
        notice = views.NOTICES.get(request.query_params.get("done", ""), "")
        base = {
            "csrf": request.state.csrf,
            "auth": bool(self.config.token),
            "signed_in": self.sessions.valid(request.cookies.get(SESSION_COOKIE, "")),
            "back": "",
            "back_label": "",
            "queue_count": queue,
            "agent_id": agent_id,
            "agent_name": agent_name,
            "active": "",
            "notice": notice,
        }
        return self.templates.TemplateResponse(request, name, {**base, **context}, status_code=status_code)

    async def queue_label(self, agent_id: UUID) -> str:
        pending, more = await browse.list_candidates(
            self.deps, agent_id, None, CandidateStatus.PENDING, None, "", QUEUE_COUNT_LIMIT
        )
        return labels.queue_label(len(pending), bool(more))

    async def summary(self, agent_id: UUID, entity_id: UUID) -> EntitySummary:
        found, _ = await browse.list_entities(self.deps, agent_id, str(entity_id), "", 1)
        if not found or found[0].entity_id != entity_id:
            raise NotFound(f"entity {entity_id} not found for this agent")
        return found[0]

    async def name(self, agent_id: UUID, entity_id: UUID) -> str:
        try:
            return (await self.summary(agent_id, entity_id)).name
        except NotFound:
            return ""

    async def all_facts(self, agent_id: UUID, entity_id: UUID) -> list[Fact]:
        facts: list[Fact] = []
        after: UUID | None = None
        while len(facts) < MAX_FACTS_SHOWN:
            page, after = await browse.list_facts(self.deps, agent_id, entity_id, None, after, 200)
            facts.extend(page)
            if after is None:
                break
        return facts

    # --- small helpers ------------------------------------------------------------------------------------------

    def actor(self, request: Request) -> str:
        """Who the history names: the reviewer's name from the login form, else 'page'."""
        return reviewer_actor(self.sessions.reviewer(request.cookies.get(SESSION_COOKIE, "")) or "page")

    @staticmethod
    def scope(request: Request) -> tuple[UUID, UUID]:
        return request.path_params["agent_id"], request.path_params["entity_id"]

    @staticmethod
    def back(path: str, notice: str) -> Response:
        """Redirect after a post; the notice is a key of views.NOTICES, so a link cannot put its own text here."""
        sep = "&" if "?" in path else "?"
        return RedirectResponse(f"{path}{sep}{urlencode({'done': notice})}", status_code=303)

    # --- errors -------------------------------------------------------------------------------------------------

    async def domain_error(self, request: Request, exc: Exception) -> Response:
        status = next((code for cls, code in STATUS.items() if isinstance(exc, cls)), 500)
        message = str(exc) if isinstance(exc, FactMemoryError) and status != 500 else "internal error"
        return await self.error_page(request, status, message)

    async def http_error(self, request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return await self.error_page(request, exc.status_code, exc.detail)

    async def error_page(self, request: Request, status: int, message: str) -> Response:
        agent_id = request.path_params.get("agent_id")
        back, back_label = views.back_link(request.url.path, request.method, status)
        try:
            return await self.render(
                request,
                "error.html",
                status,
                status=status,
                message=message[:MAX_REASON_CHARS],
                agent_id=agent_id if isinstance(agent_id, UUID) else None,
                back=back,
                back_label=back_label,
            )
        except FactMemoryError:  # the navigation's queue count failed too: a page without it
            return await self.render(request, "error.html", status, status=status, message=message[:MAX_REASON_CHARS])
