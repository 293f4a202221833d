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
