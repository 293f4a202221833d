"""From settings to the values the service is built from: limits, tuning, policies, the page's hosts, the
checks that refuse an unsafe start, and the one line that says the effective configuration."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from factmemory.adapters.embedding.embedders import LocalEmbedder
from factmemory.adapters.postgres.deployment.urls import describe_url
from factmemory.api.guessing import MIN_TOKEN_CHARS, GuessLimits
from factmemory.api.http.pages import PageConfig
from factmemory.api.http.server import split_address
from factmemory.domain.limits import Limits
from factmemory.domain.retention import RetentionPolicy
from factmemory.domain.shared import DEFAULT_SHARED_MIN_SIMILARITY, SharedPolicy, parse_roles, parse_worlds
from factmemory.domain.tickets import TicketPolicy
from factmemory.settings import Settings
from factmemory.usecases.deps import Tuning

OPENAI_DEFAULT_URL = "https://api.openai.com/v1"


class InsecureBind(ValueError):
    """Refusing to listen beyond loopback without a token."""


class WeakToken(InsecureBind):
    """The access token is too short to stand guessing."""


def _host_of(url: str) -> str:
    """host[:port] of an http(s) URL, never its user, password, path or query."""
    parts = urlsplit(url)
    host = parts.hostname or "(no host)"
    return f"{host}:{parts.port}" if parts.port else host


def startup_line(
    settings: Settings, address: str, metrics_address: str | None = None, page_address: str | None = None
) -> str:
    """The effective configuration in one line, every secret left out (the database URL's user and password,
    the API key, the auth token)."""
    if settings.database_url:
        database = describe_url(settings.database_url)
    else:
        database = f"embedded {(settings.data_dir / 'pgdata').absolute()}"
    if settings.database_read_url:
        database += f" reads={describe_url(settings.database_read_url)}"
    embedder = f"{settings.embedder} {settings.effective_embedding_model}"
    if settings.embedder == "openai":
        embedder += f" at {_host_of(settings.openai_base_url or OPENAI_DEFAULT_URL)}"
    llm = "none"
    if settings.demo_model:
        llm = "demo (built-in sentence patterns, not a language model)"
    elif settings.llm_configured:
        llm = f"{settings.llm_model} at {_host_of(settings.openai_base_url or OPENAI_DEFAULT_URL)}"
    tls = "on" if settings.tls_cert_file and settings.tls_key_file else "off"
    auth = "on" if settings.auth_token else "off"
    metrics = metrics_address or settings.metrics_address or "off"
    page = page_address or settings.http_listen or "off"
    return (
        f"factmemory config: listen={address} database={database} embedder={embedder} llm={llm} tls={tls} "
        f"auth={auth} metrics={metrics} review_page={page} log_format={settings.log_format}"
    )


def next_steps(settings: Settings, address: str, page_address: str | None) -> list[str]:
    """What a person who just started the service does next, printed after `listening`: the review page (or how
    to turn it on), where the token comes from, and how agents, scripts and the command line reach the service.
    Secrets are never printed: the token is named by its variable."""
    token = "the token in FACTMEMORY_AUTH_TOKEN" if settings.auth_token else "no token (set FACTMEMORY_AUTH_TOKEN)"
    if page_address:
        page = f"review page: http://{page_address}/ (log in with {token})"
    else:
        page = "review page: off; to turn it on, start with FACTMEMORY_HTTP_LISTEN=127.0.0.1:8080"
    clients = (
        f'clients: the elizaOS plugin\'s FACT_MEMORY_URL=http://{address}, Python connect("{address}"), '
        f"the command line .venv/bin/factmemory agents --address {address}"
    )
    if not settings.auth_token:  # the line before `listening` already says there is none
        return [page, clients]
    return [page, clients, "callers send the token in FACTMEMORY_AUTH_TOKEN (the plugin's FACT_MEMORY_TOKEN)"]


def embedding_dimensions(settings: Settings) -> int:
    return LocalEmbedder.dimensions if settings.embedder == "local" else settings.embedding_dimensions


def limits(settings: Settings) -> Limits:
    """The bounds of requests, model replies, responses and the prompt, from their one home: settings."""
    return Limits(
        max_id_chars=settings.max_id_chars,
        max_name_chars=settings.max_name_chars,
        max_text_chars=settings.max_text_chars,
        max_recent_messages=settings.max_recent_messages,
        max_batch_messages=settings.max_batch_messages,
        max_room_entities=settings.max_room_entities,
        max_names_per_entity=settings.max_names_per_entity,
        max_provide_limit=settings.max_provide_limit,
        default_provide_limit=settings.default_provide_limit,
        max_page_size=settings.max_page_size,
        default_page_size=settings.default_page_size,
        max_claim_chars=settings.max_claim_chars,
        max_ops=settings.max_ops_per_message,
        max_relationships=settings.max_relationships_per_message,
        max_identities=settings.max_identities_per_message,
        max_tags=settings.max_tags,
        max_tag_chars=settings.max_tag_chars,
        max_fields=settings.max_fields,
        max_field_chars=settings.max_field_chars,
        max_evidence_ids=settings.max_evidence_ids,
        max_response_bytes=settings.max_response_bytes,
        prompt_max_tokens=settings.prompt_max_tokens,
        prompt_message_max_tokens=settings.prompt_message_max_tokens,
        prompt_current_message_max_tokens=settings.prompt_current_message_max_tokens,
        clock_skew_s=settings.clock_skew_s,
    )


def tuning(settings: Settings) -> Tuning:
    return Tuning(
        limits=limits(settings),
        dedup_threshold=settings.effective_dedup_threshold,
        current_decay_days=settings.current_decay_days,
        shared=SharedPolicy(
            parse_roles(settings.shared_teacher_roles),
            settings.shared_agent_wide,
            _or_default(settings.shared_min_similarity, DEFAULT_SHARED_MIN_SIMILARITY[settings.embedder]),
            parse_worlds(settings.shared_agent_wide_worlds),
        ),
    )


def _or_default(value: float | None, default: float) -> float:
    return default if value is None else value


def _period(days: float) -> float | None:
    return days or None


def ticket_policy(settings: Settings) -> TicketPolicy:
    return TicketPolicy(
        ttl_s=settings.ticket_ttl_s,
        max_per_entity=settings.max_tickets_per_entity,
        max_total=settings.max_tickets,
        max_per_agent=settings.max_tickets_per_agent,
        max_reply_chars=settings.max_reply_chars,
    )


def retention_policy(settings: Settings) -> RetentionPolicy:
    return RetentionPolicy(
        decay_days=settings.current_decay_days,
        floor=settings.retention_floor,
        stale_days=settings.retention_stale_days,
        delete_after_days=_period(settings.retention_delete_after_days),
        evaluation_window_days=_period(settings.evaluation_window_days),
        candidate_archive_days=_period(settings.candidate_archive_days),
        batch=settings.retention_batch,
    )


def _is_loopback(address: str) -> bool:
    host = address.rsplit(":", 1)[0].strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_bind(settings: Settings) -> None:
    for address in (settings.listen, settings.http_listen):
        if address is None or settings.auth_token or _is_loopback(address) or settings.allow_remote_unauthenticated:
            continue
        raise InsecureBind(
            f"refusing to listen on {address} without FACTMEMORY_AUTH_TOKEN; set a token, listen on "
            "127.0.0.1, or set FACTMEMORY_ALLOW_REMOTE_UNAUTHENTICATED=1"
        )


def check_token(settings: Settings) -> None:
    """A token shorter than MIN_TOKEN_CHARS is refused at start-up, in one line that does not show it."""
    if settings.auth_token and len(settings.auth_token) < MIN_TOKEN_CHARS:  # "" means no token, as elsewhere
        raise WeakToken(
            f"FACTMEMORY_AUTH_TOKEN is {len(settings.auth_token)} characters; at least {MIN_TOKEN_CHARS} are needed "
            "(make one with: openssl rand -hex 32)"
        )


def guess_limits(settings: Settings) -> GuessLimits:
    return GuessLimits(
        settings.auth_failures_per_client, settings.auth_failures_overall, settings.auth_failure_window_s
    )


def page_config(settings: Settings) -> PageConfig:
    """The review page answers to loopback names and the host it was told to listen on."""
    host = split_address(settings.http_listen or "127.0.0.1:0")[0]
    named = f"[{host}]" if ":" in host else host  # a Host header writes an IPv6 address in brackets
    hosts = ("*",) if host in ("0.0.0.0", "::", "") else ("127.0.0.1", "localhost", "[::1]", named)
    return PageConfig(token=settings.auth_token, allowed_hosts=hosts, guess_limits=guess_limits(settings))


def deprecations(settings: Settings) -> list[str]:
    """One warning line per setting that is still accepted but does nothing, naming what replaced it."""
    out = []
    if settings.read_your_writes_s is not None:
        out.append(
            "FACTMEMORY_READ_YOUR_WRITES_S is deprecated and does nothing: reads go to the replica once it has "
            "replayed the caller's writes (by position); FACTMEMORY_READ_RETRY_S and FACTMEMORY_READ_REPLAY_STALL_S "
            "tune the replica. Remove it from the configuration (docs/configuration.md)"
        )
    return out
