-- Replica reads decided by position (docs/scaling.md, "Read replica"): each (agent, entity) has a version that
-- every change of its readable rows bumps IN THE SAME TRANSACTION, by the triggers below, so every writer keeps it
-- (Evaluate, edits, review, imports, ForgetEntity, retention) in every process, across restarts. A read may be
-- answered by a replica only when the replica's copy of this row, read in the same snapshot as the answer, has
-- reached the primary's: then the replica has replayed the entity's last write and its last forget. The row keeps
-- no personal data: the two ids and a counter.
CREATE TABLE read_positions (
    agent_id  uuid NOT NULL,
    entity_id uuid NOT NULL,
    version   bigint NOT NULL,
    PRIMARY KEY (agent_id, entity_id)
);

-- One bump per (agent, entity) per transaction is enough (a replica shows the whole transaction or none of it),
-- and it keeps a bulk write (one statement per row) from updating the same row thousands of times in one
-- transaction: the pairs already bumped are kept in a transaction-local setting (rolled back with the transaction
-- or savepoint that set it).
CREATE FUNCTION bump_read_positions_of(pairs text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    done text := coalesce(current_setting('factmemory.read_positions', true), '');
    added text;
BEGIN
    WITH fresh AS (
        SELECT DISTINCT pair FROM unnest(pairs) AS pair WHERE position(pair IN done) = 0
    ), bumped AS (
        INSERT INTO read_positions AS p (agent_id, entity_id, version)
        SELECT split_part(pair, '/', 1)::uuid, split_part(pair, '/', 2)::uuid, 1 FROM fresh
        ON CONFLICT (agent_id, entity_id) DO UPDATE SET version = p.version + 1
        RETURNING agent_id::text || '/' || entity_id::text AS pair
    )
    SELECT string_agg(pair, ',') INTO added FROM bumped;
    IF added IS NOT NULL THEN
        PERFORM set_config('factmemory.read_positions', done || ',' || added, true);
    END IF;
END $$;

CREATE FUNCTION bump_read_positions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM bump_read_positions_of(ARRAY(SELECT DISTINCT agent_id::text || '/' || entity_id::text FROM changed_rows));
    RETURN NULL;
END $$;

-- relationships name two entities: a change is a change of both.
CREATE FUNCTION bump_read_positions_of_relationships() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM bump_read_positions_of(ARRAY(
        SELECT agent_id::text || '/' || source_entity_id::text FROM changed_rows
        UNION SELECT agent_id::text || '/' || target_entity_id::text FROM changed_rows));
    RETURN NULL;
END $$;

DO $$
DECLARE
    t text;
    fn text;
BEGIN
    FOREACH t IN ARRAY ARRAY['facts', 'fact_candidates', 'fact_history', 'identities', 'evaluations', 'entities',
                             'possible_duplicates', 'relationships']
    LOOP
        fn := CASE WHEN t = 'relationships' THEN 'bump_read_positions_of_relationships'
                   ELSE 'bump_read_positions' END;
        EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS changed_rows '
                       'FOR EACH STATEMENT EXECUTE FUNCTION %I()', t || '_read_position_ins', t, fn);
        EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING NEW TABLE AS changed_rows '
                       'FOR EACH STATEMENT EXECUTE FUNCTION %I()', t || '_read_position_upd', t, fn);
        EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS changed_rows '
                       'FOR EACH STATEMENT EXECUTE FUNCTION %I()', t || '_read_position_del', t, fn);
    END LOOP;
END $$;
