-- Agent-model mode (PrepareEvaluation / CompleteEvaluation, docs/agent-model.md): what the caller's model was shown,
-- kept under a short-lived, single-use ticket. Tickets live here, not in a process, so that any service process on
-- this database can complete a ticket another one issued. Only the ticket's SHA-256 is stored. `body` (the messages,
-- the facts shown and their handles) is dropped when the ticket is used or its entity forgotten; the row stays a
-- little past its expiry so that presenting the ticket again is refused by name.
CREATE TABLE evaluation_tickets (
    agent_id     uuid NOT NULL,
    token_hash   bytea NOT NULL,
    entity_id    uuid NOT NULL,
    forget_epoch bigint NOT NULL,
    created_at   timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    used_at      timestamptz,
    body         text,
    PRIMARY KEY (agent_id, token_hash)
);

CREATE INDEX evaluation_tickets_entity_idx ON evaluation_tickets (agent_id, entity_id, created_at);
CREATE INDEX evaluation_tickets_expiry_idx ON evaluation_tickets (expires_at);

-- ForgetEntity is final for tickets too: every forget bumps the entity's epoch (migration 0005), and in the same
-- transaction the open tickets of that entity lose what they held.
CREATE FUNCTION forget_evaluation_tickets() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE evaluation_tickets SET body = NULL
     WHERE agent_id = NEW.agent_id AND entity_id = NEW.entity_id AND body IS NOT NULL;
    RETURN NEW;
END
$$;

CREATE TRIGGER forget_epochs_drop_tickets AFTER INSERT OR UPDATE ON forget_epochs
    FOR EACH ROW EXECUTE FUNCTION forget_evaluation_tickets();
