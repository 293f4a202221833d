-- FactMemory schema, version 1.
-- {{EMBEDDING_DIMENSIONS}} is filled in from the configured embedder when the schema is first created;
-- the value is recorded in factmemory_meta and checked on every start.

CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE factmemory_meta (
    key   text PRIMARY KEY,
    value text NOT NULL
);

CREATE TABLE facts (
    id                   uuid PRIMARY KEY,
    agent_id             uuid NOT NULL,
    entity_id            uuid NOT NULL,
    kind                 text NOT NULL CHECK (kind IN ('durable', 'current')),
    category             text NOT NULL,
    claim                text NOT NULL CHECK (length(claim) > 0),
    structured_fields    jsonb NOT NULL DEFAULT '{}'::jsonb,
    confidence           double precision NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
    evidence_message_ids text[] NOT NULL DEFAULT '{}',
    verification_status  text NOT NULL DEFAULT 'self_reported'
                         CHECK (verification_status IN ('self_reported', 'confirmed', 'contradicted')),
    created_at           timestamptz NOT NULL,
    last_confirmed_at    timestamptz NOT NULL,
    valid_at             timestamptz,
    previous_claims      text[] NOT NULL DEFAULT '{}',
    embedding            vector({{EMBEDDING_DIMENSIONS}}) NOT NULL,
    embedding_model      text NOT NULL,
    search               tsvector GENERATED ALWAYS AS (to_tsvector('simple', claim)) STORED
);

-- Exact filtering by (agent, entity, kind); small entities are ranked by an exact scan of this range.
CREATE INDEX facts_scope_idx ON facts (agent_id, entity_id, kind, category);
-- Approximate nearest neighbours over everything, for large entities (pgvector iterative scans).
CREATE INDEX facts_embedding_hnsw_idx ON facts USING hnsw (embedding vector_cosine_ops)
    WITH (m = 16, ef_construction = 64);
-- Fallback ranking when the embedder is down.
CREATE INDEX facts_search_idx ON facts USING gin (search);

CREATE TABLE fact_candidates (
    id                  uuid PRIMARY KEY,
    agent_id            uuid NOT NULL,
    entity_id           uuid NOT NULL,
    fact_id             uuid NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
    -- For dedup_conflict: the new fact that was kept beside the existing one.
    related_fact_id     uuid REFERENCES facts (id) ON DELETE SET NULL,
    proposed_claim      text NOT NULL,
    reason              text NOT NULL DEFAULT '',
    source              text NOT NULL CHECK (source IN ('contradict', 'dedup_conflict')),
    evidence_message_id text NOT NULL,
    status              text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'rejected')),
    created_at          timestamptz NOT NULL,
    resolved_at         timestamptz
);
CREATE INDEX fact_candidates_scope_idx ON fact_candidates (agent_id, entity_id, status);

CREATE TABLE relationships (
    agent_id          uuid NOT NULL,
    source_entity_id  uuid NOT NULL,
    target_entity_id  uuid NOT NULL,
    tags              text[] NOT NULL DEFAULT '{}',
    interaction_count integer NOT NULL DEFAULT 1,
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL,
    PRIMARY KEY (agent_id, source_entity_id, target_entity_id),
    CHECK (source_entity_id <> target_entity_id)
);
CREATE INDEX relationships_target_idx ON relationships (agent_id, target_entity_id);

CREATE TABLE identities (
    agent_id   uuid NOT NULL,
    entity_id  uuid NOT NULL,
    platform   text NOT NULL,
    handle     text NOT NULL,
    confidence double precision NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (agent_id, entity_id, platform, handle)
);

-- One row per processed message: makes Evaluate idempotent and records what it did.
CREATE TABLE evaluations (
    agent_id          uuid NOT NULL,
    message_id        text NOT NULL,
    entity_id         uuid NOT NULL,
    room_id           uuid,
    result            jsonb NOT NULL,
    prompt_tokens     integer NOT NULL DEFAULT 0,
    completion_tokens integer NOT NULL DEFAULT 0,
    success_completed boolean,
    success_reason    text,
    created_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (agent_id, message_id)
);
CREATE INDEX evaluations_entity_idx ON evaluations (agent_id, entity_id);
