-- Ready to shard by agent_id (docs/scaling.md): the distribution column is in every primary key, unique constraint
-- and foreign key, so that on Citus each table can be distributed on agent_id, co-located with facts, and every
-- query names one shard. Keys are altered in place; no row moves and no id changes.
-- factmemory_meta and factmemory_migrations are the only tables without agent_id (reference tables on Citus).

-- Foreign keys to facts(id) go first: the key they point at is replaced below.
ALTER TABLE fact_candidates DROP CONSTRAINT fact_candidates_fact_id_fkey;
ALTER TABLE fact_candidates DROP CONSTRAINT fact_candidates_related_fact_id_fkey;
ALTER TABLE kept_pairs DROP CONSTRAINT kept_pairs_fact_a_fkey;
ALTER TABLE kept_pairs DROP CONSTRAINT kept_pairs_fact_b_fkey;
ALTER TABLE possible_duplicates DROP CONSTRAINT possible_duplicates_fact_id_fkey;
ALTER TABLE possible_duplicates DROP CONSTRAINT possible_duplicates_other_fact_id_fkey;

-- facts: (agent_id, id). A fact id is still a fresh uuid4, unique on its own in practice; the key says where it lives.
ALTER TABLE facts DROP CONSTRAINT facts_pkey;
ALTER TABLE facts ADD CONSTRAINT facts_pkey PRIMARY KEY (agent_id, id);

ALTER TABLE fact_candidates DROP CONSTRAINT fact_candidates_pkey;
ALTER TABLE fact_candidates ADD CONSTRAINT fact_candidates_pkey PRIMARY KEY (agent_id, id);

ALTER TABLE fact_history DROP CONSTRAINT fact_history_pkey;
ALTER TABLE fact_history ADD CONSTRAINT fact_history_pkey PRIMARY KEY (agent_id, id);

-- Composite foreign keys within one agent. A candidate outlives its facts (migration 0004): only the fact column is
-- cleared (PostgreSQL 15+ column list), never agent_id.
ALTER TABLE fact_candidates ADD CONSTRAINT fact_candidates_fact_id_fkey
    FOREIGN KEY (agent_id, fact_id) REFERENCES facts (agent_id, id) ON DELETE SET NULL (fact_id);
ALTER TABLE fact_candidates ADD CONSTRAINT fact_candidates_related_fact_id_fkey
    FOREIGN KEY (agent_id, related_fact_id) REFERENCES facts (agent_id, id) ON DELETE SET NULL (related_fact_id);
ALTER TABLE kept_pairs ADD CONSTRAINT kept_pairs_fact_a_fkey
    FOREIGN KEY (agent_id, fact_a) REFERENCES facts (agent_id, id) ON DELETE CASCADE;
ALTER TABLE kept_pairs ADD CONSTRAINT kept_pairs_fact_b_fkey
    FOREIGN KEY (agent_id, fact_b) REFERENCES facts (agent_id, id) ON DELETE CASCADE;
-- Possible-duplicate pairs (migration 0003): keyed by agent first, gone with either fact of the same agent.
ALTER TABLE possible_duplicates DROP CONSTRAINT possible_duplicates_pkey;
ALTER TABLE possible_duplicates ADD CONSTRAINT possible_duplicates_pkey PRIMARY KEY (agent_id, fact_id, other_fact_id);
ALTER TABLE possible_duplicates ADD CONSTRAINT possible_duplicates_fact_id_fkey
    FOREIGN KEY (agent_id, fact_id) REFERENCES facts (agent_id, id) ON DELETE CASCADE;
ALTER TABLE possible_duplicates ADD CONSTRAINT possible_duplicates_other_fact_id_fkey
    FOREIGN KEY (agent_id, other_fact_id) REFERENCES facts (agent_id, id) ON DELETE CASCADE;
DROP INDEX possible_duplicates_other_idx;
CREATE INDEX possible_duplicates_other_idx ON possible_duplicates (agent_id, other_fact_id);

-- The provider's lookup of a pending contradiction per shown fact, by agent first.
DROP INDEX fact_candidates_pending_fact_idx;
CREATE INDEX fact_candidates_pending_fact_idx ON fact_candidates (agent_id, fact_id) WHERE status = 'pending';

-- The trigger that closes a deleted fact's pending candidates stays within the fact's agent (one shard).
CREATE OR REPLACE FUNCTION factmemory_close_orphaned_candidates() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE fact_candidates SET status = 'rejected', resolved_at = clock_timestamp(),
                               resolved_by = 'system:fact deleted'
     WHERE agent_id = OLD.agent_id AND (fact_id = OLD.id OR related_fact_id = OLD.id) AND status = 'pending';
    RETURN OLD;
END
$$;
