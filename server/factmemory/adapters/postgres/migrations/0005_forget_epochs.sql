-- ForgetEntity is final: an Evaluate that started before a forget of its (agent, entity) must not commit after it.
-- Each forget bumps the entity's epoch; an Evaluate reads the epoch when it starts and checks it again inside its
-- write transaction, under the per-entity advisory lock that ForgetEntity takes too. The row keeps no personal
-- data: the two ids, how many times the entity was forgotten, and when last.
CREATE TABLE forget_epochs (
    agent_id     uuid NOT NULL,
    entity_id    uuid NOT NULL,
    epoch        bigint NOT NULL DEFAULT 1,
    forgotten_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (agent_id, entity_id)
);

-- The metrics endpoint counts pending review candidates on every scrape; this keeps that count to the pending rows.
CREATE INDEX fact_candidates_pending_idx ON fact_candidates (status) WHERE status = 'pending';
