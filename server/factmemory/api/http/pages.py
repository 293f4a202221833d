"""The review page's routes: each handler parses the request, calls one or two use-cases and renders a template
(rendering, errors and the shared look-ups: api/http/rendering.py)."""

from __future__ import annotations

import asyncio
import json
from uuid import UUID

from starlette.applications import Starlette
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ExceptionHandler

from factmemory.api.audit import audited
from factmemory.api.guessing import throttled
from factmemory.api.http import names, security, views
from factmemory.api.http.rendering import HERE, MAX_FACTS_SHOWN, PageBase, PageConfig
from factmemory.api.http.security import SESSION_COOKIE, RequireToken, Sessions, checked_form
from factmemory.domain.errors import FactMemoryError, InvalidInput
from factmemory.domain.limits import MAX_PAGE_TOKEN_CHARS, MAX_SEARCH_CHARS
from factmemory.domain.models import (
    CandidateSource,
    CandidateStatus,
    Kind,
    Verification,
)
from factmemory.domain.resolutions import reviewer_actor
from factmemory.usecases import agents, browse, edits, review
from factmemory.usecases.deps import Deps

__all__ = ["PageConfig", "Pages", "create_app"]

PAGE_SIZE = 50
REVIEWER_NAME_CHARS = 60
FAILED_LOGIN_DELAY_S = 0.5


