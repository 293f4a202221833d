-- Agents by name (RegisterAgent / ListAgents): the display name each agent registered (its character's name).
-- Agents that never registered have no row; they are listed by id from the facts they hold.
CREATE TABLE agents (
    agent_id      uuid PRIMARY KEY,
    name          text NOT NULL CHECK (length(name) > 0),
    registered_at timestamptz NOT NULL,
    updated_at    timestamptz NOT NULL
);
CREATE INDEX agents_name_idx ON agents (lower(name));
