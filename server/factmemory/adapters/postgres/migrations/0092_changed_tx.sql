-- Provide's in-process copy of a large person's search vectors (adapters/postgres/vector_cache.py) is brought up to
-- date from the rows changed since the snapshot it was read in: each row carries the transaction that last wrote
-- it, and a row whose transaction the copy's snapshot did not see (pg_visible_in_snapshot) changed since. This
-- needs no order among writers: a snapshot names exactly the transactions it sees, whichever process wrote them.
-- The transactions a snapshot did not see are those at or past its xmax and those it names in progress: ranges of
-- the index below.
-- A deleted row leaves nothing: the copy finds it gone when it proposes the row (docs/read-path.md).
ALTER TABLE facts ADD COLUMN changed_tx xid8;

CREATE FUNCTION factmemory_changed_tx() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.changed_tx := pg_current_xact_id();
    RETURN NEW;
END
$$;

-- Not on a Citus coordinator: the copy is not used on a distributed database (each worker has transaction ids of
-- its own), and the service uses the copy only where this trigger exists (vector_cache.TRIGGER_PRESENT).
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
        RETURN;
    END IF;
    CREATE TRIGGER facts_changed_tx BEFORE INSERT OR UPDATE ON facts
        FOR EACH ROW EXECUTE FUNCTION factmemory_changed_tx();
END $$;

CREATE INDEX facts_changed_tx_idx ON facts (agent_id, entity_id, changed_tx) WHERE changed_tx IS NOT NULL;