class Pages(PageBase):
    """The handlers, bound to the use-case collaborators and the page settings."""

    # --- start, login -------------------------------------------------------------------------------------------

    async def start(self, request: Request) -> Response:
        """The agents by name with their people and pending counts; an agent id given opens that agent, anything
        else searches the names."""
        agent = request.query_params.get("agent", "").strip()[:MAX_SEARCH_CHARS]
        try:
            return RedirectResponse(f"/agents/{UUID(agent)}/entities", status_code=303)
        except ValueError:
            pass
        token = request.query_params.get("page", "")[:MAX_PAGE_TOKEN_CHARS]
        found, next_token = await agents.list_agents(self.deps, agent, token, PAGE_SIZE)
        return await self.render(request, "start.html", agents=found, q=agent, next_token=next_token)

    async def by_name(self, request: Request) -> Response:
        return await names.by_name(self.deps, request)

    async def login_form(self, request: Request) -> Response:
        if not self.config.token:
            return RedirectResponse("/", status_code=303)
        return await self.render(
            request, "login.html", error="", next=security.local_path(request.query_params.get("next", ""))
        )

    async def login(self, request: Request) -> Response:
        form = await checked_form(request)
        token = form.get("token")
        reviewer = str(form.get("name", ""))[:REVIEWER_NAME_CHARS]
        client = security.client_of(request.scope)
        # Refused untried: no await between this check and the record below.
        if self.guesses.refused(client, security.connection_of(request.scope)):
            return await self.render(
                request,
                "login.html",
                429,
                error=throttled(self.guesses.wait_s(client)).capitalize(),
                next=security.local_path(str(form.get("next", ""))),
            )
        if not self.config.token or not isinstance(token, str) or not security.same(token, self.config.token):
            self.guesses.failed(client)
            # The audit line names who tried and from where, never what was typed as the token.
            with audited("login", "page", reviewer_actor(reviewer), client=client) as entry:
                entry.result = "refused"
            await asyncio.sleep(FAILED_LOGIN_DELAY_S)  # slows each guess; the limiter bounds how many
            return await self.render(
                request,
                "login.html",
                401,
                error="That token is not right.",
                next=security.local_path(str(form.get("next", ""))),
            )
        self.guesses.proved(security.connection_of(request.scope))
        with audited("login", "page", reviewer_actor(reviewer), client=client):
            self.sessions.close(request.state.session)  # the pre-login id is never promoted (session fixation)
            session = self.sessions.open(reviewer)
        response = RedirectResponse(security.local_path(str(form.get("next", ""))), status_code=303)
        response.headers.append(
            "set-cookie",
            security.cookie(
                SESSION_COOKIE,
                session,
                request.url.scheme == "https",
                security.SESSION_TTL_S,
            ),
        )
        return response

    async def logout(self, request: Request) -> Response:
        await checked_form(request)
        with audited("logout", "page", self.actor(request)):
            self.sessions.close(request.cookies.get(SESSION_COOKIE, ""))
        response = RedirectResponse("/login" if self.config.token else "/", status_code=303)
        response.headers.append("set-cookie", security.cookie(SESSION_COOKIE, "", False, 0))
        return response

    # --- entities -----------------------------------------------------------------------------------------------

    async def entities(self, request: Request) -> Response:
        agent_id: UUID = request.path_params["agent_id"]
        query = request.query_params.get("q", "").strip()[:MAX_SEARCH_CHARS]
        token = request.query_params.get("page", "")[:MAX_PAGE_TOKEN_CHARS]
        found, next_token = await browse.list_entities(self.deps, agent_id, query, token, PAGE_SIZE)
        return await self.render(
            request, "entities.html", agent_id=agent_id, entities=found, q=query, next_token=next_token
        )

    async def entity(self, request: Request) -> Response:
        return await self.entity_page(request)

    async def entity_page(
        self, request: Request, status_code: int = 200, typed: dict[str, str] | None = None, error: str = ""
    ) -> Response:
        """The entity's facts and the Add form (holding what was typed, with the error, when adding failed)."""
        agent_id, entity_id = self.scope(request)
        summary = await self.summary(agent_id, entity_id)
        facts = await self.all_facts(agent_id, entity_id)
        pending, _ = await browse.list_candidates(
            self.deps, agent_id, entity_id, CandidateStatus.PENDING, None, "", MAX_FACTS_SHOWN
        )
        now, decay = self.config.clock(), self.deps.tuning.current_decay_days
        durable = views.fact_rows(facts, Kind.DURABLE, now, decay, pending)
        current = views.fact_rows(facts, Kind.CURRENT, now, decay, pending)
        return await self.render(
            request,
            "entity.html",
            agent_id=agent_id,
            entity=summary,
            durable=durable,
            current=current,
            weight_chart=views.weight_chart(current, now, decay),
            category_chart=views.category_chart(facts),
            decay_days=decay,
            truncated=len(facts) >= MAX_FACTS_SHOWN,
            choices=views.kind_category_choices(),
            typed=views.AddForm.of(typed or {}),
            error=error,
            status_code=status_code,
        )

    async def add_fact(self, request: Request) -> Response:
        agent_id, entity_id = self.scope(request)
        form = text_fields(await checked_form(request))
        with audited("add_fact", "page", self.actor(request), agent_id=agent_id, entity_id=entity_id) as entry:
            try:
                kind, category = views.parse_kind_category(form)
                fact = await edits.add_fact(
                    self.deps,
                    agent_id,
                    entity_id,
                    kind,
                    category,
                    form.get("claim", ""),
                    self.actor(request),
                    confidence=views.optional_confidence(form.get("confidence", "")),
                )
            except InvalidInput as exc:  # the form comes back as typed, with the reason, on the entity's page
                entry.failed(exc)
                return await self.entity_page(request, 400, form, str(exc))
            entry.note(fact_id=fact.id)
        return self.back(f"/agents/{agent_id}/entities/{entity_id}", "added")

    # --- one fact: history, edit, delete ------------------------------------------------------------------------

    async def fact(self, request: Request) -> Response:
        return await self.fact_page(request)

    async def fact_page(
        self, request: Request, status_code: int = 200, typed: dict[str, str] | None = None, error: str = ""
    ) -> Response:
        """One fact: its sources, its history and the Edit form (holding what was typed when saving failed)."""
        agent_id, entity_id = self.scope(request)
        fact, history = await browse.get_fact(self.deps, agent_id, entity_id, request.path_params["fact_id"])
        rows = views.source_rows(fact, await browse.evidence_sources(self.deps, agent_id, fact, history), history)
        return await self.render(
            request,
            "fact.html",
            status_code,
            agent_id=agent_id,
            entity_id=entity_id,
            fact=fact,
            history=history,
            sources=rows,
            quotes={row.message_id: row for row in rows},
            choices=views.kind_category_choices(),
            typed=views.EditForm.of(fact, typed or {}),
            verifications=list(Verification),
            error=error,
        )

    async def edit_fact(self, request: Request) -> Response:
        agent_id, entity_id = self.scope(request)
        fact_id: UUID = request.path_params["fact_id"]
        form = text_fields(await checked_form(request))
        target = {"agent_id": agent_id, "entity_id": entity_id, "fact_id": fact_id}
        with audited("update_fact", "page", self.actor(request), **target) as entry:
            fact, _ = await browse.get_fact(self.deps, agent_id, entity_id, fact_id)
            try:
                edit = views.edit_from_form(fact, form)
                if edit != views.NO_EDIT:
                    await edits.update_fact(self.deps, agent_id, entity_id, fact_id, edit, self.actor(request))
            except InvalidInput as exc:  # the form comes back as typed, with the reason
                entry.failed(exc)
                return await self.fact_page(request, 400, form, str(exc))
            if edit == views.NO_EDIT:
                entry.result = "unchanged"
            else:
                entry.note(fields=",".join(views.edited_fields(edit)))
        return self.back(
            f"/agents/{agent_id}/entities/{entity_id}/facts/{fact_id}",
            "saved" if edit != views.NO_EDIT else "unchanged",
        )

    async def confirm_delete(self, request: Request) -> Response:
        """Delete asks first: this page names the fact and holds the one form that deletes it (no script needed)."""
        agent_id, entity_id = self.scope(request)
        fact, _ = await browse.get_fact(self.deps, agent_id, entity_id, request.path_params["fact_id"])
        summary = await self.summary(agent_id, entity_id)
        return await self.render(request, "confirm.html", agent_id=agent_id, entity=summary, action="delete", fact=fact)

    async def delete_fact(self, request: Request) -> Response:
        agent_id, entity_id = self.scope(request)
        await checked_form(request)
        fact_id: UUID = request.path_params["fact_id"]
        target = {"agent_id": agent_id, "entity_id": entity_id, "fact_id": fact_id}
        with audited("delete_fact", "page", self.actor(request), **target):
            await edits.delete_fact(self.deps, agent_id, entity_id, fact_id, self.actor(request))
        return self.back(f"/agents/{agent_id}/entities/{entity_id}", "deleted")

    # --- review queue -------------------------------------------------------------------------------------------

    async def queue(self, request: Request) -> Response:
        agent_id: UUID = request.path_params["agent_id"]
        source = views.parse_source(request.query_params.get("source", ""))
        token = request.query_params.get("page", "")[:MAX_PAGE_TOKEN_CHARS]
        pending, next_token = await browse.list_candidates(
            self.deps, agent_id, None, CandidateStatus.PENDING, source, token, PAGE_SIZE
        )
        names = {e: await self.name(agent_id, e) for e in {c.entity_id for c in pending}}
        said = views.candidate_quotes(pending, await browse.candidate_sources(self.deps, agent_id, pending))
        held = await browse.held_claims(self.deps, agent_id, pending)
        worlds = self.deps.tuning.shared.agent_wide_worlds  # whose held claims a reviewer may share everywhere
        everywhere = {c for c, h in held.items() if h.world_id is not None and h.world_id in worlds}
        return await self.render(
            request,
            "queue.html",
            agent_id=agent_id,
            candidates=pending,
            names=names,
            said=said,
            held=held,
            source=source.value if source else "",
            sources=list(CandidateSource),
            next_token=next_token,
            choices={c.id: views.resolution_choices(c, c.id in everywhere) for c in pending},
        )

    async def resolve(self, request: Request) -> Response:
        agent_id, entity_id = self.scope(request)
        form = text_fields(await checked_form(request))
        candidate_id: UUID = request.path_params["candidate_id"]
        target = {"agent_id": agent_id, "entity_id": entity_id, "candidate_id": candidate_id}
        with audited("resolve_candidate", "page", self.actor(request), **target) as entry:
            resolution = views.parse_resolution(form.get("resolution", ""))
            agent_wide = request.query_params.get("share") == "agent"  # the "with every world" button's target
            entry.note(resolution=resolution.value, agent_wide=agent_wide)
            candidate, fact = await review.resolve_candidate(
                self.deps,
                agent_id,
                entity_id,
                candidate_id,
                resolution,
                self.actor(request),
                self.config.clock(),
                agent_wide=agent_wide,
            )
            entry.note(fact_id=fact.id if fact is not None else None)
        back = f"/agents/{agent_id}/queue"
        if views.parse_source(form.get("source", "")):
            back += f"?source={form['source']}"
        return self.back(back, views.notice_key(candidate, resolution, agent_wide))

    # --- forget and export --------------------------------------------------------------------------------------

    async def confirm(self, request: Request) -> Response:
        agent_id, entity_id = self.scope(request)
        action = request.url.path.rsplit("/", 1)[1]
        summary = await self.summary(agent_id, entity_id)
        return await self.render(request, "confirm.html", agent_id=agent_id, entity=summary, action=action)

    async def forget(self, request: Request) -> Response:
        agent_id, entity_id = self.scope(request)
        form = text_fields(await checked_form(request))
        with audited("forget_entity", "page", self.actor(request), agent_id=agent_id, entity_id=entity_id) as entry:
            if form.get("confirm") != str(entity_id):
                raise InvalidInput("type the entity id to confirm forgetting it")
            counts = await browse.forget_entity(self.deps, agent_id, entity_id)
            entry.note(facts_deleted=counts.facts, evaluations_deleted=counts.evaluations)
        return self.back(f"/agents/{agent_id}/entities", "forgotten")

    async def export(self, request: Request) -> Response:
        agent_id, entity_id = self.scope(request)
        await checked_form(request)
        await self.summary(agent_id, entity_id)
        data = await browse.export_entity(self.deps, agent_id, entity_id)
        return Response(
            json.dumps(data, indent=2, default=str, ensure_ascii=False),
            media_type="application/json",
            headers={"content-disposition": f'attachment; filename="entity-{entity_id}.json"'},
        )


