"""The page's addresses by name: `/agents/Eliza/entities`, `/agents/Eliza/entities/Sam/...` lead (303) to the same
page by id, as the command line takes a name wherever it takes an id. A name that means no one, or several, leads
to the search that lists what it matches (the start page for an agent, the agent's people for a person)."""

from __future__ import annotations

from urllib.parse import quote, urlencode
from uuid import UUID

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from factmemory.domain.agents import the_one
from factmemory.domain.limits import MAX_SEARCH_CHARS
from factmemory.usecases import agents, browse
from factmemory.usecases.deps import Deps

# Names read to find the one meant (enough to tell an exact name from the partial matches of an ambiguous one).
NAME_MATCHES = 50


def _id(value: str) -> UUID | None:
    try:
        return UUID(value)
    except ValueError:
        return None


async def agent_named(deps: Deps, name: str) -> UUID | None:
    found, _ = await agents.list_agents(deps, name, "", NAME_MATCHES)
    return the_one(name, [(a.agent_id, a.name) for a in found])


async def person_named(deps: Deps, agent_id: UUID, name: str) -> UUID | None:
    found, _ = await browse.list_entities(deps, agent_id, name, "", NAME_MATCHES)
    return the_one(name, [(e.entity_id, e.name) for e in found])


async def by_name(deps: Deps, request: Request) -> Response:
    """GET /agents/<agent id or name>[/<rest>]: the same address with ids for names."""
    given = request.path_params["agent"][:MAX_SEARCH_CHARS]
    rest = [part for part in str(request.path_params.get("rest", "")).split("/") if part] or ["entities"]
    named = [given, *rest[1:2]] if rest[0] == "entities" else [given]
    if all(_id(part) is not None for part in named):  # ids already: no page has this address
        raise HTTPException(404, "no page at this address")
    agent_id = _id(given) or await agent_named(deps, given)
    if agent_id is None:
        return RedirectResponse("/?" + urlencode({"agent": given}), status_code=303)
    if len(rest) > 1 and rest[0] == "entities" and _id(rest[1]) is None:
        person = rest[1][:MAX_SEARCH_CHARS]
        entity_id = await person_named(deps, agent_id, person)
        if entity_id is None:
            return RedirectResponse(f"/agents/{agent_id}/entities?" + urlencode({"q": person}), status_code=303)
        rest[1] = str(entity_id)
    query = f"?{request.url.query}" if request.url.query else ""
    return RedirectResponse(f"/agents/{agent_id}/" + "/".join(quote(p) for p in rest) + query, status_code=303)
