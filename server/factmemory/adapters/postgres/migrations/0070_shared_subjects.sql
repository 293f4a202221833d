-- Shared facts (issue 39, docs/shared-facts.md): a world's shared facts are the facts of a synthetic subject
-- (entity_id) derived from (agent, world) by domain/shared.py. This table names those subjects: which scope
-- (a world's shared facts, the agent-wide ones, a world's claims held for review) and which world, so that the
-- review tools list them, a reviewer's accept moves a held claim to its world, and ForgetMessages and
-- ForgetEntity reach the evidence they hold. Keyed like every table by agent_id first (Citus: a synthetic
-- subject is its own routing key, as a person is).
CREATE TABLE shared_subjects (
    agent_id   uuid NOT NULL,
    subject_id uuid NOT NULL,
    scope      text NOT NULL CHECK (scope IN ('world', 'agent', 'held')),
    world_id   uuid,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (agent_id, subject_id),
    CHECK ((scope = 'agent') = (world_id IS NULL))
);

ALTER TABLE fact_candidates DROP CONSTRAINT fact_candidates_source_check;
ALTER TABLE fact_candidates ADD CONSTRAINT fact_candidates_source_check
    CHECK (source IN ('contradict', 'dedup_conflict', 'decay_floor', 'shared_claim'));