def client_of(request: Request) -> str:
    return request.client.host if request.client else ""


def text_fields(form: FormData) -> dict[str, str]:
    return {k: v for k, v in form.items() if isinstance(v, str)}


def create_app(deps: Deps, config: PageConfig) -> Starlette:
    """The review page as an ASGI app: routes, static files, login, CSRF cookie and host check."""
    pages = Pages(deps, config, Sessions())
    agent = "/agents/{agent_id:uuid}"
    entity = agent + "/entities/{entity_id:uuid}"
    routes = [
        Route("/", pages.start),
        Route("/login", pages.login_form, methods=["GET"]),
        Route("/login", pages.login, methods=["POST"]),
        Route("/logout", pages.logout, methods=["POST"]),
        Route(agent + "/entities", pages.entities),
        Route(agent + "/queue", pages.queue),
        Route(entity, pages.entity),
        Route(entity + "/facts", pages.add_fact, methods=["POST"]),
        Route(entity + "/facts/{fact_id:uuid}", pages.fact),
        Route(entity + "/facts/{fact_id:uuid}/edit", pages.edit_fact, methods=["POST"]),
        Route(entity + "/facts/{fact_id:uuid}/delete", pages.confirm_delete, methods=["GET"]),
        Route(entity + "/facts/{fact_id:uuid}/delete", pages.delete_fact, methods=["POST"]),
        Route(entity + "/candidates/{candidate_id:uuid}", pages.resolve, methods=["POST"]),
        Route(entity + "/forget", pages.confirm, methods=["GET"]),
        Route(entity + "/forget", pages.forget, methods=["POST"]),
        Route(entity + "/export", pages.confirm, methods=["GET"]),
        Route(entity + "/export", pages.export, methods=["POST"]),
        # Names where the routes above take ids: the same page by id (names.py).
        Route("/agents/{agent}", pages.by_name, methods=["GET"]),
        Route("/agents/{agent}/{rest:path}", pages.by_name, methods=["GET"]),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    middleware = [
        Middleware(TrustedHostMiddleware, allowed_hosts=list(config.allowed_hosts)),
        Middleware(security.SessionCsrf, sessions=pages.sessions),
        Middleware(RequireToken, token=config.token, sessions=pages.sessions, guesses=pages.guesses),
    ]
    handlers: dict[type[Exception], ExceptionHandler] = {
        FactMemoryError: pages.domain_error,
        HTTPException: pages.http_error,
    }
    return Starlette(routes=routes, middleware=middleware, exception_handlers=handlers)
