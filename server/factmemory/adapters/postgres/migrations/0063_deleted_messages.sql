-- The agent's recently deleted message ids (ForgetMessages, issue 37). An open agent-model ticket may show a
-- room-mate's message as context; on one PostgreSQL ForgetMessages voids such tickets, but on a database
-- distributed by person (Citus) they live on the room-mates' shards, and finding them would read every shard.
-- ForgetMessages writes the ids here in its transaction instead, and CompleteEvaluation refuses a ticket whose
-- content shows one of them, in the statements that read and use the ticket. On Citus this is a reference table
-- (a copy on every node), so that join stays on the ticket's shard. A turn's first read also leaves these messages
-- out of its prompt when a client sends one back as recent context. Rows are pruned after DELETED_IDS_KEPT
-- (domain/tickets.py, 30 days).
CREATE TABLE deleted_messages (
    agent_id   uuid NOT NULL,
    message_id text NOT NULL,
    deleted_at timestamptz NOT NULL,
    PRIMARY KEY (agent_id, message_id)
);

CREATE INDEX deleted_messages_deleted_at_idx ON deleted_messages (deleted_at);
-- A ticket is compared with its agent's ids deleted since it could have been issued (tickets.shows_deleted).
CREATE INDEX deleted_messages_agent_deleted_at_idx ON deleted_messages (agent_id, deleted_at);

-- A database already distributed (`factmemory distribute` ran before this migration): the new table becomes a
-- reference table here, as `distribute` makes it on a database distributed later (adapters/postgres/citus.py).
-- (Dynamic SQL: without Citus, pg_dist_partition does not exist and a static reference could not be planned.)
DO $$
DECLARE
    distributed boolean := false;
BEGIN
    IF to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL THEN
        EXECUTE 'SELECT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = ''facts''::regclass)'
           INTO distributed;
    END IF;
    IF distributed THEN
        EXECUTE 'SELECT create_reference_table(''deleted_messages'')';
    END IF;
END $$;
